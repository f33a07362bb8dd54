import { Client, type Room } from "@colyseus/sdk";
import { WORLD_ROOM } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";

/** A world room as a test client sees it, with every message it received. */
export interface WorldTestClient {
  room: Room<any, WorldState>;
  /** messages by type, in arrival order */
  received: Map<string, any[]>;
  /** the decoded state as plain JSON */
  json(): any;
  /** this client's own country summary (the only entry it can see) */
  own(): any;
  leave(): Promise<void>;
}

type Falsy = undefined | null | false;

/** Polls `probe` (sync or async) until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function eventually<T>(probe: () => T | Falsy | Promise<T | Falsy>, what: string, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Wraps a joined SDK room: records messages, waits for the first full state. */
export async function trackRoom(room: Room<any, WorldState>): Promise<WorldTestClient> {
  const received = new Map<string, any[]>();
  room.onMessage("*", (type: string | number, payload: unknown) => {
    const key = String(type);
    if (!received.has(key)) received.set(key, []);
    received.get(key)!.push(payload);
  });
  let left: Promise<void> | undefined;
  const client: WorldTestClient = {
    room,
    received,
    json: () => (room.state as any).toJSON(),
    own: () => client.json().countries?.[room.sessionId],
    // Idempotent, and bounded: leaving a room that already closed must not hang a test.
    leave: () =>
      (left ??= Promise.race([room.leave(true).then(() => undefined, () => undefined), new Promise<void>((r) => setTimeout(r, 2_000))])),
  };
  await eventually(() => room.state?.channels?.size > 0, "the initial state");
  return client;
}

/** Joins (or creates) a world room shard on `baseUrl` as the token's user. */
export async function joinWorld(baseUrl: string, token: string, method: "joinOrCreate" | "create" = "joinOrCreate"): Promise<WorldTestClient> {
  const sdk = new Client(baseUrl);
  sdk.auth.token = token;
  return trackRoom(await sdk[method](WORLD_ROOM, {}, WorldState));
}

/** Joins a given room by id on `baseUrl` as the token's user. */
export async function joinWorldById(baseUrl: string, token: string, roomId: string): Promise<WorldTestClient> {
  const sdk = new Client(baseUrl);
  sdk.auth.token = token;
  return trackRoom(await sdk.joinById(roomId, {}, WorldState));
}

/** The last message of a channel in a client's state. */
export function lastMessage(client: WorldTestClient, channel = "general"): any {
  const messages = client.json().channels?.[channel]?.messages ?? [];
  return messages[messages.length - 1];
}
