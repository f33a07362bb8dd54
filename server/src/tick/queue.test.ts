import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyTick, MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";
import { WORLD_TOPIC, type GameEvent } from "../events.js";
import { startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { startBackgroundWork, type BackgroundWork } from "./index.js";
import { insertCountries, snapshot, snapshotBetweenTicks, type TickSnapshot } from "./testSupport.js";
import type { TickContext, TickResult } from "./turnTick.js";

/** This file's Redis database: the tick queue's keys of other files never meet ours. */
const REDIS_DB = 7;
/** Short ticks so a handful of intervals take a couple of seconds (ms). */
const INTERVAL_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reference(turns: number, storedTurns: number, ticks: number) {
  let cur = { turns, storedTurns };
  for (let i = 0; i < ticks; i++) cur = applyTick(cur.turns, cur.storedTurns);
  return cur;
}

/**
 * Between two snapshots: the tick table has one row per tick with no gap, and every country
 * changed by exactly the ticks recorded in between, capped as the rules say.
 * @returns the number of ticks applied in between
 */
function expectExactTicks(before: TickSnapshot, after: TickSnapshot): number {
  expect(after.rows).toBe(after.last! - after.first! + 1); // contiguous: none lost, none twice
  const ticks = after.rows - before.rows;
  if (before.last !== null) expect(after.last! - before.last).toBe(ticks);
  for (const [id, start] of before.countries) {
    expect(after.countries.get(id), `country ${id} after ${ticks} ticks`).toEqual(reference(start.turns, start.storedTurns, ticks));
  }
  return ticks;
}

/** Countries at the edges of the caps, beside the ones at the starting 100 turns. */
async function seedCapEdges(db: TickContext["db"]) {
  await insertCountries(db, 1, 149, 0, "at149");
  await insertCountries(db, 1, MAX_TURNS, 0, "at150");
  await insertCountries(db, 1, MAX_TURNS, MAX_STORED_TURNS - 2, "nearfull");
  await insertCountries(db, 1, MAX_TURNS, MAX_STORED_TURNS, "full");
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The server's context with the tick switched on at this file's interval. */
function tickOn(server: TestServer): TickContext {
  const ctx = server.server.ctx;
  return { ...ctx, config: { ...ctx.config, tickEnabled: true, turnIntervalMs: INTERVAL_MS } };
}

describe("turn tick on BullMQ (real Postgres + Redis)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  beforeEach(async () => {
    const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`, { maxRetriesPerRequest: null });
    await redis.flushdb();
    redis.disconnect();
  });
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it("two processes on one Redis: after k intervals every country has exactly k more turns, one row per tick", async () => {
    const a = await startTestServer({ redisDb: REDIS_DB, tickEnabled: true, turnIntervalMs: INTERVAL_MS });
    cleanup.push(() => a.close());
    const b = await startTestServer({ redisDb: REDIS_DB, tickEnabled: true, turnIntervalMs: INTERVAL_MS, databaseUrl: a.databaseUrl });
    cleanup.push(() => b.close());
    const seen: GameEvent[] = [];
    b.server.ctx.events.subscribe(WORLD_TOPIC, (event) => seen.push(event));
    await insertCountries(a.server.ctx.db, 3, 100, 0, "tick");
    await seedCapEdges(a.server.ctx.db);

    const k = 6;
    // between ticks: a tick already running when the countries were inserted has committed
    const before = await snapshotBetweenTicks(a.server.ctx.db);
    await sleep(k * INTERVAL_MS);
    const after = await snapshot(a.server.ctx.db);

    const ticks = expectExactTicks(before, after);
    // on time, give or take the boundary the snapshots fall on and a loaded test machine
    expect(ticks).toBeGreaterThanOrEqual(k - 2);
    expect(ticks).toBeLessThanOrEqual(k + 1);
    // Every tick was applied by one of the two workers, once: their counters add up to the rows.
    const byA = a.server.ctx.metrics.ticks.get();
    const byB = b.server.ctx.metrics.ticks.get();
    expect(byA + byB).toBe(after.rows);
    // The tick event crosses processes on Redis presence and names the next tick.
    const tickEvents = seen.filter((e): e is Extract<GameEvent, { type: "tick" }> => e.type === "tick");
    expect(tickEvents.length).toBeGreaterThanOrEqual(k - 3);
    for (const e of tickEvents) {
      expect(e.turnIntervalMs).toBe(INTERVAL_MS);
      expect(e.nextTickAt).toBeGreaterThanOrEqual((e.tickNumber + 1) * INTERVAL_MS);
      expect(e.nextTickAt % INTERVAL_MS).toBe(0);
    }
  });

  it("a job that fails after COMMIT is retried by BullMQ and the retry changes nothing", async () => {
    const server = await startTestServer({ redisDb: REDIS_DB });
    cleanup.push(() => server.close());
    await insertCountries(server.server.ctx.db, 2, 100, 0, "retry");
    await seedCapEdges(server.server.ctx.db);
    const jobs: { id: string; attempt: number; result: TickResult }[] = [];
    let crashed: number | undefined;
    const work = await startBackgroundWork(tickOn(server), server.server.redis, {
      hooks: {
        afterCommit(result) {
          // the first tick this worker applies: committed, then the worker "dies" before acking
          if (crashed === undefined && result.applied.length > 0) {
            crashed = result.applied[0];
            throw new Error("crash after commit");
          }
        },
      },
      onJob: (job, result) => jobs.push({ ...job, result }),
    });
    cleanup.push(() => work.stop());
    const before = await snapshot(server.server.ctx.db);
    const retried = await waitFor("the retried job", () => jobs.find((j) => j.attempt > 1), 30_000);
    expect(retried.result.applied).toEqual([]);
    await sleep(2 * INTERVAL_MS);
    const after = await snapshot(server.server.ctx.db);
    expect(expectExactTicks(before, after)).toBeGreaterThanOrEqual(2);
    expect(after.first).toBe(crashed);
  });

  it("a worker process killed inside the tick transaction neither loses nor doubles the tick", async () => {
    const server = await startTestServer({ redisDb: REDIS_DB });
    cleanup.push(() => server.close());
    await insertCountries(server.server.ctx.db, 2, 100, 0, "kill");
    await seedCapEdges(server.server.ctx.db);

    // 1. A second process joins the schedule; its first tick hangs before COMMIT.
    const child = spawnTickWorker(server.databaseUrl);
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    const line = await waitForLine(child, /^inside (\d+)/, 20_000);
    const killedTick = Number(line[1]);
    const before = await snapshot(server.server.ctx.db);
    expect(before.rows).toBe(0); // not committed

    // 2. This process's worker joins; its ticks wait on the dying tick's lock.
    const jobs: { id: string; tickNumber: number; result: TickResult }[] = [];
    const work: BackgroundWork = await startBackgroundWork(tickOn(server), server.server.redis, {
      worker: { lockDuration: 1_500, stalledInterval: 1_000 },
      onJob: (job, result) => jobs.push({ ...job, result }),
    });
    cleanup.push(() => work.stop());

    // 3. Kill -9 mid-transaction: Postgres rolls it back when the socket drops.
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // 4. The killed job's lock expires and BullMQ redelivers it here, or (on a loaded machine,
    //    where the dying worker's lock may lapse more often than BullMQ's stalled count allows,
    //    so the job is failed instead) this process's next job catches the tick up. Either way
    //    the tick is applied once.
    await waitFor("the killed tick to be applied here", () => jobs.find((j) => j.tickNumber >= killedTick), 30_000);
    await sleep(INTERVAL_MS);
    const after = await snapshot(server.server.ctx.db);
    expect(after.first).toBe(killedTick);
    expect(after.last!).toBeGreaterThan(killedTick);
    const ticks = expectExactTicks(before, after);
    expect(ticks).toBe(after.last! - killedTick + 1);
    // applied once in all (expectExactTicks): by one job here at most (the start-up catch-up
    // may have taken it), and a redelivery that came after it applied nothing
    const appliedBy = jobs.filter((j) => j.result.applied.includes(killedTick));
    expect(appliedBy.length).toBeLessThanOrEqual(1);
    const redelivered = jobs.find((j) => j.tickNumber === killedTick);
    if (redelivered && !appliedBy.includes(redelivered)) expect(redelivered.result.applied).toEqual([]);
  });
});

function spawnTickWorker(databaseUrl: string): ChildProcess {
  const fixture = fileURLToPath(new URL("./tickWorker.fixture.ts", import.meta.url));
  const serverDir = path.resolve(path.dirname(fixture), "../..");
  const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", fixture], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: `${TEST_REDIS_URL}/${REDIS_DB}`, TURN_INTERVAL_MS: String(INTERVAL_MS) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk) => process.stderr.write(`[tick worker] ${chunk}`));
  return child;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} from the tick worker; got: ${buffer}`)), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n")) {
        const match = pattern.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      }
    });
    child.once("exit", (code, signal) => reject(new Error(`tick worker exited (${code ?? signal}): ${buffer}`)));
  });
}
