/**
 * The load tester (loadtest/) against a real server, its counts checked against the server's
 * own counters and rows. It lives on the server's side because it reads the server's insides
 * (metrics registry, database pool); loadtest itself imports no server code (lint rule).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "@game/loadtest/html";
import { renderText } from "@game/loadtest/report";
import { parsePrometheusText, sumSamples } from "@game/loadtest/serverMetrics";
import { runLoadTest, type LoadTestResult } from "@game/loadtest/runner";
// The server's own test harness: a real server on a random port over a fresh Postgres database.
import { startTestServer, type TestServer } from "@game/server/test/harness";

const COUNTRIES = 10;
const DURATION_SEC = 5;
const RATE = 30;
const MIX = { explore: 4, build: 2, research: 2, chat: 2, rankings: 2, country: 2 };

describe("load tester against a test server", () => {
  let server: TestServer;
  let result: LoadTestResult;

  beforeAll(async () => {
    server = await startTestServer({ metricsPublic: true });
    result = await runLoadTest({
      url: server.baseUrl,
      countries: COUNTRIES,
      durationSec: DURATION_SEC,
      rate: RATE,
      mix: MIX,
      seed: 1234,
      decodeSample: COUNTRIES,
      setupConcurrency: 4,
      metricsIntervalMs: 500,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("completes the whole schedule with no 5xx and no transport failure", () => {
    const { totals, setup } = result.report;
    expect(setup.countriesReady).toBe(COUNTRIES);
    expect(setup.registered).toBe(COUNTRIES);
    expect(setup.joined).toBe(COUNTRIES);
    expect(totals.planned).toBe(RATE * DURATION_SEC);
    expect(totals.issued).toBe(totals.planned);
    expect(totals.completed).toBe(totals.issued);
    expect(totals.dropped + totals.abandoned).toBe(0);
    expect(totals.serverErrors5xx).toBe(0);
    for (const status of ["timeout", "network", "exception", "not_joined", "ws"]) expect(totals.statuses[status] ?? 0).toBe(0);
    const perAction = Object.values(result.report.actions).reduce((n, a) => n + a.count, 0);
    expect(perAction).toBe(totals.completed);
    expect(totals.ok + totals.errors).toBe(totals.completed);
    // every action of the mix ran
    expect(Object.keys(result.report.actions).sort()).toEqual(Object.keys(MIX).sort());
  });

  it("counts the same REST requests per route and status as the server does", () => {
    const metrics = server.server.ctx.metrics;
    const { routes } = result.report.consistency;
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const r of routes) {
      // the report's own comparison (from GET /metrics before and after)
      expect({ route: r.route, server: r.server }).toEqual({ route: r.route, server: r.tester });
      expect(r.match).toBe(true);
    }
    // and straight from the server's counters, status by status (these routes see no setup traffic)
    for (const r of routes) {
      for (const status of ["200", "201", "400", "403", "404", "409", "429", "500"]) {
        const tester = countTester(result, r.method, r.route, status);
        expect({ route: r.route, status, count: metrics.httpRequests.get({ method: r.method, route: r.route, status }) }).toEqual({ route: r.route, status, count: tester });
      }
    }
  });

  it("matches the server's committed game actions and the turns spent in the database", async () => {
    const { actions, consistency } = result.report;
    const metrics = server.server.ctx.metrics;
    expect(metrics.gameActions.get({ action: "explore" })).toBe(actions.explore!.ok);
    expect(metrics.gameActions.get({ action: "construct" })).toBe(actions.build!.ok);
    expect(metrics.gameActions.get({ action: "research" }) + metrics.gameActions.get({ action: "research_allocate" })).toBe(actions.research!.ok);
    expect(consistency.serverGameActions.explore ?? 0).toBe(actions.explore!.ok);

    // turns: every country started with 100 and the tick is off in tests
    const ids = result.credentials.bots.map((b) => b.countryId);
    expect(ids).toHaveLength(COUNTRIES);
    const { rows } = await server.server.database.pool.query<{ spent: string }>("SELECT COALESCE(SUM(100 - turns), 0) AS spent FROM countries WHERE id = ANY($1::int[])", [ids]);
    const spent = Number(rows[0]!.spent);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBe(consistency.turnsConsumedByTester);
    expect(spent).toBe(Object.values(actions).reduce((n, a) => n + a.turnsConsumed, 0));
  });

  it("measures chat fan-out through the world room and agrees with the server's chat count", async () => {
    const { chat, actions, consistency, websocket } = result.report;
    expect(chat.sent).toBe(actions.chat!.count);
    expect(chat.delivered).toBe(actions.chat!.ok);
    expect(chat.delivered).toBeGreaterThan(0);
    expect(chat.undelivered).toBe(0);
    // every other observer saw every delivered line
    expect(chat.receipts).toBe(chat.delivered * (COUNTRIES - 1));
    expect(chat.fanoutMs.count).toBe(chat.receipts);
    expect(chat.fanoutMs.p50).toBeGreaterThan(0);
    expect(consistency.chat.serverChatMessages).toBe(chat.delivered);
    expect(chat.observers).toBe(COUNTRIES);
    expect(sumSamples(parsePrometheusText(await server.server.ctx.metrics.render()), "chat_messages_total")).toBe(chat.delivered);
    expect(websocket.connectedAtStart).toBe(COUNTRIES);
    expect(websocket.connectedAtEnd).toBe(COUNTRIES);
    expect(websocket.disconnectsDuringRun).toBe(0);
    expect(websocket.decodeErrors).toEqual({ clients: 0, frames: 0, samples: [] });
    expect(websocket.serverClientsMax).toBe(COUNTRIES);
  });

  it("reports room traffic, server CPU and memory, and a timeline", () => {
    const { room, server: srv, timeline } = result.report;
    expect(room.clients).toBe(COUNTRIES);
    // the state (season, ticker) changes rarely; the own numbers and the chat lines are messages
    expect(room.patchesPerClientPerSec).toBeGreaterThanOrEqual(0);
    expect(room.bytesPerClientPerSec.mean).toBeGreaterThan(0);
    expect(room.avgFullStateBytes).toBeGreaterThan(0);
    expect(result.report.websocket.messagesByType.own).toBeGreaterThan(0);
    expect(result.report.websocket.messagesByType.chatMessage).toBeGreaterThan(0);
    expect(srv.metricsAvailable).toBe(true);
    expect(srv.samples.length).toBeGreaterThanOrEqual(DURATION_SEC);
    expect(srv.rssMiB.max).toBeGreaterThan(10);
    expect(srv.cpuPercent.mean).not.toBeNull();
    expect(timeline.length).toBeGreaterThanOrEqual(DURATION_SEC);
    expect(timeline.reduce((n, b) => n + b.ok + b.errors, 0)).toBe(result.report.totals.completed);
    expect(renderHtml(result.report)).toContain("<svg");
    expect(renderText(result.report)).toContain("5xx: 0");
  });

  it("reuses the saved countries: tokens still valid, nobody registered again", async () => {
    const again = await runLoadTest({
      url: server.baseUrl,
      countries: COUNTRIES,
      durationSec: 1,
      rate: 5,
      mix: { country: 1 },
      reuse: result.credentials,
      rooms: false,
    });
    expect(again.report.setup).toMatchObject({ countriesReady: COUNTRIES, registered: 0, reusedTokens: COUNTRIES });
    expect(again.report.totals.ok).toBe(5);
    expect(again.credentials.bots.map((b) => b.countryId)).toEqual(result.credentials.bots.map((b) => b.countryId));
  });
});

describe("load tester: a rate search", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ metricsPublic: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("plays each rate in turn with the same clients and names the highest that passed", async () => {
    const { report } = await runLoadTest({ url: server.baseUrl, countries: 4, durationSec: 1, rate: 12, steps: [4, 8], mix: { country: 1 }, seed: 7, rooms: true, metricsIntervalMs: 250 });
    expect(report.steps!.steps.map((s) => s.offeredRate)).toEqual([4, 8, 12]);
    for (const step of report.steps!.steps) {
      expect(step.ok + step.errors + step.refused).toBe(step.offeredRate);
      expect(step.passed).toBe(step.errors === 0 && step.dropped === 0 && step.latencyMs.p99 < report.steps!.p99ThresholdMs);
    }
    const passed = report.steps!.steps.filter((s) => s.passed).map((s) => s.offeredRate);
    expect(report.steps!.highestPassingRate).toBe(passed.length ? Math.max(...passed) : null);
    // the main phase (the last rate) is what the rest of the report describes
    expect(report.totals.planned).toBe(12);
    expect(renderText(report)).toContain("Rate search");
  });
});

/** The tester's count of REST answers for one route and status during the action phase. */
function countTester(result: LoadTestResult, method: string, route: string, status: string): number {
  return result.report.consistency.requestCounts[`${method} ${route} ${status}`] ?? 0;
}
