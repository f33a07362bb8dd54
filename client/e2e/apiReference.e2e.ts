/**
 * The API reference page (issue 26): /api-docs, served by the game with its viewer bundled
 * (swagger-ui-dist, no CDN), opens in Debian's Chromium and lists the catalogue's operations
 * read from /api/openapi.json, with no request leaving the game's origin and no console error.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/apiReference.e2e.ts
 */
import { describe, expect, it } from "vitest";
import { screenshotter } from "./browser";
import { serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();

describe("the API reference page", () => {
  it("opens at /api-docs, reads the OpenAPI document and shows the operations, all from the game's origin", async () => {
    const shot = screenshotter("api-reference");
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const context = await e2e.browser.newContext({ viewport });
      const page = await context.newPage();
      const requests: string[] = [];
      const errors: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const answer = await page.goto(`${e2e.server.baseUrl}/api-docs`);
      expect(answer?.status()).toBe(200);
      // the explore operation, rendered from the catalogue's document
      // one folded section per tag; opening Economy shows the explore operation (swagger-ui
      // names each block by tag and operation id, the catalogue's name)
      await page.locator("#operations-tag-Economy").waitFor({ timeout: 30_000 });
      await expect(page.locator(".opblock-tag").count()).resolves.toBeGreaterThanOrEqual(12);
      await page.locator("#operations-tag-Economy").click();
      await page.locator("#operations-Economy-explore").waitFor({ timeout: 30_000 });
      await expect(page.locator("#operations-Economy-explore .opblock-summary-path").getAttribute("data-path")).resolves.toBe("/api/exploration/explore");
      expect(requests.some((url) => url.endsWith("/api/openapi.json"))).toBe(true);
      expect(requests.filter((url) => !url.startsWith(e2e.server.baseUrl) && !url.startsWith("data:"))).toEqual([]);
      expect(errors).toEqual([]);
      await shot(page, `${viewport.width}`);
      await context.close();
    }
  });
});
