import { performance } from "node:perf_hooks";
import { runMigrations } from "@game/server/db/migrate";
import { ensureGameClock, runDueTicks, tickDueAt, tickNumberAt } from "@game/server/tick/index";
import { DAY_MS } from "@game/server/tick/tickPhase";
import { AiWorld, ensureAiCountries, playAiCountry, type AiCountryRow } from "@game/server/services/ai";
import { sampleDay, type DaySample } from "./sample.js";
import type { SimulationContext } from "./context.js";

/**
 * The season simulator's loop (docs/balance.md): AI countries play a whole season against a
 * real database on a compressed clock. Nothing sleeps: each simulated tick moves the clock to
 * the tick's time, applies the tick with every phase, then lets the AI countries whose turn
 * of the day it is play a session through the services; at each midnight the world is
 * sampled. Same seed, same starting time, same database migrations: the same season.
 */

export interface SeasonOptions {
  countries: number;
  days: number;
  seed: number;
  /** times a day each AI country sits down to play (spreading its turns as a person does) */
  sessionsPerDay: number;
  /** most actions an AI country takes in one session */
  actionsPerSession: number;
  /**
   * AI countries playing at once within a session (a pool of workers, each on its own
   * country, each action its own transaction as the service runs it). 1 replays a seed
   * exactly; more interleave countries' actions as players' requests do, so two runs of one
   * seed differ in detail (docs/balance.md "Speed").
   */
  concurrency?: number;
  /** called after each simulated day with its sample (progress output) */
  onDay?: (sample: DaySample, stats: SeasonStats) => void;
}

export interface SeasonStats {
  ticks: number;
  actions: number;
  refused: number;
  /** actions done, by intent kind */
  byKind: Record<string, number>;
  /** wall-clock milliseconds spent in ticks and in AI play */
  tickMs: number;
  playMs: number;
}

export interface SeasonRun {
  options: Omit<SeasonOptions, "onDay">;
  startedAt: string;
  turnIntervalMs: number;
  /** day 0 is the world as created, day N the end of the Nth simulated day */
  days: DaySample[];
  stats: SeasonStats;
}

/** The first UTC midnight after `now`: simulated days line up with the game's daily phases. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** Runs a season on `ctx` (a migrated or empty database) from `startAt`, a UTC midnight. */
export async function simulateSeason(ctx: SimulationContext, options: SeasonOptions, startAt: number): Promise<SeasonRun> {
  const intervalMs = ctx.config.turnIntervalMs;
  if (DAY_MS % intervalMs !== 0) throw new Error(`TURN_INTERVAL_MS (${intervalMs}) must divide a day for the simulator`);
  if (startAt % DAY_MS !== 0) throw new Error("a simulated season starts at a UTC midnight");
  const ticksPerDay = DAY_MS / intervalMs;
  const ticksPerSession = Math.max(1, Math.floor(ticksPerDay / options.sessionsPerDay));

  await runMigrations(ctx.db);
  ctx.clock.set(startAt);
  await ensureGameClock(ctx.db, startAt);
  await ensureAiCountries(ctx, options.countries, options.seed);

  const stats: SeasonStats = { ticks: 0, actions: 0, refused: 0, byKind: {}, tickMs: 0, playMs: 0 };
  const days: DaySample[] = [await sampleDay(ctx.db, 0, new Date(startAt - DAY_MS), new Date(startAt))];
  const firstTick = tickNumberAt(startAt, intervalMs);
  for (let day = 1; day <= options.days; day++) {
    for (let t = 1; t <= ticksPerDay; t++) {
      const tick = firstTick + (day - 1) * ticksPerDay + t;
      const at = tickDueAt(tick, intervalMs);
      ctx.clock.set(at);
      let started = performance.now();
      await runDueTicks(ctx, tick, { now: at });
      stats.ticks += 1;
      stats.tickMs += performance.now() - started;
      started = performance.now();
      await playSession(ctx, tick % ticksPerSession, ticksPerSession, options.actionsPerSession, options.concurrency ?? 1, stats);
      stats.playMs += performance.now() - started;
    }
    const sample = await sampleDay(ctx.db, day, new Date(startAt + (day - 1) * DAY_MS), new Date(startAt + day * DAY_MS));
    days.push(sample);
    options.onDay?.(sample, stats);
  }
  const { onDay: _onDay, ...rest } = options;
  return { options: rest, startedAt: new Date(startAt).toISOString(), turnIntervalMs: intervalMs, days, stats };
}

/**
 * The AI countries whose session falls on this tick (country id modulo the session length)
 * each play up to `budget` actions, in id order, through playAiCountry: the same code the
 * server's AI rounds run.
 */
async function playSession(ctx: SimulationContext, slot: number, slots: number, budget: number, concurrency: number, stats: SeasonStats): Promise<void> {
  const { rows } = await ctx.db.query<AiCountryRow>(
    `SELECT a.* FROM ai_countries a JOIN countries c ON c.id = a.country_id
      WHERE NOT a.paused AND NOT c.is_eliminated AND a.country_id % $1 = $2 ORDER BY a.country_id`,
    [slots, slot],
  );
  const now = new Date(ctx.clock.now());
  // one look at the world for the session, as the server's AI round takes one
  const world = new AiWorld(ctx.db, now);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const ai = rows[next++]!;
      const played = await playAiCountry(ctx, ai, budget, now, world);
      stats.actions += played.actions;
      stats.refused += played.refused;
      for (const intent of played.intents.slice(0, played.actions)) stats.byKind[intent.kind] = (stats.byKind[intent.kind] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, rows.length)) }, worker));
}
