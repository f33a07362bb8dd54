/**
 * The rest of the shell in Debian's Chromium against the built server on a real Postgres:
 * Research (select a card, confirm, the level and points change on the server), Manage
 * (a government change shows CHANGING... then the new government; the second change shows its
 * price; options saved and kept across a reload; statistics), the Advisor (EXECUTE performs a
 * recommendation), the Overview's happenings (personal news), at desktop and phone widths.
 * Screenshots go to .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/manage.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { computeTechnologyCost } from "@game/schema/rules";
import { launchChromium, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 360, height: 740 };

let server: E2EServer;
let browser: Browser;
let player: Player;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

const shot = screenshotter("shell-");

const row = async () => (await server.sql("SELECT * FROM countries WHERE id = $1", [player.countryId]))[0];

async function open(view: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#/${view}`);
  await page.reload();
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  player = await server.registerPlayer("shell");
  await server.api("POST", "/user/tutorial-complete", undefined, player.token);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("research in the browser", () => {
  it("shows labs, points and eleven cards; selecting an available card and confirming buys its level", async () => {
    const cost = computeTechnologyCost("business", 0, "monarchy");
    await server.sql("UPDATE countries SET research_labs = 2, research_points = $2 WHERE id = $1", [player.countryId, cost + 7]);
    await open("research");
    await page.getByTestId("research").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("research-labs").textContent()).toBe("2");
    expect(await page.getByTestId("research-ppt").textContent()).toBe("200");
    expect(await page.getByTestId("research-points").textContent()).toBe((cost + 7).toLocaleString("en-US"));
    expect(await page.getByTestId("tech-cards").locator(".attack-card").count()).toBe(11);
    expect(await page.getByTestId("tech-residential").getAttribute("data-state")).toBe("locked");
    expect(await page.getByTestId("tech-residential").textContent()).toContain("Requires Medical");
    await shot(page, "research");
    await page.getByTestId("tech-business").click();
    await page.getByTestId("research-confirm").click();
    await expect.poll(() => page.getByTestId("research-message").textContent(), { timeout: 10_000 }).toMatch(/Business/);
    const after = await row();
    expect(after.business_tech).toBe(1);
    expect(Number(after.research_points)).toBe(7);
    await expect.poll(() => page.getByTestId("research-points").textContent()).toBe("7");
    // a locked card cannot be confirmed: the rule's message says why
    await page.getByTestId("tech-sdi").click();
    expect(await page.getByTestId("research-confirm").isDisabled()).toBe(true);
    expect(await page.getByTestId("disabled-reason").textContent()).toMatch(/SDI requires/);
  });
});

describe("country management in the browser", () => {
  it("changes government: CHANGING... while it runs, then the new government; the next change shows its price", async () => {
    await open("manage?government");
    await page.getByTestId("government-list").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("government-cost").textContent()).toBe("Your first government change is free.");
    expect(await page.getByTestId("government-monarchy").textContent()).toContain("current");
    await shot(page, "manage-government");
    // hold the request so the busy state can be seen
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/country/change-government", async (r) => {
      await held;
      await r.continue();
    });
    page.once("dialog", (d) => void d.accept()); // "Confirm actions" (on by default)
    await page.getByTestId("select-theocracy").click();
    await expect.poll(() => page.getByTestId("select-republic").textContent()).toBe("CHANGING...");
    expect(await page.getByTestId("select-republic").isDisabled()).toBe(true);
    release();
    await expect.poll(() => page.getByTestId("government-message").textContent(), { timeout: 10_000 }).toMatch(/Monarchy -> Theocracy \(free change\)/);
    await page.unroute("**/api/country/change-government");
    expect((await row()).government_type).toBe("theocracy");
    await expect.poll(() => page.getByTestId("government-theocracy").textContent()).toContain("current");
    await expect.poll(() => page.getByTestId("government-cost").textContent()).toMatch(/^The next change costs \$[\d,]+ and \d+ turns/);
  });

  it("keeps auto-build and notify options across a reload; the country name is read-only", async () => {
    await open("manage?settings");
    await page.getByTestId("option-autoResearch").waitFor({ timeout: 20_000 });
    expect(await page.getByText("Country name cannot be changed").count()).toBe(1);
    expect(await page.locator("#country-name").getAttribute("readonly")).not.toBeNull();
    expect(await page.getByTestId("option-notifyAttacks").isChecked()).toBe(true);
    expect(await page.getByTestId("option-notifyMarket").isChecked()).toBe(false);
    expect(await page.getByTestId("save-options").isDisabled()).toBe(true);
    await page.getByTestId("option-autoResearch").check();
    await page.getByTestId("option-notifyAttacks").uncheck();
    await page.getByTestId("save-options").click();
    await expect.poll(() => page.getByTestId("options-message").textContent()).toBe("Settings saved.");
    await shot(page, "manage-settings");
    await page.reload();
    await page.getByTestId("option-autoResearch").waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId("option-autoResearch").isChecked()).toBe(true);
    expect(await page.getByTestId("option-notifyAttacks").isChecked()).toBe(false);
    expect((await server.sql("SELECT auto_research FROM country_options WHERE country_id = $1", [player.countryId]))[0].auto_research).toBe(true);
  });

  it("shows the statistics and converts stored turns", async () => {
    await server.sql("UPDATE countries SET stored_turns = 12, turns = 100 WHERE id = $1", [player.countryId]);
    await open("manage?statistics");
    await page.getByTestId("statistics").waitFor({ timeout: 20_000 });
    const r = await row();
    const shown = Number((await page.getByTestId("stat-per-capita").textContent())!.replace(/[$,]/g, ""));
    expect(shown).toBeCloseTo(Number(r.cash) / Number(r.population), 2);
    await shot(page, "manage-statistics");
    await open("manage");
    await page.getByTestId("stored-turns").waitFor({ timeout: 20_000 });
    await page.locator("#convert-quantity").fill("2.5");
    expect(await page.getByTestId("convert-stored").isDisabled()).toBe(true);
    await page.locator("#convert-quantity").fill("5");
    await page.getByTestId("convert-stored").click();
    await expect.poll(async () => (await row()).stored_turns, { timeout: 10_000 }).toBe(7);
    await shot(page, "manage-overview");
  });
});

