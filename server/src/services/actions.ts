import crypto from "node:crypto";
import type { TurnResultJson } from "@game/schema/api";
import { Rng, type CountryState } from "@game/schema/rules";
import type { DbClient } from "../db/pool.js";
import { beginAndLockCountries, countryWriteStatement, findCountryById, rowToState, type CountryRow, type CountryRowPatch } from "../db/countries.js";
import { turnResultStatements } from "../db/turnResults.js";
import { forbidden, notFound, unavailable } from "../errors.js";
import { countryTopic, on, WORLD_TOPIC, type CountryNumbers, type EventTopic, type GameEvent, type TopicEvent } from "../events.js";
import type { SeedSource, ServiceContext } from "./context.js";

/**
 * The one transaction shape of every game action, over one country or several:
 *
 * 1. BEGIN, lock every involved country in ascending id order (two actions over the same
 *    countries, A->B and B->A, queue instead of deadlocking);
 * 2. refuse anyone but the acting country's owner (403) and missing countries (404);
 * 3. the step: pure rules decide (with a seeded Rng), the step writes its domain records
 *    (report, trade...) through the transaction and says which states changed;
 * 4. every changed state is written back (networth recomputed), turn results recorded;
 * 5. COMMIT, then the events are published: each changed country's numbers on its own topic,
 *    its public numbers on the world topic, then whatever the step emitted.
 *
 * A deadlock or serialization failure (which ordered locking avoids between actions, but the
 * turn tick's set-wide UPDATE can still meet) rolls back and runs the whole attempt again, at
 * most MAX_ACTION_ATTEMPTS times, with the same seed: the caller never sees it (after that, a
 * 503 "busy", never a 500).
 */

/** Deadlock detected, serialization failure: safe to run the whole transaction again. */
const RETRYABLE_CODES = new Set(["40P01", "40001"]);
/** Attempts before a retryable failure is given up and surfaced. */
export const MAX_ACTION_ATTEMPTS = 4;

/** A locked country: its row as read, and the rules' view of it. */
export interface LockedCountry {
  row: CountryRow;
  state: CountryState;
}

/** What a step can use and say inside the transaction. */
export interface ActionTransaction {
  client: DbClient;
  /** the action's time, one value for the whole action */
  now: Date;
  /** the action's seed (stored with what it decided, e.g. a battle report) */
  seed: number;
  /** a generator started from `seed`; draw from it, never from Math.random */
  rng: Rng;
  /** Queues an event to publish after COMMIT (dropped if the transaction rolls back). */
  emit<E extends GameEvent>(topic: EventTopic<E>, event: E): void;
  /** Records a turn result for a country (kept in its history, last 100). */
  turnResult(countryId: number, result: TurnResultJson): void;
}

/** What a step returns: the changed states and its own answer. */
export interface StepOutcome<R> {
  /** next states of the countries that changed (unchanged ones may be omitted) */
  next: ReadonlyMap<number, CountryState>;
  /** row-only columns to write beside a changed state (records, counters) */
  patches?: ReadonlyMap<number, CountryRowPatch>;
  /**
   * the step's own writes as SQL text with checked literals (db/sqlLiteral.ts), sent with the
   * country writes and COMMIT in the last round trip (a battle report, a strike's new state)
   */
  statements?: readonly string[];
  /** the step's answer, returned to the caller */
  result: R;
}

export interface CountriesAction<R> {
  /** metrics label and the countryChanged reason, e.g. "attack" */
  name: string;
  /** the player acting and their country; null for system actions (scheduled jobs, the tick) */
  actor: { userId: number; countryId: number } | null;
  /** every country involved, the actor's included; locked in ascending id order */
  countryIds: readonly number[];
  /** refusal when an involved country does not exist. @default "Country not found" */
  notFoundMessage?: string;
  /** a fixed seed (replays and tests); drawn at random when absent */
  seed?: number;
  step(countries: ReadonlyMap<number, LockedCountry>, tx: ActionTransaction): Promise<StepOutcome<R>> | StepOutcome<R>;
}

/** What an action answers: the step's result and the rows as written. */
export interface CountriesActionResult<R> {
  result: R;
  /** every locked country's row after the action (unchanged ones as read) */
  rows: Map<number, CountryRow>;
  seed: number;
}

/** Seeds drawn from the OS in batches (one syscall per SEED_BATCH actions). */
const SEED_BATCH = 1024;
const seedPool = new Uint32Array(SEED_BATCH);
let seedsLeft = 0;

/** A seed for one action: 32 random bits from the OS's CSPRNG. */
export function randomSeed(): number {
  if (seedsLeft === 0) {
    crypto.getRandomValues(seedPool);
    seedsLeft = SEED_BATCH;
  }
  return seedPool[--seedsLeft]!;
}

/** The server's seeds: the OS's CSPRNG. */
export const osSeeds: SeedSource = { next: randomSeed };

