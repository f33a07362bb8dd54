/**
 * The quick start as a new player meets it (issue 25): the embedded default (no DATABASE_URL,
 * no REDIS_URL, PGlite under DATA_DIR) after the server sat idle long enough for its pool to
 * close PGlite's connection. Before the fix every signed-in request then answered 500
 * ("Failed to get country data") until a restart. The pool's idle time-out is 100 ms here
 * instead of 10 s, below the authentication epoch's 250 ms poll, so the connection is closed
 * and opened again between polls and requests all along; the 8 AI countries of the quick start
 * prepare their statements in the first session, as they do on a fresh machine.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/quickstart.e2e.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, openMenu } from "./browser";
import { newPlayer, startServer, type E2EServer } from "./harness";

const IDLE_TIMEOUT_MS = 100;
/** Long enough for the pool to close its idle connection (a few time-outs). */
const sitIdle = () => new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS * 10));

let server: E2EServer;
let browser: Browser;
const consoleErrors: string[] = [];

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: undefined, DATABASE_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS), AI_COUNTRIES: undefined });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 860 } })).newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  return page;
}

describe("the embedded quick start after the server sat idle", () => {
  const player = newPlayer("idle");

  it("registers, skips the tutorial and lands on the overview", async () => {
    const health = await server.api("GET", "/health");
    expect(health.body).toMatchObject({ success: true, database: "embedded" });
    await sitIdle();
    const page = await newPage();
    await page.goto(server.baseUrl);
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByLabel("Email", { exact: true }).fill(player.email);
    await page.getByLabel("Username", { exact: true }).fill(player.username);
    await page.getByLabel("Password", { exact: true }).fill(player.password);
    await page.getByLabel("Confirm Password", { exact: true }).fill(player.password);
    await page.getByRole("button", { name: "Continue to Empire Creation" }).click();
    await page.getByLabel("Country Name").fill(player.countryName);
    await page.getByRole("button", { name: `Create Empire: ${player.countryName}` }).click();
    await page.getByRole("button", { name: "Skip Tutorial" }).click();
    await expect.poll(() => page.getByRole("heading", { name: new RegExp(`The Country of ${player.countryName}`) }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId("overview-cash").textContent()).toBe("$100,000");
    await page.context().close();
  });

  it("signs in again after another idle period, and the overview and an action work", async () => {
    await sitIdle();
    const page = await newPage();
    await page.goto(server.baseUrl);
    await page.getByLabel("Email", { exact: true }).fill(player.email);
    await page.getByLabel("Password", { exact: true }).fill(player.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect.poll(() => page.getByRole("heading", { name: new RegExp(`The Country of ${player.countryName}`) }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId("overview-cash").textContent()).toBe("$100,000");

    // a reload after idling reads the user and the country again with the stored token
    await sitIdle();
    await page.reload();
    await expect.poll(() => page.getByTestId("overview-cash").isVisible(), { timeout: 15_000 }).toBe(true);
    await sitIdle();
    await openMenu(page, "Explore");
    await expect.poll(() => page.getByTestId("exploration").isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByRole("button", { name: "5 Turns" }).click();
    await page.getByRole("button", { name: /^Explore 225 acres/ }).click();
    await expect.poll(() => page.getByTestId("explore-land").textContent(), { timeout: 15_000 }).toBe("325 acres");
    expect(consoleErrors.filter((line) => /500|Failed to get/.test(line))).toEqual([]);
    await page.context().close();
  });
});
