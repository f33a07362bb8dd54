import { z } from "zod";

export { REJOIN_MAX_MS, REJOIN_MIN_MS, ROOM_ERROR_CODES, ROOM_ERROR_MESSAGE, SESSION_CLOSE_SIGNED_OUT, rejoinDelay } from "./constants.js";

/** A refused room message: a namespaced code ("chat/rate_limited") and a message for people. */
export const roomErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type RoomErrorPayload = z.infer<typeof roomErrorSchema>;

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
