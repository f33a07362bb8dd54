/**
 * Battle replay in Debian's Chromium (issue 30): a battle fought, the attacker replays it from
 * its war log, the defender from the news item; stepping through it (next, play at a pace,
 * jump to the end) reaches exactly the stored report's outcome, casualties and land. Desktop
 * (1366) and phone (390) screenshots.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/replay.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { BattleReportJson } from "@game/schema/api";
import type { UnitTally } from "@game/schema/rules";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };
/** Extra copies of the screenshots for the lead (SHOTS_DIR, not committed). */
const EXTRA_SHOTS = process.env.SHOTS_DIR;

let server: E2EServer;
let browser: Browser;
let a: Player;
let d: Player;
let report: BattleReportJson;
const contexts: BrowserContext[] = [];
const shot = screenshotter("replay-");

async function keep(p: Page, name: string) {
  await shot(p, name);
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(EXTRA_SHOTS, `replay-${name}-${p.viewportSize()!.width}.png`), fullPage: true });
  }
}

async function signedIn(player: Player, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  return context.newPage();
}

const UNIT_WORDS = [
  ["troops", "troop"],
  ["jets", "jet"],
  ["turrets", "turret"],
  ["tanks", "tank"],
  ["spies", "spy"],
] as const;

/** The losses line as the replay writes it: "Lost: 22 troops, 1 tank". */
function lossesText(t: UnitTally): string {
  const parts = UNIT_WORDS.filter(([u]) => t[u] > 0).map(([u, one]) => `${t[u].toLocaleString("en-US")} ${t[u] === 1 ? one : u}`);
  return `Lost: ${parts.length ? parts.join(", ") : "none"}`;
}

/** The replay's last step shows what `shown` (the viewer's own copy of the report) says. */
async function expectFinalState(p: Page, shown: BattleReportJson = report) {
  const report = shown;
  const replay = p.getByTestId("battle-replay");
  await expect.poll(() => replay.getByTestId("replay-outcome").isVisible()).toBe(true);
  expect(await replay.getByTestId("replay-land").textContent()).toBe(`${(report.landCaptured + report.landDestroyed).toLocaleString("en-US")} acres`);
  expect(await replay.getByTestId("replay-attacker-losses").textContent()).toBe(lossesText(report.attackerCasualties));
  expect(await replay.getByTestId("replay-defender-losses").textContent()).toBe(lossesText(report.defenderCasualties));
  expect(await replay.getByTestId("replay-outcome").textContent()).toContain(report.outcome === "attacker_victory" ? `${report.attackerName} won` : `${report.defenderName} held`);
}

beforeAll(async () => {
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  a = await server.registerPlayer("rplA");
  d = await server.registerPlayer("rplD");
  for (const p of [a, d]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  await server.sql("UPDATE countries SET troops = 3000, tanks = 60, cash = 2000000 WHERE id = $1", [a.countryId]);
  await server.api("POST", "/production/process", { countryId: a.countryId, turnsToProcess: 1 }, a.token);
  const res = await server.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 2_500, tanks: 50 } }, a.token);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  report = res.body.report;
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

describe("battle replay in the browser", () => {
  it.each([
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const)("the attacker steps through the replay from the war log to the stored outcome (%s)", async (_name, viewport) => {
    const p = await signedIn(a, viewport);
    await p.goto(`${server.baseUrl}/#/military?warlog`);
    const entry = p.getByTestId(`war-log-${report.id}`);
    await expect.poll(() => entry.isVisible(), { timeout: 20_000 }).toBe(true);
    await entry.getByRole("button").first().click();
    await entry.getByTestId("replay-open").click();
    const replay = p.getByTestId("battle-replay");
    await expect.poll(() => replay.getByTestId("replay-step").isVisible(), { timeout: 15_000 }).toBe(true);
    // step 1: the forces, nothing lost yet
    expect(await replay.getByTestId("replay-step").getAttribute("data-kind")).toBe("forces");
    expect(await replay.getByTestId("replay-land").textContent()).toBe("0 acres");
    expect(await replay.getByTestId("replay-attacker-losses").textContent()).toBe("Lost: none");
    // no empty band under the step's one line (issue 30: the step kept 5.5rem however short it was)
    const stepBox = (await replay.getByTestId("replay-step").boundingBox())!;
    const linesBox = (await replay.locator(".replay-lines").boundingBox())!;
    expect(stepBox.y + stepBox.height - (linesBox.y + linesBox.height)).toBeLessThan(4);
    await keep(p, "01-forces");
    // step by step to the casualties
    while ((await replay.getByTestId("replay-step").getAttribute("data-kind")) !== "casualties") await replay.getByTestId("replay-next").click();
    expect(await replay.getByTestId("replay-attacker-losses").textContent()).toBe(lossesText(report.attackerCasualties));
    await keep(p, "02-casualties");
    // play at the fast pace to the end
    await replay.getByTestId("replay-pace").selectOption("fast");
    await replay.getByTestId("replay-play").click();
    await expect.poll(() => replay.getByTestId("replay-outcome").isVisible(), { timeout: 20_000 }).toBe(true);
    await expectFinalState(p);
    expect(await replay.getByTestId("replay-play").textContent()).toBe("Play again");
    await keep(p, "03-outcome");
  });

  it("the defender replays the battle from its news item", async () => {
    const p = await signedIn(d, DESKTOP);
    await p.goto(`${server.baseUrl}/#/overview`);
    await expect.poll(() => p.getByTestId("overview").isVisible(), { timeout: 20_000 }).toBe(true);
    await openMenu(p, "News");
    const item = p.getByTestId("news-item").filter({ hasText: report.outcome === "attacker_victory" ? `Attacked by ${report.attackerName}` : `Attack by ${report.attackerName} repelled` });
    await expect.poll(() => item.isVisible(), { timeout: 15_000 }).toBe(true);
    await item.click();
    await p.getByTestId("news-detail").getByTestId("replay-open").click();
    const replay = p.getByTestId("battle-replay");
    await expect.poll(() => replay.getByTestId("replay-end").isVisible(), { timeout: 15_000 }).toBe(true);
    await replay.getByTestId("replay-end").click();
    // the defender's copy is exact on its own side (the attacker's estimates it, issue 28)
    const own = (await server.api("GET", `/battle-reports/${report.id}`, undefined, d.token)).body.report as BattleReportJson;
    await expectFinalState(p, own);
    await keep(p, "04-news");
  });
});
