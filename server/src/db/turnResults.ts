import type { TurnResultJson } from "@game/schema/api";
import type { Db } from "./pool.js";
import { jsonbLiteral, sqlLiteral } from "./sqlLiteral.js";
import { Statement } from "./statement.js";

/** How many results a country's history keeps. */
export const TURN_HISTORY_KEPT = 100;

/**
 * The history is trimmed by about one action in TURN_HISTORY_TRIM_EVERY, not by every action:
 * a country keeps TURN_HISTORY_KEPT rows and a few more, readers ask for at most
 * TURN_HISTORY_KEPT, and the action path saves a DELETE most of the time.
 */
export const TURN_HISTORY_TRIM_EVERY = 16;

const TURN_RESULT_COLUMNS = "turn_results (country_id, action_type, result)";

/** Appends a result's column values (country, action type, the result as jsonb), typed. */
function turnResultValues(statement: Statement, countryId: number, result: TurnResultJson): Statement {
  return statement.value(sqlLiteral(countryId), "bigint").sql(", ").value(sqlLiteral(result.actionType), "text").sql(", ").value(jsonbLiteral(result), "jsonb");
}

/** Appends the condition: rows of the country's history beyond the TURN_HISTORY_KEPT newest. */
function beyondKeptHistory(statement: Statement, countryId: number): Statement {
  const id = sqlLiteral(countryId);
  return statement.sql("country_id = ").value(id).sql(" AND id <= (SELECT id FROM turn_results WHERE country_id = ").value(id).sql(` ORDER BY id DESC OFFSET ${TURN_HISTORY_KEPT} LIMIT 1)`);
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
  const statements = [turnResultValues(new Statement().sql(`INSERT INTO ${TURN_RESULT_COLUMNS} VALUES (`), countryId, result).sql(")").inline];
  if (trimsHistory(draw)) statements.push(beyondKeptHistory(new Statement().sql("DELETE FROM turn_results WHERE "), countryId).inline);
  return statements;
}

/**
 * The same writes as named parts of a WITH query, made only if the query part `source` yields
 * a row (an optimistic action's guarded country write), appended to `statement` with their
 * values apart (db/statement.ts), each part preceded by ",\n".
 */
function appendTurnResultParts(statement: Statement, countryId: number, result: TurnResultJson, draw: number, source: string, name: string): void {
  turnResultValues(statement.sql(`,\n${name}_recorded AS (INSERT INTO ${TURN_RESULT_COLUMNS} SELECT `), countryId, result).sql(` FROM ${source})`);
  if (!trimsHistory(draw)) return;
  beyondKeptHistory(statement.sql(`,\n${name}_trimmed AS (DELETE FROM turn_results WHERE `), countryId).sql(` AND EXISTS (SELECT 1 FROM ${source}))`);
}

export async function listTurnResults(db: Db, countryId: number, limit: number): Promise<TurnResultJson[]> {
  const { rows } = await db.query<{ result: TurnResultJson }>("SELECT result FROM turn_results WHERE country_id = $1 ORDER BY id DESC LIMIT $2", [countryId, limit]);
  return rows.map((r) => r.result);
}

/**
 * One statement, so one transaction: the guarded country write `write` (its version guard may
 * match no row), the turn results recorded only if it wrote, answering the row's new
 * `row_version` (no row: the guard refused). `draw` decides each result's history trim.
 */
export function writeWithTurnResults(write: Statement, countryId: number, results: readonly TurnResultJson[], draw: () => number): Statement {
  const statement = new Statement().sql("WITH written AS (").append(write).sql(")");
  results.forEach((result, i) => appendTurnResultParts(statement, countryId, result, draw(), "written", `turn${i}`));
  return statement.sql(" SELECT row_version FROM written");
}
