/**
 * Season lifecycle and achievements (docs/rules.md, "Seasons" and "Achievements"). Pure: the
 * server's season phase and achievement phase apply these to Postgres rows.
 */

/** One day (milliseconds). */
const SEASON_DAY_MS = 86_400_000;

/** Whether the season has run out at `now` (its end is the moment it ends). */
export function isSeasonOver(season: { isActive: boolean; endsAt: number }, now: number): boolean {
  return season.isActive && now >= season.endsAt;
}

/** The end of a season that starts at `startsAt` and lasts `lengthDays` (decimals allowed). */
export function computeSeasonEnd(startsAt: number, lengthDays: number): number {
  return startsAt + Math.max(1, Math.round(lengthDays * SEASON_DAY_MS));
}

/**
 * The next season's name: "Season N" follows the highest number among the seasons so far
 * ("Season 3" after "Season 2"); names without a number count as season 1.
 */
export function nextSeasonName(previousNames: readonly string[]): string {
  let highest = 0;
  for (const name of previousNames) {
    const match = /(\d+)\s*$/.exec(name);
    highest = Math.max(highest, match ? Number(match[1]) : 1);
  }
  return `Season ${highest + 1}`;
}

/** The public numbers an achievement is decided from (a country's row). */
export interface AchievementSubject {
  networth: number;
  land: number;
  population: number;
  victories: number;
  researchLevels: number;
  military: number;
}

export type AchievementRarity = "common" | "rare" | "legendary";

export interface AchievementDefinition {
  id: string;
  name: string;
  description: string;
  rarity: AchievementRarity;
  /** earned when `metric` reaches `threshold` (data, so the server can award it in one SQL pass) */
  metric: keyof AchievementSubject;
  threshold: number;
}

/** Whether a country with these numbers has earned `a`. */
export function hasEarned(a: AchievementDefinition, c: AchievementSubject): boolean {
  return c[a.metric] >= a.threshold;
}

const achievement = (id: string, name: string, description: string, rarity: AchievementRarity, metric: keyof AchievementSubject, threshold: number): AchievementDefinition => ({
  id,
  name,
  description,
  rarity,
  metric,
  threshold,
});

/**
 * The achievements, earned once per country and season. Each is a threshold on numbers
 * every country has, so a phase awards them all in one set-based pass and a country that
 * reaches one between ticks gets it at the next tick. Starting values: 100 acres, networth
 * about 60,000, 1,000 people, no victories.
 */
export const ACHIEVEMENTS: readonly AchievementDefinition[] = [
  achievement("first_victory", "First Blood", "Won a first battle.", "common", "victories", 1),
  achievement("warlord", "Warlord", "Won 25 battles in one season.", "rare", "victories", 25),
  achievement("landholder", "Landholder", "Held 1,000 acres.", "common", "land", 1_000),
  achievement("empire", "Empire", "Held 10,000 acres.", "legendary", "land", 10_000),
  achievement("millionaire", "Millionaire", "Reached a networth of 1,000,000.", "common", "networth", 1_000_000),
  achievement("superpower", "Superpower", "Reached a networth of 25,000,000.", "legendary", "networth", 25_000_000),
  achievement("metropolis", "Metropolis", "Grew to 100,000 people.", "rare", "population", 100_000),
  achievement("scholar", "Scholar", "Reached 50 research levels in total.", "rare", "researchLevels", 50),
  achievement("standing_army", "Standing Army", "Fielded 50,000 military units.", "rare", "military", 50_000),
];

export function findAchievement(id: string): AchievementDefinition | undefined {
  return ACHIEVEMENTS.find((a) => a.id === id);
}

/** The achievements `c` has earned and `already` does not hold, in catalogue order. */
export function newAchievements(c: AchievementSubject, already: ReadonlySet<string>): AchievementDefinition[] {
  return ACHIEVEMENTS.filter((a) => !already.has(a.id) && hasEarned(a, c));
}

/** Ranking metrics of GET /rankings/{metric}; every one is public (docs/rules.md, "Rankings"). */
export const RANKING_METRIC_IDS = ["networth", "land", "military", "population", "wars_won"] as const;
export type RankingMetricId = (typeof RANKING_METRIC_IDS)[number];

/**
 * A country's change over a period: its value now minus its value at the period's first
 * snapshot; a country without that snapshot (newer than the period, or snapshots reset by a
 * season's end) changes from its earliest snapshot in the period, and without any, by 0.
 */
export function computePeriodChange(now: number, base: number | null | undefined): number {
  return base === null || base === undefined ? 0 : now - base;
}

/**
 * Metrics built from a country's own numbers (population, military force) are published in
 * the rankings as estimates: rounded down to two significant digits (12,345 -> 12,000), so the
 * order is public and the exact count stays with the owner and spies (docs/rules.md).
 */
export const ESTIMATED_RANKING_METRICS: readonly RankingMetricId[] = ["military", "population"];

export function publicEstimate(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  const digits = Math.floor(Math.log10(value)) + 1;
  const unit = 10 ** Math.max(0, digits - 2);
  return Math.floor(value / unit) * unit;
}
