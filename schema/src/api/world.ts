import { z } from "zod";
import { CHAT_CHANNEL_IDS, CHAT_MESSAGES } from "../rules/chat.js";
import { RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT } from "../rules/ranking.js";
import { chatChannelJsonSchema, chatCommandReplySchema, chatMessagePayloadSchema, type ChatChannelJson } from "../messages/world.js";
import { num } from "./rulesJson.js";
import { idParamSchema, limitSchema, playersOnlySchema } from "./common.js";

export { sendChatSchema as sendChatRequestSchema, type SendChatMessage as SendChatRequest } from "../messages/world.js";

/** Page size of GET /chat/messages: default and ceiling (messages). */
export const CHAT_PAGE_DEFAULT = 50;
export const CHAT_PAGE_MAX = 100;

/** GET /api/chat/channels/{countryId} */
export const chatChannelsParamsSchema = z.object({ countryId: idParamSchema });

/** GET /api/chat/messages/{channelId} */
export const chatMessagesParamsSchema = z.object({
  channelId: z.string().refine((id) => CHAT_CHANNEL_IDS.includes(id), CHAT_MESSAGES.unknownChannel),
});

/** ?before= (a message id: only older messages) &limit= */
export const chatMessagesQuerySchema = z.object({
  before: idParamSchema.optional(),
  limit: limitSchema(CHAT_PAGE_DEFAULT, CHAT_PAGE_MAX),
});

/** GET /api/rankings/networth?limit= (default 100) */
export const rankingsQuerySchema = z.object({
  limit: limitSchema(RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT),
  playersOnly: playersOnlySchema,
});

// A channel of GET /chat/channels/{countryId}: declared with the room's channel snapshot, which extends it.
export { chatChannelJsonSchema, type ChatChannelJson };

export const chatMessageJsonSchema = chatMessagePayloadSchema;
export type ChatMessageJson = z.infer<typeof chatMessageJsonSchema>;

/** A user of GET /chat/online-users: public fields only. */
export const onlineUserJsonSchema = z.object({
  /** user id as a string */
  id: z.string(),
  name: z.string(),
  role: z.string(),
  isOnline: z.boolean(),
  allianceName: z.string(),
  allianceTag: z.string(),
  government: z.string(),
  networth: num,
});
export type OnlineUserJson = z.infer<typeof onlineUserJsonSchema>;

/** A row of GET /rankings/networth (the spec's country ranking row). */
export const rankingRowJsonSchema = z.object({
  id: z.string(),
  rank: num,
  countryId: num,
  countryName: z.string(),
  /** the owner's username; an AI country's own name (its owner is an internal account) */
  playerName: z.string(),
  /** an AI country (docs/rules.md "AI countries"): rankings and lists mark it */
  isAi: z.boolean(),
  governmentType: z.string(),
  allianceName: z.string(),
  allianceTag: z.string(),
  /** networth */
  value: num,
  land: num,
  change: num,
  trend: z.enum(["up", "down", "same"]),
  /** ISO time of the country's last action */
  lastActive: z.string(),
  isOnline: z.boolean(),
});
export type RankingRowJson = z.infer<typeof rankingRowJsonSchema>;

/** data of GET /season/current. */
export const seasonJsonSchema = z.object({
  id: num,
  name: z.string(),
  is_active: z.boolean(),
  status: z.enum(["ACTIVE", "INACTIVE"]),
  starts_at: z.string(),
  ends_at: z.string(),
  next_tick_at: z.string(),
  turn_interval_ms: num,
  tick_number: num,
});
export type SeasonJson = z.infer<typeof seasonJsonSchema>;

/** data of GET /season/scores (the spec's season stats, plus the top of the ranking). */
export const seasonStatsJsonSchema = z.object({
  season: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  totalPlayers: num,
  /** countries in the rankings (AI included), what the season card counts (issue 30, #23) */
  rankedCountries: num,
  /** the same among players only (the rankings' players-only switch) */
  rankedPlayers: num,
  activeAlliances: num,
  warsTotal: num,
  topPlayer: z.object({ name: z.string(), networth: num }).nullable(),
  topAlliance: z.object({ name: z.string(), tag: z.string(), networth: num }).nullable(),
  scores: z.array(rankingRowJsonSchema),
});
export type SeasonStatsJson = z.infer<typeof seasonStatsJsonSchema>;

/** GET /chat/channels/{countryId}: the channels the caller may see. */
export const chatChannelsResponseSchema = z.object({
  data: z.array(chatChannelJsonSchema),
});
export type ChatChannelsResponse = z.infer<typeof chatChannelsResponseSchema>;

/** GET /chat/messages/{channelId}: a page, oldest first. */
export const chatMessagesResponseSchema = z.object({
  data: z.array(chatMessageJsonSchema),
  /** whether older messages remain (ask again with ?before= the first id) */
  hasMore: z.boolean(),
});
export type ChatMessagesResponse = z.infer<typeof chatMessagesResponseSchema>;

/** POST /chat/send: the stored message (201), or a command's reply to the sender (200). */
export const chatSendResponseSchema = z.object({
  data: z.union([chatMessageJsonSchema, chatCommandReplySchema]),
});
export type ChatSendResponse = z.infer<typeof chatSendResponseSchema>;

/** GET /chat/online-users. */
export const onlineUsersResponseSchema = z.object({
  data: z.array(onlineUserJsonSchema),
});
export type OnlineUsersResponse = z.infer<typeof onlineUsersResponseSchema>;

/** GET /rankings/networth. */
export const rankingsResponseSchema = z.object({
  data: z.array(rankingRowJsonSchema),
});
export type RankingsResponse = z.infer<typeof rankingsResponseSchema>;

/** GET /season/current. */
export const seasonResponseSchema = z.object({
  data: seasonJsonSchema,
});
export type SeasonResponse = z.infer<typeof seasonResponseSchema>;

/** GET /season/scores. */
export const seasonScoresResponseSchema = z.object({
  data: seasonStatsJsonSchema,
});
export type SeasonScoresResponse = z.infer<typeof seasonScoresResponseSchema>;
