import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { startingCountry } from "./country.js";
import {
  GOVERNMENT_CHANGE_BASE_COST,
  GOVERNMENT_CHANGE_TURN_COST,
  MAX_STORED_TURNS,
  MAX_TURNS,
  MAX_TURNS_PER_ACTION,
  STARTING_TURNS,
  TURN_INTERVAL_MS,
  applyConvertStoredTurns,
  computeMaxTurnsPerAction,
  computeMsToNextTick,
  applyGovernmentChange,
  applyTick,
  applyTicks,
  checkConvertStoredTurns,
  checkGovernmentChange,
  checkTurnQuantity,
  computeGovernmentChangeCost,
} from "./turns.js";

describe("turn constants", () => {
  it.each([
    ["MAX_TURNS", MAX_TURNS, 150],
    ["MAX_STORED_TURNS", MAX_STORED_TURNS, 180],
    ["TURN_INTERVAL_MS (20 minutes)", TURN_INTERVAL_MS, 1_200_000],
    ["STARTING_TURNS (the resource table, not the tutorial's 150)", STARTING_TURNS, 100],
    ["MAX_TURNS_PER_ACTION (turn selector)", MAX_TURNS_PER_ACTION, 50],
    ["GOVERNMENT_CHANGE_BASE_COST", GOVERNMENT_CHANGE_BASE_COST, 50_000],
    ["GOVERNMENT_CHANGE_TURN_COST", GOVERNMENT_CHANGE_TURN_COST, 10],
  ])("%s is %d", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("the starting country has the starting turns", () => {
    expect(startingCountry().turns).toBe(STARTING_TURNS);
  });
});

describe("applyTick", () => {
  it.each([
    [0, 0, 1, 0],
    [149, 0, 150, 0],
    [150, 0, 150, 1],
    [150, 179, 150, 180],
    [150, 180, 150, 180],
    [100, 20, 101, 20],
  ])("(%d, %d) -> (%d, %d)", (turns, stored, nextTurns, nextStored) => {
    expect(applyTick(turns, stored)).toEqual({ turns: nextTurns, storedTurns: nextStored });
  });

  it("applyTicks equals k applyTick calls", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 180 }), fc.integer({ min: 0, max: 400 }), (t, s, k) => {
        let cur = { turns: t, storedTurns: s };
        for (let i = 0; i < k; i++) cur = applyTick(cur.turns, cur.storedTurns);
        expect(applyTicks(t, s, k)).toEqual(cur);
      }),
    );
  });
});

describe("checkTurnQuantity", () => {
  it.each([
    [100, 1, null],
    [100, 50, null],
    [100, 51, "turns/invalid_turns"],
    [100, 0, "turns/invalid_turns"],
    [100, -1, "turns/invalid_turns"],
    [100, 1.5, "turns/invalid_turns"],
    [10, 10, null],
    [10, 11, "turns/invalid_turns"],
    [0, 1, "turns/no_turns"],
  ])("available %d, quantity %d -> %s", (available, quantity, code) => {
    expect(checkTurnQuantity(available, quantity)?.code ?? null).toBe(code);
  });

  it("names the range in its message", () => {
    expect(checkTurnQuantity(30, 31)?.message).toBe("Turns must be between 1 and 30");
  });
});

describe("stored turn conversion", () => {
  it.each([
    [100, 20, 20, null],
    [100, 20, 21, "turns/insufficient_stored_turns"],
    [140, 20, 10, null],
    [140, 20, 11, "turns/exceeds_max_turns"],
    [100, 20, 0, "turns/invalid_quantity"],
    [100, 20, 2.5, "turns/invalid_quantity"],
  ])("turns %d, stored %d, convert %d -> %s", (turns, storedTurns, q, code) => {
    expect(checkConvertStoredTurns({ turns, storedTurns }, q)?.code ?? null).toBe(code);
  });

  it("moves stored turns into available turns", () => {
    expect(applyConvertStoredTurns({ turns: 140, storedTurns: 20 }, 10)).toEqual({ turns: 150, storedTurns: 10 });
  });
});

