import type pg from "pg";
import type { Db, DbClient } from "./pool.js";
import { intListLiteral, sqlLiteral, type SqlLiteral } from "./sqlLiteral.js";

/**
 * The reads of one view in one round trip on one pool connection (issue 29, docs/performance.md
 * "One connection per view read"). A screen's answer is often several independent SELECTs (the
 * store: the country, its stock, its recent trades, its open listings, its fee inputs); sent
 * one by one, or side by side with Promise.all, each takes a pool connection of its own and
 * gives it back only when the event loop gets to its answer, so under load a view holds
 * connections for several turns of a busy loop. Here they go as one simple query (statements
 * separated by ';', the values inlined as checked literals, db/sqlLiteral.ts): one check-out,
 * one round trip, one implicit transaction, and the connection is back in the pool the moment
 * the answers are parsed.
 *
 *   const [row, stock] = await readTogether(ctx.db, (db) => [findCountryById(db, id), readStoreClocks(db, id)]);
 *
 * `reads` gets a handle that collects the queries the db/ functions send while `reads` runs
 * (synchronously: a db/ function sends its first query before its first await) and answers
 * each with its own result. A query sent later (a read that depends on another's answer) is
 * sent on its own, one round trip again: correct, only not batched. Only reads belong here:
 * statements that fail fail the whole batch (every read of it rejects). On a transaction's
 * client (a step's reads besides its locked rows) the batch runs inside that transaction.
 *
 * Values are inlined the way the grouped writes inline theirs: numbers must be safe integers,
 * strings are escaped, dates, booleans and null, and arrays of safe integers; anything else
 * throws (a bug, found by the route's tests), never reaches the text unchecked.
 */
export async function readTogether<T extends readonly unknown[]>(db: Db | DbClient, reads: (batch: Db) => readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const batch = new ReadBatch(db);
  const promises = reads(batch.handle);
  batch.send();
  return (await Promise.all(promises)) as unknown as T;
}

interface PendingRead {
  text: string;
  resolve(result: pg.QueryResult): void;
  reject(err: unknown): void;
}

type QueryArgument = string | { text: string; values?: unknown[]; name?: string };

class ReadBatch {
  private pending: PendingRead[] = [];
  private collecting = true;
  /** what db/ functions are given: a Db whose `query` joins this batch (or, after it left, runs alone) */
  readonly handle: Db;

  constructor(private readonly db: Db | DbClient) {
    const query = (config: QueryArgument, values?: unknown[]) => this.query(config, values);
    this.handle = { query } as unknown as Db;
  }

  private query(config: QueryArgument, values?: unknown[]): Promise<pg.QueryResult> {
    const text = typeof config === "string" ? config : config.text;
    const params = (typeof config === "string" ? values : (config.values ?? values)) ?? [];
    if (!this.collecting) return this.db.query(text, params);
    return new Promise((resolve, reject) => this.pending.push({ text: inlineValues(text, params), resolve, reject }));
  }

  /** Sends what was collected as one simple query; later queries run alone. */
  send(): void {
    this.collecting = false;
    const pending = this.pending;
    this.pending = [];
    if (pending.length === 0) return;
    this.db.query(pending.map((p) => p.text).join(";\n")).then(
      (results: pg.QueryResult | pg.QueryResult[]) => {
        const list = Array.isArray(results) ? results : [results];
        pending.forEach((p, i) => p.resolve(list[i]!));
      },
      (err: unknown) => pending.forEach((p) => p.reject(err)),
    );
  }
}

/** `text` with $1, $2, ... replaced by the values' checked literals. */
export function inlineValues(text: string, values: readonly unknown[]): string {
  const literals: SqlLiteral[] = values.map((value) => (Array.isArray(value) ? intListLiteral(value) : sqlLiteral(value)));
  return text.replace(/\$(\d+)(?!\d)/g, (placeholder, n: string) => {
    const literal = literals[Number(n) - 1];
    if (literal === undefined) throw new RangeError(`no value for ${placeholder}`);
    // a negative number in parentheses: "a-$1" must not become the comment "a--1"
    return literal.startsWith("-") ? `(${literal})` : literal;
  });
}
