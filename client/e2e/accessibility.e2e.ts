/**
 * Accessibility (issue 30), in Debian's Chromium with axe (@axe-core/playwright): the sign-in
 * page and every screen of the game at 1366 and 390 px have no serious or critical violation.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/accessibility.e2e.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./browser";
import { newPlayer, startServer, type E2EServer, type Player } from "./harness";

/** Every screen a player reaches from the menu; the admin's is checked with an administrator. */
const SCREENS = ["overview", "advisor", "manage", "build", "market", "explore", "research", "military", "alliances", "spy-center", "war-room", "chat", "news", "rankings", "settings", "account"] as const;
const WIDTHS = [
  ["desktop", { width: 1366, height: 860 }],
  ["phone", { width: 390, height: 844 }],
] as const;

let server: E2EServer;
let browser: Browser;
let player: Player;
let admin: Player;
const ADMIN_EMAIL = `a11yadmin${process.pid}@example.com`;

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAILS: ADMIN_EMAIL });
  player = await server.registerPlayer("a11y");
  const body = { ...newPlayer("a11yadm"), email: ADMIN_EMAIL };
  const reg = await server.api("POST", "/auth/register", body);
  expect(reg.status).toBe(201);
  admin = { token: reg.body.token, user: reg.body.user, countryId: reg.body.user.countryId, body };
  for (const p of [player, admin]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Serious and critical violations on the page as it is now: "rule: target (summary)". */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${n.failureSummary?.split("\n")[1]?.trim() ?? v.help})`));
}

describe.each(WIDTHS)("axe at %s width", (_name, viewport) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ viewport });
  });
  afterAll(async () => {
    await context?.close();
  });

  it("the sign-in page", async () => {
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole("button", { name: "Sign In" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it.each([...SCREENS.map((view) => [view, "player"] as const), ["admin", "administrator"] as const])("%s (%s)", async (view, who) => {
    const page = await context.newPage();
    await page.addInitScript((token) => localStorage.setItem("access_token", token), (who === "administrator" ? admin : player).token);
    await page.goto(`${server.baseUrl}/#/${view}`);
    await page.locator("main h1").first().waitFor({ timeout: 20_000 });
    // the screen's data has come (no loading text left)
    await expect.poll(() => page.getByText(/^Loading/).count(), { timeout: 15_000 }).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
