import type { TurnResultJson } from "@game/schema/api";
import type { Db } from "./pool.js";
import { jsonbLiteral, sqlLiteral } from "./sqlLiteral.js";

/** How many results a country's history keeps. */
export const TURN_HISTORY_KEPT = 100;

/**
 * The history is trimmed by about one action in TURN_HISTORY_TRIM_EVERY, not by every action:
 * a country keeps TURN_HISTORY_KEPT rows and a few more, readers ask for at most
 * TURN_HISTORY_KEPT, and the action path saves a DELETE most of the time.
 */
export const TURN_HISTORY_TRIM_EVERY = 16;

/**
 * SQL text that records a result and, one time in TURN_HISTORY_TRIM_EVERY (`draw` in [0, 1)),
 * trims the country's history, for the action's batch of writes.
 */
export function turnResultStatements(countryId: number, result: TurnResultJson, draw: number): string[] {
  const statements = [
    `INSERT INTO turn_results (country_id, action_type, result) VALUES (${sqlLiteral(countryId)}, ${sqlLiteral(result.actionType)}, ${jsonbLiteral(result)})`,
  ];
  if (draw * TURN_HISTORY_TRIM_EVERY < 1) {
    statements.push(
      `DELETE FROM turn_results WHERE country_id = ${sqlLiteral(countryId)} AND id <= (
         SELECT id FROM turn_results WHERE country_id = ${sqlLiteral(countryId)} ORDER BY id DESC OFFSET ${TURN_HISTORY_KEPT} LIMIT 1)`,
    );
  }
  return statements;
}

export async function listTurnResults(db: Db, countryId: number, limit: number): Promise<TurnResultJson[]> {
  const { rows } = await db.query<{ result: TurnResultJson }>(
    "SELECT result FROM turn_results WHERE country_id = $1 ORDER BY id DESC LIMIT $2",
    [countryId, limit],
  );
  return rows.map((r) => r.result);
}
