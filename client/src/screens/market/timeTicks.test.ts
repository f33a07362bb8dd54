import { describe, expect, it } from "vitest";
import { distinctTimeTicks, shortDate } from "./common";

describe("price history axis (issue 30 #12: one point's date repeated five times)", () => {
  const t = Date.UTC(2026, 10, 27, 9, 30);
  it("one point: one tick", () => {
    expect(distinctTimeTicks([t], shortDate)).toEqual([t]);
    expect(distinctTimeTicks([t, t, t], shortDate)).toEqual([t]);
  });
  it("points within one minute: one label; a day apart: up to five distinct labels", () => {
    expect(distinctTimeTicks([t, t + 20_000], shortDate)).toHaveLength(1);
    const ticks = distinctTimeTicks([t, t + 86_400_000], shortDate);
    expect(ticks).toHaveLength(5);
    expect(new Set(ticks.map(shortDate)).size).toBe(5);
  });
});
