import { COUNTRY_FIELDS, type CountryField, type CountryFieldsRow, type OwnCountryJson, type PublicCountryJson } from "@game/schema/api";
import type { CountryState } from "@game/schema/rules";
import { computeNetworth, computeProtectionStatus } from "@game/schema/rules";
import type { DbClient, Db } from "./pool.js";
import type { RankSnapshot } from "./rankBoard.js";
import { idList, sqlLiteral } from "./sqlLiteral.js";
import { Statement } from "./statement.js";

export type { OwnCountryJson, PublicCountryJson };

/**
 * A countries row as pg returns it (bigint parsed to number in pool.ts). Its columns come
 * from schema's COUNTRY_FIELDS, the one description of the country.
 */
export type CountryRow = CountryFieldsRow;

/** Fields the rules keep in CountryState, with their path split once. */
const STATE_FIELDS = COUNTRY_FIELDS.filter((field) => field.state !== undefined).map((field) => ({
  column: field.key,
  path: field.state!.split("."),
}));

/** Columns a state write sets: every state field, then networth (recomputed on each write). */
const STATE_COLUMNS = [...STATE_FIELDS.map((field) => field.column), "networth"];

/** The comma-separated column list of the table, for SELECTs that need whole rows. */
export const COUNTRY_COLUMNS = COUNTRY_FIELDS.map((field) => field.key).join(", ");

/*
 * Compiled from the descriptor. The mappings below run several times for every action and
 * every answer; written as loops over COUNTRY_FIELDS, each built its object one key at a
 * time (a shape transition per key, for 40 keys) and was about a tenth of the server's CPU
 * on the action path. Each is generated once, at load, as one object or array literal over
 * COUNTRY_FIELDS (our own constant names, quoted with JSON.stringify), so V8 gives every
 * country's object the same shape and JSON.stringify its fast path. countries.test.ts checks
 * them against a plain reading of the descriptor.
 */

/** `source.a.b` for a path, as JavaScript. */
const access = (source: string, path: readonly string[]) => source + path.map((key) => `[${JSON.stringify(key)}]`).join("");

/** A nested object literal whose leaves are `leafOf(field)`, nested by each field's path. */
function nestedLiteral<F>(fields: readonly F[], pathOf: (field: F) => readonly string[], leafOf: (field: F) => string): string {
  interface Node {
    [key: string]: Node | string;
  }
  const root: Node = {};
  for (const field of fields) {
    const path = pathOf(field);
    let node = root;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Node;
    node[path[path.length - 1]!] = leafOf(field);
  }
  const render = (node: Node): string =>
    `{ ${Object.entries(node)
      .map(([key, value]) => `${JSON.stringify(key)}: ${typeof value === "string" ? value : render(value)}`)
      .join(", ")} }`;
  return render(root);
}

function compile<T extends (...args: never[]) => unknown>(parameters: string[], body: string): T {
  return new Function(...parameters, body) as T;
}

const compiledRowToState = compile<(row: CountryRow) => CountryState>(
  ["row"],
  `return ${nestedLiteral(
    STATE_FIELDS,
    (field) => field.path,
    (field) => access("row", [field.column]),
  )};`,
);
const compiledStateValues = compile<(state: CountryState) => unknown[]>(["state"], `return [${STATE_FIELDS.map((field) => access("state", field.path)).join(", ")}];`);

const compiledMerge = compile<(row: CountryRow, values: readonly unknown[], now: Date) => CountryRow>(
  ["row", "values", "now"],
  // a copy, then stores into keys it already has (a literal with keys after a spread is a slow path in V8)
  `const merged = { ...row }; ${STATE_COLUMNS.map((column, i) => `merged[${JSON.stringify(column)}] = values[${i}];`).join(" ")} merged.updated_at = now; merged.last_active = now; return merged;`,
);

/** The rules' view of a row. */
export function rowToState(row: CountryRow): CountryState {
  return compiledRowToState(row);
}

/** Column values for a state, in the order of STATE_COLUMNS (networth last, recomputed). */
function stateValues(state: CountryState): unknown[] {
  const values = compiledStateValues(state);
  values.push(computeNetworth(state));
  return values;
}

/** The row after writing a state's `values` (stateValues) and a row patch onto `row` at time `now` (what the UPDATE below leaves). */
function mergeState(row: CountryRow, values: readonly unknown[], now: Date, patch: CountryRowPatch | undefined): CountryRow {
  const merged = compiledMerge(row, values, now);
  return patch ? Object.assign(merged, patch) : merged;
}

