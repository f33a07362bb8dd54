/**
 * Espionage in Debian's Chromium against the built server: two players in two browser
 * contexts. A opens the Spy Center, picks B from military's target list, runs General
 * Intelligence until an operation is detected and one succeeds, and reads the report in
 * Intelligence Reports; B sees the detection notice without a reload. Then the Intelligence
 * Center in the alliances view, and every screen at desktop and phone size. Screenshots go to
 * .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/espionage.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

let server: E2EServer;
let browser: Browser;
let a: Player;
let b: Player;
let contextA: BrowserContext;
let contextB: BrowserContext;
let pageA: Page;
let pageB: Page;
const consoleErrors: string[] = [];

const shot = screenshotter("esp-");

async function signedIn(player: Player, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  return { context, page };
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  a = await server.registerPlayer("spy");
  b = await server.registerPlayer("mark");
  for (const p of [a, b]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  // A: many spies on a lot of land (few per acre); B: many per acre. A's Spy Center chance
  // sits at the floor (half the base), so failures (always detected) come quickly.
  await server.sql("UPDATE countries SET spies = 400, land = 100000, turns = 150 WHERE id = $1", [a.countryId]);
  await server.sql("UPDATE countries SET spies = 1000, land = 1000 WHERE id = $1", [b.countryId]);
  browser = await launchChromium();
  ({ context: contextA, page: pageA } = await signedIn(a));
  ({ context: contextB, page: pageB } = await signedIn(b));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("espionage in the browser", () => {
  it("A spies on B and reads the report; B sees the detection notice without a reload", async () => {
    await pageB.goto(`${server.baseUrl}/#/overview`);
    await expect.poll(() => pageB.getByTestId("overview").isVisible(), { timeout: 20_000 }).toBe(true);

    await pageA.goto(`${server.baseUrl}/#/overview`);
    await expect.poll(() => pageA.getByTestId("overview").isVisible(), { timeout: 20_000 }).toBe(true);
    await openMenu(pageA, "Spy Center");
    await expect.poll(() => pageA.getByTestId("spy-center").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => pageA.getByTestId("sc-spies").textContent(), { timeout: 10_000 }).toBe("400");
    expect(await pageA.getByTestId("sc-ratio").textContent()).toBe("0.00400");
    await expect.poll(() => pageA.getByTestId("sc-remaining").textContent()).toBe("30");
    // no target: execute disabled and says why
    expect(await pageA.getByTestId("sc-execute").isDisabled()).toBe(true);
    expect(await pageA.getByTestId("disabled-reason").first().textContent()).toBe("No target selected");
    await shot(pageA, "01-spy-center");

    // Target Selection (military's list): choosing B returns to the operations
    await pageA.getByRole("tab", { name: "Target Selection" }).click();
    await pageA.getByLabel("Search").fill(b.body.countryName);
    await pageA.getByTestId("sc-target-row").first().click();
    await expect.poll(() => pageA.getByTestId("sc-target").textContent()).toContain(b.body.countryName);
    await pageA.getByTestId("op-general_intelligence").click();
    // sabotage needs 50 spies: A has them, so its card is usable
    expect(await pageA.getByTestId("op-sabotage").isDisabled()).toBe(false);
    await shot(pageA, "02-operations");

    let detected = false;
    let succeeded = false;
    for (let i = 0; i < 25 && !(detected && succeeded); i++) {
      await expect.poll(() => pageA.getByTestId("sc-execute").isDisabled(), { timeout: 10_000 }).toBe(false);
      await pageA.getByTestId("sc-execute").click();
      await expect.poll(() => pageA.getByTestId("mission-outcome").isVisible(), { timeout: 15_000 }).toBe(true);
      const text = (await pageA.getByTestId("mission-outcome").textContent())!;
      expect(text).toMatch(/^(Mission Successful|Mission Failed)/);
      if (text.includes("Operation detected by enemy intelligence")) detected = true;
      if (text.startsWith("Mission Successful")) succeeded = true;
      if (text.startsWith("Mission Failed")) expect(text).toMatch(/Spies lost: \d+/);
    }
    expect(detected).toBe(true);
    expect(succeeded).toBe(true);
    const used = Number((await server.sql("SELECT used FROM spy_daily_counters WHERE country_id = $1", [a.countryId]))[0].used);
    await expect.poll(() => pageA.getByTestId("sc-remaining").textContent(), { timeout: 10_000 }).toBe(String(30 - used));
    await shot(pageA, "03-outcome");

    // B: the notice, live
    await expect.poll(() => pageB.getByTestId("notice-spy_detected").first().isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await pageB.getByTestId("notice-spy_detected").first().textContent()).toMatch(/spies detected|Spies of/i);
    await shot(pageB, "04-target-notice");

    // A reads a successful report: its numbers are B's within the confidence's spread
    await pageA.getByRole("tab", { name: "Intelligence Reports" }).click();
    await expect.poll(() => pageA.getByTestId("reports-count").textContent(), { timeout: 10_000 }).toBe(`Showing ${used} of ${used} reports`);
    const rows = pageA.getByTestId("report-row");
    const n = await rows.count();
    let opened = false;
    for (let i = 0; i < n && !opened; i++) {
      if ((await rows.nth(i).textContent())!.includes("failed")) continue;
      await rows.nth(i).click();
      opened = true;
    }
    expect(opened).toBe(true);
    await expect.poll(() => pageA.getByTestId("intel-general").isVisible()).toBe(true);
    expect(await pageA.getByTestId("intel-general").textContent()).toContain("Population");
    await shot(pageA, "05-report");
    // a failed one shows the 'Operation Failed' panel
    const failedRow = rows.filter({ hasText: "failed" }).first();
    if ((await failedRow.count()) > 0) {
      await failedRow.click();
      await expect.poll(() => pageA.getByTestId("operation-failed").textContent()).toContain("Operation Failed: The spy operation was unsuccessful");
    }
    // search by tag
    await pageA.getByLabel("Search").fill("zzz-nothing");
    await expect.poll(() => pageA.getByTestId("reports-empty").textContent()).toBe("No intelligence reports found");
  });

  it("the Intelligence Center in the alliances view: tiles, type picker, a mission, recent missions", async () => {
    await openMenu(pageA, "Alliances");
    await pageA.getByRole("tab", { name: "Intelligence Operations" }).click();
    await expect.poll(() => pageA.getByTestId("intelligence-center").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => pageA.getByTestId("ops-remaining").textContent()).toMatch(/Daily operations remaining: \d+ \/ 30/);
    await pageA.getByTestId("mission-type-general").click();
    await pageA.getByLabel("Search").fill(b.body.countryName);
    await pageA.getByTestId("ic-target").first().click();
    await expect.poll(() => pageA.getByTestId("ic-execute").isDisabled()).toBe(false);
    await pageA.getByTestId("ic-execute").click();
    await expect.poll(() => pageA.getByTestId("mission-outcome").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => pageA.getByTestId("recent-missions").locator("li").count()).toBeGreaterThan(1);
    await shot(pageA, "06-intelligence-center");

    // a player without spies: every type card says 'Insufficient spies'
    await server.sql("UPDATE countries SET spies = 0 WHERE id = $1", [b.countryId]);
    await pageB.reload();
    await openMenu(pageB, "Alliances");
    await pageB.getByRole("tab", { name: "Intelligence Operations" }).click();
    await expect.poll(() => pageB.getByTestId("mission-type-general").isDisabled(), { timeout: 15_000 }).toBe(true);
    expect(await pageB.getByTestId("mission-type-military").textContent()).toContain("Insufficient spies");
  });

  it("every espionage screen at phone size", async () => {
    const { context, page } = await signedIn(a, PHONE);
    try {
      await page.goto(`${server.baseUrl}/#/spy-center`);
      await expect.poll(() => page.getByTestId("spy-center").isVisible(), { timeout: 20_000 }).toBe(true);
      await shot(page, "01-spy-center");
      await page.getByRole("tab", { name: "Intelligence Reports" }).click();
      await expect.poll(() => page.getByTestId("report-list").isVisible(), { timeout: 10_000 }).toBe(true);
      await shot(page, "05-report");
      await page.getByRole("tab", { name: "Spy Training" }).click();
      await expect.poll(() => page.getByTestId("spy-training").isVisible()).toBe(true);
      await shot(page, "07-training");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await page.goto(`${server.baseUrl}/#/alliances`);
      await page.getByRole("tab", { name: "Intelligence Operations" }).click();
      await expect.poll(() => page.getByTestId("intelligence-center").isVisible(), { timeout: 15_000 }).toBe(true);
      await shot(page, "06-intelligence-center");
    } finally {
      await context.close();
    }
    await contextA.close();
    await contextB.close();
    expect(consoleErrors.filter((e) => !/Failed to load resource|WebSocket/.test(e))).toEqual([]);
  });
});
