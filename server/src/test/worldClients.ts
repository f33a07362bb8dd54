import { Client, type Room } from "@colyseus/sdk";
import {
  addLineToChannels,
  applyChatCounts,
  applyOnlineUsers,
  applyOwnPatch,
  unreadNewsOf,
  applyRankings,
  chatChannelsFrom,
  WORLD_MESSAGES,
  WORLD_ROOM,
  WorldMessage,
  type ChatChannelSnapshot,
  type CountrySummarySnapshot,
  type OnlineUserSnapshot,
  type RankingRowSnapshot,
  type WatchTopic,
} from "@game/schema/messages";
import { WorldState } from "@game/schema/state";

/**
 * A world room as a test client sees it: the state, every message it received (each checked
 * against its catalogue entry's schema), and what the messages describe, kept by the same
 * functions the browser uses.
 */
export interface WorldTestClient {
  room: Room<any, WorldState>;
  /** messages by type, in arrival order */
  received: Map<string, any[]>;
  /** messages whose payload did not match the catalogue ("type: problem"); tests expect none */
  schemaErrors: string[];
  /** the decoded state as plain JSON (season, news) */
  json(): any;
  /** this client's own numbers ("own" messages merged) */
  own(): CountrySummarySnapshot | undefined;
  /** the unread news count as the browser shows it (the last count sent and the shard's global items since) */
  unreadNews(): number | undefined;
  /** the global channels, once watching the chat */
  channels(): ChatChannelSnapshot[];
  /** who is online by user id, once watching "online" */
  online(): Record<string, OnlineUserSnapshot>;
  /** the top of the ranking, once watching "rankings" */
  rankings(): RankingRowSnapshot[];
  /** Says what the client's screens show; resolves when the snapshots of new topics arrived. */
  watch(...topics: WatchTopic[]): Promise<void>;
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

const SERVER_ENTRIES = new Map(Object.values(WORLD_MESSAGES.server).map((entry) => [entry.type as string, entry]));
/** The message each watched topic's snapshot comes as. */
const SNAPSHOT_OF: Partial<Record<WatchTopic, string>> = {
  chat: WorldMessage.chatChannels,
  online: WorldMessage.onlineUsers,
  rankings: WorldMessage.rankings,
};

/** Wraps a joined SDK room: records and checks messages, keeps what they describe, waits for the own numbers. */
export async function trackRoom(room: Room<any, WorldState>): Promise<WorldTestClient> {
  const received = new Map<string, any[]>();
  const schemaErrors: string[] = [];
  let own: CountrySummarySnapshot | null = null;
  let channels: ChatChannelSnapshot[] = [];
  let online: Record<string, OnlineUserSnapshot> = {};
  let rankings: RankingRowSnapshot[] = [];
  let watching: WatchTopic[] = [];
  // The full state arrives in the frame after the join: `room.state` exists before, empty.
  let stateArrived = false;
  room.onStateChange.once(() => (stateArrived = true));
  room.onMessage("*", (type: string | number, payload: any) => {
    const key = String(type);
    if (!received.has(key)) received.set(key, []);
    received.get(key)!.push(payload);
    const entry = SERVER_ENTRIES.get(key);
    const checked = entry?.payload.safeParse(payload);
    if (!entry) schemaErrors.push(`${key}: not in WORLD_MESSAGES.server`);
    else if (!checked!.success) schemaErrors.push(`${key}: ${checked!.error.message}`);
    switch (key) {
      case WorldMessage.own:
        own = applyOwnPatch(own, payload);
        break;
      case WorldMessage.chatChannels:
        channels = chatChannelsFrom(payload);
        break;
      case WorldMessage.chatMessage:
        channels = addLineToChannels(channels, payload);
        break;
      case WorldMessage.chatCounts:
        channels = applyChatCounts(channels, payload);
        break;
      case WorldMessage.onlineUsers:
        online = applyOnlineUsers(online, payload);
        break;
      case WorldMessage.rankings:
        rankings = applyRankings(rankings, payload);
        break;
    }
  });
  let left: Promise<void> | undefined;
  const client: WorldTestClient = {
    room,
    received,
    schemaErrors,
    json: () => (room.state as any).toJSON(),
    own: () => own ?? undefined,
    unreadNews: () => (own ? unreadNewsOf(own, room.state.newsSeq ?? 0) : undefined),
    channels: () => channels,
    online: () => online,
    rankings: () => rankings,
    async watch(...topics) {
      const fresh = topics.filter((t) => !watching.includes(t) && SNAPSHOT_OF[t]);
      const before = new Map(fresh.map((t) => [t, received.get(SNAPSHOT_OF[t]!)?.length ?? 0]));
      watching = topics;
      room.send(WorldMessage.watch, { topics });
      await eventually(() => fresh.every((t) => (received.get(SNAPSHOT_OF[t]!)?.length ?? 0) > before.get(t)!), `the snapshots of ${fresh.join(", ")}`);
    },
    // Idempotent, and bounded: leaving a room that already closed must not hang a test.
    leave: () =>
      (left ??= Promise.race([
        room.leave(true).then(
          () => undefined,
          () => undefined,
        ),
        new Promise<void>((r) => setTimeout(r, 2_000)),
      ])),
  };
  await eventually(() => (stateArrived || room.state?.season?.name) && own, "the initial state and the own numbers");
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

/** The last line of a channel a client watching the chat has. */
export function lastMessage(client: WorldTestClient, channel = "general"): any {
  const messages = client.channels().find((c) => c.id === channel)?.messages ?? [];
  return messages[messages.length - 1];
}
