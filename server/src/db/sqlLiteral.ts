import pg from "pg";

/**
 * SQL literals for statements sent without parameters, so several statements travel in one
 * round trip (the simple query protocol takes no parameters). Only values whose literal form
 * is exact are accepted: safe integers, booleans, null, dates, and strings escaped by pg's
 * escapeLiteral. Anything else is a bug and throws.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`not a safe integer for SQL: ${value}`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return quoteText(value);
  if (value instanceof Date) return `'${value.toISOString()}'::timestamptz`;
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/** A JSON value as a jsonb literal. */
export function jsonbLiteral(value: unknown): string {
  return `${quoteText(JSON.stringify(value))}::jsonb`;
}

const NEEDS_ESCAPING = /['\\]/;

/**
 * pg's escapeLiteral, which walks the text character by character (a turn result's JSON is
 * about 1 KB, on every action): a text without a quote or a backslash is the same quoted.
 */
export function quoteText(text: string): string {
  return NEEDS_ESCAPING.test(text) ? pg.escapeLiteral(text) : `'${text}'`;
}

/** A list of ids as an IN list (each a safe positive integer). */
export function idList(ids: readonly number[]): string {
  if (ids.length === 0) throw new RangeError("empty id list");
  return ids
    .map((id) => {
      if (!Number.isSafeInteger(id) || id <= 0) throw new TypeError(`not an id: ${id}`);
      return String(id);
    })
    .join(", ");
}