describe("government change", () => {
  const fresh = { hasUsedFreeGovernmentChange: false, governmentChangeCount: 0 };

  it.each([
    [false, 0, { free: true, cash: 0, turns: 0 }],
    [true, 1, { free: false, cash: 50_000, turns: 10 }],
    [true, 2, { free: false, cash: 100_000, turns: 10 }],
    [true, 5, { free: false, cash: 250_000, turns: 10 }],
    [true, 0, { free: false, cash: 50_000, turns: 10 }],
  ])("used free %s, count %d -> %o", (used, count, cost) => {
    expect(computeGovernmentChangeCost({ hasUsedFreeGovernmentChange: used, governmentChangeCount: count })).toEqual(cost);
  });

  it("the first change is free and records itself", () => {
    const c = startingCountry();
    expect(checkGovernmentChange(c, fresh, "republic")).toBeNull();
    const { next, history } = applyGovernmentChange(c, fresh, "republic");
    expect(next.governmentType).toBe("republic");
    expect(next.cash).toBe(c.cash);
    expect(next.turns).toBe(c.turns);
    expect(history).toEqual({ hasUsedFreeGovernmentChange: true, governmentChangeCount: 1 });
  });

  it("a later change costs cash and turns", () => {
    const c = { ...startingCountry(), governmentType: "republic" as const };
    const { next, history } = applyGovernmentChange(c, { hasUsedFreeGovernmentChange: true, governmentChangeCount: 1 }, "theocracy");
    expect(next.cash).toBe(50_000);
    expect(next.turns).toBe(90);
    expect(history.governmentChangeCount).toBe(2);
  });

  it.each([
    ["nonsense", fresh, {}, "government/unknown_government"],
    ["monarchy", fresh, {}, "government/same_government"],
    ["tyranny", { hasUsedFreeGovernmentChange: true, governmentChangeCount: 3 }, {}, "government/insufficient_funds"],
    ["tyranny", { hasUsedFreeGovernmentChange: true, governmentChangeCount: 1 }, { turns: 9 }, "government/insufficient_turns"],
    ["tyranny", { hasUsedFreeGovernmentChange: true, governmentChangeCount: 1 }, { turns: 10 }, null],
  ])("to %s -> %s", (target, history, patch, code) => {
    expect(checkGovernmentChange({ ...startingCountry(), ...patch }, history, target)?.code ?? null).toBe(code);
  });

  it("says how much cash is missing", () => {
    const r = checkGovernmentChange(startingCountry(), { hasUsedFreeGovernmentChange: true, governmentChangeCount: 3 }, "tyranny");
    expect(r?.message).toBe("Insufficient funds. Need $50,000 more.");
  });
});

describe("computeMaxTurnsPerAction: the turn selectors' maximum", () => {
  it.each([
    [0, 0],
    [-3, 0],
    [1, 1],
    [37, 37],
    [50, 50],
    [150, 50],
  ])("%d available -> %d", (available, max) => {
    expect(computeMaxTurnsPerAction(available)).toBe(max);
  });

  it("is exactly the largest quantity checkTurnQuantity accepts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), (available) => {
        const max = computeMaxTurnsPerAction(available);
        expect(checkTurnQuantity(available, max)).toBeNull();
        expect(checkTurnQuantity(available, max + 1)).not.toBeNull();
      }),
    );
  });
});

describe("computeMsToNextTick: the next-turn countdown", () => {
  it.each([
    // next tick at, now, milliseconds left
    [1_200_000, 0, 1_200_000],
    [1_200_000, 1_199_999, 1],
    [1_200_000, 1_200_000, 0],
    [1_200_000, 1_260_000, 0], // overdue: due now until the tick is observed
  ])("next tick %d at %d -> %d ms", (nextTickAt, now, left) => {
    expect(computeMsToNextTick(nextTickAt, now)).toBe(left);
  });
});
