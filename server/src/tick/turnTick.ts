import { performance } from "node:perf_hooks";
import { withTransaction, type Db, type DbClient } from "../db/pool.js";
import { on, WORLD_TOPIC, type TopicEvent } from "../events.js";
import { runTickPhases, TICK_PHASES } from "./phases.js";
import type { TickContext, TickPhase } from "./tickPhase.js";
import { MAX_CATCH_UP_TICKS, nextTickAt, tickDueAt, tickNumberAt } from "../turnClock.js";

export type { TickContext } from "./tickPhase.js";

/** What one tick transaction did. */
export interface TickResult {
  /** Tick numbers this call applied, ascending; empty when every one was already applied. */
  applied: number[];
  /** Country rows the turns phase wrote (countries at both caps are not written). */
  countriesUpdated: number;
  /** rows each phase changed, by phase name (empty when nothing was applied) */
  phases: Record<string, number>;
  /** Begin to commit, milliseconds. */
  durationMs: number;
  /**
   * Missed ticks older than the catch-up window, folded into it: applying them too would
   * change nothing (see MAX_CATCH_UP_TICKS), so they get no row.
   */
  skipped: number;
}

/** Test seams: run inside the tick transaction (before COMMIT) and after it. */
export interface TickHooks {
  beforeCommit?(ticks: number[]): Promise<void> | void;
  afterCommit?(result: TickResult): Promise<void> | void;
}

export interface TickOptions {
  hooks?: TickHooks;
  /** The phases to run, in order. @default TICK_PHASES */
  phases?: readonly TickPhase[];
  /** The clock, ms since the epoch. @default ctx.clock.now() */
  now?: number;
}

/** Arbitrary constant: the advisory lock held by the tick transaction (migrations use 727_001). */
export const TICK_LOCK_KEY = 727_002;
/** Deadlock, serialization failure, lock not available: safe to run the whole tick again. */
const RETRYABLE_CODES = new Set(["40P01", "40001", "55P03"]);
const MAX_ATTEMPTS = 3;

/**
 * Applies tick `tickNumber` exactly once: a retried or duplicated call inserts no row and
 * changes nothing. Publishes the 'tick' event and records metrics when it applied the tick.
 * For operators and tests; the queue, the timer and start-up call runDueTicks.
 */
export async function runTick(ctx: TickContext, tickNumber: number, options: TickOptions = {}): Promise<TickResult> {
  if (!Number.isSafeInteger(tickNumber) || tickNumber < 0) throw new Error(`invalid tick number ${tickNumber}`);
  return runTickTransaction(ctx, options, async (client, events) => {
    await lockTicks(client);
    return applyTickRange(client, { from: tickNumber, to: tickNumber, firstDueTick: tickNumber }, ctx.config.turnIntervalMs, options, events);
  });
}

/**
 * Applies every tick due up to `target` that has not been applied yet, each once, in one
 * transaction and one UPDATE (k missed ticks add k turns with the caps applied). "Applied"
 * means a turn_ticks row exists at or after that tick's time, or the tick fell before the
 * game clock started; at most MAX_CATCH_UP_TICKS are applied, which gives the same state as
 * applying all of them. Used on start (target = the tick due now), by every queue job (target =
 * the job's tick, so a job also repairs a tick lost with a killed worker) and by the timer.
 * @param target @default the tick due now
 */
export async function runDueTicks(ctx: TickContext, target?: number, options: TickOptions = {}): Promise<TickResult> {
  const intervalMs = ctx.config.turnIntervalMs;
  const now = options.now ?? ctx.clock.now();
  const upTo = target ?? tickNumberAt(now, intervalMs);
  return runTickTransaction(ctx, options, async (client, events) => {
    // Lock before reading what was applied, so the range below is computed from committed
    // state that no other tick can change until we commit.
    await lockTicks(client);
    const { rows } = await client.query<{ started_ms: string | null; last_ms: string | null }>(
      `SELECT (SELECT extract(epoch FROM started_at) * 1000 FROM game_clock WHERE id = 1) AS started_ms,
              (SELECT extract(epoch FROM max(scheduled_at)) * 1000 FROM turn_ticks) AS last_ms`,
    );
    // Times are compared, not tick numbers, so a change of TURN_INTERVAL_MS between runs
    // neither replays nor skips history: a tick is done when its time is not after the last
    // applied tick's time. +0.5 ms absorbs the microsecond rounding of timestamptz.
    const lastDone = rows[0]!.last_ms === null ? -Infinity : tickNumberAt(Number(rows[0]!.last_ms) + 0.5, intervalMs);
    const clockStart = rows[0]!.started_ms === null ? upTo - 1 : tickNumberAt(Number(rows[0]!.started_ms) + 0.5, intervalMs);
    const firstMissing = Math.max(lastDone, clockStart) + 1;
    const from = Math.max(firstMissing, upTo - MAX_CATCH_UP_TICKS + 1);
    if (from > upTo) return { applied: [], countriesUpdated: 0, phases: {}, skipped: 0 };
    const result = await applyTickRange(client, { from, to: upTo, firstDueTick: firstMissing }, intervalMs, options, events);
    return { ...result, skipped: from - firstMissing };
  });
}

/**
 * Starts the game clock on this database if it has not started: ticks due before it never
 * happened (a fresh database does not catch up on the whole epoch). Idempotent.
 * @returns when the clock started (ms since the epoch)
 */
