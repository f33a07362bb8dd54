import pino from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import type { EventBus, EventListener, EventTopic, GameEvent, TopicEvent } from "../events.js";
import { GameMetrics } from "../metrics.js";
import { TICK_LOCK_KEY, type TickContext } from "./turnTick.js";
import { tickDueAt } from "../turnClock.js";
import { DAY_MS } from "./tickPhase.js";
import { systemClock } from "../services/context.js";
import { osSeeds } from "../services/actions.js";

/**
 * Helpers shared by the tick tests, the test worker process and the benchmark: a tick context
 * over a bare pool, and set-based inserts and snapshots of countries.
 */

/**
 * The first tick number from `from` on such that it and the `count - 1` ticks after it fall on
 * one UTC day, so no daily phase (news retention, snapshots) runs between them. Tests that tick
 * near now otherwise fail in the minutes of each day when their ticks straddle midnight.
 */
export function firstOfTicksOnOneDay(from: number, count: number, intervalMs: number): number {
  const day = (tickNumber: number) => Math.floor(tickDueAt(tickNumber, intervalMs) / DAY_MS);
  let first = from;
  while (day(first) !== day(first + count - 1)) first += 1;
  return first;
}

/** An event bus that keeps what was published (with its topic), in one process. */
export class RecordingEventBus implements EventBus {
  readonly published: TopicEvent[] = [];
  private readonly listeners = new Map<string, Set<(event: GameEvent) => void>>();

  /** Every event published, in order, whatever its topic. */
  get events(): GameEvent[] {
    return this.published.map((p) => p.event);
  }

  publish<E extends GameEvent>(topic: EventTopic<E>, event: E): void {
    this.published.push({ topic, event });
    for (const l of this.listeners.get(topic.name) ?? []) l(event);
  }

  publishAll(events: readonly TopicEvent[]): void {
    for (const { topic, event } of events) this.publish(topic, event);
  }

  subscribe<E extends GameEvent>(topic: EventTopic<E>, listener: EventListener<E>): () => void {
    let set = this.listeners.get(topic.name);
    if (!set) this.listeners.set(topic.name, (set = new Set()));
    set.add(listener as (event: GameEvent) => void);
    return () => set.delete(listener as (event: GameEvent) => void);
  }

  async ready(): Promise<void> {}

  /** Listeners on a topic now (tests of subscription bookkeeping). */
  subscriberCount(topic: EventTopic<GameEvent>): number {
    return this.listeners.get(topic.name)?.size ?? 0;
  }
}

/** A TickContext on `db` with a silent logger, a recording bus and fresh metrics. */
export function tickContext(db: Db, config: Config): TickContext & { events: RecordingEventBus } {
  return { config, db, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }), events: new RecordingEventBus(), metrics: new GameMetrics(), clock: systemClock, seeds: osSeeds };
}

/**
 * Inserts `count` bare countries (no owner) with the given turns and stored turns in one
 * statement, so 100,000 rows take a second rather than a minute of round trips.
 * @returns the ids inserted, ascending
 */
export async function insertCountries(db: Db, count: number, turns: number, storedTurns: number, prefix = "tick"): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO countries (name, government_type, cash, turns, stored_turns, land, food, oil, population, troops, jets, turrets, tanks, spies)
     SELECT $1 || '-' || g || '-' || md5(random()::text), 'monarchy', 100000, $3, $4, 250, 10000, 1000, 10000, 100, 0, 0, 0, 0
       FROM generate_series(1, $2::int) AS g
     RETURNING id`,
    [prefix, count, turns, storedTurns],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Turns of every country and the tick table, read in one statement (one snapshot). */
export interface TickSnapshot {
  /** highest applied tick number, or null */
  last: number | null;
  first: number | null;
  rows: number;
  countries: Map<number, { turns: number; storedTurns: number }>;
}

export async function snapshot(db: Db): Promise<TickSnapshot> {
  const { rows } = await db.query<{ last: string | null; first: string | null; n: string; countries: { id: number; t: number; s: number }[] | null }>(
    `SELECT (SELECT max(tick_number) FROM turn_ticks) AS last,
            (SELECT min(tick_number) FROM turn_ticks) AS first,
            (SELECT count(*) FROM turn_ticks) AS n,
            (SELECT json_agg(json_build_object('id', id, 't', turns, 's', stored_turns)) FROM countries) AS countries`,
  );
  const row = rows[0]!;
  return {
    last: row.last === null ? null : Number(row.last),
    first: row.first === null ? null : Number(row.first),
    rows: Number(row.n),
    countries: new Map((row.countries ?? []).map((c) => [Number(c.id), { turns: c.t, storedTurns: c.s }])),
  };
}

/**
 * A snapshot taken between ticks: under the tick's advisory lock, so no tick transaction is in
 * flight. Countries inserted just before are then seen by every later tick; a tick that was
 * already running when they were inserted (its UPDATE read the table without them) has
 * committed first, so it counts on both sides of the comparison or on neither.
 */
export async function snapshotBetweenTicks(db: Db): Promise<TickSnapshot> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [TICK_LOCK_KEY]);
    await client.query("COMMIT");
  } finally {
    client.release();
  }
  return snapshot(db);
}
