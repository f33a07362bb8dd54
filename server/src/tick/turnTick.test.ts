import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyTick, MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";
import { loadConfig } from "../config.js";
import { runMigrations } from "../db/migrate.js";
import { createTestDatabase } from "../test/harness.js";
import { MAX_CATCH_UP_TICKS, nextTickAt, tickNumberAt } from "../turnClock.js";
import { insertCountries, snapshot, tickContext } from "./testSupport.js";
import { ensureGameClock, runDueTicks, runTick } from "./turnTick.js";

/** The rule, one tick at a time: the reference the set-based SQL must match. */
function reference(turns: number, storedTurns: number, ticks: number) {
  let cur = { turns, storedTurns };
  for (let i = 0; i < ticks; i++) cur = applyTick(cur.turns, cur.storedTurns);
  return cur;
}

const INTERVAL_MS = 1_000;

describe("turn tick SQL (real Postgres)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const config = loadConfig({ turnIntervalMs: INTERVAL_MS, tickEnabled: true, logLevel: "silent" });

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(8);
    await runMigrations(pool);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });
  beforeEach(async () => {
    await pool.query("TRUNCATE turn_ticks, game_clock; DELETE FROM countries");
  });

  /** Countries at the given (turns, stored) pairs; returns id -> starting pair. */
  async function seed(pairs: [number, number][]) {
    const start = new Map<number, { turns: number; storedTurns: number }>();
    for (const [turns, stored] of pairs) {
      const [id] = await insertCountries(pool, 1, turns, stored);
      start.set(id!, { turns, storedTurns: stored });
    }
    return start;
  }

  it("caps: 149 -> 150 -> stored 1 -> ... and nothing moves at 150/180", async () => {
    const ctx = tickContext(pool, config);
    const [at149] = await insertCountries(pool, 1, 149, 0);
    const [full] = await insertCountries(pool, 1, MAX_TURNS, MAX_STORED_TURNS);
    const [nearFull] = await insertCountries(pool, 1, MAX_TURNS, MAX_STORED_TURNS - 1);
    const expected = [
      { turns: 150, storedTurns: 0 },
      { turns: 150, storedTurns: 1 },
      { turns: 150, storedTurns: 2 },
    ];
    for (let i = 0; i < expected.length; i++) {
      const result = await runTick(ctx, 1_000 + i);
      expect(result.applied).toEqual([1_000 + i]);
      // the full country is not even written
      expect(result.countriesUpdated).toBe(i === 0 ? 2 : 1);
      const snap = await snapshot(pool);
      expect(snap.countries.get(at149!)).toEqual(expected[i]);
      expect(snap.countries.get(full!)).toEqual({ turns: MAX_TURNS, storedTurns: MAX_STORED_TURNS });
      expect(snap.countries.get(nearFull!)).toEqual({ turns: MAX_TURNS, storedTurns: MAX_STORED_TURNS });
    }
  });

  // k ticks in one UPDATE (catch-up) against k single ticks of the rule, over the band edges.
  const PAIRS: [number, number][] = [
    [0, 0],
    [1, 0],
    [100, 0],
    [140, 5],
    [148, 0],
    [149, 0],
    [149, 179],
    [150, 0],
    [150, 1],
    [150, 170],
    [150, 179],
    [150, 180],
    [0, 180],
    [10, 179],
    [120, 100],
  ];
  it.each([1, 2, 3, 10, 49, 50, 51, 150, 151, 179, 181, 329, 330])("k = %d missed ticks in one UPDATE equal k single ticks", async (k) => {
    const ctx = tickContext(pool, config);
    const start = await seed(PAIRS);
    // The clock started at tick 5_000; the server was down until tick 5_000 + k.
    await ensureGameClock(pool, 5_000 * INTERVAL_MS);
    const result = await runDueTicks(ctx, 5_000 + k);
    expect(result.applied).toEqual(Array.from({ length: k }, (_, i) => 5_001 + i));
    expect(result.skipped).toBe(0);
    const snap = await snapshot(pool);
    for (const [id, s] of start) expect(snap.countries.get(id), `from ${s.turns}/${s.storedTurns}`).toEqual(reference(s.turns, s.storedTurns, k));
    expect(snap.rows).toBe(k);
    const { rows } = await pool.query("SELECT DISTINCT batch_ticks, interval_ms FROM turn_ticks");
    expect(rows).toEqual([{ batch_ticks: k, interval_ms: INTERVAL_MS }]);
    // one event for the batch, naming the last tick
    expect(ctx.events.events).toEqual([expect.objectContaining({ type: "tick", tickNumber: 5_000 + k, turnIntervalMs: INTERVAL_MS })]);
    expect(ctx.metrics.ticks.get()).toBe(k);
  });

  it("a duplicated tick changes nothing, also when the copies run at the same time", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    expect((await runTick(ctx, 77)).applied).toEqual([77]);
    expect((await runTick(ctx, 77)).applied).toEqual([]);
    // Eight deliveries of tick 78 at once: the primary key lets exactly one through.
    const results = await Promise.all(Array.from({ length: 8 }, () => runTick(ctx, 78)));
    expect(results.filter((r) => r.applied.length === 1)).toHaveLength(1);
    const snap = await snapshot(pool);
    expect(snap.countries.get(id!)).toEqual({ turns: 12, storedTurns: 0 });
    expect(snap.rows).toBe(2);
    expect(ctx.metrics.ticks.get()).toBe(2);
    expect(ctx.events.events.map((e) => (e.type === "tick" ? e.tickNumber : -1))).toEqual([77, 78]);
  });

  it("a failure after COMMIT leaves the tick applied once; a retry is a no-op", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const crash = { afterCommit: () => Promise.reject(new Error("worker died after commit")) };
    await expect(runTick(ctx, 90, { hooks: crash })).rejects.toThrow("worker died after commit");
    expect((await runTick(ctx, 90)).applied).toEqual([]);
    expect((await snapshot(pool)).countries.get(id!)).toEqual({ turns: 11, storedTurns: 0 });
  });

  it("a failure before COMMIT applies nothing; the retry applies the tick", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const crash = { beforeCommit: () => Promise.reject(new Error("worker died mid-tick")) };
    await expect(runTick(ctx, 91, { hooks: crash })).rejects.toThrow("worker died mid-tick");
    let snap = await snapshot(pool);
    expect(snap.rows).toBe(0);
    expect(snap.countries.get(id!)).toEqual({ turns: 10, storedTurns: 0 });
    expect(ctx.events.events).toEqual([]);
    expect((await runTick(ctx, 91)).applied).toEqual([91]);
    snap = await snapshot(pool);
    expect(snap.countries.get(id!)).toEqual({ turns: 11, storedTurns: 0 });
  });

  it("catch-up applies only ticks after the last applied one, each once", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 0, 0);
    await ensureGameClock(pool, 100 * INTERVAL_MS);
    expect((await runDueTicks(ctx, 103)).applied).toEqual([101, 102, 103]);
    // a stale or duplicated job for an earlier tick, and the same target again: nothing
    expect((await runDueTicks(ctx, 102)).applied).toEqual([]);
    expect((await runDueTicks(ctx, 103)).applied).toEqual([]);
    // a lost job (tick 104) is repaired by the next one
    expect((await runDueTicks(ctx, 105)).applied).toEqual([104, 105]);
    const snap = await snapshot(pool);
    expect(snap.countries.get(id!)).toEqual({ turns: 5, storedTurns: 0 });
    expect([snap.first, snap.last, snap.rows]).toEqual([101, 105, 5]);
  });

  it("a fresh clock has nothing to catch up; ticks before the clock started never happened", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 0, 0);
    const now = Date.now();
    await ensureGameClock(pool, now);
    // started again later: the clock keeps its first start
    expect(await ensureGameClock(pool, now + 60_000)).toBeCloseTo(now, -1);
    expect((await runDueTicks(ctx, undefined, { now })).applied).toEqual([]);
    const next = tickNumberAt(now, INTERVAL_MS) + 1;
    expect((await runDueTicks(ctx, next)).applied).toEqual([next]);
    expect((await snapshot(pool)).countries.get(id!)).toEqual({ turns: 1, storedTurns: 0 });
  });

  it(`a long downtime is bounded to ${MAX_CATCH_UP_TICKS} ticks, with the same result as all of them`, async () => {
    const ctx = tickContext(pool, config);
    const start = await seed(PAIRS);
    await ensureGameClock(pool, 999 * INTERVAL_MS);
    expect((await runDueTicks(ctx, 1_000)).applied).toEqual([1_000]);
    // down for 100,000 intervals
    const result = await runDueTicks(ctx, 101_000);
    expect(result.applied).toHaveLength(MAX_CATCH_UP_TICKS);
    expect(result.applied[0]).toBe(101_000 - MAX_CATCH_UP_TICKS + 1);
    expect(result.skipped).toBe(100_000 - MAX_CATCH_UP_TICKS);
    const snap = await snapshot(pool);
    for (const [id, s] of start) expect(snap.countries.get(id)).toEqual(reference(s.turns, s.storedTurns, 100_001));
    for (const c of snap.countries.values()) expect(c).toEqual({ turns: MAX_TURNS, storedTurns: MAX_STORED_TURNS });
  });

  it("a changed TURN_INTERVAL_MS continues from the last tick's time: no replay, no skip", async () => {
    const [id] = await insertCountries(pool, 1, 0, 0);
    await ensureGameClock(pool, 10 * INTERVAL_MS);
    expect((await runDueTicks(tickContext(pool, config), 12)).applied).toEqual([11, 12]); // up to 12 s
    const halved = tickContext(pool, loadConfig({ ...config, turnIntervalMs: INTERVAL_MS / 2 }));
    // 12 s is tick 24 at 500 ms; ticks 25..28 (12.5 s .. 14 s) are due by 14 s
    expect((await runDueTicks(halved, 28)).applied).toEqual([25, 26, 27, 28]);
    expect((await snapshot(pool)).countries.get(id!)).toEqual({ turns: 6, storedTurns: 0 });
  });

  it("the tick event carries the next tick time", async () => {
    const ctx = tickContext(pool, config);
    const now = Date.now();
    const n = tickNumberAt(now, INTERVAL_MS);
    await runTick(ctx, n);
    const after = Date.now();
    // the next tick's due time, or, when the tick itself ran past it (a loaded machine), the one after now
    expect(ctx.events.events).toEqual([{ type: "tick", tickNumber: n, nextTickAt: expect.any(Number), turnIntervalMs: INTERVAL_MS }]);
    const announced = (ctx.events.events[0] as { nextTickAt: number }).nextTickAt;
    expect(announced % INTERVAL_MS).toBe(0);
    expect(announced).toBeGreaterThanOrEqual((n + 1) * INTERVAL_MS);
    expect(announced).toBeLessThanOrEqual(Math.max((n + 1) * INTERVAL_MS, nextTickAt(INTERVAL_MS, after)));
    expect(nextTickAt(INTERVAL_MS, n * INTERVAL_MS)).toBe((n + 1) * INTERVAL_MS);
    expect(nextTickAt(INTERVAL_MS, n * INTERVAL_MS + 999)).toBe((n + 1) * INTERVAL_MS);
  });
});
