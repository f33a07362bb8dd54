import { z } from "zod";

/**
 * What every game room shares: the refusal message. A room answers a message it refused
 * (invalid payload, rule rejection, unknown type) to the sender only, as ROOM_ERROR_MESSAGE
 * with a {@link RoomErrorPayload}.
 */
export const ROOM_ERROR_MESSAGE = "error";

/** A refused room message: a namespaced code ("chat/rate_limited") and a message for people. */
export const roomErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type RoomErrorPayload = z.infer<typeof roomErrorSchema>;

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

/**
 * One room message in a room's catalogue: its name and the zod schema of its payload. The
 * server sends and the client receives through the same entry; tests check every payload a
 * room sends against it.
 */
export interface RoomMessageEntry<S extends z.ZodType = z.ZodType> {
  type: string;
  payload: S;
}

/**
 * A message a client sends: the server parses its payload with `payload` (a refusal names the
 * first problem, with `invalidCode`) and answers a failure it did not foresee with `fallback`
 * (the spec's message for that action).
 */
export interface ClientMessageEntry<S extends z.ZodType = z.ZodType> extends RoomMessageEntry<S> {
  fallback: string;
  invalidCode?: string;
}

/** A client -> server catalogue entry. */
export function clientMessage<const T extends string, S extends z.ZodType>(type: T, payload: S, options: { fallback: string; invalidCode?: string }): ClientMessageEntry<S> & { type: T } {
  return { type, payload, ...options };
}

/** A server -> client catalogue entry. */
export function serverMessage<const T extends string, S extends z.ZodType>(type: T, payload: S): RoomMessageEntry<S> & { type: T } {
  return { type, payload };
}

/** Payload types by message name, from a catalogue's entries (the SDK's typed send and onMessage). */
export type PayloadsOf<E extends Record<string, RoomMessageEntry>> = { [K in keyof E as E[K]["type"]]: z.input<E[K]["payload"]> };
