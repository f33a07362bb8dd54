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

/** Codes of the "error" room message, besides the rule codes of each domain. */
export const ROOM_ERROR_CODES = {
  invalidMessage: "message/invalid",
  unknownMessage: "message/unknown",
  server: "server/error",
} as const;
