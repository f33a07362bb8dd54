import type pg from "pg";
import { computeNetworth } from "@game/schema/rules";
import { COUNTRY_COLUMNS, rowToState, type CountryRow } from "../db/countries.js";

/**
 * Test setup for the military tests: sets columns of a country directly (units, cash, land...)
 * and recomputes its networth with the shared rule, as every real write does, so the attack
 * band and the GDI band see the country as it is.
 */
export async function setCountry(pool: pg.Pool, countryId: number, values: Record<string, number | boolean | null>): Promise<CountryRow> {
  const keys = Object.keys(values);
  const sets = keys.map((k, i) => `${k} = $${i + 2}`);
  const { rows } = await pool.query<CountryRow>(`UPDATE countries SET ${sets.join(", ")} WHERE id = $1 RETURNING ${COUNTRY_COLUMNS}`, [countryId, ...Object.values(values)]);
  const row = rows[0]!;
  const networth = computeNetworth(rowToState(row));
  await pool.query("UPDATE countries SET networth = $2 WHERE id = $1", [countryId, networth]);
  return { ...row, networth };
}
