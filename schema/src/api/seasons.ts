import { z } from "zod";
import { RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT, RANKING_PERIODS, RANKING_PERIOD_DEFAULT, type RankingPeriod } from "../rules/ranking.js";
import type { AchievementRarity, RankingMetricId } from "../rules/seasons.js";
import { idParamSchema, limitSchema, playersOnlySchema } from "./common.js";
import { lineText, plainText } from "./text.js";

// --- seasons ------------------------------------------------------------------------------

/** GET /api/season/scores?season=&limit=: without `season` the current season's stats. */
export const seasonScoresQuerySchema = z.object({
  season: idParamSchema.optional(),
  limit: limitSchema(100, RANKINGS_MAX_LIMIT),
});

/** A row of an archived season's final ranking. */
export interface ArchivedScoreJson {
  rank: number;
  countryId: number | null;
  countryName: string;
  playerName: string;
  allianceTag: string;
  networth: number;
  land: number;
  victories: number;
}

/** data of GET /season/scores?season={id}: a season and its final scores (empty while it runs). */
export interface ArchivedSeasonJson {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
  scores: ArchivedScoreJson[];
}

/** A row of GET /season/history: a season that ended, newest first. */
export interface PastSeasonJson {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  players: number;
  winner: { countryName: string; playerName: string; networth: number } | null;
}

// --- rankings -----------------------------------------------------------------------------

/** GET /api/rankings/{metric}?period=&limit= */
export const metricRankingQuerySchema = z.object({
  period: z
    .enum(RANKING_PERIODS.map((p) => p.id) as [RankingPeriod, ...RankingPeriod[]], {
      error: `period must be one of ${RANKING_PERIODS.map((p) => p.id).join(", ")}`,
    })
    .default(RANKING_PERIOD_DEFAULT),
  limit: limitSchema(RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT),
  playersOnly: playersOnlySchema,
});

/** A row of GET /rankings/{metric}. */
export interface MetricRankingRowJson {
  rank: number;
  countryId: number;
  countryName: string;
  /** the owner's username; an AI country's own name */
  playerName: string;
  /** an AI country */
  isAi: boolean;
  governmentType: string;
  allianceTag: string;
  /** the metric now (population and military: a public estimate, two significant digits) */
  value: number;
  /** the change over the period (all_time: since the season started) */
  change: number;
  trend: "up" | "down" | "same";
  estimated: boolean;
  isOnline: boolean;
}

export interface MetricRankingJson {
  metric: RankingMetricId;
  period: RankingPeriod;
  rows: MetricRankingRowJson[];
  /** the caller's own row when it is not among `rows` */
  own: MetricRankingRowJson | null;
}

/** GET /rankings/achievements: the catalogue with how many hold each, the caller's, the latest. */
export interface AchievementJson {
  id: string;
  name: string;
  description: string;
  rarity: AchievementRarity;
  /** countries holding it this season */
  holders: number;
  /** when the caller's country earned it this season, else null */
  earnedAt: string | null;
}
export interface AchievementAwardJson {
  achievementId: string;
  name: string;
  countryId: number;
  countryName: string;
  awardedAt: string;
}
export interface AchievementsJson {
  achievements: AchievementJson[];
  recent: AchievementAwardJson[];
}

// --- administration -----------------------------------------------------------------------

/** POST /api/admin/announcements */
export const adminAnnouncementSchema = z.object({
  message: plainText(z.string({ error: "Message is required" }), "Message").trim().min(1, "Message is required").max(500, "Message must be at most 500 characters"),
});

/** POST /api/admin/users/{id}/suspend */
export const adminSuspendSchema = z.object({
  reason: lineText(z.string({ error: "Reason must be text" }), "Reason").trim().max(200, "Reason must be at most 200 characters").default(""),
});

/**
 * POST /api/admin/season/end: startNext false leaves the world without a season until a start.
 * `seasonId` names the season to end (absent: the one active when the request arrives); a
 * season that has ended already answers 409, so a repeated or parallel request ends it once.
 */
export const adminSeasonEndSchema = z.object({
  startNext: z.boolean({ error: "startNext must be true or false" }).default(true),
  seasonId: z.number({ error: "seasonId must be a season id" }).int("seasonId must be a season id").positive("seasonId must be a season id").optional(),
});

/** GET /api/admin/users?search= */
export const adminUserSearchSchema = z.object({
  search: lineText(z.string(), "Search").trim().max(60, "Search must be at most 60 characters").default(""),
});

export const adminUserIdParamsSchema = z.object({ id: idParamSchema });
export const adminCountryIdParamsSchema = z.object({ id: idParamSchema });

export interface AdminUserJson {
  id: number;
  username: string;
  email: string;
  isAdmin: boolean;
  suspendedAt: string | null;
  countryId: number | null;
  countryName: string | null;
  createdAt: string;
  lastLogin: string | null;
}

export interface AdminLogEntryJson {
  id: number;
  adminUsername: string;
  action: string;
  targetUsername: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** GET /api/admin/me */
export interface AdminMeJson {
  isAdmin: boolean;
}

/** One daily snapshot of a country as the season chart draws it (issue 30). */
export interface SeasonPointJson {
  /** the snapshot's day, YYYY-MM-DD (UTC) */
  date: string;
  networth: number;
  land: number;
  /** rank by networth among that day's snapshots (ties by id) */
  rank: number;
}

/** One country's line on the season chart. */
export interface SeasonSeriesJson {
  countryId: number;
  name: string;
  /** its current rank by networth (the top 10's order) */
  currentRank: number | null;
  points: SeasonPointJson[];
}

/** GET /api/season/progress: the caller's country and today's top 10 over the season, from the daily snapshots. */
export interface SeasonProgressResponse {
  seasonName: string;
  /** ISO time the season started */
  startsAt: string;
  own: SeasonSeriesJson | null;
  /** today's top 10 by networth, best first (the caller's own included when it is one) */
  top: SeasonSeriesJson[];
}
