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

const TURN_RESULT_COLUMNS = "turn_results (country_id, action_type, result)";

function turnResultValues(countryId: number, result: TurnResultJson): string {
  return `${sqlLiteral(countryId)}, ${sqlLiteral(result.actionType)}, ${jsonbLiteral(result)}`;
}

/** Rows of the country's history beyond the TURN_HISTORY_KEPT newest. */
function beyondKeptHistory(countryId: number): string {
  return `country_id = ${sqlLiteral(countryId)} AND id <= (
         SELECT id FROM turn_results WHERE country_id = ${sqlLiteral(countryId)} ORDER BY id DESC OFFSET ${TURN_HISTORY_KEPT} LIMIT 1)`;
}

/** Whether this action trims the history (`draw` in [0, 1); one time in TURN_HISTORY_TRIM_EVERY). */
function trimsHistory(draw: number): boolean {
  return draw * TURN_HISTORY_TRIM_EVERY < 1;
}

/**
 * SQL text that records a result and, one time in TURN_HISTORY_TRIM_EVERY (`draw` in [0, 1)),
 * trims the country's history, for the action's batch of writes.
 */
export function turnResultStatements(countryId: number, result: TurnResultJson, draw: number): string[] {
  const statements = [`INSERT INTO ${TURN_RESULT_COLUMNS} VALUES (${turnResultValues(countryId, result)})`];
  if (trimsHistory(draw)) statements.push(`DELETE FROM turn_results WHERE ${beyondKeptHistory(countryId)}`);
  return statements;
}

/**
 * The same writes as named parts of a WITH query, made only if the query part `source` yields
 * a row (an optimistic action's guarded country write).
 */
export function turnResultQueryParts(countryId: number, result: TurnResultJson, draw: number, source: string, name: string): string[] {
  const parts = [`${name}_recorded AS (INSERT INTO ${TURN_RESULT_COLUMNS} SELECT ${turnResultValues(countryId, result)} FROM ${source})`];
  if (trimsHistory(draw)) parts.push(`${name}_trimmed AS (DELETE FROM turn_results WHERE ${beyondKeptHistory(countryId)} AND EXISTS (SELECT 1 FROM ${source}))`);
  return parts;
}

export async function listTurnResults(db: Db, countryId: number, limit: number): Promise<TurnResultJson[]> {
  const { rows } = await db.query<{ result: TurnResultJson }>(
    "SELECT result FROM turn_results WHERE country_id = $1 ORDER BY id DESC LIMIT $2",
    [countryId, limit],
  );
  return rows.map((r) => r.result);
}
