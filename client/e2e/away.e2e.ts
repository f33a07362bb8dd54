/**
 * While you were away (issue 30), in Debian's Chromium: a player closes the game, is attacked,
 * and on return the game summarises what happened (the absence is simulated by moving the
 * browser's record of the last visit an hour back, since the summary ignores short absences);
 * with browser notifications turned on and the tab hidden, an attack is shown as a browser
 * notification (permission granted in the test context); the unread count leads the page title.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/away.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };
const EXTRA_SHOTS = process.env.SHOTS_DIR;

let server: E2EServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const shot = screenshotter("away-");

async function keep(p: Page, name: string) {
  await shot(p, name);
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(EXTRA_SHOTS, `away-${name}-${p.viewportSize()!.width}.png`), fullPage: true });
  }
}

async function armedPair(prefix: string): Promise<{ a: Player; d: Player }> {
  const a = await server.registerPlayer(`${prefix}A`);
  const d = await server.registerPlayer(`${prefix}D`);
  for (const p of [a, d]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  await server.sql("UPDATE countries SET troops = 3000, tanks = 60, cash = 2000000 WHERE id = $1", [a.countryId]);
  await server.api("POST", "/production/process", { countryId: a.countryId, turnsToProcess: 1 }, a.token);
  return { a, d };
}

async function attack(a: Player, d: Player) {
  const res = await server.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 2_000 } }, a.token);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.report;
}

beforeAll(async () => {
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

describe("away from the game", () => {
  it.each([
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const)("an attack while the player's context is closed is summarised on return (%s)", async (name, viewport) => {
    const { a, d } = await armedPair(`aw${name.slice(0, 2)}`);
    // a first visit: the game records it
    const first = await browser.newContext({ viewport });
    await first.addInitScript((token) => localStorage.setItem("access_token", token), d.token);
    const page1 = await first.newPage();
    await page1.goto(`${server.baseUrl}/#/overview`);
    await page1.getByTestId("overview").waitFor({ timeout: 20_000 });
    expect(await page1.getByTestId("away-summary").count()).toBe(0);
    const lastSeen = await page1.evaluate((id) => localStorage.getItem(`last_seen_at:${id}`), d.user.id);
    expect(Number(lastSeen)).toBeGreaterThan(Date.now() - 60_000);
    const storage = await first.storageState();
    await first.close();

    // while the player is away
    const report = await attack(a, d);

    // an hour later (the record of the last visit moved back; the attack happened after it)
    const hourAgo = Date.now() - 3_600_000;
    const origin = new URL(server.baseUrl).origin;
    const back = await browser.newContext({
      viewport,
      storageState: {
        cookies: storage.cookies,
        origins: storage.origins.map((o) => (o.origin === origin ? { ...o, localStorage: o.localStorage.map((e) => (e.name === `last_seen_at:${d.user.id}` ? { ...e, value: String(hourAgo) } : e)) } : o)),
      },
    });
    contexts.push(back);
    const page = await back.newPage();
    await page.goto(`${server.baseUrl}/#/overview`);
    const summary = page.getByTestId("away-summary");
    await expect.poll(() => summary.isVisible(), { timeout: 20_000 }).toBe(true);
    const won = report.outcome === "attacker_victory";
    expect(await summary.getByTestId("away-lines").textContent()).toContain(`Attacked 1 time: ${won ? 0 : 1} repelled`);
    expect(await summary.getByTestId(`away-battle-${report.id}`).textContent()).toContain(`${a.body.countryName} attacked you`);
    expect(await summary.textContent()).toContain("Away for 1 hour");
    await keep(page, "01-summary");
    // the battle replays from the summary
    await summary.getByTestId(`away-battle-${report.id}`).getByTestId("replay-open").click();
    await expect.poll(() => summary.getByTestId("battle-replay").isVisible(), { timeout: 15_000 }).toBe(true);
    await summary.getByTestId("away-dismiss").click();
    expect(await page.getByTestId("away-summary").count()).toBe(0);
  });

  it("with browser notifications on, an attack while the tab is hidden shows one; the title counts unread news", async () => {
    const { a, d } = await armedPair("awn");
    const context = await browser.newContext({ viewport: DESKTOP });
    contexts.push(context);
    await context.grantPermissions(["notifications"], { origin: new URL(server.baseUrl).origin });
    await context.addInitScript((token) => {
      localStorage.setItem("access_token", token);
      // the page's visibility as the test sets it; every notification the page shows, recorded
      const w = window as unknown as { __hidden: boolean; __shown: { title: string; body: string }[] };
      w.__hidden = false;
      w.__shown = [];
      Object.defineProperty(document, "visibilityState", { get: () => (w.__hidden ? "hidden" : "visible") });
      Object.defineProperty(document, "hidden", { get: () => w.__hidden });
      const Real = window.Notification;
      class Recorded extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          w.__shown.push({ title, body: options?.body ?? "" });
        }
      }
      Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
    }, d.token);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/#/settings`);
    await page.getByRole("tab", { name: "Notifications" }).click();
    const toggle = page.getByTestId("browser-notifications");
    await toggle.check();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("browser_notifications"))).toBe("on");
    expect(await toggle.isChecked()).toBe(true);
    await openMenu(page, "Overview");
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    expect(await page.title()).toBe("Nation Command");

    // the player switches to another tab
    await page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await attack(a, d);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __shown: { title: string }[] }).__shown.map((n) => n.title)), { timeout: 20_000 }).toEqual([`${a.body.countryName} attacked you`]);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toMatch(/^\(\d+\) Nation Command$/);
  });
});
