import { z } from "zod";
import { CHAT_CHANNEL_IDS, CHAT_MESSAGES } from "../rules/chat.js";
import { RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT } from "../rules/ranking.js";
import type { ChatCommandReply, ChatMessagePayload } from "../messages/world.js";
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

/** A channel of GET /chat/channels/{countryId}. */
export interface ChatChannelJson {
  id: string;
  name: string;
  description: string;
  icon: string;
  color: string;
  accessLevel: string;
  isActive: boolean;
  /** players online who can read it */
  userCount: number;
}

export type ChatMessageJson = ChatMessagePayload;

/** A user of GET /chat/online-users: public fields only. */
export interface OnlineUserJson {
  /** user id as a string */
  id: string;
  name: string;
  role: string;
  isOnline: boolean;
  allianceName: string;
  allianceTag: string;
  government: string;
  networth: number;
}

/** A row of GET /rankings/networth (the spec's country ranking row). */
export interface RankingRowJson {
  id: string;
  rank: number;
  countryId: number;
  countryName: string;
  /** the owner's username; an AI country's own name (its owner is an internal account) */
  playerName: string;
  /** an AI country (docs/rules.md "AI countries"): rankings and lists mark it */
  isAi: boolean;
  governmentType: string;
  allianceName: string;
  allianceTag: string;
  /** networth */
  value: number;
  land: number;
  change: number;
  trend: "up" | "down" | "same";
  /** ISO time of the country's last action */
  lastActive: string;
  isOnline: boolean;
}

/** data of GET /season/current. */
export interface SeasonJson {
  id: number;
  name: string;
  is_active: boolean;
  status: "ACTIVE" | "INACTIVE";
  starts_at: string;
  ends_at: string;
  next_tick_at: string;
  turn_interval_ms: number;
  tick_number: number;
}

/** data of GET /season/scores (the spec's season stats, plus the top of the ranking). */
export interface SeasonStatsJson {
  season: string;
  startDate: string;
  endDate: string;
  totalPlayers: number;
  /** countries in the rankings (AI included), what the season card counts (issue 30, #23) */
  rankedCountries: number;
  /** the same among players only (the rankings' players-only switch) */
  rankedPlayers: number;
  activeAlliances: number;
  warsTotal: number;
  topPlayer: { name: string; networth: number } | null;
  topAlliance: { name: string; tag: string; networth: number } | null;
  scores: RankingRowJson[];
}

/** GET /chat/channels/{countryId}: the channels the caller may see. */
export interface ChatChannelsResponse {
  data: ChatChannelJson[];
}

/** GET /chat/messages/{channelId}: a page, oldest first. */
export interface ChatMessagesResponse {
  data: ChatMessageJson[];
  /** whether older messages remain (ask again with ?before= the first id) */
  hasMore: boolean;
}

/** POST /chat/send: the stored message (201), or a command's reply to the sender (200). */
export interface ChatSendResponse {
  data: ChatMessageJson | ChatCommandReply;
}

/** GET /chat/online-users. */
export interface OnlineUsersResponse {
  data: OnlineUserJson[];
}

/** GET /rankings/networth. */
export interface RankingsResponse {
  data: RankingRowJson[];
}

/** GET /season/current. */
export interface SeasonResponse {
  data: SeasonJson;
}

/** GET /season/scores. */
export interface SeasonScoresResponse {
  data: SeasonStatsJson;
}
