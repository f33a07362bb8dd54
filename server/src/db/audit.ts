import type { Db, DbClient } from "./pool.js";
import { MARKET_HOLDINGS } from "./market.js";
import type { AuditHolding } from "./auditHolding.js";

export type { AuditHolding };

/**
 * The conservation audit: how much money, goods, units, land and turns exist in the world,
 * summed over every country plus everything held outside countries (escrow). A test reads the
 * totals before and after what it does and checks the difference against the documented
 * sources and sinks of what it did: a trade between two countries moves cash and goods and
 * changes no total (but its fee); a battle moves land; an exploration creates land and spends
 * turns. Anything else created or lost is a bug (docs/reliability.md, "Audit").
 *
 *   const before = await auditTotals(db);
 *   ... the test's actions ...
 *   expect(conservationErrors(before, await auditTotals(db), { cash: -fee })).toEqual([]);
 */

/** The audited quantities (columns of `countries`). */
export const AUDITED = ["cash", "food", "oil", "troops", "jets", "turrets", "tanks", "spies", "missiles", "land", "turns", "stored_turns"] as const;
export type Audited = (typeof AUDITED)[number];

/** Totals of every audited quantity. bigint: a world's cash can exceed 2^53. */
export type AuditTotals = Record<Audited, bigint>;

/** Every holding outside countries: each domain that escrows adds its entries. */
export const AUDIT_HOLDINGS: AuditHolding[] = [...MARKET_HOLDINGS];

const COUNTRY_TOTALS_SQL = `SELECT ${AUDITED.map((q) => `COALESCE(sum(${q}), 0)::text AS ${q}`).join(", ")} FROM countries`;

function zero(): AuditTotals {
  return Object.fromEntries(AUDITED.map((q) => [q, 0n])) as AuditTotals;
}

/**
 * The world's totals now: countries plus every holding, read in one REPEATABLE READ snapshot
 * when given a pool, so a concurrent transfer is counted on exactly one side.
 */
export async function auditTotals(db: Db | DbClient, holdings: readonly AuditHolding[] = AUDIT_HOLDINGS): Promise<AuditTotals> {
  const pooled = !("release" in db);
  const client = pooled ? await (db as Db).connect() : (db as DbClient);
  try {
    if (pooled) await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const totals = zero();
    for (const sql of [COUNTRY_TOTALS_SQL, ...holdings.map((h) => h.sql)]) {
      const { rows } = await client.query<Record<string, string | number | null>>(sql);
      for (const q of AUDITED) {
        const value = rows[0]?.[q];
        if (value !== undefined && value !== null) totals[q] += BigInt(String(value).split(".")[0]!);
      }
    }
    if (pooled) await client.query("COMMIT");
    return totals;
  } catch (err) {
    if (pooled) await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    if (pooled) (client as DbClient).release();
  }
}

/** after - before, per quantity. */
export function diffTotals(before: AuditTotals, after: AuditTotals): AuditTotals {
  return Object.fromEntries(AUDITED.map((q) => [q, after[q] - before[q]])) as AuditTotals;
}

/**
 * The quantities whose change from `before` to `after` is not the documented change
 * (`expected`, by quantity; absent means 0): one line each, e.g.
 * "cash: changed by -120, documented -100". Empty when everything is conserved.
 */
export function conservationErrors(before: AuditTotals, after: AuditTotals, expected: Partial<Record<Audited, number | bigint>> = {}): string[] {
  const delta = diffTotals(before, after);
  const errors: string[] = [];
  for (const q of AUDITED) {
    const documented = BigInt(expected[q] ?? 0);
    if (delta[q] !== documented) errors.push(`${q}: changed by ${delta[q]}, documented ${documented}`);
  }
  return errors;
}
