import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { runMigrations } from "../db/migrate.js";
import { createTestDatabase } from "../test/harness.js";
import { countryTopic } from "../events.js";
import { tickDueAt, tickNumberAt } from "../turnClock.js";
import { periodsReached, TICK_PHASES } from "./phases.js";
import { DAY_MS, type CollapsingPhase, type PeriodicPhase, type TickPhase } from "./tickPhase.js";
import { insertCountries, tickContext } from "./testSupport.js";
import { ensureGameClock, runDueTicks, runTick } from "./turnTick.js";

/** 20 minutes, the game's default: 72 ticks a day. */
const INTERVAL_MS = 1_200_000;
/** A daily cost for the tests (dollars per country per day). */
const DAILY_COST = 100;

/** A daily phase that charges every country DAILY_COST and says so to each. */
const dailyCost: PeriodicPhase = {
  name: "test_daily_cost",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run({ client, emit, period }) {
    const { rows } = await client.query<{ id: number }>("UPDATE countries SET cash = cash - $1 RETURNING id", [DAILY_COST]);
    for (const { id } of rows) emit(countryTopic(id), { type: "countryChanged", countryId: id, reason: `daily-${period}`, numbers: {} as never });
    return rows.length;
  },
};

/** A collapsing phase that counts its runs in a table. */
const counter: CollapsingPhase = {
  name: "test_counter",
  catchUp: "collapse",
  async run({ client, ticks }) {
    await client.query("INSERT INTO test_phase_runs (ticks) VALUES ($1)", [ticks.length]);
    return 1;
  },
};

const PHASES: TickPhase[] = [...TICK_PHASES, counter, dailyCost];

/** A tick number due at hh:mm on day `day` (days since the epoch, UTC). */
function tickAt(day: number, hours: number, minutes = 0): number {
  return tickNumberAt(day * DAY_MS + (hours * 60 + minutes) * 60_000, INTERVAL_MS);
}

describe("periodsReached", () => {
  it.each([
    // first due tick, last tick, days
    [tickAt(100, 10), tickAt(100, 11), [100]],
    [tickAt(100, 23, 20), tickAt(101, 0), [100, 101]],
    [tickAt(100, 23), tickAt(103, 1), [100, 101, 102, 103]],
  ])("ticks %i..%i reach days %j", (first, last, days) => {
    expect(periodsReached(first, last, INTERVAL_MS, DAY_MS)).toEqual(days);
  });
});

