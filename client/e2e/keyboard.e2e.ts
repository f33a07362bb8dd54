/**
 * The main loop with the keyboard alone (issue 30), in Debian's Chromium: sign in, explore,
 * build, attack and read the report (and its replay) moving only with Tab and acting only with
 * Enter, Space and typing; every control reached shows a visible focus ring.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/keyboard.e2e.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { launchChromium } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

let server: E2EServer;
let browser: Browser;
let me: Player;
let foe: Player;

beforeAll(async () => {
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  me = await server.registerPlayer("keys");
  foe = await server.registerPlayer("keyfoe");
  for (const p of [me, foe]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  await server.sql("UPDATE countries SET troops = 3000, tanks = 60 WHERE id = $1", [me.countryId]);
  // the target stays within the attack band of a country that explored and built: a turn of production rewrites its networth
  await server.sql("UPDATE countries SET troops = 1500, turrets = 300, land = 300 WHERE id = $1", [foe.countryId]);
  await server.api("POST", "/production/process", { countryId: foe.countryId, turnsToProcess: 1 }, foe.token);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Presses Tab until `target` has the focus (at most `max` times); checks its focus is visible. */
async function tabTo(page: Page, target: Locator, max = 300): Promise<void> {
  await target.waitFor({ timeout: 15_000 });
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline, "focus ring").not.toBe("none");
      return;
    }
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Replaces a focused field's text by typing. */
async function typeInto(page: Page, text: string): Promise<void> {
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
}

describe("the main loop by keyboard", () => {
  it("sign in, explore, build, attack and read the report without a pointer", async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);

    // sign in
    await tabTo(page, page.getByLabel("Email", { exact: true }));
    await page.keyboard.type(me.body.email);
    await tabTo(page, page.getByLabel("Password", { exact: true }));
    await page.keyboard.type(me.body.password);
    await page.keyboard.press("Enter");
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    const menu = page.getByRole("navigation", { name: "Main menu" });

    // explore 5 turns
    await tabTo(page, menu.getByRole("button", { name: "Explore", exact: true }));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("button", { name: "5 Turns" }));
    await page.keyboard.press("Space");
    await tabTo(page, page.getByRole("button", { name: /^Explore \d+ acres/ }));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("explore-turns").textContent(), { timeout: 15_000 }).toBe("95");

    // build a farm
    await tabTo(page, menu.getByRole("button", { name: "Build", exact: true }));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByLabel("Farms to build"));
    await typeInto(page, "1");
    await tabTo(page, page.getByRole("button", { name: "Construct Buildings" }));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("owned-farms").textContent(), { timeout: 15_000 }).toBe("1");

    // attack: pick the target, then the attack type and the troops, then launch
    await tabTo(page, menu.getByRole("button", { name: "Military", exact: true }));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("tab", { name: "Target Selection", exact: true }));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByLabel("Search"));
    await page.keyboard.type(foe.body.countryName);
    await tabTo(page, page.getByTestId(`target-${foe.countryId}`));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByTestId("select-target"));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("combat-target").textContent(), { timeout: 15_000 }).toBe(foe.body.countryName);
    await tabTo(page, page.getByTestId("attack-type-standard_strike"));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByLabel(/^Troops \(/));
    await typeInto(page, "2500");
    await expect.poll(() => page.getByTestId("disabled-reason").count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId("launch-attack").isEnabled(), { timeout: 10_000 }).toBe(true);
    await tabTo(page, page.getByTestId("launch-attack"));
    await page.keyboard.press("Enter");

    // read the report, and watch its replay to the end
    const report = page.getByTestId("battle-report");
    await expect.poll(() => report.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId("battle-outcome").textContent()).toMatch(/^(Victory|Defeat): /);
    await tabTo(page, report.getByTestId("replay-open"));
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByTestId("replay-end"));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("replay-outcome").isVisible()).toBe(true);
    await context.close();
  });
});
