import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import pg from "pg";
import type { StrikeJson } from "@game/schema/api";
import { registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { countryTopic, type GameEvent } from "../events.js";
import { executeStrike } from "../services/combat.js";
import { strikeSchedulerFor } from "../services/strikeScheduler.js";

/**
 * Scheduled attacks and planned strikes run once, at their time, from the job queue: with
 * Redis (a delayed BullMQ job) and without (a timer), across a restart of the server, and
 * never twice however many deliveries, timers or processes race for them.
 */

/** This file's Redis database (tick queue tests use 7, the cluster tests 5). */
const REDIS_DB = 11;

const flush = async () => {
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`, { maxRetriesPerRequest: null });
  await redis.flushdb();
  redis.disconnect();
};

async function pair(t: TestServer, prefix: string) {
  const a = await registerPlayer(t, `${prefix}A`);
  const d = await registerPlayer(t, `${prefix}D`);
  await setCountry(t.server.database.pool, a.countryId, { troops: 5_000, tanks: 200, turns: 150, cash: 2_000_000, land: 500 });
  await setCountry(t.server.database.pool, d.countryId, { troops: 800, land: 500 });
  return { a, d };
}

async function schedule(t: TestServer, p: Awaited<ReturnType<typeof pair>>, body: Record<string, unknown>): Promise<StrikeJson> {
  const res = await t.api("POST", "/attack/launch", { countryId: p.a.countryId, targetCountryId: p.d.countryId, units: { troops: 2_000 }, attackType: "standard_strike", ...body }, p.a.token);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.executed).toBe(false);
  return res.body.strike;
}

async function strikeState(t: TestServer, id: number) {
  const { rows } = await t.server.database.pool.query("SELECT s.state, s.battle_id, s.failure, (SELECT count(*)::int FROM battles b WHERE b.strike_id = s.id) AS battles FROM strikes s WHERE s.id = $1", [id]);
  return rows[0] as { state: string; battle_id: number | null; failure: string | null; battles: number };
}

async function waitFor(check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe.each([
  ["without Redis (timers)", undefined],
  ["with Redis (BullMQ delayed jobs)", REDIS_DB],
] as const)("strikes %s", (_name, redisDb) => {
  let t: TestServer;
  beforeAll(async () => {
    if (redisDb !== undefined) await flush();
    t = await startTestServer({ newPlayerProtectionHours: 0, tickEnabled: true, redisDb });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a scheduled attack runs once, on time, and tells the attacker", async () => {
    const p = await pair(t, "sched");
    const got: GameEvent[] = [];
    const off = t.server.ctx.events.subscribe(countryTopic(p.a.countryId), (e) => got.push(e));
    await t.server.ctx.events.ready();
    const strike = await schedule(t, p, { scheduledFor: inMs(1_500) });
    expect(strike).toMatchObject({ kind: "scheduled", state: "pending", targetCountryId: p.d.countryId });
    expect((await strikeState(t, strike.id)).state).toBe("pending");
    await waitFor(async () => (await strikeState(t, strike.id)).state !== "pending");
    const done = await strikeState(t, strike.id);
    expect(done).toMatchObject({ state: "executed", battles: 1 });
    const { rows } = await t.server.database.pool.query("SELECT created_at FROM battles WHERE id = $1", [done.battle_id]);
    expect(rows[0].created_at.getTime()).toBeGreaterThanOrEqual(Date.parse(strike.executeAt));
    await waitFor(() => got.some((e) => e.type === "notice" && e.notice.kind === "strike_executed"));
    off();
    // the report is the attacker's and the defender's like any other
    const reports = await t.api("GET", "/battle-reports", undefined, p.d.token);
    expect(reports.body.reports[0]).toMatchObject({ id: done.battle_id, strikeId: strike.id, isPlayerDefender: true });
  });

  it("a planned strike waits 12 hours, +50%, and its units rest 12 hours after; duplicate runs fight once", async () => {
    const p = await pair(t, "plan");
    const strike = await schedule(t, p, { attackType: "planned_strike" });
    const wait = Date.parse(strike.executeAt) - Date.now();
    expect(wait).toBeGreaterThan(12 * 3600_000 - 10_000);
    expect(wait).toBeLessThanOrEqual(12 * 3600_000);
    // the preparation is over: due now
    await t.server.database.pool.query("UPDATE strikes SET execute_at = now() WHERE id = $1", [strike.id]);
    const outcomes = await Promise.all([
      executeStrike(t.server.ctx, strike.id),
      executeStrike(t.server.ctx, strike.id),
      strikeSchedulerFor(t.server.ctx)!
        .sweep()
        .then(() => "sweep"),
    ]);
    // Whichever of the three gets the strike first fights it (the sweep may win the race); the others skip.
    expect(outcomes.filter((o) => o === "executed").length).toBeLessThanOrEqual(1);
    expect(outcomes.filter((o) => o === "executed").length + (outcomes.includes("sweep") ? 1 : 0)).toBeGreaterThanOrEqual(1);
    const done = await strikeState(t, strike.id);
    expect(done).toMatchObject({ state: "executed", battles: 1 });
    const report = (await t.api("GET", `/battle-reports/${done.battle_id}`, undefined, p.a.token)).body.report;
    expect(report.combatLog).toContain("Twelve hours of planning: +50% attack strength.");
    const status = (await t.api("GET", `/military/status/${p.a.countryId}`, undefined, p.a.token)).body.status;
    expect(status.rehabilitation.troops).toBe(2_000 - report.attackerCasualties.troops);
    // units in rehabilitation cannot attack: only what is left may go
    const again = await t.api("POST", "/attack/launch", { countryId: p.a.countryId, targetCountryId: p.d.countryId, attackType: "standard_strike", units: { troops: 5_000 } }, p.a.token);
    expect(again.body.error).toMatch(/^Insufficient troops: have \d+, need 5000$/);
  });

  it("cancelled before it starts, it never runs; cancelling twice is a 409", async () => {
    const p = await pair(t, "cancel");
    const strike = await schedule(t, p, { scheduledFor: inMs(1_000) });
    const res = await t.api("POST", "/attack/cancel", { strikeId: strike.id }, p.a.token);
    expect(res.body.strike).toMatchObject({ state: "cancelled" });
    expect((await t.api("POST", "/attack/cancel", { strikeId: strike.id }, p.a.token)).status).toBe(409);
    expect((await t.api("POST", "/attack/cancel", { strikeId: strike.id }, p.d.token)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1_800));
    expect(await strikeState(t, strike.id)).toMatchObject({ state: "cancelled", battles: 0 });
  });

  it("re-checked at execution: a target protected meanwhile makes it fail with the reason", async () => {
    const p = await pair(t, "recheck");
    const strike = await schedule(t, p, { scheduledFor: inMs(1_000) });
    await t.server.database.pool.query("UPDATE countries SET protected_until = now() + interval '1 day' WHERE id = $1", [p.d.countryId]);
    await waitFor(async () => (await strikeState(t, strike.id)).state !== "pending");
    expect(await strikeState(t, strike.id)).toMatchObject({ state: "failed", failure: "Target is under new player protection", battles: 0 });
    const list = await t.api("GET", "/attack/strikes", undefined, p.a.token);
    expect(list.body.strikes.find((s: StrikeJson) => s.id === strike.id)).toMatchObject({ state: "failed", failure: "Target is under new player protection" });
  });

  it("survives a restart: a strike due while the server was down runs once on start, one still waiting runs on time", async () => {
    const p = await pair(t, "restart");
    const due = await schedule(t, p, { scheduledFor: inMs(60_000) });
    const later = await schedule(t, p, { scheduledFor: inMs(4_000), units: { troops: 1_000 } });
    const databaseUrl = t.databaseUrl;
    // stop the server, keeping its database for the next one (old.close() drops it at the end)
    await t.server.close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("UPDATE strikes SET execute_at = now() - interval '1 minute' WHERE id = $1", [due.id]);
    await client.end();
    const next = await startTestServer({ newPlayerProtectionHours: 0, tickEnabled: true, redisDb, databaseUrl });
    const old = t;
    t = {
      ...next,
      close: async () => {
        await next.close();
        await old.close().catch(() => undefined);
      },
    };
    await waitFor(async () => (await strikeState(t, due.id)).state !== "pending");
    expect(await strikeState(t, due.id)).toMatchObject({ state: "executed", battles: 1 });
    await waitFor(async () => (await strikeState(t, later.id)).state !== "pending");
    expect(await strikeState(t, later.id)).toMatchObject({ state: "executed", battles: 1 });
  });
});
