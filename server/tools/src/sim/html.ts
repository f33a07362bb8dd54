import { escapeHtml, lineChart, PALETTE, table, type Series } from "@game/schema/report";
import { evaluateBalance, evaluateSeeds, largestDailyLandLoss, median, mediansBy, moneyInTurnsOfIncome, moneyPerAcre, top10Changes } from "./balance.js";
import type { SeasonRun } from "./season.js";

/**
 * The season simulator's report: one self-contained HTML file (inline SVG, no script), with
 * the balance verdicts first and the curves behind them.
 */

function seriesByGroup(run: SeasonRun, key: "personality" | "government", field: "networth" | "land"): Series[] {
  const groups = [...new Set(run.days[0]!.countries.map((c) => c[key]).concat(run.days[run.days.length - 1]!.countries.map((c) => c[key])))].sort();
  return groups.map((group, i) => ({
    name: group,
    color: PALETTE[i % PALETTE.length]!,
    points: run.days.map((d) => {
      const values = d.countries.filter((c) => c[key] === group).map((c) => c[field]);
      return [d.day, values.length ? median(values) : null] as [number, number | null];
    }),
  }));
}

function itemSeries(run: SeasonRun, pick: (t: SeasonRun["days"][number]["trades"][number]) => number | null): Series[] {
  const items = [...new Set(run.days.flatMap((d) => d.trades.map((t) => t.item)))].sort();
  return items.map((item, i) => ({
    name: item,
    color: PALETTE[i % PALETTE.length]!,
    points: run.days.slice(1).map((d) => [d.day, pick(d.trades.find((t) => t.item === item) ?? { item, playerVolume: 0, playerPrice: null, storeVolume: 0, storePrice: null })] as [number, number | null]),
  }));
}

const HEAD = "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content='width=device-width,initial-scale=1'>";
const STYLE =
  "<style>body{font:14px system-ui,sans-serif;max-width:960px;margin:24px auto;padding:0 12px;color:#111827}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}th{background:#f3f4f6}.met{color:#15803d;font-weight:600}.missed{color:#b91c1c;font-weight:600}pre{background:#f3f4f6;padding:8px;overflow:auto}</style></head><body>";

function verdictTable(checks: ReadonlyArray<{ target: string; measured: string; met: boolean }>): string {
  return `<table><thead><tr><th>target</th><th>measured</th><th>verdict</th></tr></thead><tbody>${checks
    .map((c) => `<tr><td>${escapeHtml(c.target)}</td><td>${escapeHtml(c.measured)}</td><td class=${c.met ? "met" : "missed"}>${c.met ? "met" : "missed"}</td></tr>`)
    .join("")}</tbody></table>`;
}

/** One report for several seeds' seasons: the verdicts over the seeds first, then each season's own section. */
export function renderSeedsHtml(runs: ReadonlyArray<{ run: SeasonRun; wallSeconds: number }>, command: string): string {
  if (runs.length === 1) return renderSeasonHtml(runs[0]!.run, command);
  const o = runs[0]!.run.options;
  return [
    HEAD,
    `<title>Season simulation, seeds ${runs.map((r) => r.run.options.seed).join(", ")}</title>`,
    STYLE,
    `<h1>Season simulation: ${o.countries} AI countries, ${runs[0]!.run.days.length - 1} days, seeds ${runs.map((r) => r.run.options.seed).join(", ")}</h1>`,
    `<pre>${escapeHtml(command)}</pre>`,
    "<h2>Verdicts over the seeds</h2>",
    verdictTable(evaluateSeeds(runs.map((r) => ({ seed: r.run.options.seed, days: r.run.days })))),
    table(
      ["seed", "wall time (s)", "actions", "refused"],
      runs.map((r) => [r.run.options.seed, Math.round(r.wallSeconds), r.run.stats.actions, r.run.stats.refused]),
    ),
    ...runs.map((r) => seasonSection(r.run, `Seed ${r.run.options.seed}`, "h2", "h3")),
    "</body></html>",
  ].join("\n");
}

export function renderSeasonHtml(run: SeasonRun, command: string): string {
  return [HEAD, `<title>Season simulation, seed ${run.options.seed}</title>`, STYLE, `<pre>${escapeHtml(command)}</pre>`, seasonSection(run, "Season simulation", "h1", "h2"), "</body></html>"].join("\n");
}

