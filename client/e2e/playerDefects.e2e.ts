/**
 * What three players ran into (issue 30, "What a player ran into"), each as a browser step
 * against the built server: the screen as it was wrong, and as it must be now. Two players
 * (A attacks, B defends) in Debian's Chromium at desktop and phone width. Screenshots go to
 * .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/playerDefects.e2e.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 780 };

let server: E2EServer;
let browser: Browser;
let a: Player;
let b: Player;
const contexts: BrowserContext[] = [];
const consoleErrors: string[] = [];
const shot = screenshotter("defects-");

/** A page signed in as `player` (token in local storage, as after a login) on `view`. */
async function pageOf(player: Player, view: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.baseUrl}/#/${view}`);
  return page;
}

/** A guerrilla strike by A on B over REST. */
async function attackB(troops = 200): Promise<void> {
  const res = await server.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: b.countryId, attackType: "guerrilla_strike", units: { troops } }, a.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  a = await server.registerPlayer("raider");
  b = await server.registerPlayer("holder");
  for (const p of [a, b]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  await server.sql("UPDATE countries SET troops = 5000, turns = 150 WHERE id = $1", [a.countryId]);
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

describe("what a player ran into", () => {
  it("#2 the defender's Happenings fill live with each attack; #17 a notice's View opens that battle's report", async () => {
    const page = await pageOf(b, "overview");
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    const happenings = () => page.getByTestId("happenings").locator("li").filter({ hasText: a.body.countryName }).count().catch(() => 0);
    await expect.poll(() => page.getByText(/Loading happenings/).count(), { timeout: 15_000 }).toBe(0);
    expect(await happenings()).toBe(0);
    await attackB();
    await expect.poll(happenings, { timeout: 15_000 }).toBe(1);
    await attackB();
    await expect.poll(happenings, { timeout: 15_000 }).toBe(2);
    await shot(page, "02-happenings");

    // the notice's View: the war log with this battle's report open
    const reports = await server.api("GET", "/battle-reports", undefined, b.token);
    const latest = reports.body.reports[0].id;
    const card = page.getByTestId("notice-attacked");
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    await card.getByRole("button", { name: "View" }).click();
    await expect.poll(() => page.getByTestId(`war-log-${latest}`).getByTestId("battle-report").isVisible(), { timeout: 15_000 }).toBe(true);
    await shot(page, "17-view-report");
  });

  it("#3 on the phone: one toast at a time that expires, never over the open menu; the drawer has its own close button", async () => {
    const page = await pageOf(b, "overview", PHONE);
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    await attackB();
    await attackB();
    await expect.poll(() => page.getByTestId("notice-attacked").isVisible(), { timeout: 15_000 }).toBe(true);
    // repeats share one card
    expect(await page.getByTestId("notice-attacked").count()).toBe(1);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await expect.poll(() => menu.getByRole("button", { name: "Explore", exact: true }).isVisible()).toBe(true);
    await shot(page, "03-menu-over-toast");
    // the drawer's own close button is on top and closes it
    await page.getByTestId("drawer-close").click();
    await expect.poll(() => page.locator(".sidebar.open").count()).toBe(0);
    // the menu entry the toast sat on takes the tap (it used to land on the toast)
    await page.getByRole("button", { name: "Open menu" }).click();
    const box = (await page.getByTestId("notices").boundingBox())!;
    const entries = menu.getByRole("button");
    let under: string | null = null;
    for (let i = 0; i < (await entries.count()); i++) {
      const e = (await entries.nth(i).boundingBox())!;
      if (e.y > box.y && e.y + e.height < box.y + box.height && e.x + e.width / 2 < box.x + box.width) {
        under = await entries.nth(i).textContent();
        await page.mouse.click(e.x + e.width / 2, e.y + e.height / 2);
        break;
      }
    }
    expect(under, "a menu entry under the toast").not.toBeNull();
    await expect.poll(() => page.locator(".sidebar.open").count()).toBe(0);
  });
});
