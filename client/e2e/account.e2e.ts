/**
 * Account security in Debian's Chromium (issue 13, "Settings and account"; issue 15, findings 2
 * and 10): a password change signs another browser out live, the export downloads a dated
 * JSON file, deletion ends the session and the email registers again. The sockets' URLs
 * never carry the token.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/account.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, openMenu } from "./browser";
import { startServer, type E2EServer } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENT_DIR = path.resolve(here, "../dist");
const SHOTS = process.env.E2E_SCREENSHOTS;

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(path.join(CLIENT_DIR, "index.html"))) throw new Error(`Build the client first: ${CLIENT_DIR} has no index.html`);
  server = await startServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser signed in with `token`, in the shell, its world room connected; records socket URLs. */
async function signedIn(token: string, sockets: string[], viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  await context.addInitScript((t) => localStorage.setItem("access_token", t), token);
  const page = await context.newPage();
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await page.goto(server.baseUrl);
  await expect.poll(() => page.getByTestId("status-turns").isVisible(), { timeout: 20_000 }).toBe(true);
  await expect.poll(() => sockets.length, { timeout: 20_000 }).toBeGreaterThan(0);
  return { context, page };
}

describe("account security in the browser", () => {
  it("a password change signs another browser out live; the export downloads; deletion ends the session and the email registers again", async () => {
    const player = await server.registerPlayer("acct");
    await server.api("POST", "/user/tutorial-complete", undefined, player.token);
    const second = await server.api("POST", "/auth/login", { email: player.body.email, password: player.body.password });
    expect(second.status).toBe(200);
    const sockets: string[] = [];
    const a = await signedIn(player.token, sockets);
    const b = await signedIn(second.body.token, sockets);
    try {
      // Finding 10: no socket URL carries a token.
      for (const url of sockets) {
        expect(url).not.toContain(player.token.split(".")[2]);
        expect(url).not.toContain(second.body.token.split(".")[2]);
        expect(url).not.toMatch(/_authToken/);
      }

      // Account screen with real statistics.
      await openMenu(a.page, "Account");
      await expect.poll(() => a.page.getByTestId("stat-networth").textContent(), { timeout: 10_000 }).toMatch(/^[\d,]+$/); // networth is not money (issue 30 #24)
      if (SHOTS) {
        await a.page.screenshot({ path: path.join(SHOTS, "account-desktop.png"), fullPage: true });
      }

      // The client checks the confirmation.
      await a.page.getByLabel("Current password").fill(player.body.password);
      await a.page.getByLabel("New password (at least 8 characters)").fill("brand-new-pass");
      await a.page.getByLabel("Confirm new password").fill("brand-new-pasz");
      await a.page.getByRole("button", { name: "Change Password" }).click();
      await expect.poll(() => a.page.getByText("Passwords do not match").isVisible()).toBe(true);
      await a.page.getByLabel("New password (at least 8 characters)").fill("short");
      await a.page.getByLabel("Confirm new password").fill("short");
      await a.page.getByRole("button", { name: "Change Password" }).click();
      await expect.poll(() => a.page.getByText("Password must be at least 8 characters").first().isVisible()).toBe(true);

      // The change: B is signed out live, A stays.
      await a.page.getByLabel("New password (at least 8 characters)").fill("brand-new-pass");
      await a.page.getByLabel("Confirm new password").fill("brand-new-pass");
      await a.page.getByRole("button", { name: "Change Password" }).click();
      await expect.poll(() => a.page.getByTestId("password-result").textContent(), { timeout: 10_000 }).toMatch(/Password changed/);
      await expect.poll(() => b.page.getByTestId("signed-out-notice").isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await b.page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
      expect(await a.page.getByTestId("status-turns").isVisible()).toBe(true);

      // Export: a dated JSON file with the account in it.
      const [download] = await Promise.all([a.page.waitForEvent("download", { timeout: 10_000 }), a.page.getByRole("button", { name: "Export My Data" }).click()]);
      const today = new Date().toISOString().slice(0, 10);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^nation-game-export-.+-${today}\\.json$`));
      const file = await download.path();
      const exported = JSON.parse(fs.readFileSync(file!, "utf8"));
      expect(exported.account).toMatchObject({ email: player.body.email, username: player.body.username });
      expect(exported.country).toMatchObject({ id: player.countryId });
      expect(JSON.stringify(exported)).not.toMatch(/password_hash|argon2/);

      // Deletion: typed confirmation and password; the button explains until both are there.
      const del = a.page.getByRole("button", { name: "Delete My Account" });
      expect(await del.isDisabled()).toBe(true);
      await a.page.getByLabel("Type DELETE MY ACCOUNT to confirm").fill("DELETE MY ACCOUNT");
      await a.page.getByLabel("Password", { exact: true }).fill("brand-new-pass");
      expect(await del.isDisabled()).toBe(false);
      await del.click();
      await expect.poll(() => a.page.getByRole("form", { name: "Login" }).isVisible(), { timeout: 10_000 }).toBe(true);
      expect((await server.sql("SELECT id FROM users WHERE id = $1", [player.user.id])).length).toBe(0);

      // The same email registers again.
      const again = await server.api("POST", "/auth/register", player.body);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it("the Account screen fits a phone", async () => {
    const player = await server.registerPlayer("acph");
    await server.api("POST", "/user/tutorial-complete", undefined, player.token);
    const sockets: string[] = [];
    const { context, page } = await signedIn(player.token, sockets, { width: 360, height: 740 });
    try {
      await openMenu(page, "Account");
      await expect.poll(() => page.getByTestId("stat-networth").textContent(), { timeout: 10_000 }).toMatch(/^[\d,]+$/); // networth is not money (issue 30 #24)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "account-phone.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
