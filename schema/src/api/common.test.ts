import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstIssueMessage, idParamSchema, idSchema, limitSchema, offsetSchema } from "./common.js";

const message = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
};

describe("finding 9: ids are not coerced", () => {
  it.each([[1], [3], [Number.MAX_SAFE_INTEGER]])("a JSON id %j is accepted", (id) => {
    expect(idSchema.parse(id)).toBe(id);
  });

  it.each([["3"], ["0x3"], [[3]], [" 3 "], ["3.0"], [3.5], [0], [-3], [true], [null], [Number.MAX_SAFE_INTEGER + 1], [Infinity]])("a JSON id %j is refused with 'Invalid id'", (id) => {
    expect(message(idSchema, id)).toBe("Invalid id");
  });

  it.each([
    ["1", 1],
    ["42", 42],
    ["007", 7],
    [5, 5],
  ])("a path or query id %j reads as %d", (raw, id) => {
    expect(idParamSchema.parse(raw)).toBe(id);
  });

  it.each([["0x3"], [" 3 "], ["3 "], ["3.0"], ["1e3"], ["+3"], ["-3"], ["0"], [""], ["٣"], [["3"]], [["1", "2"]], [3.5], [0], ["99999999999999999"]])("a path or query id %j is refused with 'Invalid id'", (raw) => {
    expect(message(idParamSchema, raw)).toBe("Invalid id");
  });

  it("query limits and offsets take digits only and keep their defaults and ranges", () => {
    const limit = limitSchema(20, 100);
    expect(limit.parse(undefined)).toBe(20);
    expect(limit.parse("5")).toBe(5);
    expect(limit.parse(5)).toBe(5);
    expect(offsetSchema.parse("0")).toBe(0);
    for (const raw of ["0x10", " 5", "5.0", "1e2", ["5"], "-1", 2.5]) expect(message(limit, raw), String(raw)).toBe("limit must be a whole number");
    expect(message(limit, "0")).toBe("limit must be at least 1");
    expect(message(limit, "101")).toBe("limit must be at most 100");
  });
});
