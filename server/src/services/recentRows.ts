import type { CountryRow } from "../db/countries.js";
import { perDatabase } from "../db/pool.js";

/** Countries whose last row a process keeps for optimistic actions (a row is about 2 KB). */
export const RECENT_ROWS_KEPT = 20_000;

/** A country's row as this process last read it under lock or wrote it, and its version. */
export interface RecentRow {
  row: CountryRow;
  /** the row's xmin as text: the transaction that wrote this version of it */
  version: string;
}

/**
 * xmin values that do not identify one write: invalid, bootstrap and frozen (a row VACUUM froze
 * shows 2 whatever wrote it, so two versions could look alike).
 */
const SPECIAL_VERSIONS = new Set(["0", "1", "2"]);

/**
 * What an optimistic action starts from (services/actions.ts): the rows this process last read
 * under lock or wrote, with their versions, and the value of each action's context (a
 * country's bonus inputs) with the row version it holds for. Never trusted on its own: a
 * write made from it is guarded by the row's version, which anything changing the context
 * also moves (migration 020), so a row or a context changed since (by a tick, another
 * process, an operator, a bonus bought) costs only the attempt. Least recently written goes
 * first.
 */
export class RecentRows {
  private readonly rows = new Map<number, RecentRow>();
  private readonly contexts = new Map<string, { value: string; version: string }>();

  constructor(private readonly capacity = RECENT_ROWS_KEPT) {}

  get(countryId: number): RecentRow | undefined {
    return this.rows.get(countryId);
  }

  /** Keeps a row read under lock or written. Frozen: a step must never mutate what later actions start from. */
  remember(row: CountryRow, version: string): void {
    this.rows.delete(row.id);
    if (SPECIAL_VERSIONS.has(version)) return;
    this.rows.set(row.id, { row: Object.freeze(row), version });
    evictOldest(this.rows, this.capacity);
  }

  forget(countryId: number): void {
    this.rows.delete(countryId);
  }

  /** The context's value if it was read (or carried) with the country's row at `version`. */
  context(sql: string, version: string): string | undefined {
    const known = this.contexts.get(sql);
    return known?.version === version ? known.value : undefined;
  }

  /** Keeps a context's value as it holds for the row at `version` (read with it under lock, or carried by a write guarded by it). */
  rememberContext(sql: string, value: string, version: string): void {
    this.contexts.delete(sql);
    this.contexts.set(sql, { value, version });
    evictOldest(this.contexts, this.capacity);
  }

  forgetContext(sql: string): void {
    this.contexts.delete(sql);
  }
}

function evictOldest<K, V>(map: Map<K, V>, capacity: number): void {
  if (map.size > capacity) map.delete(map.keys().next().value as K);
}

/** The process's recent rows of one database. */
export const recentRowsOf = perDatabase(() => new RecentRows());
