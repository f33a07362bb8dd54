/**
 * Rankings and season rules (document 3: Rankings and Leaderboards, sections 3, 5 and 9).
 * Pure: the server computes rows from Postgres and applies these; the client may reuse them.
 */

/** Rows in the live world room rankings and the default of GET /rankings/networth (rows). */
export const RANKINGS_DEFAULT_LIMIT = 100;
/** Largest `limit` GET /rankings/networth accepts (rows). */
export const RANKINGS_MAX_LIMIT = 500;
/** Length of a season created when none exists (days). The spec gives none; docs/rules.md. */
export const SEASON_DEFAULT_LENGTH_DAYS = 90;

export type RankTrend = "up" | "down" | "same";

/**
 * Movement since the previous snapshot: `change` is positive when the country climbed
 * (previous rank 7, now 3: change 4, trend up). A country without a previous rank (new, or
 * networth was 0) has change 0 and trend same.
 */
export function computeRankChange(previousRank: number | null | undefined, rank: number): { change: number; trend: RankTrend } {
  if (!previousRank || previousRank <= 0) return { change: 0, trend: "same" };
  const change = previousRank - rank;
  return { change, trend: change > 0 ? "up" : change < 0 ? "down" : "same" };
}

/**
 * Whether a ranked country appears in the list: the spec keeps only networth above 0 (and we
 * leave eliminated countries out).
 */
export function isRankable(country: { networth: number; isEliminated?: boolean }): boolean {
  return country.networth > 0 && !country.isEliminated;
}

/** One day (milliseconds). */
const DAY_MS = 86_400_000;

/**
 * The ranking periods of the spec (daily, weekly (default), monthly, all time): a period
 * ranks the countries active within its last `days` days; all time (`days: null`) ranks every
 * country.
 */
export const RANKING_PERIODS = [
  { id: "daily", label: "Daily", days: 1 },
  { id: "weekly", label: "Weekly", days: 7 },
  { id: "monthly", label: "Monthly", days: 30 },
  { id: "all_time", label: "All Time", days: null },
] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number]["id"];
/** The period the rankings open with (spec: weekly). */
export const RANKING_PERIOD_DEFAULT: RankingPeriod = "weekly";

/**
 * Whether a country last active at `lastActive` (epoch ms; 0 = unknown) was active within
 * `period` before `now`. An unknown time counts as active: leaving a country out needs
 * evidence that it idled.
 */
export function isActiveInPeriod(lastActive: number, period: RankingPeriod, now: number): boolean {
  const days = RANKING_PERIODS.find((p) => p.id === period)?.days ?? null;
  if (days === null || lastActive === 0) return true;
  return lastActive >= now - days * DAY_MS;
}

/**
 * Whether a ranked row appears in a period's list: rankable (networth above 0) and active
 * within the period. The viewer's own country is always listed when rankable, so a player
 * who idled still finds their place.
 */
export function isRankedInPeriod(row: { networth: number; lastActive: number; countryId: number }, period: RankingPeriod, now: number, ownCountryId: number | null = null): boolean {
  return isRankable(row) && (row.countryId === ownCountryId || isActiveInPeriod(row.lastActive, period, now));
}

/**
 * Ranking order: networth descending, ties by country id ascending (the older country first),
 * the order of the server's ranking query (`ORDER BY networth DESC, id ASC`).
 */
export function compareRank(a: { networth: number; countryId: number }, b: { networth: number; countryId: number }): number {
  return b.networth - a.networth || a.countryId - b.countryId;
}

/**
 * When the next turn tick happens if no tick has been observed yet: ticks fall on whole
 * multiples of the interval since the epoch (the scheduler's alignment), so the next one is
 * the next multiple after `now` (milliseconds since the epoch).
 */
export function estimateNextTickAt(now: number, turnIntervalMs: number): number {
  return (Math.floor(now / turnIntervalMs) + 1) * turnIntervalMs;
}

/** 'ACTIVE' while a season is flagged active and `now` lies between its start and end. */
export function seasonStatus(season: { isActive: boolean; startsAt: number; endsAt: number }, now: number): "ACTIVE" | "INACTIVE" {
  return season.isActive && now >= season.startsAt && now < season.endsAt ? "ACTIVE" : "INACTIVE";
}
