import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { applyTick } from "@game/schema/rules";
import { loadConfig } from "../config.js";
import { startGameServer } from "../server.js";
import { createTestDatabase, startTestServer } from "../test/harness.js";
import { tickNumberAt } from "../turnClock.js";
import { insertCountries, snapshot, type TickSnapshot } from "./testSupport.js";

/** Short ticks so a handful of intervals take a second or two (ms). */
const INTERVAL_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reference(turns: number, storedTurns: number, ticks: number) {
  let cur = { turns, storedTurns };
  for (let i = 0; i < ticks; i++) cur = applyTick(cur.turns, cur.storedTurns);
  return cur;
}

function expectExactTicks(before: TickSnapshot, after: TickSnapshot): number {
  expect(after.rows).toBe(after.last! - after.first! + 1);
  const ticks = after.rows - before.rows;
  for (const [id, start] of before.countries) expect(after.countries.get(id)).toEqual(reference(start.turns, start.storedTurns, ticks));
  return ticks;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("turn tick without Redis (in-process timer)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it("ticks every interval on real Postgres, each tick once", async () => {
    const server = await startTestServer({ tickEnabled: true, turnIntervalMs: INTERVAL_MS });
    cleanup.push(() => server.close());
    await insertCountries(server.server.ctx.db, 2, 100, 0, "timer");
    await insertCountries(server.server.ctx.db, 1, 149, 0, "at149");
    await insertCountries(server.server.ctx.db, 1, 150, 179, "nearfull");
    // A tick in flight during the inserts may have run its UPDATE before they committed and
    // commit after a snapshot: start counting once a tick begun after the inserts has committed.
    const seen = (await snapshot(server.server.ctx.db)).last ?? 0;
    await waitFor("a tick begun after the inserts", async () => (((await snapshot(server.server.ctx.db)).last ?? 0) >= seen + 2 ? true : undefined));
    const before = await snapshot(server.server.ctx.db);
    await sleep(5 * INTERVAL_MS);
    const after = await snapshot(server.server.ctx.db);
    const ticks = expectExactTicks(before, after);
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(ticks).toBeLessThanOrEqual(6);
    expect(server.server.ctx.metrics.ticks.get()).toBe(after.rows);
  });

  it("tickEnabled false: nothing runs", async () => {
    const server = await startTestServer({ tickEnabled: false, turnIntervalMs: INTERVAL_MS });
    cleanup.push(() => server.close());
    await sleep(3 * INTERVAL_MS);
    const { rows } = await server.server.ctx.db.query("SELECT (SELECT count(*) FROM turn_ticks) AS ticks, (SELECT count(*) FROM game_clock) AS clocks");
    expect(rows[0]).toEqual({ ticks: 0, clocks: 0 });
  });

  it("catches up the ticks missed while the server was down, each once, on start", async () => {
    const database = await createTestDatabase();
    cleanup.push(() => database.drop());
    const observer = database.pool(1);
    cleanup.push(() => observer.end());

    const first = await startTestServer({ tickEnabled: true, turnIntervalMs: INTERVAL_MS, databaseUrl: database.url });
    cleanup.push(() => first.close()); // close is idempotent; the test closes it first
    await insertCountries(first.server.ctx.db, 2, 100, 0, "downtime");
    await insertCountries(first.server.ctx.db, 1, 147, 0, "at147");
    await waitFor("two ticks", async () => ((await snapshot(observer)).rows >= 2 ? true : undefined));
    await first.close();

    const before = await snapshot(observer);
    const downMs = 6 * INTERVAL_MS;
    await sleep(downMs);
    const restartedAt = Date.now();
    const second = await startTestServer({ tickEnabled: true, turnIntervalMs: INTERVAL_MS, databaseUrl: database.url });
    cleanup.push(() => second.close());
    const due = tickNumberAt(restartedAt, INTERVAL_MS);
    const after = await waitFor("the catch-up", async () => {
      const s = await snapshot(observer);
      return s.last !== null && s.last >= due ? s : undefined;
    });
    const ticks = expectExactTicks(before, after);
    expect(ticks).toBeGreaterThanOrEqual(5);
    // the missed ticks went in as one UPDATE (one batch), not one transaction each
    const { rows } = await observer.query<{ batch: number }>("SELECT max(batch_ticks) AS batch FROM turn_ticks WHERE tick_number > $1", [before.last]);
    expect(rows[0]!.batch).toBeGreaterThanOrEqual(5);
  });

  it("embedded PGlite: the timer ticks on the one-connection pool", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-tick-embedded-"));
    cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const server = await startGameServer(
      loadConfig({
        port: 0,
        dataDir,
        databaseUrl: undefined,
        redisUrl: undefined,
        jwtSecret: "test-secret-test-secret-test-secret-0123456789",
        logLevel: "silent",
        clientDir: path.join(dataDir, "none"),
        tickEnabled: true,
        turnIntervalMs: INTERVAL_MS,
      }),
      { logger: pino({ level: "silent" }) },
    );
    cleanup.push(() => server.close());
    expect(server.database.embedded).toBe(true);
    const db = server.database.pool;
    const [id] = await insertCountries(db, 1, 100, 0, "embedded");
    await waitFor("two ticks", async () => ((await snapshot(db)).countries.get(id!)!.turns >= 102 ? true : undefined), 5_000);
    const s = await snapshot(db);
    expect(s.rows).toBe(s.last! - s.first! + 1);
  });
});
