import { z } from "zod";
import { CHAT_CHANNEL_IDS, CHAT_MAX_LENGTH, CHAT_MESSAGES } from "../rules/chat.js";
import { plainText } from "../api/text.js";

/** Name the world room is registered under: `client.joinOrCreate(WORLD_ROOM)`. */
export const WORLD_ROOM = "world";

/** Message names of the world room, for both sender and receiver. */
export const WorldMessage = {
  /** client -> server: post to a global channel ({@link SendChatMessage}) */
  sendChat: "sendChat",
  /** server -> that client only: the answer to /who, /time, /help, /ignore ({@link ChatCommandReply}) */
  chatCommand: "chatCommand",
  /**
   * server -> entitled clients only: a message of an alliance or leadership channel
   * ({@link ChatMessagePayload}); messages of open channels arrive through the state instead
   */
  chatMessage: "chatMessage",
  /** server -> that client only: a refused message ({@link RoomErrorPayload}) */
  error: "error",
} as const;
export type WorldMessageName = (typeof WorldMessage)[keyof typeof WorldMessage];

/** Longest channel id accepted before it is looked up (characters). */
const CHANNEL_ID_MAX = 40;

/**
 * A chat post, as the "sendChat" room message and the POST /api/chat/send body:
 * channel one of CHAT_CHANNEL_IDS, content trimmed to 1..CHAT_MAX_LENGTH characters without
 * control characters or text-direction overrides ("Message must not contain ...").
 * Content starting with "/" is a command answered to the sender only.
 */
export const sendChatSchema = z.object({
  channel: z
    .string({ error: CHAT_MESSAGES.unknownChannel })
    .max(CHANNEL_ID_MAX, CHAT_MESSAGES.unknownChannel)
    .refine((id) => CHAT_CHANNEL_IDS.includes(id), CHAT_MESSAGES.unknownChannel),
  content: plainText(z.string({ error: CHAT_MESSAGES.empty }).trim().min(1, CHAT_MESSAGES.empty).max(CHAT_MAX_LENGTH, CHAT_MESSAGES.tooLong), "Message"),
});
export type SendChatMessage = z.infer<typeof sendChatSchema>;

/** Reply to a chat command, for the sender only: one line per row of output. */
export const chatCommandReplySchema = z.object({
  /** the command without "/", e.g. "who" */
  command: z.string(),
  lines: z.array(z.string()),
});
export type ChatCommandReply = z.infer<typeof chatCommandReplySchema>;

/** A refused room message: a namespaced code ("chat/rate_limited") and a message for people. */
export const roomErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type RoomErrorPayload = z.infer<typeof roomErrorSchema>;

/** A chat message as REST answers it and as the "chatMessage" room message carries it. */
export interface ChatMessagePayload {
  id: string;
  channel: string;
  type: string;
  /** the sender's user id */
  senderId: number;
  senderName: string;
  senderRole: string;
  allianceTag: string;
  /** whether the sender is online now (REST only; false in live pushes' past copies) */
  isOnline: boolean;
  /** epoch milliseconds */
  timestamp: number;
  isEdited: boolean;
  content: string;
  mentions: string[];
}

/** Codes of the "error" room message, besides the rule codes of the chat rules. */
export const ROOM_ERROR_CODES = {
  invalidMessage: "message/invalid",
  unknownMessage: "message/unknown",
  server: "server/error",
} as const;
