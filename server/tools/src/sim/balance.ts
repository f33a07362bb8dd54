import type { DaySample } from "./sample.js";

/**
 * The balance targets of a simulated season (issue 14, docs/balance.md), computed from the
 * daily samples. Pure: the report, the CLI and the tests read the same verdicts.
 */

export interface BalanceCheck {
  id: "top10_churn" | "daily_land_loss" | "government_medians" | "money_supply" | "personality_medians" | "leader_change" | "bankruptcy" | "famine";
  target: string;
  /** the measured figure, as text for the report */
  measured: string;
  met: boolean;
}

/** The day after which the top 10 must still change. */
export const TOP10_LATE_DAY = 15;
/** Most land a country may lose in one day (the daily land cap's promise). */
export const MAX_DAILY_LAND_LOSS = 0.15;
/** How far a government's median final networth may sit from the overall median. */
export const MAX_GOVERNMENT_MEDIAN_GAP = 0.25;
/**
 * The money supply's band: the world's money in turns of its gross income (how long the world
 * would take to earn the cash it holds) must stay within these multiples of its median over the
 * settled season, every day from MONEY_SETTLED_DAY on. Above it, money piles up faster than the
 * economy earns it (inflation: store prices and bids lose meaning); below it, money drains away
 * (nobody can build or trade). The first days are left out: the starting cash (1,000 per acre
 * of a new country, about a hundred turns of its income) is spent down and new-player
 * protection (72 hours) ends. Cash per acre of land is reported beside it but not judged: it
 * counts a developing economy's rising income per acre (denser population, enterprise zones,
 * exploration priced by land) as if it were inflation, so it rose threefold over seasons whose
 * money stayed within 2.2 to 3.8 turns of income, while the season before the AI's drain, 127
 * turns of income on day 30, fails either measure.
 */
export const MONEY_BAND = { low: 0.5, high: 2 } as const;
/** How far a personality's (style of play's) median final networth may sit from the overall median (issue 27). */
export const MAX_PERSONALITY_MEDIAN_GAP = 0.15;
/** The leader on the last day must differ from the leader on this day... */
export const LEADER_EARLY_DAY = 10;
/** ...in at least this share of the seeds judged together (2 of 3). */
export const LEADER_CHANGE_SEED_SHARE = 2 / 3;
/** Most bankruptcy news items a season may have (an AI action whose own turns ran out of cash). */
export const MAX_BANKRUPTCIES = 0;
/** Famine on fewer than this share of country-days. */
export const MAX_FAMINE_SHARE = 0.01;
export const MONEY_SETTLED_DAY = 5;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Days whose top-10 membership differs from the day before (day 1 on). */
export function top10Changes(days: readonly DaySample[]): Array<{ day: number; entered: number[]; left: number[] }> {
  const changes: Array<{ day: number; entered: number[]; left: number[] }> = [];
  for (let i = 1; i < days.length; i++) {
    const before = new Set(days[i - 1]!.top10);
    const after = new Set(days[i]!.top10);
    const entered = [...after].filter((id) => !before.has(id));
    const left = [...before].filter((id) => !after.has(id));
    changes.push({ day: days[i]!.day, entered, left });
  }
  return changes;
}

/**
 * For each day, the largest share of its land any country lost that day, measured as the
 * daily cap defines it: acres lost against the land it held before the day's losses (its
 * land at the day's end plus what it lost).
 */
export function largestDailyLandLoss(days: readonly DaySample[]): Array<{ day: number; countryId: number | null; share: number }> {
  const out: Array<{ day: number; countryId: number | null; share: number }> = [];
  for (let i = 1; i < days.length; i++) {
    const endLand = new Map(days[i]!.countries.map((c) => [c.id, c.land]));
    let worst: { countryId: number | null; share: number } = { countryId: null, share: 0 };
    for (const [id, lost] of Object.entries(days[i]!.landLost)) {
      const land = (endLand.get(Number(id)) ?? 0) + lost;
      if (land <= 0) continue;
      const share = lost / land;
      if (share > worst.share) worst = { countryId: Number(id), share };
    }
    out.push({ day: days[i]!.day, ...worst });
  }
  return out;
}

/** Median networth per group (personality or government) on one day. */
export function mediansBy(sample: DaySample, key: "personality" | "government"): Record<string, { median: number; count: number }> {
  const groups = new Map<string, number[]>();
  for (const c of sample.countries) {
    const list = groups.get(c[key]) ?? [];
    list.push(c.networth);
    groups.set(c[key], list);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, { median: median(v), count: v.length }]));
}

/**
 * The money supply in turns of the world's gross income (taxes and enterprise zones per turn
 * spent, summed over countries): how long the world would take to earn the money it holds.
 * Reported beside cash per acre: per acre counts a developed economy's higher income per acre
 * (denser population, enterprise zones) as if it were inflation; in turns of income it does not,
 * and money piling up with nothing to spend it on still shows as a rising line.
 */
