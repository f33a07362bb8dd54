import crypto from "node:crypto";
import type { TurnResultJson } from "@game/schema/api";
import { Rng, type CountryState } from "@game/schema/rules";
import type { DbClient } from "../db/pool.js";
import { beginAndLockCountries, countryContextQuery, countryWriteStatement, findCountryById, rowToState, type CountryRow, type CountryRowPatch } from "../db/countries.js";
import { groupedWritesOf } from "../db/groupedWrites.js";
import { turnResultStatements, writeWithTurnResults } from "../db/turnResults.js";
import { AppError, forbidden, notFound, unavailable } from "../errors.js";
import { countryTopic, on, WORLD_TOPIC, type CountryNumbers, type EventTopic, type GameEvent, type TopicEvent } from "../events.js";
import type { SeedSource, ServiceContext } from "./context.js";
import { recentRowsOf, type RecentRow, type RecentRows } from "./recentRows.js";

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
 *
 * The optimistic attempt. A one-country action whose row this process read or wrote last
 * (RecentRows) first runs without the lock round trip: the step decides from that row and the
 * value of the action's context (its bonuses) read with that version of the row, and the
 * write, its turn result and the commit are one statement that writes only if the row is
 * still that version (xmin; whatever changes a context's inputs moves the version too,
 * migration 020), sent with whatever other such writes wait at that moment
 * (db/groupedWrites.ts: one round trip and one commit for all of them). The step must be pure
 * here: anything else (it reads or writes through the transaction, refuses, changes nothing,
 * or touches another country) and any conflict drops the attempt, and the action runs locked
 * as above with the same seed, so an answer never rests on a row that changed. Docs:
 * architecture.md "Game actions".
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
  /** the value of the action's contextFunction, when it has one */
  context: string | undefined;
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
  /**
   * The name of a database function of the first country's id yielding text that the step
   * depends on beside the rows (economy_bonus_inputs: a country's bonus inputs): read with the
   * locks and handed to the step as `tx.context`. Whatever changes its inputs must touch the
   * country's row (a trigger calling touch_countries, migration 020), so that the row's version
   * guards an optimistic write's context as well as its row.
   */
  contextFunction?: string;
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
  const recent = recentRowsOf(ctx.db);
  const contextSql = contextQueryOf(action);
  const optimistic = await attemptOptimistically(ctx, action, seed, recent, contextSql);
  if (optimistic) {
    ctx.metrics.gameActionPaths.inc({ path: "optimistic" });
    ctx.metrics.gameActions.inc({ action: action.name });
    ctx.events.publishAll(optimistic.events);
    return optimistic.outcome;
  }
  ctx.metrics.gameActionPaths.inc({ path: "locked" });
  for (let attempt = 1; ; attempt++) {
    const events: TopicEvent[] = [];
    try {
      const outcome = await attemptAction(ctx, action, seed, events, recent, contextSql);
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

/**
 * Runs a whole transaction again after a deadlock or serialization failure, as
 * runCountriesAction does, for multi-row work that is not a countries action (the season's
 * end): at most MAX_ACTION_ATTEMPTS times, then 503 "busy", never a 500.
 */
export async function retryLockConflicts<T>(ctx: Pick<ServiceContext, "logger" | "metrics">, name: string, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !RETRYABLE_CODES.has(code)) throw err;
      if (n >= MAX_ACTION_ATTEMPTS) {
        ctx.logger.error({ err, action: name, attempts: n }, "transaction gave up after repeated lock conflicts");
        throw unavailable("The game is busy, please try again", "action/busy");
      }
      ctx.metrics.gameActionRetries.inc({ action: name });
      ctx.logger.warn({ err, action: name, attempt: n }, "transaction retried after a lock conflict");
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 20 * n)));
    }
  }
}

/** What a step's transaction is made of, the same for both attempts. */
function actionTransaction(client: DbClient, ctx: ActionContext, seed: number, context: string | undefined, events: TopicEvent[]) {
  const turnResults: Array<{ countryId: number; result: TurnResultJson }> = [];
  const tx: ActionTransaction = {
    client,
    now: new Date(ctx.clock.now()),
    seed,
    rng: Rng.fromSeed(seed),
    context,
    emit: (topic, event) => events.push(on(topic, event)),
    turnResult: (countryId, result) => turnResults.push({ countryId, result }),
  };
  return { tx, turnResults };
}

/**
 * The query that reads an action's context, if it has one: `SELECT fn(<first country id>)`.
 * The lock round trip sends it, and it is the context's key in RecentRows.
 */
function contextQueryOf(action: CountriesAction<unknown>): string | undefined {
  if (action.contextFunction === undefined) return undefined;
  return countryContextQuery(action.contextFunction, action.countryIds[0]!);
}

/** Thrown by the optimistic attempt's client: the step needs the database, so the lock. */
class NeedsLock extends Error {}

/**
 * The client a step sees, and whether the step used it. In the optimistic attempt any use ends
 * the attempt (even if the step caught the error); in the locked one it runs the query and
 * marks the rows the step may have written behind the runner's back as not worth remembering.
 */
