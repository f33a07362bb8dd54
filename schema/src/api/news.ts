import { z } from "zod";
import {
  NEWS_CATEGORIES,
  NEWS_TYPES,
  type NewsCategory,
  type NewsImpact,
  type NewsKind,
  type NewsParticipant,
  type NewsPriority,
  type NewsType,
} from "../rules/news.js";
import { idParamSchema, limitSchema, pageSchema } from "./common.js";

/** Items per page of GET /news: default and ceiling. */
export const NEWS_PAGE_DEFAULT = 20;
export const NEWS_PAGE_MAX = 100;

/**
 * GET /api/news?category=&type=&page=&limit=&unread=: category one of global, alliance,
 * personal (absent or "all": every category); type one of the spec's types (absent or "all":
 * every type); page from 1.
 */
export const newsQuerySchema = z.object({
  category: z
    .enum(["all", ...NEWS_CATEGORIES], { error: `category must be one of all, ${NEWS_CATEGORIES.join(", ")}` })
    .default("all"),
  type: z.enum(["all", ...NEWS_TYPES], { error: `type must be one of all, ${NEWS_TYPES.join(", ")}` }).default("all"),
  page: pageSchema,
  limit: limitSchema(NEWS_PAGE_DEFAULT, NEWS_PAGE_MAX),
  /** "true": unread items only */
  unread: z.enum(["true", "false"], { error: "unread must be true or false" }).default("false"),
});
export type NewsQuery = z.infer<typeof newsQuerySchema>;

/** POST /api/news/{id}/read */
export const newsIdParamsSchema = z.object({ id: idParamSchema });

/** A news item (spec: id, type, title, description, content, timestamp, priority, participants, tags, isRead, category, location, impact). */
export interface NewsItemJson {
  /** the item's id as a string */
  id: string;
  /** the catalogue entry that produced it */
  kind: NewsKind;
  type: NewsType;
  title: string;
  description: string;
  content: string;
  /** ISO time */
  timestamp: string;
  priority: NewsPriority;
  participants: NewsParticipant[];
  tags: string[];
  isRead: boolean;
  category: NewsCategory;
  location: string;
  impact: NewsImpact;
  /** the battle a battle item reports (its report and replay), else null */
  battleId: number | null;
}

/** GET /api/news/away-summary?since=ISO: what happened to the caller since its last visit (issue 30). */
export const awaySummaryQuerySchema = z.object({
  since: z.iso.datetime({ offset: true, error: "since must be an ISO 8601 date and time" }),
});

/** The away summary looks back at most this far (days); an older `since` is cut to it. */
export const AWAY_SUMMARY_MAX_DAYS = 30;

/** One battle of the caller's while it was away. */
export interface AwayBattleJson {
  battleId: number;
  role: "attacker" | "defender";
  /** the other side's name */
  opponentName: string;
  attackType: string;
  /** from the caller's side */
  won: boolean;
  /** acres the caller gained (attacker) or lost (defender) */
  land: number;
  /** ISO time */
  at: string;
}

/** GET /news/away-summary: counts since `since` (from the news items, trades and alliance records kept), and the latest items. */
export interface AwaySummaryResponse {
  /** ISO time the summary starts from (the request's, cut to AWAY_SUMMARY_MAX_DAYS) */
  since: string;
  /** ISO time it was made */
  until: string;
  attacksReceived: number;
  attacksRepelled: number;
  landLost: number;
  attacksMade: number;
  attacksWon: number;
  landGained: number;
  /** the latest battles (at most 10), newest first */
  battles: AwayBattleJson[];
  /** spies caught at work against the caller, sabotage suffered */
  spyDetections: number;
  /** the caller's listings bought and standing orders filled */
  tradesFilled: number;
  /** what those trades came to, dollars */
  tradeValue: number;
  /** operations of the caller's alliance planned or carried out */
  allianceOperations: number;
  /** defense requests of the caller's allies (not its own) */
  defenseRequests: number;
  /** rank by networth at the last daily snapshot before `since`, and now (null: not ranked) */
  rankBefore: number | null;
  rankNow: number | null;
  /** the caller's personal and alliance news since, newest first (at most 20) */
  items: NewsItemJson[];
}

/** GET /news */
export interface NewsListResponse {
  data: NewsItemJson[];
  /** unread items the caller can see, whatever the filters */
  unreadCount: number;
  /** items matching the filters */
  total: number;
  page: number;
  limit: number;
}

/** POST /news/{id}/read and POST /news/read-all */
export interface NewsReadResponse {
  unreadCount: number;
}
