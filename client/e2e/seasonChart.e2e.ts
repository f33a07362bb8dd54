/**
 * Your season as a chart (issue 30), in Debian's Chromium: daily snapshots of several countries
 * (rows of country_snapshots, as the daily tick phase writes them), and the chart's points for
 * the player's own country equal those snapshots: one dot per day, the table's networth, land
 * and rank (rank among the day's snapshots) the same. Screenshots at 1366 and 390 px.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/seasonChart.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const EXTRA_SHOTS = process.env.SHOTS_DIR;
const DAYS = 6;

let server: E2EServer;
let browser: Browser;
let me: Player;
const others: Player[] = [];
/** what was written: [day, countryId, networth, land] */
const snapshots: Array<{ day: string; countryId: number; networth: number; land: number }> = [];
const shot = screenshotter("season-");

async function keep(p: Page, name: string) {
  await shot(p, name);
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(EXTRA_SHOTS, `season-${name}-${p.viewportSize()!.width}.png`), fullPage: true });
  }
}

const dayOf = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startServer();
  me = await server.registerPlayer("season");
  await server.api("POST", "/user/tutorial-complete", undefined, me.token);
  for (let i = 0; i < 4; i++) others.push(await server.registerPlayer(`rival${i}`));
  // the season began a week ago; each country's snapshots of the last DAYS days
  await server.sql("UPDATE seasons SET starts_at = now() - interval '7 days' WHERE is_active");
  const players = [me, ...others];
  for (let d = DAYS - 1; d >= 0; d--) {
    for (const [i, p] of players.entries()) {
      // the player climbs: below everyone on the first day, above all on the last
      const networth = p === me ? 4_000 + (DAYS - 1 - d) * 900 : 5_000 + i * 150 + (DAYS - 1 - d) * 100;
      const land = p === me ? 100 + (DAYS - 1 - d) * 12 : 110 + i;
      snapshots.push({ day: dayOf(d), countryId: p.countryId, networth, land });
    }
  }
  for (const s of snapshots) {
    await server.sql("INSERT INTO country_snapshots (taken_on, country_id, networth, land, military, population, wars_won) VALUES ($1, $2, $3, $4, 0, 1000, 0) ON CONFLICT DO NOTHING", [s.day, s.countryId, s.networth, s.land]);
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The own country's expected points: its snapshots with its rank among each day's snapshots. */
function expectedPoints() {
  const days = [...new Set(snapshots.map((s) => s.day))].sort();
  return days.map((day) => {
    const ofDay = snapshots.filter((s) => s.day === day).sort((a, b) => b.networth - a.networth || a.countryId - b.countryId);
    const mine = ofDay.find((s) => s.countryId === me.countryId)!;
    return { day, networth: mine.networth, land: mine.land, rank: ofDay.indexOf(mine) + 1 };
  });
}

describe("your season as a chart", () => {
  it.each([
    ["desktop", { width: 1366, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const)("the chart's points are the daily snapshots (%s)", async (_name, viewport) => {
    const context = await browser.newContext({ viewport });
    await context.addInitScript((token) => localStorage.setItem("access_token", token), me.token);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/#/rankings?season`);
    const chart = page.getByTestId("season-chart");
    await expect.poll(() => chart.isVisible(), { timeout: 20_000 }).toBe(true);
    const expected = expectedPoints();
    // the data climbs as intended: last of five, then first
    expect([expected[0]!.rank, expected.at(-1)!.rank]).toEqual([5, 1]);
    // one dot per snapshot on the player's line
    await expect.poll(() => chart.locator("circle.own-dot").count()).toBe(expected.length);
    expect(await chart.getAttribute("data-points")).toBe(String(expected.length));
    // the table under the chart: the same numbers, day by day
    const rows = await page.getByTestId("season-table").locator("tbody tr").allTextContents();
    expect(rows).toEqual(expected.map((p) => `${p.day}${p.networth.toLocaleString("en-US")}${p.land.toLocaleString("en-US")}#${p.rank}`));
    // the dots sit where the values are: higher networth, higher on the chart
    const ys = await chart.locator("circle.own-dot").evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("cy"))));
    for (let i = 1; i < ys.length; i++) expect(ys[i]!).toBeLessThan(ys[i - 1]!);
    // the rivals' lines beside it (one legend entry per country)
    expect(await chart.locator(".recharts-legend-item").count()).toBe(1 + others.length);
    // the value axis writes numbers as the table does ("9,000", not "9000")
    // (the day axis' ticks are dates, "2026-11-22": the others are the value axis')
    const ticks = (await chart.locator(".recharts-cartesian-axis-tick-value").allTextContents()).filter((t) => !t.includes("-"));
    expect(ticks.length).toBeGreaterThan(1);
    for (const t of ticks) expect(t).toMatch(/^\d{1,3}(,\d{3})*$/);
    await keep(page, "01-networth");
    await page.getByTestId("season-metric").selectOption("rank");
    await expect.poll(() => chart.locator("circle.own-dot").count()).toBe(expected.length);
    await keep(page, "02-rank");
    await context.close();
  });
});