function watchedClient(client: DbClient | undefined): { client: DbClient; used: () => boolean } {
  let used = false;
  const watched = new Proxy((client ?? {}) as DbClient, {
    get(target, property) {
      used = true;
      if (!client) throw new NeedsLock("the step uses the database");
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { client: watched, used: () => used };
}

/**
 * The optimistic attempt (module comment): one round trip, or undefined when the action must
 * run locked (nothing was written then).
 */
async function attemptOptimistically<R>(ctx: ActionContext, action: CountriesAction<R>, seed: number, recent: RecentRows, contextSql: string | undefined): Promise<{ outcome: CountriesActionResult<R>; events: TopicEvent[] } | undefined> {
  if (action.countryIds.length !== 1) return undefined;
  const countryId = action.countryIds[0]!;
  const known: RecentRow | undefined = recent.get(countryId);
  if (!known) return undefined;
  const context = contextSql === undefined ? undefined : recent.context(contextSql, known.version);
  if (contextSql !== undefined && context === undefined) return undefined;
  // another owner's country: the locked path gives the answer
  if (action.actor && known.row.user_id !== action.actor.userId) return undefined;

  const events: TopicEvent[] = [];
  const noClient = watchedClient(undefined);
  const { tx, turnResults } = actionTransaction(noClient.client, ctx, seed, context, events);
  const state = rowToState(known.row);
  let outcome: StepOutcome<R>;
  try {
    outcome = await action.step(new Map([[countryId, { row: known.row, state }]]), tx);
  } catch (err) {
    // a refusal may rest on a row that changed since: the locked path decides it again
    if (err instanceof NeedsLock || err instanceof AppError) return undefined;
    throw err;
  }
  if (noClient.used()) return undefined;
  const changedIds = new Set([...outcome.next.keys(), ...(outcome.patches?.keys() ?? [])]);
  if (outcome.statements?.length || changedIds.size !== 1 || !changedIds.has(countryId)) return undefined;
  if (turnResults.some((turn) => turn.countryId !== countryId)) return undefined;

  // The version guard covers the context too: whatever changes a context's inputs moves the
  // row's version (migration 020 for economy_bonus_inputs).
  const write = countryWriteStatement(known.row, outcome.next.get(countryId) ?? state, tx.now, outcome.patches?.get(countryId), { version: known.version });
  // One statement is one transaction: the turn results are written only if the row was.
  const statement = writeWithTurnResults(
    write.statement,
    countryId,
    turnResults.map((turn) => turn.result),
    Math.random,
  );
  // Sent with the other optimistic writes waiting at this moment, if any (group commit), as a
  // prepared statement of its shape.
  const rows = (await groupedWritesOf(ctx.db).write(countryId, statement)) as Array<{ row_version: string }>;
  if (rows.length === 0) {
    recent.forget(countryId);
    if (contextSql !== undefined) recent.forgetContext(contextSql);
    ctx.metrics.gameActionPaths.inc({ path: "conflict" });
    return undefined;
  }
  const version = rows[0]!.row_version;
  recent.remember(write.after, version);
  // the context held for the version the write replaced, so it holds for the one it made
  if (contextSql !== undefined) recent.rememberContext(contextSql, context!, version);
  events.unshift(...countryChangedEvents(write.after, action.name));
  return { outcome: { result: outcome.result, rows: new Map([[countryId, write.after]]), seed }, events };
}

async function attemptAction<R>(ctx: ActionContext, action: CountriesAction<R>, seed: number, events: TopicEvent[], recent: RecentRows, contextSql: string | undefined): Promise<CountriesActionResult<R>> {
  const client = await ctx.db.connect();
  try {
    // Round trip 1: BEGIN, the ordered locks and the action's context.
    const read = await beginAndLockCountries(client, action.countryIds, contextSql);
    const rows = read.rows;
    for (const id of action.countryIds) {
      if (!rows.has(id)) throw notFound(action.notFoundMessage ?? "Country not found", "country/not_found");
    }
    if (action.actor && rows.get(action.actor.countryId)!.user_id !== action.actor.userId) throw forbidden();

    const locked = new Map<number, LockedCountry>();
    for (const [id, row] of rows) locked.set(id, { row, state: rowToState(row) });
    const stepClient = watchedClient(client);
    const { tx, turnResults } = actionTransaction(stepClient.client, ctx, seed, read.context, events);
    // The step may add round trips of its own (a report, a trade) through tx.client.
    const outcome = await action.step(locked, tx);

    // Last round trip: every write, then COMMIT, as one batch of statements.
    const written = new Map(rows);
    const changed: TopicEvent[] = [];
    const statements: string[] = [];
    const changedIds = [...new Set([...outcome.next.keys(), ...(outcome.patches?.keys() ?? [])])].sort((a, b) => a - b);
    for (const id of changedIds) {
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
    const results = await client.query(statements.join(";\n"));
    // The rows as written, with their new versions (the country writes come first), for the
    // next optimistic attempt; unless the step wrote through the transaction itself, when the
    // row in memory may miss what it wrote.
    const perStatement = (Array.isArray(results) ? results : [results]) as Array<{ rows: Array<{ row_version: string }> }>;
    const stepWroteAside = stepClient.used() || (outcome.statements?.length ?? 0) > 0;
    for (const [id, row] of written) {
      const index = changedIds.indexOf(id);
      if (stepWroteAside) recent.forget(id);
      else recent.remember(row, index < 0 ? read.versions.get(id)! : perStatement[index]!.rows[0]!.row_version);
    }
    // The context was read under the first country's lock: it holds for that row as written.
    const contextVersion = recent.get(action.countryIds[0]!)?.version;
    if (contextSql !== undefined && read.context !== undefined && contextVersion !== undefined) recent.rememberContext(contextSql, read.context, contextVersion);
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
