import { z } from "zod";
import { NEWS_CATEGORIES, NEWS_IMPACTS, NEWS_KINDS, NEWS_PRIORITIES, NEWS_TYPES, type NewsKind, type NewsParticipant } from "../rules/news.js";
import { idParamSchema, limitSchema, pageSchema } from "./common.js";
import { num } from "./rulesJson.js";

/** Items per page of GET /news: default and ceiling. */
export const NEWS_PAGE_DEFAULT = 20;
export const NEWS_PAGE_MAX = 100;

/**
 * GET /api/news?category=&type=&page=&limit=&unread=: category one of global, alliance,
 * personal (absent or "all": every category); type one of the spec's types (absent or "all":
 * every type); page from 1.
 */
export const newsQuerySchema = z.object({
  category: z.enum(["all", ...NEWS_CATEGORIES], { error: `category must be one of all, ${NEWS_CATEGORIES.join(", ")}` }).default("all"),
  type: z.enum(["all", ...NEWS_TYPES], { error: `type must be one of all, ${NEWS_TYPES.join(", ")}` }).default("all"),
  page: pageSchema,
  limit: limitSchema(NEWS_PAGE_DEFAULT, NEWS_PAGE_MAX),
  /** "true": unread items only */
  unread: z.enum(["true", "false"], { error: "unread must be true or false" }).default("false"),
});
export type NewsQuery = z.infer<typeof newsQuerySchema>;

/** POST /api/news/{id}/read */
export const newsIdParamsSchema = z.object({ id: idParamSchema });

const newsParticipantSchema = z.object({
  id: num,
  name: z.string(),
  type: z.enum(["country", "alliance", "player"]),
  role: z.string(),
  allianceTag: z.string().optional(),
}) satisfies z.ZodType<NewsParticipant>;

/** A news item (spec: id, type, title, description, content, timestamp, priority, participants, tags, isRead, category, location, impact). */
export const newsItemJsonSchema = z.object({
  /** the item's id as a string */
  id: z.string(),
  /** the catalogue entry that produced it */
  kind: z.enum(NEWS_KINDS as [NewsKind, ...NewsKind[]]),
  type: z.enum(NEWS_TYPES),
  title: z.string(),
  description: z.string(),
  content: z.string(),
  /** ISO time */
  timestamp: z.string(),
  priority: z.enum(NEWS_PRIORITIES),
  participants: z.array(newsParticipantSchema),
  tags: z.array(z.string()),
  isRead: z.boolean(),
  category: z.enum(NEWS_CATEGORIES),
  location: z.string(),
  impact: z.enum(NEWS_IMPACTS),
  /** the battle a battle item reports (its report and replay), else null */
  battleId: num.nullable(),
});
export type NewsItemJson = z.infer<typeof newsItemJsonSchema>;

/** GET /api/news/away-summary?since=ISO: what happened to the caller since its last visit (issue 30). */
export const awaySummaryQuerySchema = z.object({
  since: z.iso.datetime({ offset: true, error: "since must be an ISO 8601 date and time" }),
});

/** The away summary looks back at most this far (days); an older `since` is cut to it. */
export const AWAY_SUMMARY_MAX_DAYS = 30;

/** One battle of the caller's while it was away. */
export const awayBattleJsonSchema = z.object({
  battleId: num,
  role: z.enum(["attacker", "defender"]),
  /** the other side's name */
  opponentName: z.string(),
  attackType: z.string(),
  /** from the caller's side */
  won: z.boolean(),
  /** acres the caller gained (attacker) or lost (defender) */
  land: num,
  /** ISO time */
  at: z.string(),
});
export type AwayBattleJson = z.infer<typeof awayBattleJsonSchema>;

/** GET /news/away-summary: counts since `since` (from the news items, trades and alliance records kept), and the latest items. */
export const awaySummaryResponseSchema = z.object({
  /** ISO time the summary starts from (the request's, cut to AWAY_SUMMARY_MAX_DAYS) */
  since: z.string(),
  /** ISO time it was made */
  until: z.string(),
  attacksReceived: num,
  attacksRepelled: num,
  landLost: num,
  attacksMade: num,
  attacksWon: num,
  landGained: num,
  /** the latest battles (at most 10), newest first */
  battles: z.array(awayBattleJsonSchema),
  /** spies caught at work against the caller, sabotage suffered */
  spyDetections: num,
  /** the caller's listings bought and standing orders filled */
  tradesFilled: num,
  /** what those trades came to, dollars */
  tradeValue: num,
  /** operations of the caller's alliance planned or carried out */
  allianceOperations: num,
  /** defense requests of the caller's allies (not its own) */
  defenseRequests: num,
  /** rank by networth at the last daily snapshot before `since`, and now (null: not ranked) */
  rankBefore: num.nullable(),
  rankNow: num.nullable(),
  /** the caller's personal and alliance news since, newest first (at most 20) */
  items: z.array(newsItemJsonSchema),
});
export type AwaySummaryResponse = z.infer<typeof awaySummaryResponseSchema>;

/** GET /news */
export const newsListResponseSchema = z.object({
  data: z.array(newsItemJsonSchema),
  /** unread items the caller can see, whatever the filters */
  unreadCount: num,
  /** items matching the filters */
  total: num,
  page: num,
  limit: num,
});
export type NewsListResponse = z.infer<typeof newsListResponseSchema>;

/** POST /news/{id}/read and POST /news/read-all */
export const newsReadResponseSchema = z.object({
  unreadCount: num,
});
export type NewsReadResponse = z.infer<typeof newsReadResponseSchema>;
