import { z } from "zod";
import type { ToJSON } from "@colyseus/schema";
import { CHAT_CHANNEL_IDS, CHAT_MAX_LENGTH, CHAT_MESSAGES } from "../rules/chat.js";
import { ROOM_ERROR_MESSAGE, type RoomErrorPayload } from "./room.js";
import type { NoticePayload } from "./notice.js";
import { MarketMessage, type MarketChangedPayload, type MarketWatch } from "./market.js";
import type { ChatChannelState, ChatMessageState, CountrySummaryState, NewsTickerItem, OnlineUserState, RankingRow, SeasonState, WorldState } from "../state/index.js";

/** Global news headlines the world state keeps, newest first (items). */
export const NEWS_TICKER_SIZE = 10;
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
  error: ROOM_ERROR_MESSAGE,
  /** server -> that player's clients only: something happened to their country ({@link NoticePayload}) */
  notice: "notice",
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

/** What a client sends to the world room, by message name: `room.send(name, payload)`. */
export interface WorldClientMessages {
  [WorldMessage.sendChat]: SendChatMessage;
  [MarketMessage.marketWatch]: MarketWatch;
}

/** What the world room sends to one client, by message name: `room.onMessage(name, ...)`. */
export interface WorldServerMessages {
  [WorldMessage.chatCommand]: ChatCommandReply;
  [WorldMessage.chatMessage]: ChatMessagePayload;
  [WorldMessage.error]: RoomErrorPayload;
  [WorldMessage.notice]: NoticePayload;
  [MarketMessage.marketChanged]: MarketChangedPayload;
}

/*
 * The world room's state as plain data (what `room.state.toJSON()` gives a client), derived
 * from the Colyseus schema classes of schema/src/state so the shapes cannot drift. Times are
 * epoch milliseconds.
 */
/** The season and the turn clock. */
export type SeasonSnapshot = ToJSON<SeasonState>;
/** A row of the live networth ranking. */
export type RankingRowSnapshot = ToJSON<RankingRow>;
/** A chat message as the state carries it. */
export type ChatMessageSnapshot = ToJSON<ChatMessageState>;
/** A global channel with its recent messages, oldest first. */
export type ChatChannelSnapshot = ToJSON<ChatChannelState>;
/** A player online now (public fields only). */
export type OnlineUserSnapshot = ToJSON<OnlineUserState>;
/** The client's own country at a glance (view-filtered: only the owner receives it). */
export type CountrySummarySnapshot = ToJSON<CountrySummaryState>;
/** A headline of the world's news ticker. */
export type NewsTickerSnapshot = ToJSON<NewsTickerItem>;
/** The whole world state: collections keyed by id, `countries` by session id. */
export type WorldStateSnapshot = ToJSON<WorldState>;
