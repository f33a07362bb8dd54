import type { TurnResultJson } from "@game/schema/api";
import type { Db, DbClient } from "./pool.js";

/** How many results a country's history keeps. */
export const TURN_HISTORY_KEPT = 100;

/** Records a result and trims the country's history to TURN_HISTORY_KEPT (same transaction). */
export async function insertTurnResult(client: DbClient, countryId: number, result: TurnResultJson): Promise<void> {
  await client.query("INSERT INTO turn_results (country_id, action_type, result) VALUES ($1, $2, $3)", [countryId, result.actionType, result]);
  await client.query(
    `DELETE FROM turn_results WHERE country_id = $1 AND id <= (
       SELECT id FROM turn_results WHERE country_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
    [countryId, TURN_HISTORY_KEPT],
  );
}

export async function listTurnResults(db: Db, countryId: number, limit: number): Promise<TurnResultJson[]> {
  const { rows } = await db.query<{ result: TurnResultJson }>(
    "SELECT result FROM turn_results WHERE country_id = $1 ORDER BY id DESC LIMIT $2",
    [countryId, limit],
  );
  return rows.map((r) => r.result);
}
