/**
 * Fast first load (issue 30): the sign-in form of the production build, served compressed by
 * the game server, needs at most FIRST_LOAD_JS_BUDGET bytes of JavaScript transferred, and
 * none of the game (no world-room SDK, no screen chunk) until a player with a country enters.
 * The figures are in docs/performance.md.
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/firstLoad.e2e.ts
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { serverAndBrowser } from "./harness";

/** Bytes of JavaScript on the wire (compressed) the sign-in form may need. */
const FIRST_LOAD_JS_BUDGET = 100 * 1024;

const e2e = serverAndBrowser();

/** zod's class names, kept as strings in any chunk that carries zod. */
const ZOD = /\$Zod[A-Z]/;

/** The scripts a page fetched until it is idle: name and bytes transferred (body as sent, compressed). */
async function scriptsOf(page: Page, open: () => Promise<void>): Promise<{ name: string; bytes: number; encoding: string }[]> {
  const responses: Promise<{ name: string; bytes: number; encoding: string } | null>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    responses.push(
      res
        .request()
        .sizes()
        .then((s) => ({ name: new URL(res.url()).pathname, bytes: s.responseBodySize, encoding: res.headers()["content-encoding"] ?? "identity" })),
    );
  });
  await open();
  await page.waitForLoadState("networkidle");
  return (await Promise.all(responses)).filter((r): r is NonNullable<typeof r> => r !== null);
}

describe("first load", () => {
  it(`the sign-in form needs at most ${FIRST_LOAD_JS_BUDGET / 1024} KB of JavaScript, compressed, and none of the game`, async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const scripts = await scriptsOf(page, async () => {
      await page.goto(`${e2e.server.baseUrl}/`);
      await page.getByRole("button", { name: "Sign In" }).waitFor();
    });
    const total = scripts.reduce((s, r) => s + r.bytes, 0);
    console.info(`sign-in JS: ${total} bytes in ${scripts.length} scripts: ${scripts.map((s) => `${s.name} ${s.bytes} (${s.encoding})`).join(", ")}`);
    expect(scripts.length).toBeGreaterThan(0);
    // compressed on the wire (the server leaves bodies under its threshold as they are)
    for (const s of scripts.filter((r) => r.bytes > 1024)) expect(s.encoding, s.name).not.toBe("identity");
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET);
    // nothing of the game: the shell, the world room, a screen, registration
    expect(scripts.map((s) => s.name).filter((n) => /GameApp|Screen|worldRoom|RegisterFlow|zodConfig/.test(n))).toEqual([]);
    await context.close();
  });

  it("a screen loads its own chunk when it is opened", async () => {
    const player = await e2e.server.registerPlayer("fl");
    await e2e.server.api("POST", "/user/tutorial-complete", undefined, player.token);
    const context = await e2e.browser.newContext({ viewport: { width: 1366, height: 860 } });
    await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
    const page = await context.newPage();
    const first = await scriptsOf(page, async () => {
      await page.goto(`${e2e.server.baseUrl}/#/overview`);
      await page.getByTestId("overview").waitFor({ timeout: 20_000 });
    });
    const names = first.map((s) => s.name);
    expect(names.some((n) => n.includes("OverviewScreen"))).toBe(true);
    expect(names.some((n) => n.includes("ResearchScreen"))).toBe(false);
    // The game calls the API through the route table (client/vite.config.ts, routeTable), not the
    // catalogue that builds every call's zod schemas (an entry's summary is only in the catalogue).
    const bodies = await Promise.all(names.map(async (n) => (await fetch(`${e2e.server.baseUrl}${n}`)).text()));
    expect(bodies.some((b) => b.includes("/exploration/explore"))).toBe(true);
    expect(names.filter((_, i) => bodies[i]!.includes("Spend turns exploring new land"))).toEqual([]);
    // No zod at the overview's start (issue 30): the shell reads settings defaults, turn results
    // and the world room's names from zod-free modules and checks room messages by hand
    // (realtime/worldChecks.ts); a chunk with zod carries its classes' names ("$ZodObject").
    expect(names.filter((_, i) => ZOD.test(bodies[i]!))).toEqual([]);
    // nor what the overview does not show first: the dashboard tab, the news screen
    expect(names.filter((n) => /CountryDashboard|NewsScreen/.test(n))).toEqual([]);
    // zod still comes with the screens that validate a form (and the check above can see it)
    const settings = await scriptsOf(page, async () => {
      await page.goto(`${e2e.server.baseUrl}/#/settings`);
      await page
        .getByRole("heading", { level: 1 })
        .filter({ hasText: /settings/i })
        .waitFor({ timeout: 20_000 });
    });
    const settingsBodies = await Promise.all(settings.map(async (s) => (await fetch(`${e2e.server.baseUrl}${s.name}`)).text()));
    expect(settingsBodies.some((b) => ZOD.test(b))).toBe(true);
    const later = await scriptsOf(page, async () => {
      await page.goto(`${e2e.server.baseUrl}/#/research`);
      await page
        .getByRole("heading", { level: 1 })
        .filter({ hasText: /research/i })
        .waitFor({ timeout: 20_000 });
    });
    expect(later.map((s) => s.name).some((n) => n.includes("ResearchScreen"))).toBe(true);
    await context.close();
  });
});