function seasonSection(run: SeasonRun, heading: string, h1: string, h2: string): string {
  const checks = evaluateBalance(run.days);
  const last = run.days[run.days.length - 1]!;
  const churn = top10Changes(run.days);
  const losses = largestDailyLandLoss(run.days);
  const money = moneyPerAcre(run.days);
  const overall = median(last.countries.map((c) => c.networth));
  const groupRows = (key: "personality" | "government") =>
    Object.entries(mediansBy(last, key)).map(([group, g]) => [
      group,
      g.count,
      Math.round(g.median),
      `${overall > 0 ? ((g.median / overall - 1) * 100).toFixed(1) : "0"}%`,
      Math.round(median(last.countries.filter((c) => c[key] === group).map((c) => c.land))),
    ]);
  const days = run.days.length - 1;
  const o = run.options;
  const s = run.stats;
  return [
    `<${h1}>${escapeHtml(heading)}: ${o.countries} AI countries, ${days} days, seed ${o.seed}</${h1}>`,
    `<p>Started ${escapeHtml(run.startedAt)} (simulated), a tick every ${run.turnIntervalMs / 60_000} minutes (${s.ticks} ticks); each country plays ${o.sessionsPerDay} sessions a day of up to ${o.actionsPerSession} actions. ` +
      `${s.actions} actions done, ${s.refused} refused; ${(s.tickMs / 1000).toFixed(0)} s in ticks, ${(s.playMs / 1000).toFixed(0)} s in AI play.</p>`,
    `<${h2}>Balance targets</${h2}>`,
    verdictTable(checks),
    `<${h2}>Final day by personality</${h2}>`,
    table(["personality", "countries", "median networth", "vs overall", "median land"], groupRows("personality")),
    `<${h2}>Final day by government</${h2}>`,
    table(["government", "countries", "median networth", "vs overall", "median land"], groupRows("government")),
    `<${h2}>Actions by kind</${h2}>`,
    table(
      ["kind", "done"],
      Object.entries(s.byKind).sort(([a], [b]) => a.localeCompare(b)),
    ),
    lineChart({ title: "Median networth by personality", xLabel: "day", yLabel: "networth", series: seriesByGroup(run, "personality", "networth") }),
    lineChart({ title: "Median land by personality", xLabel: "day", yLabel: "acres", series: seriesByGroup(run, "personality", "land") }),
    lineChart({ title: "Median networth by government", xLabel: "day", yLabel: "networth", series: seriesByGroup(run, "government", "networth") }),
    lineChart({ title: "Median land by government", xLabel: "day", yLabel: "acres", series: seriesByGroup(run, "government", "land") }),
    lineChart({
      title: "Top 10 by networth: countries entering per day",
      xLabel: "day",
      yLabel: "entries",
      series: [{ name: "entered the top 10", color: PALETTE[0]!, points: churn.map((c) => [c.day, c.entered.length]) }],
    }),
    lineChart({
      title: "Largest share of land any country lost in a day (%)",
      xLabel: "day",
      yLabel: "% of land",
      series: [
        { name: "largest loss", color: PALETTE[1]!, points: losses.map((l) => [l.day, l.share * 100]) },
        { name: "15% cap", color: PALETTE[8]!, points: losses.map((l) => [l.day, 15]) },
      ],
    }),
    lineChart({
      title: "Bankruptcy items and countries in famine per day",
      xLabel: "day",
      yLabel: "items / countries",
      series: [
        { name: "bankruptcy items", color: PALETTE[1]!, points: run.days.slice(1).map((d) => [d.day, d.bankruptcies ?? 0]) },
        { name: "countries in famine", color: PALETTE[4]!, points: run.days.slice(1).map((d) => [d.day, d.famineCountries ?? 0]) },
      ],
    }),
    lineChart({ title: "Attacks per day", xLabel: "day", yLabel: "battles", series: [{ name: "battles", color: PALETTE[3]!, points: run.days.slice(1).map((d) => [d.day, d.attacks]) }] }),
    lineChart({ title: "Units traded between countries per day, by item", xLabel: "day", yLabel: "units", series: itemSeries(run, (t) => t.playerVolume) }),
    lineChart({ title: "Average price between countries, by item", xLabel: "day", yLabel: "price per unit", series: itemSeries(run, (t) => t.playerPrice) }),
    lineChart({ title: "Units traded with the Government Store per day, by item", xLabel: "day", yLabel: "units", series: itemSeries(run, (t) => t.storeVolume) }),
    lineChart({ title: "Average Government Store price, by item", xLabel: "day", yLabel: "price per unit", series: itemSeries(run, (t) => t.storePrice) }),
    lineChart({ title: "Money supply (cash of every country and standing-order escrow)", xLabel: "day", yLabel: "cash", series: [{ name: "money supply", color: PALETTE[2]!, points: run.days.map((d) => [d.day, d.moneySupply]) }] }),
    lineChart({ title: "Cash per acre of land", xLabel: "day", yLabel: "cash per acre", series: [{ name: "cash per acre", color: PALETTE[5]!, points: money.map((m) => [m.day, m.value]) }] }),
    lineChart({
      title: "Money supply in turns of the world's gross income",
      xLabel: "day",
      yLabel: "turns of income",
      series: [{ name: "turns of income", color: PALETTE[6 % PALETTE.length]!, points: moneyInTurnsOfIncome(run.days).map((m) => [m.day, m.value]) }],
    }),
    `<${h2}>Top 10 changes per day</${h2}>`,
    table(
      ["day", "entered", "left"],
      churn.map((c) => [c.day, c.entered.join(", ") || "-", c.left.join(", ") || "-"]),
    ),
  ].join("\n");
}
