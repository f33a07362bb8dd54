import { ACHIEVEMENTS, ESTIMATED_RANKING_METRICS, computePeriodChange, publicEstimate, type RankingMetricId, type RankingPeriod } from "@game/schema/rules";
import type { AchievementsJson, MetricRankingJson, MetricRankingRowJson } from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { achievementCounts, metricRankOf, recentAchievements, topByMetric, type MetricRankingDbRow } from "../db/rankingMetrics.js";
import { findCurrentSeason } from "../db/seasons.js";
import { rankedPlayerName } from "./world.js";

function toRow(metric: RankingMetricId, row: MetricRankingDbRow): MetricRankingRowJson {
  const estimated = ESTIMATED_RANKING_METRICS.includes(metric);
  const shown = (v: number) => (estimated ? publicEstimate(v) : v);
  const value = shown(Number(row.value));
  const change = row.base === null ? 0 : computePeriodChange(value, shown(Number(row.base)));
  return {
    rank: row.rank,
    countryId: row.id,
    countryName: row.name,
    playerName: rankedPlayerName(row),
    isAi: row.is_ai,
    governmentType: row.government_type,
    allianceTag: row.alliance_tag ?? "",
    value,
    change,
    trend: change > 0 ? "up" : change < 0 ? "down" : "same",
    estimated,
    isOnline: row.is_online,
  };
}

/** How long a top list is reused within a process (ms): the screen refreshes every 30 s. */
export const METRIC_RANKING_CACHE_MS = 15_000;
const topCache = new Map<string, { at: number; rows: Promise<MetricRankingDbRow[]> }>();

/** The top list, shared by every caller of this process for METRIC_RANKING_CACHE_MS. */
function cachedTop(ctx: ServiceContext, metric: RankingMetricId, period: RankingPeriod, limit: number, playersOnly: boolean): Promise<MetricRankingDbRow[]> {
  const key = `${metric}:${period}:${limit}:${playersOnly}`;
  const now = ctx.clock.now();
  const hit = topCache.get(key);
  if (hit && now - hit.at < METRIC_RANKING_CACHE_MS) return hit.rows;
  const rows = topByMetric(ctx.db, metric, period, limit, playersOnly);
  topCache.set(key, { at: now, rows });
  rows.catch(() => topCache.delete(key));
  return rows;
}

/** GET /rankings/{metric}: the top by the metric with each country's change over the period; the caller's own row appended. */
export async function metricRanking(ctx: ServiceContext, metric: RankingMetricId, period: RankingPeriod, limit: number, ownCountryId: number | null, playersOnly = false): Promise<MetricRankingJson> {
  const rows = await cachedTop(ctx, metric, period, limit, playersOnly);
  let own: MetricRankingRowJson | null = null;
  if (ownCountryId !== null && !rows.some((r) => r.id === ownCountryId)) {
    const mine = await metricRankOf(ctx.db, metric, period, ownCountryId, playersOnly);
    if (mine) own = toRow(metric, mine);
  }
  return { metric, period, rows: rows.map((r) => toRow(metric, r)), own };
}

/** GET /rankings/achievements: the catalogue with this season's holders, the caller's, the latest awards. */
export async function achievementsOverview(ctx: ServiceContext, countryId: number | null): Promise<AchievementsJson> {
  const season = await findCurrentSeason(ctx.db);
  if (!season) return { achievements: ACHIEVEMENTS.map((a) => ({ id: a.id, name: a.name, description: a.description, rarity: a.rarity, holders: 0, earnedAt: null })), recent: [] };
  const [counts, recent] = await Promise.all([achievementCounts(ctx.db, season.id, countryId), recentAchievements(ctx.db, season.id, 20)]);
  const byId = new Map(counts.map((c) => [c.achievement_id, c]));
  return {
    achievements: ACHIEVEMENTS.map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      rarity: a.rarity,
      holders: byId.get(a.id)?.holders ?? 0,
      earnedAt: byId.get(a.id)?.mine?.toISOString() ?? null,
    })),
    recent: recent.map((r) => ({
      achievementId: r.achievement_id,
      name: ACHIEVEMENTS.find((a) => a.id === r.achievement_id)?.name ?? r.achievement_id,
      countryId: r.country_id,
      countryName: r.country_name,
      awardedAt: r.awarded_at.toISOString(),
    })),
  };
}
