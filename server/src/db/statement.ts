import type { SqlLiteral } from "./sqlLiteral.js";

/**
 * An SQL statement built with its values kept apart from its text. `text` numbers the values
 * $1, $2, ... in order; `literals` holds each as checked SQL literal text (db/sqlLiteral.ts);
 * `inline` is the statement with the literals in place. Statements built by the same code path
 * have the same text whatever the values (their shape), so a shape can be prepared once per
 * connection and executed by name with the literals as arguments (db/groupedWrites.ts), which
 * spares Postgres parsing and planning it again for every action.
 *
 * Values are never merged, even when two literals are equal: the text must depend only on how
 * the statement was built, never on the values.
 */
export class Statement {
  /** SQL text and values, in order */
  private readonly parts: Array<string | { literal: SqlLiteral; cast?: string }> = [];

  /** Appends SQL text (no values in it). */
  sql(text: string): this {
    this.parts.push(text);
    return this;
  }

  /**
   * Appends a value, given as its SQL literal (sqlLiteral, jsonbLiteral): a SqlLiteral, so a
   * raw string cannot slip in unescaped. `cast` names its type where Postgres could not infer
   * a parameter's type from the place it is used (a SELECT list).
   */
  value(literal: SqlLiteral, cast?: string): this {
    this.parts.push({ literal, cast });
    return this;
  }

  /** Appends another statement's text and values (its values numbered after this one's). */
  append(other: Statement): this {
    this.parts.push(...other.parts);
    return this;
  }

  /** The statement's shape: its text with $1, $2, ... for the values. */
  get text(): string {
    let n = 0;
    return this.parts.map((part) => (typeof part === "string" ? part : `$${++n}${part.cast ? `::${part.cast}` : ""}`)).join("");
  }

  /** The values' literals, in the order of their numbers. */
  get literals(): SqlLiteral[] {
    const literals: SqlLiteral[] = [];
    for (const part of this.parts) if (typeof part !== "string") literals.push(part.literal);
    return literals;
  }

  /** The statement with its literals in place, to run as it is. */
  get inline(): string {
    return this.parts.map((part) => (typeof part === "string" ? part : `${part.literal}${part.cast ? `::${part.cast}` : ""}`)).join("");
  }
}
