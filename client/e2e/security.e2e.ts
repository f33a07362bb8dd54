/**
 * The built client under the server's Content-Security-Policy in Debian's Chromium: every
 * main screen renders, the world room connects, and the browser reports no CSP violation
 * (issue 15, finding 7).
 *
 * Run: npm run build -w schema && npm run build -w client && npx vitest run --project e2e
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium, openMenu } from "./browser";
import { startServer, type E2EServer } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLIENT_DIR = path.resolve(here, "../dist");

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

describe("finding 7: the built client passes its strict CSP", () => {
  it("renders every main screen and joins the world room with no CSP violation", async () => {
    const player = await server.registerPlayer("csp");
    await server.api("POST", "/user/tutorial-complete", undefined, player.token);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((token) => {
      localStorage.setItem("access_token", token);
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`));
    }, player.token);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    try {
      const response = await page.goto(server.baseUrl);
      expect(response!.headers()["content-security-policy"]).toContain("script-src 'self'");
      await expect.poll(() => page.getByTestId("status-turns").isVisible(), { timeout: 15_000 }).toBe(true);
      for (const screen of ["Explore", "Build", "Chat", "Scores", "Overview"]) {
        await openMenu(page, screen);
        await page.waitForTimeout(300);
      }
      // the chat screen shows live data from the world room: the WebSocket got through connect-src
      await openMenu(page, "Chat");
      await expect.poll(() => page.getByRole("tab", { name: /General/ }).isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
      expect(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