describe("advisor and happenings", () => {
  it("EXECUTE on a recommendation performs it; the Government Advisor names a best fit", async () => {
    await server.sql("UPDATE countries SET stored_turns = 9, turns = 100 WHERE id = $1", [player.countryId]);
    await open("advisor");
    await page.getByTestId("recommendations").waitFor({ timeout: 20_000 });
    await page.getByTestId("execute-stored-turns").click();
    await expect.poll(async () => (await row()).stored_turns, { timeout: 10_000 }).toBe(0);
    await shot(page, "advisor");
    await page.getByRole("tab", { name: "Government Advisor" }).click();
    expect((await page.getByTestId("best-government").textContent())?.length).toBeGreaterThan(0);
    await page.getByRole("tab", { name: "Situation Analysis" }).click();
    await page.getByTestId("situation").waitFor();
  });

  it("the overview's happenings list the research level reached", async () => {
    await open("overview");
    await page.getByTestId("happenings").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("happenings").textContent()).toContain("Business research reached level 1");
    expect(await page.getByTestId("overview-research-points").textContent()).toMatch(/^[\d,]+ unspent$/);
    await shot(page, "overview");
  });

  it("the intelligence briefs assess the player's situation", async () => {
    await open("news");
    await page.getByRole("tab", { name: "Intelligence Briefs" }).click();
    await page.getByTestId("briefs").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("briefs").textContent()).toMatch(/All quiet|Quiet, but lightly defended/);
    await shot(page, "briefs");
  });

  it("a turn popup sits beside the page, never over it, on desktop and phone", async () => {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await server.sql("UPDATE countries SET cash = 1000000, land = 1000, turns = 100 WHERE id = $1", [player.countryId]);
      // spend turns through the explore screen: the popup appears
      await open("explore");
      await page.getByRole("button", { name: "5 Turns" }).waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "5 Turns" }).click();
      await page.getByRole("button", { name: /^Explore \d/ }).click();
      await page.getByTestId("turn-popup").first().waitFor({ timeout: 10_000 });
      const popup = (await page.locator(".popup-dock").boundingBox())!;
      const main = (await page.locator("main.main").boundingBox())!;
      const overlap = popup.x < main.x + main.width && main.x < popup.x + popup.width && popup.y < main.y + main.height && main.y < popup.y + popup.height;
      expect(overlap, `popup over the page at ${size.width}px`).toBe(false);
      await shot(page, "turn-popup");
      await page.getByTestId("turn-popup").first().getByRole("button", { name: "Continue" }).click();
    }
    await page.setViewportSize(DESKTOP);
  });

  it("warns when turns are at the cap, and when the live connection drops", async () => {
    await server.sql("UPDATE countries SET turns = 150, stored_turns = 4 WHERE id = $1", [player.countryId]);
    await open("overview");
    await expect.poll(() => page.getByTestId("turn-cap-banner").textContent(), { timeout: 20_000 }).toMatch(/at the 150 cap: new turns now go to storage \(4 of 180 stored\)/);
    // live first (the banner is not shown while connected)
    await page.locator(".statusbar .conn.connected").waitFor({ state: "attached", timeout: 40_000 });
    expect(await page.getByTestId("stale-banner").count()).toBe(0);
    await context.setOffline(true);
    await page.getByTestId("stale-banner").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("stale-banner").textContent()).toMatch(/the numbers shown may be stale/);
    await shot(page, "stale-banner");
    await context.setOffline(false);
    await page.reload();
    await page.locator(".statusbar .conn.connected").waitFor({ state: "attached", timeout: 40_000 });
    expect(await page.getByTestId("stale-banner").count()).toBe(0);
  }, 120_000);

  it("every new screen fits a phone", async () => {
    await page.setViewportSize(PHONE);
    for (const view of ["research", "manage?government", "manage?settings", "advisor"]) {
      await open(view);
      await page.waitForTimeout(800);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, view).toBeLessThanOrEqual(0);
      await shot(page, view.replace("?", "-"));
    }
    await page.setViewportSize(DESKTOP);
    expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
