import { describe, expect, it } from "vitest";
import pg from "pg";
import { idList, jsonbLiteral, quoteText, sqlLiteral } from "./sqlLiteral.js";

describe("sqlLiteral", () => {
  it.each([
    [0, "0"],
    [-42, "-42"],
    [Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
    [true, "TRUE"],
    [false, "FALSE"],
    [null, "NULL"],
    ["plain", "'plain'"],
    ["it's", "'it''s'"],
    ["back\\slash", " E'back\\\\slash'"],
    [new Date(0), "'1970-01-01T00:00:00.000Z'::timestamptz"],
  ])("%j -> %s", (value, literal) => {
    expect(sqlLiteral(value)).toBe(literal);
  });

  it.each([[1.5], [Number.NaN], [Infinity], [2 ** 60], [{}], [[1]], [10n]])("refuses %s", (value) => {
    expect(() => sqlLiteral(value)).toThrow(TypeError);
  });

  it("quotes JSON for jsonb, quotes included", () => {
    expect(jsonbLiteral({ a: "x'; DROP TABLE countries; --" })).toBe(`'{"a":"x''; DROP TABLE countries; --"}'::jsonb`);
  });

  it("id lists accept positive safe integers only", () => {
    expect(idList([3, 1])).toBe("3, 1");
    expect(() => idList([])).toThrow(RangeError);
    expect(() => idList([0])).toThrow(TypeError);
    expect(() => idList([1.5])).toThrow(TypeError);
    expect(() => idList(["1; DROP TABLE x" as unknown as number])).toThrow(TypeError);
  });

  it("quotes text exactly as pg's escapeLiteral, with or without quotes and backslashes", () => {
    for (const text of ["", "plain", "O'Brien", "back\\slash", "both ' and \\", '{"a":"x\\"y"}', "üñí ☃", "''"]) {
      expect(quoteText(text)).toBe(pg.escapeLiteral(text));
    }
  });
});
