/**
 * Installable (issue 30), in Debian's Chromium against the production build: the page links a
 * web app manifest with a name, a start URL and icons; the service worker precaches the hashed
 * assets, so with the network gone a return visit still opens the game, which says it is
 * reconnecting (not the browser's error page), and signs in by itself when the network is back.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/installable.e2e.ts
 */
import { describe, expect, it } from "vitest";
import { serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();

describe("installable", () => {
  it("the page links a manifest with a name, a start URL and icons", async () => {
    const html = await (await fetch(`${e2e.server.baseUrl}/`)).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    const res = await fetch(`${e2e.server.baseUrl}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { name: string; start_url: string; display: string; icons: { src: string }[] };
    expect(manifest).toMatchObject({ name: "Nation Command", start_url: "/", display: "standalone" });
    for (const icon of manifest.icons) expect((await fetch(`${e2e.server.baseUrl}${icon.src}`)).status).toBe(200);
  });

  it("offline, a return visit starts from the cache and shows the reconnecting state; back online it signs in", async () => {
    const player = await e2e.server.registerPlayer("offline");
    await e2e.server.api("POST", "/user/tutorial-complete", undefined, player.token);
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
    const page = await context.newPage();
    await page.goto(`${e2e.server.baseUrl}/#/overview`);
    await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    // the worker is installed (its precache filled) and active
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).length))).reduce((a, b) => a + b, 0));
    expect(cached).toBeGreaterThan(10);

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByTestId("offline-reconnecting").isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId("offline-reconnecting").textContent()).toContain("Reconnecting");

    await context.setOffline(false);
    await expect.poll(() => page.getByTestId("overview").isVisible(), { timeout: 30_000 }).toBe(true);
    await context.close();
  });
});
