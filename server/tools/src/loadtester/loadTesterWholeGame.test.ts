/**
 * The load tester's strategy driver playing the whole game (issue 14: one strategy code, two
 * drivers): mid-season countries with every choice open, new-player protection off and rooms
 * on, so the `play` mix has attacks, spy operations and missions, market listings, purchases
 * and standing orders, alliances founded, applied to and accepted, diplomatic proposals and
 * acceptances, and alliance-room messages (chat, operations planned and answered). Every
 * kind's ok count equals the server's own counter for it: `game_actions_total` by action, and
 * for the room's chat `chat_messages_total{channel="alliance"}`, which no other path of this
 * run increments.
 *
 * Deterministic where the appetites are small: the seed fixes each bot's personality and dice,
 * and with seed 7 a trader founds the first alliance within the first ~5 s of play (founding is
 * about 0.5% of decisions), which leaves the rest of the run for applications, acceptances and
 * the alliance room. The kinds asserted below appeared in each of 8 runs on a shared 2-core
 * machine (about 20 s of play and teardown each); the smallest counts were alliance_create 1,
 * operation_plan 1 (one open operation per alliance: as many as there are alliances),
 * operation_respond 3, spy_mission 5, diplomacy_accept 7 and market_order 13. Purchases from
 * listings (1 to 4 a run) are checked against the server's count but not required: a bot buys
 * only food it is short of or units it wants, and these countries rarely are.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest, type LoadTestResult } from "@game/loadtest/runner";
import { seedAccounts } from "../bench/seedAccounts.js";
import { startTestServer, type TestServer } from "@game/server/test/harness";

const COUNTRIES = 40;
const DURATION_SEC = 15;
const RATE = 60;
const SEED = 7;
/**
 * Every concern's read lifetime in this run, ms. The default 30 to 60 s suit minutes of play;
 * 15 s of play compresses them, or a bot would read the alliance list once, before anyone
 * founded an alliance, and never apply.
 */
const VIEW_TTL_MS = 3_000;

/** Intent kinds this run must show, each at least once. */
const REQUIRED_INTENTS = ["attack", "spy_operation", "spy_mission", "market_list", "market_order", "alliance_create", "alliance_apply", "alliance_accept", "diplomacy_propose", "diplomacy_accept"] as const;
const REQUIRED_ROOM_MESSAGES = ["alliance_chat", "operation_plan", "operation_respond"] as const;

describe("load tester strategy driver: the whole game against a test server", () => {
  let server: TestServer;
  let result: LoadTestResult;

  beforeAll(async () => {
    server = await startTestServer({ metricsPublic: true, newPlayerProtectionHours: 0 });
    const ctx = server.server.ctx;
    // mid-season countries without 40 argon2 hashes: the accounts seed:countries writes
    const bots = await seedAccounts({ db: ctx.db, config: ctx.config, clock: ctx.clock, tokens: ctx.tokens }, { count: COUNTRIES, prefix: "whole", password: "whole-game-password", developed: true });
    result = await runLoadTest({
      url: server.baseUrl,
      countries: COUNTRIES,
      durationSec: DURATION_SEC,
      rate: RATE,
      mix: { play: 1 },
      seed: SEED,
      reuse: { version: 1, target: server.baseUrl, createdAt: new Date().toISOString(), bots },
      decodeSample: 0,
      setupConcurrency: 8,
      metricsIntervalMs: 1000,
      viewTtlMs: VIEW_TTL_MS,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("plays with no errors, every view read answered", () => {
    const { totals, strategy, setup } = result.report;
    expect(setup.reusedTokens).toBe(COUNTRIES);
    expect(totals.completed).toBe(RATE * DURATION_SEC);
    expect(result.report.errors).toEqual([]);
    expect(totals.errors).toBe(0);
    expect(totals.serverErrors5xx).toBe(0);
    expect(strategy!.viewFailures).toBe(0);
    expect(Object.keys(strategy!.personalities).sort()).toEqual(["farmer", "raider", "researcher", "trader", "turtle"]);
  });

  it("sends every kind of the whole game, each ok count equal to the server's game_actions_total", () => {
    const { strategy } = result.report;
    const metrics = server.server.ctx.metrics;
    for (const [kind, k] of Object.entries(strategy!.kinds)) {
      expect({ kind, server: metrics.gameActions.get({ action: k.serverAction }) }).toEqual({ kind, server: k.ok });
      expect({ kind, server: k.serverCount }).toEqual({ kind, server: k.ok });
    }
    for (const kind of REQUIRED_INTENTS) expect({ kind, ok: strategy!.kinds[kind]!.ok > 0 }).toEqual({ kind, ok: true });
  });

  it("uses the alliance room: chat, operations planned and answered, each equal to the counter its service increments and to the room's own", () => {
    const room = result.report.strategy!.room;
    const metrics = server.server.ctx.metrics;
    expect(room.joins).toBeGreaterThan(0);
    expect(room.joinFailures).toBe(0);
    for (const kind of REQUIRED_ROOM_MESSAGES) {
      const k = room.kinds[kind]!;
      expect({ kind, ok: k.ok > 0, errors: k.errors }).toEqual({ kind, ok: true, errors: 0 });
      expect({ kind, server: k.serverCount, room: k.serverRoomOk }).toEqual({ kind, server: k.ok, room: k.ok });
    }
    expect(metrics.chatMessages.get({ channel: "alliance" })).toBe(room.kinds.alliance_chat!.ok);
    expect(metrics.gameActions.get({ action: "alliance.operation.plan" })).toBe(room.kinds.operation_plan!.ok);
    expect(metrics.gameActions.get({ action: "alliance.operation.respond" })).toBe(room.kinds.operation_respond!.ok);
    // launching is left to people: its strikes would count as attacks no bot sent
    expect(metrics.gameActions.get({ action: "alliance.operation.launch" })).toBe(0);
  });

  it("reads each concern over its REST routes, the market less often than it decides, and matches the server's request counts per route", () => {
    const { strategy, consistency } = result.report;
    for (const [concern, reads] of Object.entries(strategy!.concernReads)) expect({ concern, read: reads > 0 }).toEqual({ concern, read: true });
    expect(strategy!.concernReads.market).toBeLessThan(strategy!.decisions / 2);
    for (const r of consistency.routes) expect({ route: `${r.method} ${r.route}`, server: r.server }).toEqual({ route: `${r.method} ${r.route}`, server: r.tester });
    const read = (route: string) => consistency.routes.find((r) => r.method === "GET" && r.route === route)!.tester;
    for (const route of [
      "/api/military/brigades/:countryId",
      "/api/intelligence/status/:countryId",
      "/api/intelligence/known",
      "/api/market/listings",
      "/api/market/standing-orders/:countryId",
      "/api/alliance/status/:countryId",
      "/api/alliance/applications",
      "/api/alliance/list",
      "/api/diplomatic-relations/:countryId",
    ]) {
      expect({ route, read: read(route) > 0 }).toEqual({ route, read: true });
    }
  });
});
