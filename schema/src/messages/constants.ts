/*
 * The rooms' names, message names, close codes and timings without the messages' zod schemas
 * (room.ts, world.ts, notice.ts build those): the browser's world room connection reads these at
 * the game's start, and importing the catalogues would build every message schema and load zod
 * with it (issue 30, docs/performance.md). The modules of the catalogues re-export them.
 */

/**
 * What every game room shares: the refusal message. A room answers a message it refused
 * (invalid payload, rule rejection, unknown type) to the sender only, as ROOM_ERROR_MESSAGE
 * with a {@link RoomErrorPayload}.
 */
export const ROOM_ERROR_MESSAGE = "error";

/**
 * Close code of a room session whose token was revoked (logout, password change elsewhere,
 * account deletion): the client shows the player as signed out and does not reconnect.
 */
export const SESSION_CLOSE_SIGNED_OUT = 4401;

/**
 * Re-join back-off of a room connection the server closed or the SDK could not resume (the
 * browser's and the load tester's bots alike): attempt 0 waits 50-100% of REJOIN_MIN_MS, each
 * failed attempt doubles the ceiling up to REJOIN_MAX_MS. The jitter matters in a rolling
 * restart (issue 28): every socket of the stopped process closes at the same instant, and a
 * fixed first delay sent them all to the surviving process in the same millisecond.
 * @default REJOIN_MIN_MS 250 ms
 */
export const REJOIN_MIN_MS = 250;
/** @default 8 s: the longest a client waits between two re-join attempts */
export const REJOIN_MAX_MS = 8_000;

/** The delay before re-join attempt `attempt` (0-based), ms: 50-100% of min(REJOIN_MAX_MS, REJOIN_MIN_MS x 2^attempt). */
export function rejoinDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(REJOIN_MAX_MS, REJOIN_MIN_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Codes of the "error" room message, besides the rule codes of each domain. */
export const ROOM_ERROR_CODES = {
  invalidMessage: "message/invalid",
  unknownMessage: "message/unknown",
  server: "server/error",
} as const;

/** Global news headlines the world state keeps, newest first (items). */
export const NEWS_TICKER_SIZE = 10;

/** Name the world room is registered under: `client.joinOrCreate(WORLD_ROOM)`. */
export const WORLD_ROOM = "world";

/*
 * What the world room sends, and to whom (docs/architecture.md, "Rooms: cost per viewer"):
 *
 * - the state (season and news ticker): every client, one patch per shard per
 *   WORLD_PATCH_INTERVAL_MS at most;
 * - "own": the player's own numbers, to that player's clients only;
 * - what a screen shows, to the clients whose screen shows it: a client says which with
 *   "watch" ({@link WatchTopic}) and gets a snapshot, then changes, each encoded once per
 *   process and shared by every watcher;
 * - notices, chat command answers and refusals: to one client.
 */

/** Most often the world state is patched (ms): the season clock and the news ticker. */
export const WORLD_PATCH_INTERVAL_MS = 1_000;
/**
 * Most often what a watched screen shows is sent again (ms): rankings, online players and
 * channel counts are coalesced to one message per interval; chat lines are sent at once.
 */
export const WORLD_FEED_INTERVAL_MS = 1_000;

/** What a screen can watch: the chat (channels, lines, counts), who is online, the rankings, the market. */
export const WATCH_TOPICS = ["chat", "online", "rankings", "market"] as const;
export type WatchTopic = (typeof WATCH_TOPICS)[number];

/** Message names of the world room, for both sender and receiver (WORLD_MESSAGES, world.ts, is built from them). */
export const WorldMessage = {
  sendChat: "sendChat",
  watch: "watch",
  own: "own",
  chatCommand: "chatCommand",
  chatMessage: "chatMessage",
  chatChannels: "chatChannels",
  chatCounts: "chatCounts",
  onlineUsers: "onlineUsers",
  rankings: "rankings",
  error: ROOM_ERROR_MESSAGE,
  notice: "notice",
} as const;
export type WorldMessageName = (typeof WorldMessage)[keyof typeof WorldMessage];

/**
 * A live notice's severities (notice.ts: the notice's schema).
 */
export const NOTICE_SEVERITIES = ["info", "success", "warning", "danger"] as const;
export type NoticeSeverity = (typeof NOTICE_SEVERITIES)[number];
