/**
 * Military and war in Debian's Chromium against the built server: two players in two browser
 * contexts. A selects B in Target Selection, launches a Standard Strike from Combat Operations
 * and reads the report; B's screen shows the alert and the war log entry without a reload; the
 * war room declares a war; every panel at desktop and phone size. Screenshots go to
 * .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/military.e2e.ts
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

const shot = screenshotter("mil-");

/** Opens a military panel: by its tab on a desktop, by the panel picker on a phone. */
async function openPanel(p: Page, label: string): Promise<void> {
  const picker = p.getByLabel("Panel", { exact: true });
  if (await picker.isVisible()) await picker.selectOption({ label });
  else await p.getByRole("tablist", { name: "Military panels" }).getByRole("tab", { name: label, exact: true }).click();
}

/** A browser context signed in as `player` (token in local storage, as after a login). */
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
  a = await server.registerPlayer("gen");
  b = await server.registerPlayer("foe");
  for (const p of [a, b]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  // A has an army worth attacking with; one turn of production rewrites its networth
  await server.sql("UPDATE countries SET troops = 3000, tanks = 60, industrial_complexes = 2, military_bases = 2 WHERE id = $1", [a.countryId]);
  await server.api("POST", "/production/process", { countryId: a.countryId, turnsToProcess: 1 }, a.token);
  browser = await launchChromium();
  ({ context: contextA, page: pageA } = await signedIn(a));
  ({ context: contextB, page: pageB } = await signedIn(b));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("military in the browser", () => {
  it("A selects B as target and launches; B sees the alert and the war log entry without a reload", async () => {
    // B watches its war log: empty at first
    await pageB.goto(`${server.baseUrl}/#/military?warlog`);
    await expect.poll(() => pageB.getByTestId("war-log-empty").isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await pageB.getByTestId("war-log-empty").textContent()).toBe("No battles match your filters");

    await pageA.goto(`${server.baseUrl}/#/overview`);
    await expect.poll(() => pageA.getByTestId("overview").isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => pageA.getByTestId("overview-brigades").textContent(), { timeout: 15_000 }).toBe("5 Available");
    await openMenu(pageA, "Military");
    await expect.poll(() => pageA.getByTestId("military-command").isVisible(), { timeout: 15_000 }).toBe(true);
    await shot(pageA, "01-command");

    // Combat Operations without a target: Launch Attack is disabled and says why
    await openPanel(pageA, "Combat Operations");
    await expect.poll(() => pageA.getByTestId("combat-operations").isVisible()).toBe(true);
    expect(await pageA.getByTestId("launch-attack").isDisabled()).toBe(true);
    expect(await pageA.getByTestId("disabled-reason").textContent()).toBe("No target selected");

    // Target Selection: search B, analyse, Select as Target
    await openPanel(pageA, "Target Selection");
    await expect.poll(() => pageA.getByTestId("target-selection").isVisible(), { timeout: 15_000 }).toBe(true);
    await pageA.getByLabel("Search").fill("no such country zzz");
    await expect.poll(() => pageA.getByTestId("targets-empty").isVisible()).toBe(true);
    expect(await pageA.getByTestId("targets-empty").textContent()).toContain("No countries match your search criteria");
    await pageA.getByLabel("Search").fill(b.body.countryName);
    await pageA.getByTestId(`target-${b.countryId}`).click();
    await expect.poll(() => pageA.getByTestId("target-analysis").isVisible()).toBe(true);
    expect(await pageA.getByTestId("target-analysis").textContent()).toContain("public data only");
    await shot(pageA, "02-targets");
    await pageA.getByTestId("select-target").click();

    // back on Combat Operations with the target set
    await expect.poll(() => pageA.getByTestId("combat-target").textContent()).toBe(b.body.countryName);
    await pageA.getByTestId("attack-type-standard_strike").click();
    // the spec's validation: no units yet
    await expect.poll(() => pageA.getByTestId("disabled-reason").textContent()).toBe("No units allocated for attack");
    const available = (await pageA.locator('label[for="alloc-troops"]').textContent())!.match(/\(([\d,]+) available\)/)![1]!.replaceAll(",", "");
    expect(Number(available)).toBeGreaterThanOrEqual(3000);
    await pageA.getByLabel(/^Troops \(/).fill("99999");
    expect(await pageA.getByLabel(/^Troops \(/).inputValue()).toBe(available); // clamped to what is available
    await pageA.getByLabel(/^Troops \(/).fill("2500");
    await expect.poll(() => pageA.getByTestId("combat-preview").isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => pageA.getByTestId("disabled-reason").count()).toBe(0);
    await shot(pageA, "03-combat");
    // changing the attack type clears the units
    await pageA.getByTestId("attack-type-guerrilla_strike").click();
    expect(await pageA.getByLabel(/^Troops \(/).inputValue()).toBe("0");
    await pageA.getByTestId("attack-type-standard_strike").click();
    await pageA.getByLabel(/^Troops \(/).fill("2500");
    await expect.poll(() => pageA.getByTestId("disabled-reason").count()).toBe(0);

    await pageA.getByTestId("launch-attack").click();
    const report = pageA.getByTestId("battle-report");
    await expect.poll(() => report.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await pageA.getByTestId("battle-outcome").textContent()).toMatch(/^(Victory|Defeat): /);
    expect(await pageA.getByTestId("combat-log").locator("li").count()).toBeGreaterThan(2);
    // the attacker's copy says the defender's numbers are estimates (issue 28)
    expect(await pageA.getByTestId("report-estimate").textContent()).toMatch(/estimates at low confidence/);
    const reports = await server.api("GET", "/battle-reports", undefined, a.token);
    const battle = reports.body.reports[0];
    expect(battle.defenderCountryId).toBe(b.countryId);
    await shot(pageA, "04-report");

    // B: the alert and the war log entry, live
    await expect.poll(() => pageB.getByTestId("notice-attacked").isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await pageB.getByTestId("notice-attacked").textContent()).toContain(`${a.body.countryName} attacked you`);
    await expect.poll(() => pageB.getByTestId(`war-log-${battle.id}`).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await pageB.getByTestId(`war-log-${battle.id}`).textContent()).toContain(`${a.body.countryName} attacked you`);
    await shot(pageB, "05-defender-alert");
    await pageB.getByTestId(`war-log-${battle.id}`).getByRole("button").first().click();
    await expect.poll(() => pageB.getByTestId(`war-log-${battle.id}`).getByTestId("battle-report").isVisible()).toBe(true);
    await shot(pageB, "06-war-log");

    // B's overview shows the units it has now, without a reload
    await openMenu(pageB, "Overview");
    const { rows } = { rows: await server.sql("SELECT troops FROM countries WHERE id = $1", [b.countryId]) };
    await expect.poll(() => pageB.getByTestId("overview-troops").textContent(), { timeout: 15_000 }).toBe(Number(rows[0].troops).toLocaleString("en-US"));
  });

  it("the other panels, the war room and a war declaration", async () => {
    for (const [label, testId, name] of [
      ["Unit Production", "unit-production", "07-production"],
      ["Military Strategy", "military-strategy", "08-strategy"],
      ["Defense Configuration", "defense-configuration", "09-defense"],
      ["Attack Preparation", "attack-preparation", "10-preparation"],
      ["War Log", "war-log", "11-war-log"],
    ] as const) {
      await openPanel(pageA, label);
      await expect.poll(() => pageA.getByTestId(testId).isVisible(), { timeout: 15_000 }).toBe(true);
      await shot(pageA, name);
    }
    // the production Apply button needs exactly 100%
    await openPanel(pageA, "Unit Production");
    await pageA.getByLabel(/^Troops: /).fill("90");
    await expect.poll(() => pageA.getByTestId("allocation-message").textContent()).toBe("Over-allocated! Reduce percentages.");
    expect(await pageA.getByRole("button", { name: "Apply" }).isDisabled()).toBe(true);
    await pageA.getByRole("button", { name: "Defensive" }).click();
    await expect.poll(() => pageA.getByTestId("allocation-message").count()).toBe(0);
    await pageA.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => pageA.getByText("Production allocation saved.").isVisible()).toBe(true);

    await openMenu(pageA, "War Room");
    await expect.poll(() => pageA.getByTestId("war-room").isVisible(), { timeout: 15_000 }).toBe(true);
    const row = pageA.getByTestId(`wr-target-${b.countryId}`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    pageA.once("dialog", (d) => void d.accept()); // a war declaration always asks first
    await row.getByRole("button", { name: /^Declare war/ }).click();
    await expect.poll(() => row.getByText("At war: +10% attack").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await pageA.getByTestId("wr-active-wars").textContent()).toBe("1");
    await shot(pageA, "12-war-room");
    await pageA.getByRole("tab", { name: "War Declarations" }).click();
    await expect.poll(() => pageA.getByTestId("war-declarations").textContent()).toContain(`You declared war on ${b.body.countryName}`);
    await shot(pageA, "13-declarations");
    // B is told at once
    await expect.poll(() => pageB.getByTestId("notice-war_declared").isVisible(), { timeout: 20_000 }).toBe(true);
  });

  it("works at phone width", async () => {
    const phoneA = await contextA.newPage();
    await phoneA.setViewportSize(PHONE);
    try {
      await phoneA.goto(`${server.baseUrl}/#/military`);
      await expect.poll(() => phoneA.getByTestId("military-command").isVisible(), { timeout: 20_000 }).toBe(true);
      await shot(phoneA, "01-command");
      for (const [label, testId, name] of [
        ["Combat Operations", "combat-operations", "03-combat"],
        ["Target Selection", "target-selection", "02-targets"],
        ["Defense Configuration", "defense-configuration", "09-defense"],
        ["Military Strategy", "military-strategy", "08-strategy"],
        ["War Log", "war-log", "11-war-log"],
      ] as const) {
        await openPanel(phoneA, label);
        await expect.poll(() => phoneA.getByTestId(testId).isVisible(), { timeout: 15_000 }).toBe(true);
        await shot(phoneA, name);
      }
      await openMenu(phoneA, "War Room");
      await expect.poll(() => phoneA.getByTestId("war-room").isVisible(), { timeout: 15_000 }).toBe(true);
      await shot(phoneA, "12-war-room");
      // Attack from the war room: the target is selected and Combat Operations opens
      await phoneA.getByTestId(`wr-target-${b.countryId}`).getByRole("button", { name: "Attack", exact: true }).click();
      await expect.poll(() => phoneA.getByTestId("combat-target").textContent(), { timeout: 15_000 }).toBe(b.body.countryName);
      await phoneA.getByTestId("attack-type-guerrilla_strike").click();
      await phoneA.getByLabel(/^Troops \(/).fill("500");
      await expect.poll(() => phoneA.getByTestId("combat-preview").isVisible(), { timeout: 10_000 }).toBe(true);
      await shot(phoneA, "03-combat-filled");
      const width = await phoneA.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await phoneA.close();
    }
    const phoneB = await contextB.newPage();
    await phoneB.setViewportSize(PHONE);
    try {
      await phoneB.goto(`${server.baseUrl}/#/military?warlog`);
      await expect.poll(() => phoneB.getByTestId("war-log").locator(".war-log-entry").count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await shot(phoneB, "06-war-log");
      // a second attack reaches the phone live
      const before = await phoneB.locator(".war-log-entry").count();
      const res = await server.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: b.countryId, attackType: "guerrilla_strike", units: { troops: 400 } }, a.token);
      expect(res.status).toBe(200);
      await expect.poll(() => phoneB.getByTestId("notice-attacked").isVisible(), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => phoneB.locator(".war-log-entry").count(), { timeout: 20_000 }).toBe(before + 1);
      await shot(phoneB, "05-defender-alert");
    } finally {
      await phoneB.close();
    }
    await contextA.close();
    await contextB.close();
    expect(consoleErrors.filter((e) => !/Failed to load resource|status of 40[01]/.test(e))).toEqual([]);
  });
});
