import { describe, expect, it } from "vitest";
import { sqlLiteral } from "./sqlLiteral.js";
import { Statement } from "./statement.js";

describe("Statement", () => {
  const write = (id: number, cash: number) => new Statement().sql("UPDATE countries SET cash = ").value(sqlLiteral(cash)).sql(" WHERE id = ").value(sqlLiteral(id)).sql(" AND xmin = ").value(sqlLiteral("12"), "xid");

  it("keeps the values apart: the text numbers them, inline puts the literals in place", () => {
    const s = write(7, 500);
    expect(s.text).toBe("UPDATE countries SET cash = $1 WHERE id = $2 AND xmin = $3::xid");
    expect(s.literals).toEqual(["500", "7", "'12'"]);
    expect(s.inline).toBe("UPDATE countries SET cash = 500 WHERE id = 7 AND xmin = '12'::xid");
  });

  it("has one text for every value, equal values included (its shape)", () => {
    expect(write(7, 7).text).toBe(write(8, 123_456).text);
    expect(write(7, 7).literals).toEqual(["7", "7", "'12'"]);
  });

  it("appends another statement's values after its own", () => {
    const s = new Statement().sql("WITH w AS (").append(write(1, 2)).sql(") SELECT ").value(sqlLiteral("x"), "text");
    expect(s.text).toBe("WITH w AS (UPDATE countries SET cash = $1 WHERE id = $2 AND xmin = $3::xid) SELECT $4::text");
    expect(s.literals).toEqual(["2", "1", "'12'", "'x'"]);
  });

  it("takes only escaped literals: a raw string does not compile", () => {
    const name = "Robert'); DROP TABLE countries; --";
    // @ts-expect-error a string is not a SqlLiteral: it must go through sqlLiteral (or jsonbLiteral, quoteText)
    const raw = () => new Statement().sql("SELECT ").value(name);
    expect(raw).toBeTypeOf("function");
    expect(new Statement().sql("SELECT ").value(sqlLiteral(name)).inline).toBe("SELECT 'Robert''); DROP TABLE countries; --'");
  });
});