describe("tick phases (real Postgres)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const config = loadConfig({ turnIntervalMs: INTERVAL_MS, tickEnabled: true, logLevel: "silent" });

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(8);
    await runMigrations(pool);
    await pool.query("CREATE TABLE test_phase_runs (id serial PRIMARY KEY, ticks int NOT NULL)");
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });
  beforeEach(async () => {
    await pool.query("TRUNCATE turn_ticks, game_clock, tick_phase_periods, test_phase_runs; DELETE FROM countries");
  });

  const cashOf = async (id: number) => Number((await pool.query("SELECT cash FROM countries WHERE id = $1", [id])).rows[0].cash);
  const runs = async () => (await pool.query<{ ticks: number }>("SELECT ticks FROM test_phase_runs ORDER BY id")).rows.map((r) => r.ticks);

  it("phases run in the declared order, turns first", () => {
    expect(TICK_PHASES[0]!.name).toBe("turns");
    expect(new Set(PHASES.map((p) => p.name)).size).toBe(PHASES.length);
  });

  it("a tick applied twice for the same tick number changes nothing the second time", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const n = tickAt(200, 12);
    const first = await runTick(ctx, n, { phases: PHASES });
    // Domains append their own phases to TICK_PHASES: only these three are asserted.
    expect(first.phases).toMatchObject({ turns: 1, test_counter: 1, test_daily_cost: 1 });
    const again = await runTick(ctx, n, { phases: PHASES });
    expect(again.applied).toEqual([]);
    expect(again.phases).toEqual({});
    expect(await runs()).toEqual([1]);
    expect(await cashOf(id!)).toBe(100_000 - DAILY_COST);
    // Two copies at the same time: still once.
    await Promise.all([runTick(ctx, n + 1, { phases: PHASES }), runTick(ctx, n + 1, { phases: PHASES })]);
    expect(await runs()).toEqual([1, 1]);
    expect(await cashOf(id!)).toBe(100_000 - DAILY_COST);
  });

  it("catch-up after 3 missed ticks in one day charges the daily cost once, not three times", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const day = 300;
    await ensureGameClock(pool, tickDueAt(tickAt(day, 9, 40), INTERVAL_MS));
    // The 10:00 tick runs (the day's first here: charged), then three ticks are missed.
    await runDueTicks(ctx, tickAt(day, 10), { phases: PHASES, now: tickDueAt(tickAt(day, 10), INTERVAL_MS) });
    expect(await cashOf(id!)).toBe(100_000 - DAILY_COST);
    expect(await runs()).toEqual([1]);
    const caughtUp = await runDueTicks(ctx, tickAt(day, 11), { phases: PHASES, now: tickDueAt(tickAt(day, 11), INTERVAL_MS) });
    expect(caughtUp.applied).toHaveLength(3);
    // Same day: no second charge; the collapsing phase ran once for the three ticks.
    expect(await cashOf(id!)).toBe(100_000 - DAILY_COST);
    expect(await runs()).toEqual([1, 3]);
  });

  it("catch-up across midnight charges each day it reaches once, and a retry charges nothing", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const day = 400;
    await ensureGameClock(pool, tickDueAt(tickAt(day, 22), INTERVAL_MS));
    await runDueTicks(ctx, tickAt(day, 23), { phases: PHASES });
    expect(await cashOf(id!)).toBe(100_000 - DAILY_COST);
    // Three missed ticks: 23:20, 23:40 and 00:00 of the next day.
    const result = await runDueTicks(ctx, tickAt(day + 1, 0), { phases: PHASES });
    expect(result.applied).toHaveLength(3);
    expect(await cashOf(id!)).toBe(100_000 - 2 * DAILY_COST);
    // Down across three more midnights: three more charges, in one catch-up.
    const long = await runDueTicks(ctx, tickAt(day + 4, 0, 20), { phases: PHASES });
    expect(long.phases.test_daily_cost).toBe(3);
    expect(await cashOf(id!)).toBe(100_000 - 5 * DAILY_COST);
    const retried = await runDueTicks(ctx, tickAt(day + 4, 0, 20), { phases: PHASES });
    expect(retried.applied).toEqual([]);
    expect(await cashOf(id!)).toBe(100_000 - 5 * DAILY_COST);
    const periods = await pool.query("SELECT period FROM tick_phase_periods WHERE phase = $1 ORDER BY period", [dailyCost.name]);
    expect(periods.rows.map((r) => Number(r.period))).toEqual([day, day + 1, day + 2, day + 3, day + 4]);
  });

  it("a phase's after-commit work runs once the tick committed, only when it applied ticks, and its failure leaves the tick applied", async () => {
    const ctx = tickContext(pool, config);
    await insertCountries(pool, 1, 10, 0);
    const seen: number[] = [];
    const sweeping: CollapsingPhase = {
      name: "test_sweep",
      catchUp: "collapse",
      run: async () => 0,
      async afterCommit(c) {
        // Runs after COMMIT: another connection sees the tick's row.
        const { rows } = await c.db.query("SELECT count(*)::int AS n FROM turn_ticks");
        seen.push(rows[0].n);
      },
    };
    const failing: CollapsingPhase = {
      name: "test_failing_sweep",
      catchUp: "collapse",
      run: async () => 0,
      afterCommit: async () => {
        throw new Error("sweep failed");
      },
    };
    const n = tickAt(600, 12);
    const first = await runTick(ctx, n, { phases: [...PHASES, failing, sweeping] });
    expect(first.applied).toEqual([n]);
    expect(seen).toEqual([1]);
    await runTick(ctx, n, { phases: [...PHASES, failing, sweeping] });
    expect(seen).toEqual([1]);
  });

  it("events a phase emits are published after the tick commits, and not when it rolls back", async () => {
    const ctx = tickContext(pool, config);
    const [id] = await insertCountries(pool, 1, 10, 0);
    const n = tickAt(500, 12);
    await expect(
      runTick(ctx, n, {
        phases: PHASES,
        hooks: {
          beforeCommit() {
            throw new Error("crash before commit");
          },
        },
      }),
    ).rejects.toThrow("crash before commit");
    expect(ctx.events.published.filter((p) => p.topic.name === `country:${id}`)).toEqual([]);
    expect(await cashOf(id!)).toBe(100_000);
    await runTick(ctx, n, { phases: PHASES });
    const mine = ctx.events.published.filter((p) => p.topic.name === `country:${id}`);
    expect(mine.map((p) => (p.event as { reason: string }).reason)).toEqual(["daily-500"]);
    // The tick event comes first, then what the phases changed.
    const names = ctx.events.published.map((p) => p.event.type);
    expect(names.indexOf("tick")).toBeLessThan(names.indexOf("countryChanged"));
  });
});
