import pg from "pg";

declare const escaped: unique symbol;

/**
 * The SQL text of one value, escaped by a function of this file. A plain string cannot pass
 * for one (the compiler refuses `statement.value(name)`), so every value that reaches a
 * statement's text went through sqlLiteral, jsonbLiteral or quoteText. Only this file makes
 * them; `as SqlLiteral` anywhere else is refused by lint.
 */
export type SqlLiteral = string & { readonly [escaped]: "SqlLiteral" };

/** A comma-separated list of checked ids, for `IN (...)`: not one value, so not a SqlLiteral. */
export type SqlIdList = string & { readonly [escaped]: "SqlIdList" };

const literal = (text: string) => text as SqlLiteral;

/**
 * SQL literals for statements sent without parameters, so several statements travel in one
 * round trip (the simple query protocol takes no parameters). Only values whose literal form
 * is exact are accepted: safe integers, booleans, null, dates, and strings escaped by pg's
 * escapeLiteral. Anything else is a bug and throws.
 */
export function sqlLiteral(value: unknown): SqlLiteral {
  if (value === null || value === undefined) return literal("NULL");
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`not a safe integer for SQL: ${value}`);
    return literal(String(value));
  }
  if (typeof value === "boolean") return literal(value ? "TRUE" : "FALSE");
  if (typeof value === "string") return quoteText(value);
  if (value instanceof Date) return literal(`'${value.toISOString()}'::timestamptz`);
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/** A JSON value as a jsonb literal. */
export function jsonbLiteral(value: unknown): SqlLiteral {
  return literal(`${quoteText(JSON.stringify(value))}::jsonb`);
}

const NEEDS_ESCAPING = /['\\]/;

/**
 * pg's escapeLiteral, which walks the text character by character (a turn result's JSON is
 * about 1 KB, on every action): a text without a quote or a backslash is the same quoted.
 */
export function quoteText(text: string): SqlLiteral {
  return literal(NEEDS_ESCAPING.test(text) ? pg.escapeLiteral(text) : `'${text}'`);
}

/** A list of ids as an IN list (each a safe positive integer). */
export function idList(ids: readonly number[]): SqlIdList {
  if (ids.length === 0) throw new RangeError("empty id list");
  const list = ids
    .map((id) => {
      if (!Number.isSafeInteger(id) || id <= 0) throw new TypeError(`not an id: ${id}`);
      return String(id);
    })
    .join(", ");
  return list as SqlIdList;
}

/**
 * An array of safe integers as an array literal (`'{1,2,3}'`, `'{}'`), for a statement that
 * names its type (`$1::bigint[]`). Anything but safe integers throws.
 */
export function intListLiteral(values: readonly unknown[]): SqlLiteral {
  for (const value of values) if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new TypeError(`not a safe integer for an SQL array: ${String(value)}`);
  return literal(`'{${values.join(",")}}'`);
}