export function moneyInTurnsOfIncome(days: readonly DaySample[]): Array<{ day: number; value: number }> {
  return days.map((d) => {
    const income = d.countries.reduce((sum, c) => sum + c.income, 0);
    return { day: d.day, value: income > 0 ? d.moneySupply / income : 0 };
  });
}

/** Cash per acre of land across the world on each day. */
export function moneyPerAcre(days: readonly DaySample[]): Array<{ day: number; value: number }> {
  return days.map((d) => {
    const land = d.countries.reduce((sum, c) => sum + c.land, 0);
    return { day: d.day, value: land > 0 ? d.moneySupply / land : 0 };
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The leaders (highest networth, ties by id) of day LEADER_EARLY_DAY and of the last day; null when the season is not longer. */
export function seasonLeaders(days: readonly DaySample[]): { early: number; last: number } | null {
  const last = days[days.length - 1]!;
  const early = days.find((d) => d.day === LEADER_EARLY_DAY);
  if (!early || last.day <= LEADER_EARLY_DAY) return null;
  return { early: early.top10[0]!, last: last.top10[0]! };
}

/** One seed's season, for the verdicts judged over several seeds. */
export interface SeedSeason {
  seed: number;
  days: readonly DaySample[];
}

/** A verdict over several seeds' seasons, beside each seed's own checks. */
export interface SeedsVerdict {
  target: string;
  measured: string;
  met: boolean;
}

/**
 * Verdicts over several seeds (issue 27: 7, 11 and 23 in one report): the leader of the last
 * day differs from the leader of day LEADER_EARLY_DAY in at least LEADER_CHANGE_SEED_SHARE of
 * the seeds, and every per-seed target (all but the leader change) is met on every seed.
 */
export function evaluateSeeds(seasons: readonly SeedSeason[]): SeedsVerdict[] {
  const judged = seasons.map((s) => ({ seed: s.seed, leaders: seasonLeaders(s.days), checks: evaluateBalance(s.days) }));
  const applicable = judged.filter((j) => j.leaders !== null);
  const changed = applicable.filter((j) => j.leaders!.early !== j.leaders!.last);
  const needed = Math.ceil(LEADER_CHANGE_SEED_SHARE * applicable.length - 1e-9);
  const verdicts: SeedsVerdict[] = [
    {
      target: `the leader of the last day is not the leader of day ${LEADER_EARLY_DAY} in at least ${needed} of ${applicable.length} seeds`,
      measured: applicable.length === 0 ? "no season longer than day 10: not applicable" : `${changed.length} of ${applicable.length} (${applicable.map((j) => `seed ${j.seed}: ${j.leaders!.early} -> ${j.leaders!.last}`).join("; ")})`,
      met: applicable.length === 0 || changed.length >= needed,
    },
  ];
  for (const id of ["top10_churn", "daily_land_loss", "government_medians", "money_supply", "personality_medians", "bankruptcy", "famine"] as const) {
    const missed = judged.filter((j) => !j.checks.find((c) => c.id === id)!.met).map((j) => j.seed);
    verdicts.push({
      target: `${judged[0]?.checks.find((c) => c.id === id)?.target ?? id}, on every seed`,
      measured: missed.length === 0 ? `met on ${judged.length} of ${judged.length}` : `missed on seed ${missed.join(", ")}`,
      met: missed.length === 0,
    });
  }
  return verdicts;
}

export function evaluateBalance(days: readonly DaySample[]): BalanceCheck[] {
  const last = days[days.length - 1]!;
  const checks: BalanceCheck[] = [];

  const late = top10Changes(days).filter((c) => c.day > TOP10_LATE_DAY && c.entered.length > 0);
  const lastDay = last.day;
  checks.push({
    id: "top10_churn",
    target: `the top 10 still changes after day ${TOP10_LATE_DAY}`,
    measured:
      lastDay <= TOP10_LATE_DAY ? `season of ${lastDay} days: not applicable` : `${late.length} of ${lastDay - TOP10_LATE_DAY} days after day ${TOP10_LATE_DAY} changed the top 10 (${late.reduce((n, c) => n + c.entered.length, 0)} entries)`,
    met: lastDay <= TOP10_LATE_DAY || late.length > 0,
  });

  const losses = largestDailyLandLoss(days);
  const worst = losses.reduce((w, l) => (l.share > w.share ? l : w), { day: 0, countryId: null as number | null, share: 0 });
  checks.push({
    id: "daily_land_loss",
    target: `no country loses more than ${pct(MAX_DAILY_LAND_LOSS)} of its land in one day`,
    measured: worst.countryId === null ? "no land lost" : `largest ${pct(worst.share)} (country ${worst.countryId}, day ${worst.day})`,
    met: worst.share <= MAX_DAILY_LAND_LOSS + 1e-9,
  });

  const overall = median(last.countries.map((c) => c.networth));
  const byGovernment = mediansBy(last, "government");
  const gaps = Object.entries(byGovernment).map(([government, g]) => ({ government, gap: overall > 0 ? g.median / overall - 1 : 0, count: g.count }));
  const widest = gaps.reduce((w, g) => (Math.abs(g.gap) > Math.abs(w.gap) ? g : w), { government: "none", gap: 0, count: 0 });
  const byPersonality = mediansBy(last, "personality");
  const styleGaps = Object.entries(byPersonality).map(([personality, g]) => ({ personality, gap: overall > 0 ? g.median / overall - 1 : 0, count: g.count }));
  const widestStyle = styleGaps.reduce((w, g) => (Math.abs(g.gap) > Math.abs(w.gap) ? g : w), { personality: "none", gap: 0, count: 0 });
  const signed = (x: number) => `${x >= 0 ? "+" : ""}${pct(x)}`;
  checks.push({
    id: "personality_medians",
    target: `every personality's median final networth within ${pct(MAX_PERSONALITY_MEDIAN_GAP)} of the overall median`,
    measured: `widest ${widestStyle.personality} ${signed(widestStyle.gap)}; ${styleGaps.map((g) => `${g.personality} ${signed(g.gap)} (${g.count})`).join(", ")}`,
    met: styleGaps.length > 1 && styleGaps.every((g) => Math.abs(g.gap) <= MAX_PERSONALITY_MEDIAN_GAP + 1e-9),
  });

  const leaders = seasonLeaders(days);
  checks.push({
    id: "leader_change",
    target: `the leader on the last day is not the leader of day ${LEADER_EARLY_DAY} (judged over seeds: at least ${Math.round(LEADER_CHANGE_SEED_SHARE * 3)} of 3)`,
    measured: leaders ? `day ${LEADER_EARLY_DAY} country ${leaders.early}, day ${lastDay} country ${leaders.last}` : `season of ${lastDay} days: not applicable`,
    met: leaders === null || leaders.early !== leaders.last,
  });

  const bankruptcies = days.reduce((n, d) => n + (d.bankruptcies ?? 0), 0);
  const worstBankruptDay = days.reduce((w, d) => ((d.bankruptcies ?? 0) > (w?.bankruptcies ?? 0) ? d : w), null as DaySample | null);
  checks.push({
    id: "bankruptcy",
    target: `no country ends an action's turns bankrupt (at most ${MAX_BANKRUPTCIES} bankruptcy items)`,
    measured: `${bankruptcies} bankruptcy items${worstBankruptDay ? ` (most on day ${worstBankruptDay.day}: ${worstBankruptDay.bankruptcies})` : ""}`,
    met: bankruptcies <= MAX_BANKRUPTCIES,
  });

  const countryDays = days.slice(1).reduce((n, d) => n + d.countries.length, 0);
  const famineDays = days.slice(1).reduce((n, d) => n + (d.famineCountries ?? 0), 0);
  const famineShare = countryDays > 0 ? famineDays / countryDays : 0;
  checks.push({
    id: "famine",
    target: `famine on under ${pct(MAX_FAMINE_SHARE)} of country-days`,
    measured: `${famineDays} of ${countryDays} country-days (${(famineShare * 100).toFixed(2)}%)`,
    met: famineShare < MAX_FAMINE_SHARE,
  });

  checks.push({
    id: "government_medians",
    target: `every government's median final networth within ${pct(MAX_GOVERNMENT_MEDIAN_GAP)} of the overall median`,
    measured: `${Object.keys(byGovernment).length} governments; widest ${widest.government} ${widest.gap >= 0 ? "+" : ""}${pct(widest.gap)} (${widest.count} countries)`,
    met: gaps.length > 1 && gaps.every((g) => Math.abs(g.gap) <= MAX_GOVERNMENT_MEDIAN_GAP),
  });

  const settled = (series: Array<{ day: number; value: number }>) => series.filter((m) => m.day >= Math.min(MONEY_SETTLED_DAY, lastDay));
  const turns = settled(moneyInTurnsOfIncome(days));
  const perAcre = settled(moneyPerAcre(days));
  const base = median(turns.map((m) => m.value));
  const ratios = turns.map((m) => (base > 0 ? m.value / base : 0));
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  const acreBase = median(perAcre.map((m) => m.value));
  const acreRatios = perAcre.map((m) => (acreBase > 0 ? m.value / acreBase : 0));
  checks.push({
    id: "money_supply",
    target: `money in turns of the world's gross income stays within ${MONEY_BAND.low}x-${MONEY_BAND.high}x of its median from day ${MONEY_SETTLED_DAY} on`,
    measured:
      `in turns of income median ${base.toFixed(1)} (days ${turns[0]?.day ?? "-"}-${lastDay}); range ${low.toFixed(2)}x-${high.toFixed(2)}x (${(base * low).toFixed(1)}-${(base * high).toFixed(1)}); ` +
      `per acre median ${acreBase.toFixed(1)}, range ${Math.min(...acreRatios).toFixed(2)}x-${Math.max(...acreRatios).toFixed(2)}x (not judged)`,
    met: base > 0 && low >= MONEY_BAND.low && high <= MONEY_BAND.high,
  });
  return checks;
}
