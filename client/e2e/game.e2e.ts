/**
 * The built client in Debian's Chromium against the real server on a real Postgres:
 * register through the 3 steps, the tutorial, the overview's starting numbers, exploring 5
 * turns (status bar changes without a reload), building a farm, chat between two browser
 * contexts, logout and login. Screenshots of the main screens at desktop and phone size go
 * to .e2e-artifacts/screenshots (not committed).
 *
 * The server runs as a black box (harness.ts): the built server in a child process on its own
 * database, behind a proxy that can cut the browser's connections.
 *
 * Run: npm run build && npx vitest run --project e2e
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { registerPlayer, startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let other: Player;
const consoleErrors: string[] = [];

const stamp = Date.now().toString(36).slice(-5);
const player = {
  email: `e2e${stamp}@example.com`,
  username: `cmdr${stamp}`,
  password: "secret123",
  countryName: `Avalon ${stamp}`,
};

/** Closes the turn-progress cards (they would cover the screen in the next screenshot). */
async function dismissPopups(p: Page): Promise<void> {
  const cont = p.getByTestId("turn-popup").getByRole("button", { name: "Continue" });
  while ((await cont.count()) > 0) await cont.first().click();
}

const shot = screenshotter("");

/** Opens a view through the side menu (through the ☰ toggle on a phone). */
function statusTurns(p: Page) {
  return p.getByTestId("status-turns");
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("browser client", () => {
  it("registers through the 3 steps and finishes the tutorial", async () => {
    await page.goto(server.baseUrl);
    await expect.poll(() => page.getByText("Correct Login to Your Empire").isVisible()).toBe(true);
    await shot(page, "01-login");

    await page.getByRole("button", { name: "Register" }).click();
    await page.getByRole("button", { name: "Continue to Empire Creation" }).click();
    await expect.poll(() => page.getByText("Invalid email address").isVisible()).toBe(true);
    await page.getByLabel("Email", { exact: true }).fill(player.email);
    await page.getByLabel("Username", { exact: true }).fill(player.username);
    await page.getByLabel("Password", { exact: true }).fill(player.password);
    await page.getByLabel("Confirm Password", { exact: true }).fill("different1");
    await expect.poll(() => page.getByText("Passwords don't match").isVisible()).toBe(true);
    await page.getByLabel("Confirm Password", { exact: true }).fill(player.password);
    await shot(page, "02-register-account");
    await page.getByRole("button", { name: "Continue to Empire Creation" }).click();

    await expect.poll(() => page.getByText("Create Your Empire").isVisible()).toBe(true);
    await page.getByLabel("Country Name").fill(player.countryName);
    await shot(page, "03-register-empire");
    await page.getByRole("button", { name: `Create Empire: ${player.countryName}` }).click();

    const tutorial = page.getByTestId("tutorial");
    await expect.poll(() => tutorial.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => tutorial.getByText("Step 1 of 7").isVisible()).toBe(true);
    await shot(page, "04-tutorial");
    for (let step = 2; step <= 7; step++) {
      await page.getByRole("button", { name: "Next" }).click();
      await expect.poll(() => tutorial.getByText(`Step ${step} of 7`).isVisible()).toBe(true);
    }
    await page.getByRole("button", { name: "Previous" }).click();
    await expect.poll(() => tutorial.getByText("Step 6 of 7").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Enter Your Empire!" }).click();
  });

  it("shows the overview with the starting numbers", async () => {
    const overview = page.getByTestId("overview");
    await expect.poll(() => overview.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByRole("heading", { name: new RegExp(`The Country of ${player.countryName} \\(#\\d+\\)`) }).isVisible()).toBe(true);
    expect(await page.getByTestId("overview-cash").textContent()).toBe("$100,000");
    expect(await page.getByTestId("overview-turns").textContent()).toBe("100");
    expect(await page.getByTestId("overview-land").textContent()).toBe("100 acres");
    expect(await page.getByTestId("overview-population").textContent()).toBe("1,000");
    expect(await page.getByTestId("overview-food").textContent()).toBe("10,000 bushels");
    expect(await page.getByTestId("overview-oil").textContent()).toBe("100 barrels");
    expect(await page.getByTestId("overview-troops").textContent()).toBe("100");
    expect(await page.getByTestId("overview-tanks").textContent()).toBe("10");
    expect(await page.getByTestId("overview-government").textContent()).toBe("Monarchy");
    expect(await statusTurns(page).textContent()).toBe("100");
    expect(await page.getByTestId("status-money").textContent()).toBe("$100,000");
    // the real next-turn countdown and season end from the room
    await expect.poll(() => page.getByTestId("next-turn").textContent(), { timeout: 15_000 }).toMatch(/^Next turn: \d/);
    await expect.poll(() => page.getByTestId("round-ends").textContent()).toMatch(/^The round ends in [\d.,]+ days$/);
    await shot(page, "05-overview");
    await page.getByRole("tab", { name: "Country Dashboard" }).click();
    await expect.poll(() => page.getByTestId("dashboard").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("season-banner").textContent()).toMatch(/ACTIVE|INACTIVE/);
    await shot(page, "06-dashboard");
  });

  it("explores 5 turns: land and turns change without a reload", async () => {
    await openMenu(page, "Explore");
    await expect.poll(() => page.getByTestId("exploration").isVisible()).toBe(true);
    const landBefore = await page.getByTestId("explore-land").textContent();
    expect(landBefore).toBe("100 acres");
    await page.getByRole("button", { name: "5 Turns" }).click();
    expect(await page.getByTestId("preview-total-acres").textContent()).toBe("225");
    expect(await page.getByTestId("preview-total-cost").textContent()).toBe("$12,375");
    await page.getByRole("button", { name: "Advanced" }).click();
    await shot(page, "07-explore");
    await page.getByRole("button", { name: /^Explore 225 acres/ }).click();

    await expect.poll(() => statusTurns(page).textContent(), { timeout: 15_000 }).toBe("95");
    await expect.poll(() => page.getByTestId("explore-land").textContent()).toBe("325 acres");
    expect(await page.getByTestId("explore-turns").textContent()).toBe("95");
    // the turn-progress popup, then the full TURN RESULTS REPORT
    await expect.poll(() => page.getByTestId("turn-popup").first().isVisible()).toBe(true);
    await page.waitForTimeout(400); // the card's slide-in
    await shot(page, "08-turn-popup");
    await page.getByTestId("turn-popup").first().getByRole("button", { name: "Full Report" }).click();
    const report = page.getByTestId("turn-report");
    await expect.poll(() => report.isVisible()).toBe(true);
    expect(await report.getByText("TURN RESULTS REPORT").isVisible()).toBe(true);
    expect(await report.getByText("These actions consumed 5 turns.").isVisible()).toBe(true);
    await shot(page, "09-turn-report");
    await report.getByRole("button", { name: "CONTINUE" }).click();
    await expect.poll(() => report.count()).toBe(0);

    await dismissPopups(page);
    await page.getByRole("tab", { name: "Land Management" }).click();
    await expect.poll(() => page.getByTestId("land-total").textContent()).toBe("325 acres");
    await shot(page, "10-land");
  });

  it("builds a farm", async () => {
    await openMenu(page, "Build");
    await expect.poll(() => page.getByTestId("buildings").isVisible()).toBe(true);
    expect(await page.getByTestId("owned-farms").textContent()).toBe("0");
    // nothing to build: the button says why
    expect(await page.getByTestId("disabled-reason").textContent()).toBe("Nothing to build");
    await page.getByLabel("Farms to build").fill("2");
    await expect.poll(() => page.getByTestId("disabled-reason").textContent()).toBe("Exceeds regular building capacity");
    await page.getByLabel("Farms to build").fill("1");
    await expect.poll(() => page.getByTestId("disabled-reason").count()).toBe(0);
    await shot(page, "11-build");
    await page.getByRole("button", { name: "Construct Buildings" }).click();
    await expect.poll(() => page.getByTestId("owned-farms").textContent(), { timeout: 15_000 }).toBe("1");
    await expect.poll(() => statusTurns(page).textContent()).toBe("94");
    expect(await page.getByLabel("Farms to build").inputValue()).toBe("0");
    await expect.poll(() => page.getByTestId("turn-popup").filter({ hasText: "1 Farms" }).count()).toBe(1);
    await dismissPopups(page);
  });

  it("chats between two browser contexts", async () => {
    other = await registerPlayer(server, "chat");
    // This player already went through the tutorial (kept on the server), so the shell opens directly.
    await server.api("POST", "/user/tutorial-complete", undefined, other.token);
    const contextB = await browser.newContext({ viewport: DESKTOP });
    await contextB.addInitScript((token) => localStorage.setItem("access_token", token), other.token);
    const pageB = await contextB.newPage();
    try {
      await pageB.goto(`${server.baseUrl}/#/chat`);
      await openMenu(page, "Chat");
      for (const p of [page, pageB]) {
        await expect.poll(() => p.getByTestId("chat").isVisible(), { timeout: 15_000 }).toBe(true);
        await expect.poll(() => p.getByRole("tab", { name: /General/ }).isVisible(), { timeout: 15_000 }).toBe(true);
      }
      // both see each other online
      await expect.poll(() => page.getByTestId("online-users").getByText(other.user.username).isVisible(), { timeout: 15_000 }).toBe(true);

      const hello = `Hello @${other.user.username}, welcome to the front`;
      const input = page.getByLabel("Message", { exact: true });
      await input.fill(hello);
      expect(await page.getByTestId("chat-counter").textContent()).toBe(`${hello.length}/500`);
      await input.press("Enter");
      await expect.poll(() => input.inputValue()).toBe("");
      const seenByB = pageB.getByTestId("chat-message").filter({ hasText: "welcome to the front" });
      await expect.poll(() => seenByB.count(), { timeout: 15_000 }).toBe(1);
      expect(await seenByB.locator("mark.mention").textContent()).toBe(`@${other.user.username}`);

      const inputB = pageB.getByLabel("Message", { exact: true });
      await inputB.fill("Reporting in");
      await inputB.press("Shift+Enter");
      await inputB.pressSequentially("line two");
      expect(await inputB.inputValue()).toBe("Reporting in\nline two");
      await inputB.press("Enter");
      await expect.poll(() => page.getByTestId("chat-message").filter({ hasText: "Reporting in" }).count(), { timeout: 15_000 }).toBe(1);
      // a command is answered to the sender only
      await input.fill("/help");
      await input.press("Enter");
      await expect.poll(() => page.getByTestId("command-output").filter({ hasText: "/who" }).count(), { timeout: 15_000 }).toBe(1);
      expect(await pageB.getByTestId("command-output").count()).toBe(0);
      await shot(page, "12-chat");
    } finally {
      await contextB.close();
    }
  });

  it("shows the live rankings", async () => {
    await openMenu(page, "Scores");
    await expect.poll(() => page.getByTestId("rankings").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("ranking-me").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId("ranking-me").textContent()).toContain(player.countryName);
    await page.getByLabel("Search", { exact: true }).fill(player.countryName.toUpperCase());
    await expect.poll(() => page.getByTestId("ranking-row").count()).toBe(0);
    await page.getByLabel("Search", { exact: true }).fill("");
    await shot(page, "13-rankings");
  });

  it("reconnects after the connection drops and stays live", async () => {
    await openMenu(page, "Chat");
    await expect.poll(() => page.getByTestId("chat-messages").getByText("Reporting in").isVisible()).toBe(true);
    // cut every browser connection abruptly (a TCP reset, as on a network drop): the room
    // socket closes abnormally on both sides, and the server keeps the seat for a reconnection
    expect(server.dropConnections()).toBeGreaterThan(0);
    await expect.poll(() => page.locator(".statusbar .conn.connected").count(), { timeout: 5_000, interval: 20 }).toBe(0);
    await expect.poll(() => page.locator(".statusbar .conn.connected").count(), { timeout: 30_000 }).toBe(1);
    // a message posted over REST by another player arrives live after the reconnection
    const sent = await server.api("POST", "/chat/send", { channel: "general", content: "Still there after the drop?" }, other.token);
    expect(sent.status).toBeGreaterThanOrEqual(200);
    expect(sent.status).toBeLessThan(300);
    await expect.poll(() => page.getByTestId("chat-message").filter({ hasText: "Still there after the drop?" }).count(), { timeout: 20_000 }).toBe(1);
  });

  it("renders the main screens at phone width", async () => {
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    try {
      await phone.goto(`${server.baseUrl}/#/overview`);
      await expect.poll(() => phone.getByTestId("overview").isVisible(), { timeout: 15_000 }).toBe(true);
      // the menu is collapsed behind the toggle
      expect(await phone.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: "Overview" }).isVisible()).toBe(false);
      await shot(phone, "05-overview");
      await phone.getByRole("button", { name: "Open menu" }).click();
      await expect.poll(() => phone.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: "Explore", exact: true }).isVisible()).toBe(true);
      await phone.screenshot({ path: path.join(SHOTS, "14-menu-phone.png") });
      await phone.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: "Explore", exact: true }).click();
      await expect.poll(() => phone.getByTestId("exploration").isVisible()).toBe(true);
      await shot(phone, "07-explore");
      await phone.getByRole("tab", { name: "Land Management" }).click();
      await shot(phone, "10-land");
      await openMenu(phone, "Build");
      await expect.poll(() => phone.getByTestId("buildings").isVisible()).toBe(true);
      await shot(phone, "11-build");
      await openMenu(phone, "Chat");
      await expect.poll(() => phone.getByTestId("chat-messages").getByText("Reporting in").isVisible(), { timeout: 15_000 }).toBe(true);
      await shot(phone, "12-chat");
      await openMenu(phone, "Scores");
      await expect.poll(() => phone.getByTestId("ranking-me").isVisible(), { timeout: 15_000 }).toBe(true);
      await shot(phone, "13-rankings");
      await openMenu(phone, "Overview");
      await phone.getByRole("tab", { name: "Country Dashboard" }).click();
      await shot(phone, "06-dashboard");
    } finally {
      await phone.close();
    }
  });

  it("logs out and in again", async () => {
    await openMenu(page, "Logout");
    await expect.poll(() => page.getByText("Correct Login to Your Empire").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();

    await page.getByLabel("Email", { exact: true }).fill(player.email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect.poll(() => page.getByTestId("form-error").textContent(), { timeout: 15_000 }).toBe("Invalid email or password");

    await page.getByLabel("Password", { exact: true }).fill(player.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect.poll(() => page.getByTestId("overview").isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId("overview-land").textContent()).toBe("325 acres");
    await expect.poll(() => statusTurns(page).textContent()).toBe("94");

    // a phone-sized entry screen for the record
    const phone = await browser.newPage({ viewport: PHONE });
    await phone.goto(server.baseUrl);
    await expect.poll(() => phone.getByText("Correct Login to Your Empire").isVisible()).toBe(true);
    await shot(phone, "01-login");
    await phone.getByRole("button", { name: "Register" }).click();
    await shot(phone, "02-register-account");
    await phone.close();

    expect(consoleErrors.filter((e) => !/Failed to load resource|status of 401/.test(e))).toEqual([]);
  });
});
