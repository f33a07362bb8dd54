import type { AchievementDefinition, RankingMetricId } from "@game/schema/rules";
import type { RankingPeriod } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";
import { IS_ONLINE_SQL } from "./online.js";

/** SQL of each metric a ranking, a snapshot or an achievement reads (c = countries). */
export const METRIC_SQL = {
  networth: "c.networth",
  land: "c.land",
  population: "c.population",
  military: "(c.troops + c.jets + c.tanks + c.turrets)",
  victories: "c.victories",
  researchLevels: "(c.agricultural_tech + c.business_tech + c.military_tech + c.industrial_tech + c.spy_tech + c.medical_tech + c.residential_tech + c.warfare_tech + c.military_strategy_tech + c.weapons_tech + c.sdi_tech)",
} as const;

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
  is_ai: boolean;
}

/** Who is ranked: the spec's networth above 0, eliminated countries left out. */
const RANKED = (c: string, playersOnly = false) => `${c}.networth > 0 AND NOT ${c}.is_eliminated${playersOnly ? ` AND NOT ${c}.is_ai` : ""}`;

function sinceSql(period: RankingPeriod): string {
  const days = PERIOD_DAYS[period];
  return days === null ? "'-infinity'::date" : `(now() AT TIME ZONE 'UTC')::date - ${days}`;
}

/** The country's earliest snapshot value in the period (one index probe per row). */
function baseSql(metric: RankingMetricId, period: RankingPeriod, country: string): string {
  return `(SELECT s.${METRICS[metric].snapshot} FROM country_snapshots s
            WHERE s.country_id = ${country} AND s.taken_on >= ${sinceSql(period)} ORDER BY s.taken_on LIMIT 1)`;
}

/**
 * The top `limit` countries by a metric, each with its value at the period's base snapshot
 * (its earliest snapshot within the period). Networth walks countries_networth_rank; the other
 * metrics take the top N of one scan (no index on land, population, force or victories):
 * docs/performance.md has the cost.
 */
export async function topByMetric(db: Db, metric: RankingMetricId, period: RankingPeriod, limit: number, playersOnly = false): Promise<MetricRankingDbRow[]> {
  const value = METRICS[metric].now;
  const { rows } = await db.query<MetricRankingDbRow>(
    `SELECT row_number() OVER (ORDER BY r.value DESC, r.id ASC)::int AS rank, r.id, r.name, r.government_type, u.username,
            a.tag AS alliance_tag, r.value, ${baseSql(metric, period, "r.id")} AS base, ${IS_ONLINE_SQL("r.user_id")} AS is_online, r.is_ai
       FROM (SELECT c.id, c.name, c.government_type, c.user_id, c.alliance_id, c.is_ai, ${value} AS value
               FROM countries c WHERE ${RANKED("c", playersOnly)} ORDER BY ${value} DESC, c.id ASC LIMIT $1) r
       LEFT JOIN users u ON u.id = r.user_id
       LEFT JOIN alliances a ON a.id = r.alliance_id AND a.disbanded_at IS NULL
      ORDER BY r.value DESC, r.id ASC`,
    [limit],
  );
  return rows;
}

/** One country's row with its rank by the metric (1 + how many rank above it), or undefined when unranked. */
export async function metricRankOf(db: Db, metric: RankingMetricId, period: RankingPeriod, countryId: number, playersOnly = false): Promise<MetricRankingDbRow | undefined> {
  const value = METRICS[metric].now;
  const other = value.replace(/\bc\./g, "o.");
  const { rows } = await db.query<MetricRankingDbRow>(
    `SELECT (SELECT count(*)::int + 1 FROM countries o WHERE ${RANKED("o", playersOnly)} AND (${other} > ${value} OR (${other} = ${value} AND o.id < c.id))) AS rank,
            c.id, c.name, c.government_type, u.username, a.tag AS alliance_tag, ${value} AS value, ${baseSql(metric, period, "c.id")} AS base,
            ${IS_ONLINE_SQL("c.user_id")} AS is_online, c.is_ai
       FROM countries c
       LEFT JOIN users u ON u.id = c.user_id
       LEFT JOIN alliances a ON a.id = c.alliance_id AND a.disbanded_at IS NULL
      WHERE c.id = $1 AND ${RANKED("c")}`,
    [countryId],
  );
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

/**
 * The UTC day's snapshot of every country's ranking metrics (`day` as YYYY-MM-DD; ON CONFLICT
 * keeps a day's first values), and the snapshots older than `retentionDays` deleted.
 * @returns snapshots taken
 */
export async function takeCountrySnapshots(client: DbClient, day: string, retentionDays: number): Promise<number> {
  const inserted = await client.query(
    `INSERT INTO country_snapshots (taken_on, country_id, networth, land, military, population, wars_won)
     SELECT $1::date, c.id, c.networth, c.land, ${METRIC_SQL.military}, c.population, c.victories FROM countries c
     ON CONFLICT DO NOTHING`,
    [day],
  );
  await client.query("DELETE FROM country_snapshots WHERE taken_on < $1::date - $2::int", [day, retentionDays]);
  return inserted.rowCount ?? 0;
}

/** The active season's id, if one is active. */
export async function activeSeasonId(client: DbClient): Promise<number | undefined> {
  const { rows } = await client.query<{ id: number }>("SELECT id FROM seasons WHERE is_active");
  return rows[0]?.id;
}

/**
 * Awards, in season `seasonId`, each of `achievements` that a country not eliminated has
 * reached (its metric at or above the threshold) and does not hold; the primary key (country,
 * season, achievement) makes a second run award nothing. One INSERT ... SELECT, every value a
 * parameter. @returns what was awarded
 */
export async function awardReachedAchievements(
  client: DbClient,
  seasonId: number,
  achievements: readonly Pick<AchievementDefinition, "id" | "metric" | "threshold">[],
  at: Date,
): Promise<Array<{ country_id: number; achievement_id: string }>> {
  if (achievements.length === 0) return [];
  // $1 season, $2 time, then id and threshold of each achievement
  const branches = achievements.map((a, i) => `SELECT c.id AS country_id, $${3 + 2 * i}::text AS achievement_id FROM countries c WHERE NOT c.is_eliminated AND ${METRIC_SQL[a.metric]} >= $${4 + 2 * i}::bigint`);
  const { rows } = await client.query<{ country_id: number; achievement_id: string }>(
    `INSERT INTO achievements (country_id, season_id, achievement_id, awarded_at)
     SELECT e.country_id, $1, e.achievement_id, $2::timestamptz FROM (${branches.join(" UNION ALL ")}) e
     ON CONFLICT DO NOTHING RETURNING country_id, achievement_id`,
    [seasonId, at, ...achievements.flatMap((a) => [a.id, a.threshold])],
  );
  return rows;
}
