import type { Db, DbClient } from "./pool.js";
import { MARKET_ESCROWS } from "./market.js";

/**
 * The conservation audit: how much money, goods, units, land and turns exist. Every country
 * holds some; a domain that takes things out of countries while keeping them (a market
 * listing's goods, a standing order's budget) registers its escrow in AUDIT_ESCROWS, so the
 * totals stay comparable across an action: a trade between two countries leaves them equal
 * (minus the documented fee sink), a race that creates or loses anything shows up.
 */
export const AUDITED = ["cash", "food", "oil", "land", "troops", "jets", "turrets", "tanks", "spies", "missiles", "turns", "stored_turns"] as const;
export type AuditedQuantity = (typeof AUDITED)[number];
export type AuditTotals = Record<AuditedQuantity, number>;

/**
 * Something a domain holds on the countries' behalf. `sql` is a SELECT returning one row with
 * any of the AUDITED columns (sums; NULL counts as 0).
 */
export interface EscrowSource {
  name: string;
  sql: string;
}

/** Every escrow of every domain. Each domain that escrows adds its entry. */
export const AUDIT_ESCROWS: EscrowSource[] = [...MARKET_ESCROWS];

const COUNTRY_SUMS = `SELECT ${AUDITED.map((q) => `coalesce(sum(${q}), 0)::bigint AS ${q}`).join(", ")} FROM countries`;

/** Totals in countries plus every escrow, read in one snapshot (REPEATABLE READ). */
export async function auditTotals(db: Db | DbClient, escrows: readonly EscrowSource[] = AUDIT_ESCROWS): Promise<AuditTotals & { byEscrow: Record<string, Partial<AuditTotals>> }> {
  const run = async (client: Db | DbClient) => {
    const totals = Object.fromEntries(AUDITED.map((q) => [q, 0])) as AuditTotals;
    const add = (row: Record<string, unknown>) => {
      const part: Partial<AuditTotals> = {};
      for (const q of AUDITED) {
        if (row[q] === undefined || row[q] === null) continue;
        part[q] = Number(row[q]);
        totals[q] += part[q];
      }
      return part;
    };
    add((await client.query(COUNTRY_SUMS)).rows[0]);
    const byEscrow: Record<string, Partial<AuditTotals>> = {};
    for (const escrow of escrows) byEscrow[escrow.name] = add((await client.query(escrow.sql)).rows[0] ?? {});
    return { ...totals, byEscrow };
  };
  if ("release" in db) return run(db);
  const client = await db.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const result = await run(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The difference after - before, only the quantities that changed (for test failures people can read). */
export function auditDifference(before: AuditTotals, after: AuditTotals): Partial<AuditTotals> {
  const diff: Partial<AuditTotals> = {};
  for (const q of AUDITED) if (after[q] !== before[q]) diff[q] = after[q] - before[q];
  return diff;
}
