import { z } from "zod";
import { RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT, RANKING_PERIODS, RANKING_PERIOD_DEFAULT, type RankingPeriod } from "../rules/ranking.js";
import { RANKING_METRIC_IDS, type AchievementRarity } from "../rules/seasons.js";
import { idParamSchema, limitSchema, playersOnlySchema } from "./common.js";
import { num } from "./rulesJson.js";
import { lineText, plainText } from "./text.js";

// --- seasons ------------------------------------------------------------------------------

/** GET /api/season/scores?season=&limit=: without `season` the current season's stats. */
export const seasonScoresQuerySchema = z.object({
  season: idParamSchema.optional(),
  limit: limitSchema(100, RANKINGS_MAX_LIMIT),
});

/** A row of an archived season's final ranking. */
export const archivedScoreJsonSchema = z.object({
  rank: num,
  countryId: num.nullable(),
  countryName: z.string(),
  playerName: z.string(),
  allianceTag: z.string(),
  networth: num,
  land: num,
  victories: num,
});
export type ArchivedScoreJson = z.infer<typeof archivedScoreJsonSchema>;

/** data of GET /season/scores?season={id}: a season and its final scores (empty while it runs). */
export const archivedSeasonJsonSchema = z.object({
  id: num,
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  isActive: z.boolean(),
  scores: z.array(archivedScoreJsonSchema),
});
export type ArchivedSeasonJson = z.infer<typeof archivedSeasonJsonSchema>;

/** A row of GET /season/history: a season that ended, newest first. */
export const pastSeasonJsonSchema = z.object({
  id: num,
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  players: num,
  winner: z.object({ countryName: z.string(), playerName: z.string(), networth: num }).nullable(),
});
export type PastSeasonJson = z.infer<typeof pastSeasonJsonSchema>;

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
export const metricRankingRowJsonSchema = z.object({
  rank: num,
  countryId: num,
  countryName: z.string(),
  /** the owner's username; an AI country's own name */
  playerName: z.string(),
  /** an AI country */
  isAi: z.boolean(),
  governmentType: z.string(),
  allianceTag: z.string(),
  /** the metric now (population and military: a public estimate, two significant digits) */
  value: num,
  /** the change over the period (all_time: since the season started) */
  change: num,
  trend: z.enum(["up", "down", "same"]),
  estimated: z.boolean(),
  isOnline: z.boolean(),
});
export type MetricRankingRowJson = z.infer<typeof metricRankingRowJsonSchema>;

export const metricRankingJsonSchema = z.object({
  metric: z.enum(RANKING_METRIC_IDS),
  period: z.enum(RANKING_PERIODS.map((p) => p.id) as [RankingPeriod, ...RankingPeriod[]]),
  rows: z.array(metricRankingRowJsonSchema),
  /** the caller's own row when it is not among `rows` */
  own: metricRankingRowJsonSchema.nullable(),
});
export type MetricRankingJson = z.infer<typeof metricRankingJsonSchema>;

/** GET /rankings/achievements: the catalogue with how many hold each, the caller's, the latest. */
export const achievementJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  rarity: z.enum(["common", "rare", "legendary"] as const satisfies readonly AchievementRarity[]),
  /** countries holding it this season */
  holders: num,
  /** when the caller's country earned it this season, else null */
  earnedAt: z.string().nullable(),
});
export type AchievementJson = z.infer<typeof achievementJsonSchema>;
export const achievementAwardJsonSchema = z.object({
  achievementId: z.string(),
  name: z.string(),
  countryId: num,
  countryName: z.string(),
  awardedAt: z.string(),
});
export type AchievementAwardJson = z.infer<typeof achievementAwardJsonSchema>;
export const achievementsJsonSchema = z.object({
  achievements: z.array(achievementJsonSchema),
  recent: z.array(achievementAwardJsonSchema),
});
export type AchievementsJson = z.infer<typeof achievementsJsonSchema>;

// --- administration -----------------------------------------------------------------------

/** POST /api/admin/announcements */
export const adminAnnouncementSchema = z.object({
  message: plainText(z.string({ error: "Message is required" }), "Message")
    .trim()
    .min(1, "Message is required")
    .max(500, "Message must be at most 500 characters"),
});

/** POST /api/admin/users/{id}/suspend */
export const adminSuspendSchema = z.object({
  reason: lineText(z.string({ error: "Reason must be text" }), "Reason")
    .trim()
    .max(200, "Reason must be at most 200 characters")
    .default(""),
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

export const adminUserJsonSchema = z.object({
  id: num,
  username: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  suspendedAt: z.string().nullable(),
  countryId: num.nullable(),
  countryName: z.string().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
});
export type AdminUserJson = z.infer<typeof adminUserJsonSchema>;

export const adminLogEntryJsonSchema = z.object({
  id: num,
  adminUsername: z.string(),
  action: z.string(),
  targetUsername: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AdminLogEntryJson = z.infer<typeof adminLogEntryJsonSchema>;

/** GET /api/admin/me */
export const adminMeJsonSchema = z.object({
  isAdmin: z.boolean(),
});
export type AdminMeJson = z.infer<typeof adminMeJsonSchema>;

/** One daily snapshot of a country as the season chart draws it (issue 30). */
export const seasonPointJsonSchema = z.object({
  /** the snapshot's day, YYYY-MM-DD (UTC) */
  date: z.string(),
  networth: num,
  land: num,
  /** rank by networth among that day's snapshots (ties by id) */
  rank: num,
});
export type SeasonPointJson = z.infer<typeof seasonPointJsonSchema>;

/** One country's line on the season chart. */
export const seasonSeriesJsonSchema = z.object({
  countryId: num,
  name: z.string(),
  /** its current rank by networth (the top 10's order) */
  currentRank: num.nullable(),
  points: z.array(seasonPointJsonSchema),
});
export type SeasonSeriesJson = z.infer<typeof seasonSeriesJsonSchema>;

/** GET /api/season/progress: the caller's country and today's top 10 over the season, from the daily snapshots. */
export const seasonProgressResponseSchema = z.object({
  seasonName: z.string(),
  /** ISO time the season started */
  startsAt: z.string(),
  own: seasonSeriesJsonSchema.nullable(),
  /** today's top 10 by networth, best first (the caller's own included when it is one) */
  top: z.array(seasonSeriesJsonSchema),
});
export type SeasonProgressResponse = z.infer<typeof seasonProgressResponseSchema>;
