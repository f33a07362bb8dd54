import type { TurnResultJson } from "@game/schema/api";
import type { Db, DbClient } from "./pool.js";

/** How many results a country's history keeps. */
export const TURN_HISTORY_KEPT = 100;

/**
 * The history is trimmed by one action in TURN_HISTORY_TRIM_EVERY (by the new row's id), not
 * by every action: a country keeps between TURN_HISTORY_KEPT and about
 * TURN_HISTORY_KEPT + TURN_HISTORY_TRIM_EVERY rows, readers ask for at most TURN_HISTORY_KEPT,
 * and the action path saves a DELETE most of the time.
 */
export const TURN_HISTORY_TRIM_EVERY = 16;

/** Records a result and sometimes trims the country's history (same transaction). */
export async function insertTurnResult(client: DbClient, countryId: number, result: TurnResultJson): Promise<void> {
  const { rows } = await client.query<{ id: number }>({
    name: "insert_turn_result",
    text: "INSERT INTO turn_results (country_id, action_type, result) VALUES ($1, $2, $3) RETURNING id",
    values: [countryId, result.actionType, result],
  });
  if (rows[0]!.id % TURN_HISTORY_TRIM_EVERY !== 0) return;
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