/** Inserts a new country for a user; networth is computed from the state. */
export async function insertCountry(client: DbClient, userId: number, name: string, state: CountryState, options: { protectedUntil?: Date } = {}): Promise<CountryRow> {
  const columns = ["user_id", "name", ...STATE_COLUMNS];
  const values: unknown[] = [userId, name, ...stateValues(state)];
  // new-player protection (military): the column's default is "now", i.e. unprotected
  if (options.protectedUntil) {
    columns.push("protected_until");
    values.push(options.protectedUntil);
  }
  const placeholders = values.map((_, i) => `$${i + 1}`).join(", ");
  const { rows } = await client.query<CountryRow>(`INSERT INTO countries (${columns.join(", ")}) VALUES (${placeholders}) RETURNING ${COUNTRY_COLUMNS}`, values);
  return rows[0]!;
}

/**
 * Row-only columns an action may change beside the state (the rules do not keep them):
 * records and counters such as victories or the government change history.
 */
const PATCHABLE_COLUMNS = new Set<string>(COUNTRY_FIELDS.filter((field) => field.state === undefined && !["id", "user_id", "name", "networth", "created_at", "updated_at", "last_active"].includes(field.key)).map((field) => field.key));

/** Values for row-only columns, written with the state (see PATCHABLE_COLUMNS). */
export type CountryRowPatch = Partial<Omit<CountryRow, "id" | "user_id" | "name" | "networth" | "created_at" | "updated_at" | "last_active">>;

/** What the lock round trip read: the rows, each row's version, and the action's context read. */
export interface LockedRead {
  rows: Map<number, CountryRow>;
  /** each row's xmin (the transaction that wrote this version of it), as text */
  versions: Map<number, string>;
  /** the value of the action's context expression, when it has one */
  context?: string;
}

/**
 * Begins a transaction and locks countries in ascending id order, in one round trip (BEGIN, the
 * SELECT and the action's context expression travel together as one simple query; the ids are
 * inlined as checked integers). `contextSql` is an expression yielding text (the country's
 * bonus inputs), read once the rows are locked.
 */
export async function beginAndLockCountries(client: DbClient, ids: readonly number[], contextSql?: string): Promise<LockedRead> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const context = contextSql ? `; SELECT (${contextSql}) AS context` : "";
  const results = (await client.query(`BEGIN; SELECT ${COUNTRY_COLUMNS}, xmin::text AS row_version FROM countries WHERE id IN (${idList(sorted)}) ORDER BY id FOR UPDATE${context}`)) as unknown as [
    unknown,
    { rows: Array<CountryRow & { row_version?: string }> },
    { rows: Array<{ context: string }> }?,
  ];
  const read: LockedRead = { rows: new Map(), versions: new Map() };
  for (const row of results[1]!.rows) {
    read.versions.set(row.id, row.row_version!);
    delete row.row_version;
    read.rows.set(row.id, row);
  }
  if (contextSql) read.context = results[2]!.rows[0]!.context;
  return read;
}

/**
 * Whether a column read from the row already holds the value a state gives it. Conservative:
 * pg reads bigint columns as strings, so "12" and 12 compare by their text; dates by time;
 * null and undefined are both SQL NULL; anything else written.
 */
function sameColumnValue(current: unknown, next: unknown): boolean {
  if (current === next) return true;
  if (current == null || next == null) return current == null && next == null;
  if (current instanceof Date || next instanceof Date) return current instanceof Date && next instanceof Date && current.getTime() === next.getTime();
  return (typeof current === "number" || typeof current === "string") && (typeof next === "number" || typeof next === "string") && String(current) === String(next);
}

/**
 * `SELECT fn(countryId)`: the query that reads an action's context through the SQL function
 * `functionName` (services/actions.ts, `contextFunction`), as SQL text for the lock round trip.
 */
export function countryContextQuery(functionName: string, countryId: number): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(functionName)) throw new Error(`not a function name: ${functionName}`);
  return `SELECT ${functionName}(${sqlLiteral(countryId)})`;
}

/**
 * The UPDATE that writes a state (networth recomputed) and a row patch, as SQL text with
 * checked literals, so the action's writes and its COMMIT travel in one round trip. It returns
 * the row's new version (`row_version`, its xmin as text). With a `guard`, it writes
 * only if the row is still the version read, else nothing.
 * @returns the statement (inline as `sql`, and with its values apart as `statement`, to run
 *   prepared) and the row as it will be after it
 */
export function countryWriteStatement(row: CountryRow, state: CountryState, now: Date, patch?: CountryRowPatch, guard?: { version: string }): { sql: string; statement: Statement; after: CountryRow } {
  const values = stateValues(state);
  // Only the columns whose value changes: the row was read under the same lock (or the guard
  // refuses the write if it changed since), so a column left out keeps what it holds. A 1-turn
  // exploration changes about 10 of the 40; Postgres parses, plans and logs the rest for nothing.
  const statement = new Statement().sql("UPDATE countries SET ");
  STATE_COLUMNS.forEach((column, i) => {
    if (!sameColumnValue((row as unknown as Record<string, unknown>)[column], values[i])) statement.sql(`${column} = `).value(sqlLiteral(values[i])).sql(", ");
  });
  for (const [column, value] of Object.entries(patch ?? {})) {
    if (!PATCHABLE_COLUMNS.has(column)) throw new Error(`column ${column} cannot be patched`);
    statement.sql(`${column} = `).value(sqlLiteral(value)).sql(", ");
  }
  const nowLiteral = sqlLiteral(now);
  statement.sql("updated_at = ").value(nowLiteral).sql(", last_active = ").value(nowLiteral);
  statement.sql(" WHERE id = ").value(sqlLiteral(row.id));
  if (guard) statement.sql(" AND xmin = ").value(sqlLiteral(guard.version), "xid");
  statement.sql(" RETURNING xmin::text AS row_version");
  return {
    // built on demand: the optimistic path sends the statement prepared, never as text
    get sql() {
      return statement.inline;
    },
    statement,
    after: mergeState(row, values, now, patch),
  };
}

