import type { RankingMetricId } from "@game/schema/rules";
import type { RankingPeriod } from "@game/schema/rules";
import type { Db } from "./pool.js";
import { IS_ONLINE_SQL } from "./online.js";
import { METRIC_SQL } from "../tick/seasonPhases.js";

/** The SQL of each public ranking metric now, and its column in country_snapshots. */
const METRICS: Record<RankingMetricId, { now: string; snapshot: string }> = {
  networth: { now: METRIC_SQL.networth, snapshot: "networth" },
  land: { now: METRIC_SQL.land, snapshot: "land" },
  military: { now: METRIC_SQL.military, snapshot: "military" },
  population: { now: METRIC_SQL.population, snapshot: "population" },
  wars_won: { now: METRIC_SQL.victories, snapshot: "wars_won" },
};

/** How far back each period's base snapshot lies (days before today; null: the earliest kept). */
const PERIOD_DAYS: Record<RankingPeriod, number | null> = { daily: 0, weekly: 6, monthly: 29, all_time: null };

export interface MetricRankingDbRow {
  rank: number;
  id: number;
  name: string;
  government_type: string;
  username: string | null;
  alliance_tag: string | null;
  value: number;
  base: number | null;
  is_online: boolean;
}

/** Who is ranked: the spec's networth above 0, eliminated countries left out. */
const RANKED = "c.networth > 0 AND NOT c.is_eliminated";

function metricQuery(metric: RankingMetricId, period: RankingPeriod, where: string): string {
  const m = METRICS[metric];
  const days = PERIOD_DAYS[period];
  const since = days === null ? "'-infinity'::date" : `(now() AT TIME ZONE 'UTC')::date - ${days}`;
  return `WITH base AS (
      SELECT DISTINCT ON (country_id) country_id, ${m.snapshot} AS v FROM country_snapshots
       WHERE taken_on >= ${since} ORDER BY country_id, taken_on
    ), ranked AS (
      SELECT c.id, c.name, c.government_type, c.user_id, c.alliance_id, ${m.now} AS value,
             row_number() OVER (ORDER BY ${m.now} DESC, c.id ASC)::int AS rank
        FROM countries c WHERE ${RANKED}
    )
    SELECT r.rank, r.id, r.name, r.government_type, u.username, a.tag AS alliance_tag, r.value, b.v AS base,
           ${IS_ONLINE_SQL("r.user_id")} AS is_online
      FROM ranked r
      LEFT JOIN users u ON u.id = r.user_id
      LEFT JOIN alliances a ON a.id = r.alliance_id AND a.disbanded_at IS NULL
      LEFT JOIN base b ON b.country_id = r.id
     WHERE ${where}
     ORDER BY r.rank`;
}

/**
 * The top `limit` countries by a metric, each with its value at the period's base snapshot
 * (the earliest snapshot within the period). Every ranked country is sorted (no index on
 * land, population or force): docs/performance.md has the cost.
 */
export async function topByMetric(db: Db, metric: RankingMetricId, period: RankingPeriod, limit: number): Promise<MetricRankingDbRow[]> {
  const { rows } = await db.query<MetricRankingDbRow>(metricQuery(metric, period, "r.rank <= $1"), [limit]);
  return rows;
}

export async function metricRankOf(db: Db, metric: RankingMetricId, period: RankingPeriod, countryId: number): Promise<MetricRankingDbRow | undefined> {
  const { rows } = await db.query<MetricRankingDbRow>(metricQuery(metric, period, "r.id = $1"), [countryId]);
  return rows[0];
}

export interface AchievementCountRow {
  achievement_id: string;
  holders: number;
  mine: Date | null;
}

/** How many countries hold each achievement this season, and when the caller's earned it. */
export async function achievementCounts(db: Db, seasonId: number, countryId: number | null): Promise<AchievementCountRow[]> {
  const { rows } = await db.query<AchievementCountRow>(
    `SELECT achievement_id, count(*)::int AS holders, max(awarded_at) FILTER (WHERE country_id = $2) AS mine
       FROM achievements WHERE season_id = $1 GROUP BY achievement_id`,
    [seasonId, countryId],
  );
  return rows;
}

export interface AchievementAwardRow {
  achievement_id: string;
  country_id: number;
  country_name: string;
  awarded_at: Date;
}

export async function recentAchievements(db: Db, seasonId: number, limit: number): Promise<AchievementAwardRow[]> {
  const { rows } = await db.query<AchievementAwardRow>(
    `SELECT x.achievement_id, x.country_id, c.name AS country_name, x.awarded_at
       FROM achievements x JOIN countries c ON c.id = x.country_id
      WHERE x.season_id = $1 ORDER BY x.awarded_at DESC, x.country_id LIMIT $2`,
    [seasonId, limit],
  );
  return rows;
}