export async function ensureGameClock(db: Db, now: number = Date.now()): Promise<number> {
  await db.query("INSERT INTO game_clock (id, started_at) VALUES (1, to_timestamp($1::double precision / 1000)) ON CONFLICT (id) DO NOTHING", [now]);
  const { rows } = await db.query<{ started_ms: string }>("SELECT extract(epoch FROM started_at) * 1000 AS started_ms FROM game_clock WHERE id = 1");
  return Number(rows[0]!.started_ms);
}

/**
 * Serializes tick transactions across processes until COMMIT or ROLLBACK: two ticks never
 * interleave their UPDATEs (no deadlock between them), and a catch-up reads a settled table.
 */
async function lockTicks(client: DbClient): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [TICK_LOCK_KEY]);
}

/**
 * The set-based tick, inside an open transaction holding lockTicks: records ticks [from, to]
 * that are not recorded yet, then runs the phases once for all of them (phases.ts says how
 * each catches up). Idempotent through the primary key: ticks already recorded are not
 * applied again, and periodic phases record their periods.
 */
async function applyTickRange(client: DbClient, range: { from: number; to: number; firstDueTick: number }, intervalMs: number, options: TickOptions, events: TopicEvent[]): Promise<Omit<TickResult, "durationMs" | "skipped">> {
  const inserted = await client.query<{ tick_number: number }>(
    `INSERT INTO turn_ticks (tick_number, scheduled_at, interval_ms)
     SELECT n, to_timestamp(n * $3::double precision / 1000), $3
       FROM generate_series($1::bigint, $2::bigint) AS n
     ON CONFLICT (tick_number) DO NOTHING
     RETURNING tick_number`,
    [range.from, range.to, intervalMs],
  );
  const applied = inserted.rows.map((r) => Number(r.tick_number)).sort((a, b) => a - b);
  if (applied.length === 0) return { applied, countriesUpdated: 0, phases: {} };
  const started = performance.now();
  const last = applied[applied.length - 1]!;
  const phases = await runTickPhases(options.phases ?? TICK_PHASES, {
    client,
    ticks: applied,
    firstDueTick: Math.min(range.firstDueTick, applied[0]!),
    intervalMs,
    at: tickDueAt(last, intervalMs),
    emit: (topic, event) => events.push(on(topic, event)),
  });
  const countriesUpdated = phases.turns ?? 0;
  await client.query("UPDATE turn_ticks SET batch_ticks = $2, countries_updated = $3, duration_ms = $4 WHERE tick_number = ANY($1::bigint[])", [applied, applied.length, countriesUpdated, Math.round(performance.now() - started)]);
  await options.hooks?.beforeCommit?.(applied);
  return { applied, countriesUpdated, phases };
}

/** One tick transaction with retries on deadlock, then the events and metrics. */
async function runTickTransaction(ctx: TickContext, options: TickOptions, work: (client: DbClient, events: TopicEvent[]) => Promise<Omit<TickResult, "durationMs" | "skipped"> & { skipped?: number }>): Promise<TickResult> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const events: TopicEvent[] = [];
    try {
      const partial = await withTransaction(ctx.db, (client) => work(client, events));
      const result: TickResult = { skipped: 0, ...partial, durationMs: performance.now() - started };
      if (result.applied.length > 0) {
        afterTick(ctx, result, events);
        await runAfterCommitHooks(ctx, options.phases ?? TICK_PHASES);
      }
      await options.hooks?.afterCommit?.(result);
      return result;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE_CODES.has(code)) throw err;
      // A game action locked countries in another order than the tick's scan: Postgres broke
      // the deadlock by aborting us. Nothing was written; run the whole tick again.
      ctx.logger.warn({ err, attempt }, "turn tick retried");
    }
  }
}

/** The phases' after-commit sweeps, in phase order; a failure is logged and the next tick repairs it. */
async function runAfterCommitHooks(ctx: TickContext, phases: readonly TickPhase[]): Promise<void> {
  for (const phase of phases) {
    if (!phase.afterCommit) continue;
    try {
      await phase.afterCommit(ctx);
    } catch (err) {
      ctx.logger.error({ err, phase: phase.name }, "tick phase after-commit work failed; the next tick runs it again");
    }
  }
}

function afterTick(ctx: TickContext, result: TickResult, events: TopicEvent[]): void {
  const intervalMs = ctx.config.turnIntervalMs;
  const tickNumber = result.applied[result.applied.length - 1]!;
  ctx.metrics.ticks.inc({}, result.applied.length);
  ctx.metrics.tickDuration.observe(result.durationMs / 1000);
  const log = result.applied.length > 1 || result.skipped > 0 ? ctx.logger.info.bind(ctx.logger) : ctx.logger.debug.bind(ctx.logger);
  log({ tickNumber, ticks: result.applied.length, skipped: result.skipped, phases: result.phases, durationMs: Math.round(result.durationMs) }, "turn tick applied");
  ctx.events.publish(WORLD_TOPIC, {
    type: "tick",
    tickNumber,
    // The tick after this one; never in the past even if this tick ran late.
    nextTickAt: Math.max(tickDueAt(tickNumber + 1, intervalMs), nextTickAt(intervalMs)),
    turnIntervalMs: intervalMs,
  });
  // What the phases changed, after the tick itself.
  ctx.events.publishAll(events);
}
