/**
 * Settings, administration and the season lifecycle in Debian's Chromium against the built
 * server on a real Postgres, with the turn tick on (5 s turns) and a season of about 40
 * seconds (SEASON_LENGTH_DAYS in the test's config):
 * - a player changes settings on two tabs (the unsaved-changes flag, the refresh interval
 *   disabled without auto-refresh), saves, logs out and in again: the settings are kept;
 * - an administrator (ADMIN_EMAILS) ends the first season from the Admin screen: scores are
 *   archived and the player's country reset; the new, short season then ends by the tick and
 *   another starts; the player's overview counts down live and Rankings > Historical lists
 *   both past seasons; a player sees no Admin entry.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/shell.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { newPlayer, startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 360, height: 740 };
const ADMIN_EMAIL = `chief${process.pid}@example.com`;
/** About 40 seconds. */
const SEASON_LENGTH_DAYS = 40 / 86_400;

let server: E2EServer;
let browser: Browser;
let player: Player;
let admin: Player;
const consoleErrors: string[] = [];

const shot = screenshotter("shell-");

async function pageOf(who: Player, view: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((token) => localStorage.setItem("access_token", token), who.token);
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.baseUrl}/#/${view}`);
  return page;
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ TICK_ENABLED: "true", TURN_INTERVAL_MS: "5000", SEASON_LENGTH_DAYS: String(SEASON_LENGTH_DAYS), ADMIN_EMAILS: ADMIN_EMAIL });
  player = await server.registerPlayer("setp");
  const body = { ...newPlayer("chief"), email: ADMIN_EMAIL };
  const reg = await server.api("POST", "/auth/register", body);
  expect(reg.status).toBe(201);
  admin = { token: reg.body.token, user: reg.body.user, countryId: reg.body.user.countryId, body };
  for (const p of [player, admin]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("settings in the browser", () => {
  it("are saved on the server and kept across logout and login", async () => {
    const page = await pageOf(player, "overview");
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    await openMenu(page, "Settings");
    await page.getByTestId("settings").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("unsaved-changes").count()).toBe(0);
    await shot(page, "settings-profile");

    await page.getByRole("tab", { name: "Display" }).click();
    await page.getByLabel("Theme").selectOption("light");
    await expect.poll(() => page.getByTestId("unsaved-changes").isVisible()).toBe(true);
    await page.getByRole("tab", { name: "Gameplay" }).click();
    expect(await page.getByLabel("Refresh interval").isDisabled()).toBe(false);
    await page.getByLabel("Refresh interval").selectOption("120");
    await page.getByTestId("setting-gameplay-autoRefresh").uncheck();
    expect(await page.getByLabel("Refresh interval").isDisabled()).toBe(true);
    await shot(page, "settings-gameplay-unsaved");
    await page.getByTestId("save-settings").click();
    await expect.poll(() => page.getByTestId("settings-saved").isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("unsaved-changes").count()).toBe(0);

    await page.getByRole("tab", { name: "Account" }).click();
    await page.getByTestId("open-account").waitFor();
    await shot(page, "settings-account");

    await openMenu(page, "Logout");
    await expect.poll(() => page.getByText("Correct Login to Your Empire").isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByLabel("Email", { exact: true }).fill(player.body.email);
    await page.getByLabel("Password", { exact: true }).fill(player.body.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByTestId("overview").waitFor({ timeout: 15_000 });

    await openMenu(page, "Settings");
    await page.getByTestId("settings").waitFor({ timeout: 15_000 });
    await page.getByRole("tab", { name: "Display" }).click();
    expect(await page.getByLabel("Theme").inputValue()).toBe("light");
    await page.getByRole("tab", { name: "Gameplay" }).click();
    expect(await page.getByTestId("setting-gameplay-autoRefresh").isChecked()).toBe(false);
    expect(await page.getByLabel("Refresh interval").inputValue()).toBe("120");
    expect(await page.getByLabel("Refresh interval").isDisabled()).toBe(true);
    const token = await page.evaluate(() => localStorage.getItem("access_token"));
    const stored = await server.api("GET", "/settings", undefined, token!);
    // logging out revoked the first token: the rest of the file uses the new one
    player = { ...player, token: token! };
    expect(stored.body.data.settings.display.theme).toBe("light");

    const phone = await pageOf(player, "settings", PHONE);
    await phone.getByTestId("settings").waitFor({ timeout: 15_000 });
    await shot(phone, "settings-profile");
    await phone.getByRole("tab", { name: "Gameplay" }).click();
    await shot(phone, "settings-gameplay");
    await phone.context().close();
    await page.context().close();
  }, 90_000);
});

describe("seasons and administration in the browser", () => {
  it("an administrator ends the season; the short season that follows ends by the tick; history lists both", async () => {
    await server.sql("UPDATE countries SET land = 4321, networth = 7654321 WHERE id = $1", [player.countryId]);
    const first = (await server.api("GET", "/season/current", undefined, player.token)).body.data;
    expect(first.name).toBe("Season 1");

    const playerPage = await pageOf(player, "overview");
    await playerPage.getByTestId("overview").waitFor({ timeout: 20_000 });
    await expect.poll(() => playerPage.getByTestId("round-ends").textContent(), { timeout: 15_000 }).toMatch(/^The round ends in (89\.\d|90\.0) days$/);
    expect(await playerPage.getByTestId("overview-land").textContent()).toBe("4,321 acres");
    // a player has no Admin entry
    expect(await playerPage.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: "Admin", exact: true }).count()).toBe(0);

    const adminPage = await pageOf(admin, "overview");
    await adminPage.getByTestId("overview").waitFor({ timeout: 20_000 });
    await openMenu(adminPage, "Admin");
    await adminPage.getByTestId("admin").waitFor({ timeout: 15_000 });
    await expect.poll(() => adminPage.getByTestId("admin-season-name").textContent(), { timeout: 15_000 }).toBe("Season 1");
    await shot(adminPage, "admin");
    await adminPage.getByTestId("end-season").click();
    // the end names the season the administrator is ending, so a repeat answers 409 instead of ending the next one
    const endRequest = adminPage.waitForRequest((r) => r.url().endsWith("/api/admin/season/end") && r.method() === "POST");
    await adminPage.getByTestId("confirm-end-season").click();
    expect((await endRequest).postDataJSON()).toEqual({ startNext: true, seasonId: first.id });
    // live: the room's season changes on both pages
    await expect.poll(() => adminPage.getByTestId("admin-season-name").textContent(), { timeout: 15_000 }).toBe("Season 2");
    await expect.poll(() => playerPage.getByTestId("round-ends").textContent(), { timeout: 15_000 }).toBe("The round ends in 0.0 days");
    // the player's open overview shows the reset country without a reload
    await expect.poll(() => playerPage.getByTestId("overview-land").textContent(), { timeout: 15_000 }).toBe("100 acres");
    await expect.poll(() => adminPage.getByTestId("admin-log").textContent(), { timeout: 10_000 }).toContain("end season");

    const archived = (await server.api("GET", `/season/scores?season=${first.id}`, undefined, player.token)).body.data;
    expect(archived.scores[0]).toMatchObject({ rank: 1, countryId: player.countryId, land: 4321, networth: 7654321 });
    const reset = await server.sql("SELECT land FROM countries WHERE id = $1", [player.countryId]);
    expect(Number(reset[0].land)).toBe(100);

    // Season 2 lasts about 40 s; the tick (every 5 s) ends it and starts Season 3
    await expect.poll(async () => (await server.api("GET", "/season/current", undefined, player.token)).body.data.name, { timeout: 90_000, interval: 2_000 }).toBe("Season 3");
    await expect.poll(() => adminPage.getByTestId("admin-season-name").textContent(), { timeout: 15_000 }).toBe("Season 3");

    await openMenu(playerPage, "Scores");
    await playerPage.getByRole("tab", { name: "Historical" }).click();
    await playerPage.getByTestId("historical").waitFor({ timeout: 15_000 });
    expect(await playerPage.getByTestId(`season-${first.id}`).textContent()).toContain("Season 1");
    expect(await playerPage.getByTestId("historical").textContent()).toContain("Season 2");
    await playerPage.getByTestId(`season-${first.id}`).getByRole("button", { name: "Final scores" }).click();
    await expect.poll(() => playerPage.getByTestId(`season-${first.id}`).textContent(), { timeout: 10_000 }).toContain("7,654,321");
    await shot(playerPage, "rankings-historical");
    const news = await server.api("GET", "/news?type=seasonal", undefined, player.token);
    expect(news.body.data.map((n: { title: string }) => n.title)).toEqual(expect.arrayContaining(["Season 1 has ended", "Season 2 has ended", "Season 3 has begun"]));

    await playerPage.getByRole("tab", { name: "Achievements" }).click();
    await playerPage.getByTestId("achievements").waitFor({ timeout: 15_000 });
    await shot(playerPage, "rankings-achievements");
    await playerPage.getByRole("tab", { name: "Countries" }).click();
    await playerPage.getByLabel("Metric").selectOption("population");
    await expect.poll(() => playerPage.getByTestId("rankings-table").textContent(), { timeout: 15_000 }).toContain("≈");
    await shot(playerPage, "rankings-population");

    const phone = await pageOf(admin, "admin", PHONE);
    await phone.getByTestId("admin").waitFor({ timeout: 15_000 });
    await shot(phone, "admin");
    const phoneRankings = await pageOf(player, "rankings", PHONE);
    await phoneRankings.getByRole("tab", { name: "Historical" }).click();
    await phoneRankings.getByTestId("historical").waitFor({ timeout: 15_000 });
    await shot(phoneRankings, "rankings-historical");
    expect(consoleErrors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
  }, 180_000);
});
