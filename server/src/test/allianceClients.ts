import { Client, type Room } from "@colyseus/sdk";
import { ALLIANCE_MESSAGES, ALLIANCE_ROOM } from "@game/schema/messages";
import { AllianceState } from "@game/schema/state";
import { eventually } from "./worldClients.js";

/** An alliance room as a test client sees it, with every message it received and how it left. */
export interface AllianceTestClient {
  room: Room<any, AllianceState>;
  received: Map<string, any[]>;
  /** messages whose payload did not match ALLIANCE_MESSAGES.server ("type: problem"); tests expect none */
  schemaErrors: string[];
  /** the decoded state as plain JSON */
  json(): any;
  /** the close code once the server closed the connection (undefined while connected) */
  leftWith(): number | undefined;
  leave(): Promise<void>;
}

const SERVER_ENTRIES = new Map(Object.values(ALLIANCE_MESSAGES.server).map((entry) => [entry.type as string, entry]));

/**
 * Joins the alliance's room on `baseUrl` as the token's user (joinOrCreate, or the room
 * `roomId`: clients cannot `create` alliance rooms) and waits for the first state.
 */
export async function joinAlliance(baseUrl: string, token: string, allianceId: unknown, roomId?: string): Promise<AllianceTestClient> {
  const sdk = new Client(baseUrl);
  sdk.auth.token = token;
  const room = roomId === undefined ? await sdk.joinOrCreate(ALLIANCE_ROOM, { allianceId }, AllianceState) : await sdk.joinById(roomId, { allianceId }, AllianceState);
  const received = new Map<string, any[]>();
  const schemaErrors: string[] = [];
  room.onMessage("*", (type: string | number, payload: unknown) => {
    const key = String(type);
    if (!received.has(key)) received.set(key, []);
    received.get(key)!.push(payload);
    const checked = SERVER_ENTRIES.get(key)?.payload.safeParse(payload);
    if (!checked) schemaErrors.push(`${key}: not in ALLIANCE_MESSAGES.server`);
    else if (!checked.success) schemaErrors.push(`${key}: ${checked.error.message}`);
  });
  let code: number | undefined;
  room.onLeave((c: number) => (code = c));
  let left: Promise<void> | undefined;
  const client: AllianceTestClient = {
    room,
    received,
    schemaErrors,
    json: () => (room.state as any).toJSON(),
    leftWith: () => code,
    leave: () =>
      (left ??= Promise.race([
        room.leave(true).then(
          () => undefined,
          () => undefined,
        ),
        new Promise<void>((r) => setTimeout(r, 2_000)),
      ])),
  };
  await eventually(() => (room.state as any)?.header?.id > 0, "the alliance state");
  return client;
}
