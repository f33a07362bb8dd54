import { estimateNextTickAt, seasonStatus, SEASON_DEFAULT_LENGTH_DAYS } from "@game/schema/messages";
import type { ArchivedSeasonJson, PastSeasonJson, SeasonJson, SeasonProgressResponse, SeasonSeriesJson, SeasonStatsJson } from "@game/schema/api";
import { notFound } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { archivedScores, findCurrentSeason, findSeasonById, insertActiveSeason, pastSeasons, seasonPoints, seasonStats, type SeasonRow } from "../db/seasons.js";
import { rankedCountry, topByNetworth } from "../db/rankings.js";
import { loadRankings, rankBoard, toRankingJson } from "./world.js";
import { rankedAlliances } from "../db/alliances.js";

/** The season and the turn clock as the world room shows them (times in epoch ms). */
export interface SeasonView {
  id: number;
  name: string;
  isActive: boolean;
  status: "ACTIVE" | "INACTIVE";
  startsAt: number;
  endsAt: number;
  nextTickAt: number;
  tickNumber: number;
  turnIntervalMs: number;
}

const DAY_MS = 86_400_000;

/** Top countries listed by GET /season/scores (rows). */
export const SEASON_SCORES_LIMIT = 10;

/**
 * The current season (the migration seeds one; if every season was deleted a new one starts
 * now). The turn clock is the tick grid: tick n is due at n x interval after the epoch, the
 * same grid the tick scheduler uses.
 */
export async function currentSeason(ctx: ServiceContext, now = ctx.clock.now()): Promise<SeasonView> {
  let row = await findCurrentSeason(ctx.db);
  if (!row) {
    await insertActiveSeason(ctx.db, { name: "Season 1", startsAt: new Date(now), endsAt: new Date(now + SEASON_DEFAULT_LENGTH_DAYS * DAY_MS) });
    row = (await findCurrentSeason(ctx.db))!;
  }
  return toSeasonView(row, ctx.config.turnIntervalMs, now);
}

function toSeasonView(row: SeasonRow, turnIntervalMs: number, now: number): SeasonView {
  const startsAt = row.starts_at.getTime();
  const endsAt = row.ends_at.getTime();
  return {
    id: row.id,
    name: row.name,
    isActive: row.is_active,
    status: seasonStatus({ isActive: row.is_active, startsAt, endsAt }, now),
    startsAt,
    endsAt,
    nextTickAt: estimateNextTickAt(now, turnIntervalMs),
    tickNumber: Math.floor(now / turnIntervalMs),
    turnIntervalMs,
  };
}

/** GET /season/current: `is_active` is true only while the season runs. */
export function toSeasonJson(season: SeasonView): SeasonJson {
  return {
    id: season.id,
    name: season.name,
    is_active: season.status === "ACTIVE",
    status: season.status,
    starts_at: new Date(season.startsAt).toISOString(),
    ends_at: new Date(season.endsAt).toISOString(),
    next_tick_at: new Date(season.nextTickAt).toISOString(),
    turn_interval_ms: season.turnIntervalMs,
    tick_number: season.tickNumber,
  };
}

/** The spec's season stats with the top of the networth ranking. */
export async function seasonScores(ctx: ServiceContext): Promise<SeasonStatsJson> {
  const [season, stats, top, alliances] = await Promise.all([currentSeason(ctx), seasonStats(ctx.db), loadRankings(ctx, SEASON_SCORES_LIMIT), rankedAlliances(ctx.db, { limit: 1, offset: 0 })]);
  const topAlliance = alliances.rows[0];
  const leader = top[0];
  return {
    season: season.name,
    startDate: new Date(season.startsAt).toISOString(),
    endDate: new Date(season.endsAt).toISOString(),
    totalPlayers: stats.total_players,
    rankedCountries: stats.ranked_countries,
    rankedPlayers: stats.ranked_players,
    activeAlliances: stats.active_alliances,
    warsTotal: stats.wars_total,
    topPlayer: leader ? { name: leader.playerName || leader.countryName, networth: leader.value } : null,
    topAlliance: topAlliance && topAlliance.member_count > 0 ? { name: topAlliance.name, tag: topAlliance.tag, networth: topAlliance.total_networth } : null,
    scores: top.map(toRankingJson),
  };
}

/** GET /season/scores?season={id}: a season's archived final scores (empty while it runs). */
export async function archivedSeasonScores(ctx: ServiceContext, seasonId: number, limit: number): Promise<ArchivedSeasonJson> {
  const season = await findSeasonById(ctx.db, seasonId);
  if (!season) throw notFound("Season not found", "season/not_found");
  const scores = await archivedScores(ctx.db, seasonId, limit);
  return {
    id: season.id,
    name: season.name,
    startDate: season.starts_at.toISOString(),
    endDate: (season.ended_at ?? season.ends_at).toISOString(),
    isActive: season.is_active,
    scores: scores.map((s) => ({
      rank: s.rank,
      countryId: s.country_id,
      countryName: s.country_name,
      playerName: s.player_name,
      allianceTag: s.alliance_tag,
      networth: s.networth,
      land: s.land,
      victories: s.victories,
    })),
  };
}

/** GET /season/history: seasons that ended, newest first, with their winners. */
export async function seasonHistory(ctx: ServiceContext): Promise<PastSeasonJson[]> {
  return (await pastSeasons(ctx.db, 50)).map((s) => ({
    id: s.id,
    name: s.name,
    startDate: s.starts_at.toISOString(),
    endDate: s.ended_at.toISOString(),
    players: s.players,
    winner: s.winner_name === null ? null : { countryName: s.winner_name, playerName: s.winner_player ?? "", networth: s.winner_networth ?? 0 },
  }));
}

/** The season chart's top list: today's top this many by networth (issue 30). */
export const SEASON_CHART_TOP = 10;

/**
 * GET /season/progress: networth, land and rank over the season of the caller's country and of
 * today's top 10, from the daily snapshots (public numbers: the rankings show them).
 */
export async function seasonProgress(ctx: ServiceContext, countryId: number): Promise<SeasonProgressResponse> {
  const season = await currentSeason(ctx);
  const [rows, top, own] = await Promise.all([seasonPoints(ctx.db, countryId, new Date(season.startsAt), SEASON_CHART_TOP), topByNetworth(ctx.db, SEASON_CHART_TOP), rankBoard(ctx).then((board) => rankedCountry(ctx.db, countryId, board))]);
  const series = new Map<number, SeasonSeriesJson>();
  for (const r of rows) {
    let s = series.get(r.country_id);
    if (!s) series.set(r.country_id, (s = { countryId: r.country_id, name: r.name, currentRank: null, points: [] }));
    s.points.push({ date: r.taken_on, networth: Number(r.networth), land: Number(r.land), rank: r.rank });
  }
  const withRank = (id: number, name: string, rank: number | null): SeasonSeriesJson => ({ ...(series.get(id) ?? { countryId: id, name, points: [] }), currentRank: rank });
  return {
    seasonName: season.name,
    startsAt: new Date(season.startsAt).toISOString(),
    own: own ? withRank(own.id, own.name, own.rank) : series.has(countryId) ? withRank(countryId, series.get(countryId)!.name, null) : null,
    top: top.map((t) => withRank(t.id, t.name, t.rank)),
  };
}