export async function findCountryById(db: Db | DbClient, id: number): Promise<CountryRow | undefined> {
  const { rows } = await db.query<CountryRow>({ name: "find_country", text: `SELECT ${COUNTRY_COLUMNS} FROM countries WHERE id = $1`, values: [id] });
  return rows[0];
}

export async function findCountryByUserId(db: Db | DbClient, userId: number): Promise<CountryRow | undefined> {
  const { rows } = await db.query<CountryRow>({
    name: "find_country_of_user",
    text: `SELECT ${COUNTRY_COLUMNS} FROM countries WHERE user_id = $1`,
    values: [userId],
  });
  return rows[0];
}

export interface CountryListOptions {
  limit: number;
  offset: number;
  aiOnly?: boolean;
}

/**
 * A page of the public listing ordered by networth, for the target lists, each row with its
 * alliance's name, and the count of all. Which countries are on the page comes from the rank
 * board (db/rankBoard.ts: a slice, not an OFFSET walk and a count per request); their rows are
 * read now and ordered by their networth now.
 */
export async function listCountries(db: Db, options: CountryListOptions, board: RankSnapshot): Promise<{ rows: Array<CountryRow & { listed_alliance_name: string | null }>; total: number }> {
  const { ids, total } = board.page(options.offset, options.limit, options.aiOnly);
  if (ids.length === 0) return { rows: [], total };
  const { rows } = await db.query<CountryRow & { listed_alliance_name: string | null }>(
    `SELECT p.*, a.name AS listed_alliance_name
       FROM (SELECT ${COUNTRY_COLUMNS} FROM countries WHERE id = ANY($1::bigint[])) p
       LEFT JOIN alliances a ON a.id = p.alliance_id
      ORDER BY p.networth DESC, p.id ASC`,
    [ids],
  );
  return { rows, total };
}

/** A column's JSON value as JavaScript: bigints as numeric strings, times as ISO strings, absent as null. */
function jsonValueOf(field: CountryField): string {
  const read = access("row", [field.key]);
  if (field.format === "numeric") return `(${read} == null ? null : String(${read}))`;
  if (field.format === "time") return `(${read} == null ? null : ${read}.toISOString())`;
  return `(${read} ?? null)`;
}

const PUBLIC_FIELDS = COUNTRY_FIELDS.filter((field) => field.view === "public");
const OWN_FIELDS = COUNTRY_FIELDS.filter((field) => field.view === "own");
const jsonEntries = (fields: readonly CountryField[]) => fields.map((field) => `${JSON.stringify(field.key)}: ${jsonValueOf(field)}`).join(", ");

const publicView = compile<(row: CountryRow, protection: unknown) => PublicCountryJson>(["row", "protection"], `return { ${jsonEntries(PUBLIC_FIELDS)}, "protection_status": protection };`);
const ownView = compile<(row: CountryRow, protection: unknown) => OwnCountryJson>(
  ["row", "protection"],
  `return { ${jsonEntries(PUBLIC_FIELDS)}, "protection_status": protection, ${jsonEntries(OWN_FIELDS)}, ` +
    `"unit_allocation": { "troops": row.alloc_troops, "jets": row.alloc_jets, "turrets": row.alloc_turrets, "tanks": row.alloc_tanks } };`,
);

const protectionOf = (row: CountryRow, now: number) => computeProtectionStatus({ protectedUntil: row.protected_until.getTime(), gdiMember: row.gdi_protection }, now);

/**
 * What anybody may see of a country: identity, government, size and record. Never cash,
 * food, oil, population, units or spies: those are private (STYLE.md practice 5).
 */
export function toPublicCountryJson(row: CountryRow, now: number = Date.now()): PublicCountryJson {
  return publicView(row, protectionOf(row, now));
}

/**
 * Everything the owner sees: the public view, then the owner's fields and unit_allocation.
 * Field names are the spec's server fields (government_type, turns, land,
 * residential_areas, gdi_protection); resources and units are numeric strings.
 */
export function toOwnCountryJson(row: CountryRow): OwnCountryJson {
  return ownView(row, protectionOf(row, Date.now()));
}
