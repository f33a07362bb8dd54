import { DEFAULT_COUNTRY_OPTIONS, type CountryOptions } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

interface OptionsRow {
  auto_farms: boolean;
  auto_research: boolean;
  auto_military: boolean;
  notify_attacks: boolean;
  notify_alliance: boolean;
  notify_market: boolean;
}

const toOptions = (r: OptionsRow): CountryOptions => ({
  autoFarms: r.auto_farms,
  autoResearch: r.auto_research,
  autoMilitary: r.auto_military,
  notifyAttacks: r.notify_attacks,
  notifyAlliance: r.notify_alliance,
  notifyMarket: r.notify_market,
});

/** A country's options; the defaults when it never saved any. */
export async function getCountryOptions(db: Db | DbClient, countryId: number): Promise<CountryOptions> {
  const { rows } = await db.query<OptionsRow>(`SELECT * FROM country_options WHERE country_id = $1`, [countryId]);
  return rows[0] ? toOptions(rows[0]) : { ...DEFAULT_COUNTRY_OPTIONS };
}

/** Stores every option of a country (insert or replace). */
export async function saveCountryOptions(db: Db | DbClient, countryId: number, o: CountryOptions): Promise<CountryOptions> {
  const { rows } = await db.query<OptionsRow>(
    `INSERT INTO country_options (country_id, auto_farms, auto_research, auto_military, notify_attacks, notify_alliance, notify_market)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (country_id) DO UPDATE SET auto_farms = $2, auto_research = $3, auto_military = $4,
       notify_attacks = $5, notify_alliance = $6, notify_market = $7, updated_at = now()
     RETURNING *`,
    [countryId, o.autoFarms, o.autoResearch, o.autoMilitary, o.notifyAttacks, o.notifyAlliance, o.notifyMarket],
  );
  return toOptions(rows[0]!);
}

/** Marks every country with automation on as owed a run for `tick` (inside the tick's transaction). */
export async function markAutomationDue(client: DbClient, tick: number): Promise<number> {
  const r = await client.query(
    `UPDATE country_options SET auto_due_tick = $1
      WHERE (auto_farms OR auto_research OR auto_military) AND auto_due_tick < $1`,
    [tick],
  );
  return r.rowCount ?? 0;
}

/** Countries owed an auto-build run, least recently served first. */
export async function listAutomationDue(db: Db, limit: number): Promise<Array<{ countryId: number; dueTick: number; options: CountryOptions }>> {
  const { rows } = await db.query<OptionsRow & { country_id: string; auto_due_tick: string }>(
    `SELECT * FROM country_options
      WHERE (auto_farms OR auto_research OR auto_military) AND auto_done_tick < auto_due_tick
      ORDER BY auto_done_tick, country_id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ countryId: Number(r.country_id), dueTick: Number(r.auto_due_tick), options: toOptions(r) }));
}

/**
 * Records that `countryId` was served for `dueTick` (inside its action's transaction).
 * @returns false when another run already served it (the caller then changes nothing)
 */
export async function claimAutomationRun(client: DbClient, countryId: number, dueTick: number): Promise<boolean> {
  const r = await client.query(`UPDATE country_options SET auto_done_tick = $2 WHERE country_id = $1 AND auto_done_tick < $2`, [countryId, dueTick]);
  return (r.rowCount ?? 0) > 0;
}
