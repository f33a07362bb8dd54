import { z } from "zod";
import type { ToJSON } from "@colyseus/schema";
import { CHAT_CHANNEL_IDS, CHAT_MAX_LENGTH, CHAT_MESSAGES } from "../rules/chat.js";
import { ROOM_ERROR_MESSAGE, clientMessage, roomErrorSchema, serverMessage, type PayloadsOf } from "./room.js";
import { noticePayloadSchema } from "./notice.js";
import { MarketMessage, marketChangedSchema } from "./market.js";
import type { NewsTickerItem, SeasonState, WorldState } from "../state/index.js";
import { plainText } from "../api/text.js";
import { WATCH_TOPICS, WorldMessage } from "./constants.js";

export { NEWS_TICKER_SIZE, WATCH_TOPICS, WORLD_FEED_INTERVAL_MS, WORLD_PATCH_INTERVAL_MS, WORLD_ROOM, WorldMessage, type WatchTopic, type WorldMessageName } from "./constants.js";

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

/** "watch": every topic the client's screens show now (an empty list: none). Replaces the last one. */
export const watchSchema = z.object({
  topics: z.array(z.enum(WATCH_TOPICS, { error: `Watch one of ${WATCH_TOPICS.join(", ")}` })).max(WATCH_TOPICS.length),
});
export type WatchMessage = z.infer<typeof watchSchema>;

/** Reply to a chat command, for the sender only: one line per row of output. */
export const chatCommandReplySchema = z.object({
  /** the command without "/", e.g. "who" */
  command: z.string(),
  lines: z.array(z.string()),
});
export type ChatCommandReply = z.infer<typeof chatCommandReplySchema>;

/** A chat message as REST answers it and as the "chatMessage" room message carries it. */
export const chatMessagePayloadSchema = z.object({
  /** database id as a string; ids grow with time */
  id: z.string(),
  /** channel id (see CHAT_CHANNELS) */
  channel: z.string(),
  /** message, announcement, system, war_alert, achievement or trade_alert */
  type: z.string(),
  /** the sender's user id (0 for system messages) */
  senderId: z.number(),
  senderName: z.string(),
  /** admin, moderator, owner, manager or member */
  senderRole: z.string(),
  /** the sender's alliance tag, "" when none */
  allianceTag: z.string(),
  /** whether the sender is online now (REST only; false in live pushes' past copies) */
  isOnline: z.boolean(),
  /** epoch milliseconds */
  timestamp: z.number(),
  isEdited: z.boolean(),
  /** trimmed text, 1 to 500 characters */
  content: z.string(),
  /** usernames mentioned with @, without the at-sign */
  mentions: z.array(z.string()),
});
export type ChatMessagePayload = z.infer<typeof chatMessagePayloadSchema>;

/**
 * "chatChannels", to a client that starts watching the chat: each global channel's online
 * count and, for the open channels, the recent lines (oldest first). Channel names and
 * descriptions are CHAT_CHANNELS. Alliance lines are not here: they come as "chatMessage".
 */
export const chatChannelsSchema = z.object({
  channels: z.array(
    z.object({
      id: z.string(),
      /** players online who can read the channel (alliance channels: alliance members online in total) */
      userCount: z.number(),
      messages: z.array(chatMessagePayloadSchema),
    }),
  ),
});
export type ChatChannelsMessage = z.infer<typeof chatChannelsSchema>;

/** "chatCounts", to chat watchers when counts moved (at most once per WORLD_FEED_INTERVAL_MS): channel id -> online count. */
export const chatCountsSchema = z.object({ counts: z.record(z.string(), z.number()) });
export type ChatCountsMessage = z.infer<typeof chatCountsSchema>;

/** A player connected to any world room now. Public fields only: no cash, units or turns. */
export const onlineUserSchema = z.object({
  /** user id as a string */
  id: z.string(),
  /** username */
  name: z.string(),
  /** chat role: admin, moderator, owner, manager or member */
  role: z.string(),
  allianceName: z.string(),
  allianceTag: z.string(),
  /** government type id of the player's country */
  government: z.string(),
  /** the country's networth (public) */
  networth: z.number(),
  isOnline: z.boolean(),
});
export type OnlineUserSnapshot = z.infer<typeof onlineUserSchema>;

/**
 * "onlineUsers", to "online" watchers: the list of players online (the richest
 * ONLINE_USERS_LIMIT), whole when `full` (the first after a watch), otherwise the players who
 * came or changed and the ids of those who left since the last one.
 */
export const onlineUsersSchema = z.object({
  full: z.boolean(),
  users: z.array(onlineUserSchema),
  removed: z.array(z.string()),
  /** everyone online, listed or not */
  total: z.number(),
});
export type OnlineUsersMessage = z.infer<typeof onlineUsersSchema>;

/** One row of the networth ranking (the spec's country ranking row); only public numbers. */
export const rankingRowSchema = z.object({
  /** row id: the country id as a string */
  id: z.string(),
  /** 1-based position by networth, ties broken by country id */
  rank: z.number(),
  countryId: z.number(),
  countryName: z.string(),
  /** the owner's username ("" for AI countries) */
  playerName: z.string(),
  governmentType: z.string(),
  /** "" when the country is in no alliance */
  allianceName: z.string(),
  allianceTag: z.string(),
  /** networth */
  value: z.number(),
  /** acres */
  land: z.number(),
  /** places climbed since today's snapshot (negative: fell) */
  change: z.number(),
  /** "up", "down" or "same" */
  trend: z.string(),
  /** last action of the country (epoch ms) */
  lastActive: z.number(),
  /** whether the owner is connected to a world room now */
  isOnline: z.boolean(),
});
export type RankingRowSnapshot = z.infer<typeof rankingRowSchema>;

