/**
 * The load tester's strategy driver (the `play` action: schema's nextAiIntent over REST)
 * against a real server: every intent it sends is counted by the server as the game action
 * it maps to, and nothing it sends is malformed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest, type LoadTestResult } from "@game/loadtest/runner";
import { startTestServer, type TestServer } from "@game/server/test/harness";

const COUNTRIES = 8;
const DURATION_SEC = 3;
const RATE = 20;

describe("load tester strategy driver against a test server", () => {
  let server: TestServer;
  let result: LoadTestResult;

  beforeAll(async () => {
    server = await startTestServer({ metricsPublic: true });
    result = await runLoadTest({ url: server.baseUrl, countries: COUNTRIES, durationSec: DURATION_SEC, rate: RATE, mix: { play: 1 }, seed: 99, rooms: false, setupConcurrency: 4, metricsIntervalMs: 500 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("plays every call as an intent (or an idle look) with no errors", () => {
    const { totals, actions, strategy } = result.report;
    expect(totals.completed).toBe(RATE * DURATION_SEC);
    expect(totals.errors).toBe(0);
    expect(totals.serverErrors5xx).toBe(0);
    expect(Object.keys(actions).every((name) => name.startsWith("play:"))).toBe(true);
    expect(totals.ok + totals.refused).toBe(totals.completed);
    expect(strategy).toBeDefined();
    expect(Object.values(strategy!.personalities).reduce((a, b) => a + b, 0)).toBe(COUNTRIES);
    expect(strategy!.viewFailures).toBe(0);
    // a new country has free land: the first decision of every personality is a build
    expect(strategy!.kinds.build!.ok).toBeGreaterThanOrEqual(COUNTRIES);
  });

  it("matches the server's game_actions_total for each intent kind, and its request counts per route", () => {
    const { strategy, consistency } = result.report;
    for (const [kind, k] of Object.entries(strategy!.kinds)) {
      expect({ kind, server: server.server.ctx.metrics.gameActions.get({ action: k.serverAction }) }).toEqual({ kind, server: k.ok });
      expect({ kind, server: k.serverCount }).toEqual({ kind, server: k.ok });
    }
    for (const r of consistency.routes) expect({ route: r.route, server: r.server }).toEqual({ route: r.route, server: r.tester });
  });
});
