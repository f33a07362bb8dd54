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
import { launchChromium, openMenu, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 780 };

let server: E2EServer;
let browser: Browser;
let a: Player;
let b: Player;
/** a country far below A's networth (out of A's attack band) */
let small: Player;
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
  small = await server.registerPlayer("tiny");
  for (const p of [a, b, small]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  await server.sql("UPDATE countries SET networth = 100 WHERE id = $1", [small.countryId]);
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
    const happenings = () =>
      page
        .getByTestId("happenings")
        .locator("li")
        .filter({ hasText: a.body.countryName })
        .count()
        .catch(() => 0);
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
    // the drawer slides in: read the positions once it has stopped moving
    let previous = "";
    await expect
      .poll(
        async () => {
          const now = JSON.stringify(await page.locator(".sidebar").boundingBox());
          const settled = now === previous;
          previous = now;
          return settled;
        },
        { interval: 150 },
      )
      .toBe(true);
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

  it("#16 target lists and the war room leave out what the launch would refuse; #5 the preview names a public band; #13 a war declaration asks first", async () => {
    const page = await pageOf(a, "military?targets");
    await page.getByTestId("target-selection").waitFor({ timeout: 20_000 });
    await page.getByLabel("Protection").selectOption("any");
    await page.getByLabel("Search").fill(small.body.countryName);
    await expect.poll(() => page.getByTestId(`target-refusal-${small.countryId}`).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId(`target-${small.countryId}`).click();
    expect(await page.getByTestId("target-refusal").textContent()).toBe("Target is too small to attack: its networth is under 40% of yours");
    expect(await page.getByTestId("select-target").isDisabled()).toBe(true);
    await shot(page, "16-out-of-reach");

    // an equal in reach: the preview says its chance is a band that does not follow the force
    await page.getByLabel("Search").fill(b.body.countryName);
    await page.getByTestId(`target-${b.countryId}`).click();
    await page.getByTestId("select-target").click();
    await page.getByTestId("attack-type-guerrilla_strike").click();
    await page.getByLabel(/^Troops \(/).fill("100");
    await expect.poll(() => page.getByTestId("preview-band-note").isVisible(), { timeout: 15_000 }).toBe(true);
    const band = await page.getByTestId("preview-chance").textContent();
    await page.getByLabel(/^Troops \(/).fill("1000");
    await expect.poll(() => page.getByTestId("preview-chance").textContent()).toBe(band);
    await shot(page, "05-preview-band");

    await openMenu(page, "War Room");
    await page.getByTestId("war-room").waitFor({ timeout: 15_000 });
    const row = page.getByTestId(`wr-target-${b.countryId}`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId(`wr-target-${small.countryId}`).count()).toBe(0);
    // declining the question declares nothing
    const asked = new Promise<string>((resolve) => page.once("dialog", (d) => void d.dismiss().then(() => resolve(d.message()))));
    await row.getByRole("button", { name: /^Declare war/ }).click();
    expect(await asked).toMatch(new RegExp(`^Declare war on ${b.body.countryName}\\? It costs \\$[\\d,]+ per turn and lasts at least 48 hours\\.$`));
    expect((await server.api("GET", "/war/declarations", undefined, a.token)).body.declarations ?? []).toHaveLength(0);
    await shot(page, "16-war-room");
  });

  it("#14 a listing is bought in part, as much as the cash pays for; #18 on the phone its Buy button is on screen", async () => {
    const listed = await server.api("POST", "/market/listings", { countryId: a.countryId, itemType: "troops", quantity: 2000, pricePerUnit: 150 }, a.token);
    expect(listed.status, JSON.stringify(listed.body)).toBeLessThan(300);
    const cash = Number((await server.sql("SELECT cash FROM countries WHERE id = $1", [b.countryId]))[0].cash);
    const affordable = Math.floor(cash / 150);
    expect(affordable).toBeLessThan(2000);
    const page = await pageOf(b, "market", PHONE);
    await page.getByTestId("public-market").waitFor({ timeout: 20_000 });
    const buy = page.getByTestId("listings").getByRole("button", { name: `Buy ${affordable.toLocaleString("en-US")}` });
    await expect.poll(() => buy.isVisible(), { timeout: 15_000 }).toBe(true);
    const box = (await buy.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "18-market-phone");
    // #13: every tab of every strip is whole on the phone (the last one was cut mid-word)
    const cut = await page.evaluate((width) => [...document.querySelectorAll('[role="tab"]')].filter((t) => t.getBoundingClientRect().right > width).map((t) => t.textContent), PHONE.width);
    expect(cut).toEqual([]);
    page.once("dialog", (d) => void d.accept());
    await buy.click();
    await expect.poll(() => page.getByTestId("market-message").textContent(), { timeout: 15_000 }).toBe(`Bought ${affordable.toLocaleString("en-US")} troops for $${(affordable * 150).toLocaleString("en-US")}.`);
  });

  it("#8 #21 font size, compact mode and theme change the screen", async () => {
    const saved = (await server.api("GET", "/settings", undefined, small.token)).body;
    const settings = saved.settings ?? saved.data?.settings;
    const put = await server.api("PUT", "/settings", { ...settings, display: { ...settings.display, fontSize: "large", compactMode: true, theme: "light" } }, small.token);
    expect(put.status).toBe(200);
    const page = await pageOf(small, "overview");
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).fontSize)).toBe("17px");
    expect(await page.evaluate(() => getComputedStyle(document.querySelector(".panel")!).paddingTop)).not.toBe("16px");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(238, 241, 232)");
    await shot(page, "08-light-large-compact");
  });

  it("#13 the overview says what a turn costs and why", async () => {
    const page = await pageOf(small, "overview", PHONE);
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    const perTurn = page.getByTestId("overview-cash-per-turn");
    await expect.poll(() => perTurn.isVisible(), { timeout: 15_000 }).toBe(true);
    if ((await perTurn.textContent())!.startsWith("-")) expect(await page.getByTestId("overview-cash-why").textContent()).toMatch(/^Taxes \$[\d,]+ − buildings \$[\d,]+ − military upkeep \$[\d,]+/);
    await shot(page, "13-cash-per-turn");
  });
});