/**
 * What an action needs of the process: the database, the event bus, metrics and the logger
 * (a ServiceContext has them; so does the tick's context, which runs system actions after it
 * commits).
 */
export type ActionContext = Pick<ServiceContext, "db" | "events" | "metrics" | "logger" | "clock" | "seeds">;

/** Runs one action over one or several countries (see the module comment). */
export async function runCountriesAction<R>(ctx: ActionContext, action: CountriesAction<R>): Promise<CountriesActionResult<R>> {
  const seed = action.seed ?? ctx.seeds.next();
  for (let attempt = 1; ; attempt++) {
    const events: TopicEvent[] = [];
    try {
      const outcome = await attemptAction(ctx, action, seed, events);
      ctx.metrics.gameActions.inc({ action: action.name });
      ctx.events.publishAll(events);
      return outcome;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !RETRYABLE_CODES.has(code)) throw err;
      if (attempt >= MAX_ACTION_ATTEMPTS) {
        ctx.logger.error({ err, action: action.name, attempts: attempt }, "game action gave up after repeated lock conflicts");
        throw unavailable("The game is busy, please try again", "action/busy");
      }
      ctx.metrics.gameActionRetries.inc({ action: action.name });
      ctx.logger.warn({ err, action: action.name, attempt }, "game action retried after a lock conflict");
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 20 * attempt)));
    }
  }
}

async function attemptAction<R>(ctx: ActionContext, action: CountriesAction<R>, seed: number, events: TopicEvent[]): Promise<CountriesActionResult<R>> {
  const client = await ctx.db.connect();
  try {
    // Round trip 1: BEGIN and the ordered locks.
    const rows = await beginAndLockCountries(client, action.countryIds);
    for (const id of action.countryIds) {
      if (!rows.has(id)) throw notFound(action.notFoundMessage ?? "Country not found", "country/not_found");
    }
    if (action.actor && rows.get(action.actor.countryId)!.user_id !== action.actor.userId) throw forbidden();

    const locked = new Map<number, LockedCountry>();
    for (const [id, row] of rows) locked.set(id, { row, state: rowToState(row) });
    const turnResults: Array<{ countryId: number; result: TurnResultJson }> = [];
    const tx: ActionTransaction = {
      client,
      now: new Date(ctx.clock.now()),
      seed,
      rng: Rng.fromSeed(seed),
      emit: (topic, event) => events.push(on(topic, event)),
      turnResult: (countryId, result) => turnResults.push({ countryId, result }),
    };
    // The step may add round trips of its own (a report, a trade) through tx.client.
    const outcome = await action.step(locked, tx);

    // Last round trip: every write, then COMMIT, as one batch of statements.
    const written = new Map(rows);
    const changed: TopicEvent[] = [];
    const statements: string[] = [];
    const changedIds = new Set([...outcome.next.keys(), ...(outcome.patches?.keys() ?? [])]);
    for (const id of [...changedIds].sort((a, b) => a - b)) {
      const before = locked.get(id);
      if (!before) throw new Error(`step returned a state for country ${id}, which it did not lock`);
      const write = countryWriteStatement(before.row, outcome.next.get(id) ?? before.state, tx.now, outcome.patches?.get(id));
      statements.push(write.sql);
      written.set(id, write.after);
      changed.push(...countryChangedEvents(write.after, action.name));
    }
    for (const { countryId, result } of turnResults) statements.push(...turnResultStatements(countryId, result, Math.random()));
    if (outcome.statements) statements.push(...outcome.statements);
    statements.push("COMMIT");
    await client.query(statements.join(";\n"));
    // State events first, so a room applies the numbers before it handles what the step says.
    events.unshift(...changed);
    return { result: outcome.result, rows: written, seed };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Publishes a country's current numbers after a write made outside runCountriesAction (an
 * operator's tool, a test that sets up a row): the rooms showing it catch up.
 */
export async function announceCountryChange(ctx: ActionContext, countryId: number, reason: string): Promise<void> {
  const row = await findCountryById(ctx.db, countryId);
  if (row) ctx.events.publishAll(countryChangedEvents(row, reason));
}

/** The private and the public side of a country change. */
export function countryChangedEvents(row: CountryRow, reason: string): TopicEvent[] {
  return [
    on(countryTopic(row.id), { type: "countryChanged", countryId: row.id, reason, numbers: countryNumbers(row) }),
    on(WORLD_TOPIC, {
      type: "countryRanked",
      reason,
      country: { countryId: row.id, name: row.name, networth: row.networth, land: row.land, government: row.government_type },
    }),
  ];
}

/** The numbers of a row that the world room's private summary shows. */
export function countryNumbers(row: CountryRow): CountryNumbers {
  return {
    version: row.updated_at.getTime(),
    name: row.name,
    turns: row.turns,
    storedTurns: row.stored_turns,
    cash: row.cash,
    food: row.food,
    oil: row.oil,
    networth: row.networth,
    population: row.population,
    land: row.land,
  };
}
