import type { DaySample } from "./sample.js";

/**
 * The balance targets of a simulated season (issue 14, docs/balance.md), computed from the
 * daily samples. Pure: the report, the CLI and the tests read the same verdicts.
 */

export interface BalanceCheck {
  id: "top10_churn" | "daily_land_loss" | "government_medians" | "money_supply";
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

export function evaluateBalance(days: readonly DaySample[]): BalanceCheck[] {
  const last = days[days.length - 1]!;
  const checks: BalanceCheck[] = [];

  const late = top10Changes(days).filter((c) => c.day > TOP10_LATE_DAY && c.entered.length > 0);
  const lastDay = last.day;
  checks.push({
    id: "top10_churn",
    target: `the top 10 still changes after day ${TOP10_LATE_DAY}`,
    measured: lastDay <= TOP10_LATE_DAY ? `season of ${lastDay} days: not applicable` : `${late.length} of ${lastDay - TOP10_LATE_DAY} days after day ${TOP10_LATE_DAY} changed the top 10 (${late.reduce((n, c) => n + c.entered.length, 0)} entries)`,
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