/**
 * "rankings", to "rankings" watchers: the top RANKINGS_DEFAULT_LIMIT by networth as `length`
 * rows, of which `rows` are those that differ from the last message, by position (all of them
 * in the first after a watch).
 */
export const rankingsSchema = z.object({
  length: z.number(),
  rows: z.array(z.object({ at: z.number(), row: rankingRowSchema })),
});
export type RankingsMessage = z.infer<typeof rankingsSchema>;

/** The player's own country at a glance: sent to that player's clients only. */
export const ownCountrySchema = z.object({
  countryId: z.number(),
  name: z.string(),
  /** available turns */
  turns: z.number(),
  storedTurns: z.number(),
  /** dollars */
  cash: z.number(),
  /** bushels */
  food: z.number(),
  /** barrels */
  oil: z.number(),
  networth: z.number(),
  /** people */
  population: z.number(),
  /** acres */
  land: z.number(),
  /** user ids this player ignores in chat (/ignore): hide their messages */
  ignoredUserIds: z.array(z.number()),
  /** news items this player has not read (global, their alliance's and their own) up to the shard's newsSeq unreadNewsSeq */
  unreadNews: z.number(),
  /** the shard's newsSeq (world state) that unreadNews counts up to: global items after it are unread as well */
  unreadNewsSeq: z.number(),
});
export type CountrySummarySnapshot = z.infer<typeof ownCountrySchema>;

/** "own": the fields of the player's own country that changed (all of them right after the join). */
export const ownCountryPatchSchema = ownCountrySchema.partial();
export type OwnCountryPatch = z.infer<typeof ownCountryPatchSchema>;

/**
 * The world room's catalogue: every message both ways, by direction. The room registers its
 * handlers from `client` and sends through `server`; the browser and the load tester send and
 * listen through the same entries.
 */
export const WORLD_MESSAGES = {
  client: {
    /** post to a global channel */
    sendChat: clientMessage(WorldMessage.sendChat, sendChatSchema, { fallback: "Failed to send chat message", invalidCode: "chat/invalid" }),
    /** what the client's screens show now */
    watch: clientMessage(WorldMessage.watch, watchSchema, { fallback: "Failed to watch", invalidCode: "watch/invalid" }),
  },
  server: {
    /** that player's clients: their own numbers */
    own: serverMessage(WorldMessage.own, ownCountryPatchSchema),
    /** that client: the answer to /who, /time, /help, /ignore */
    chatCommand: serverMessage(WorldMessage.chatCommand, chatCommandReplySchema),
    /** chat watchers: a line of an open channel; entitled watchers: a line of their alliance's channels */
    chatMessage: serverMessage(WorldMessage.chatMessage, chatMessagePayloadSchema),
    /** a client that starts watching the chat: counts and recent lines */
    chatChannels: serverMessage(WorldMessage.chatChannels, chatChannelsSchema),
    /** chat watchers: online counts per channel moved */
    chatCounts: serverMessage(WorldMessage.chatCounts, chatCountsSchema),
    /** online watchers: who is online */
    onlineUsers: serverMessage(WorldMessage.onlineUsers, onlineUsersSchema),
    /** rankings watchers: the top of the ranking */
    rankings: serverMessage(WorldMessage.rankings, rankingsSchema),
    /** market watchers: what one market action changed */
    marketChanged: serverMessage(MarketMessage.marketChanged, marketChangedSchema),
    /** that player's clients: something happened to their country */
    notice: serverMessage(WorldMessage.notice, noticePayloadSchema),
    /** that client: a refused message */
    error: serverMessage(ROOM_ERROR_MESSAGE, roomErrorSchema),
  },
} as const;

/** What a client sends to the world room, by message name: `room.send(name, payload)`. */
export type WorldClientMessages = PayloadsOf<typeof WORLD_MESSAGES.client>;
/** What the world room sends to a client, by message name: `room.onMessage(name, ...)`. */
export type WorldServerMessages = PayloadsOf<typeof WORLD_MESSAGES.server>;

/*
 * The world room's state as plain data (what `room.state.toJSON()` gives a client), derived
 * from the Colyseus schema classes of schema/src/state so the shapes cannot drift. Times are
 * epoch milliseconds.
 */
/** The season and the turn clock. */
export type SeasonSnapshot = ToJSON<SeasonState>;
/** A headline of the world's news ticker. */
export type NewsTickerSnapshot = ToJSON<NewsTickerItem>;
/** The whole world state. */
export type WorldStateSnapshot = ToJSON<WorldState>;

/** A chat line as the client keeps it (the payload without the REST-only online flag). */
export type ChatMessageSnapshot = Omit<ChatMessagePayload, "isOnline">;
/** A channel of GET /chat/channels/{countryId} (api/world.ts re-exports it; declared here, where the room's channel snapshot extends it). */
export const chatChannelJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  color: z.string(),
  accessLevel: z.string(),
  isActive: z.boolean(),
  /** players online who can read it */
  userCount: z.number(),
});
export type ChatChannelJson = z.infer<typeof chatChannelJsonSchema>;

/** A global channel as the chat screen shows it: GET /chat/channels' channel with its recent lines (oldest first). */
export interface ChatChannelSnapshot extends ChatChannelJson {
  messages: ChatMessageSnapshot[];
}
