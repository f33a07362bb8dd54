import { describe, expect, it } from "vitest";
import { distinctTimeTicks } from "./common";
import { monthDayTimeText } from "../../components/format";

describe("price history axis (issue 30 #12: one point's date repeated five times)", () => {
  const t = Date.UTC(2026, 10, 27, 9, 30);
  it("one point: one tick", () => {
    expect(distinctTimeTicks([t], monthDayTimeText)).toEqual([t]);
    expect(distinctTimeTicks([t, t, t], monthDayTimeText)).toEqual([t]);
  });
  it("points within one minute: one label; a day apart: up to five distinct labels", () => {
    expect(distinctTimeTicks([t, t + 20_000], monthDayTimeText)).toHaveLength(1);
    const ticks = distinctTimeTicks([t, t + 86_400_000], monthDayTimeText);
    expect(ticks).toHaveLength(5);
    expect(new Set(ticks.map(monthDayTimeText)).size).toBe(5);
  });
});
