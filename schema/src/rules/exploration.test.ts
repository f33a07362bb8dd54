import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GOVERNMENT_TYPES, startingCountry } from "./country.js";
import {
  EXPLORE_MAX_TURNS,
  REPUBLIC_EXPLORATION_BANDS,
  REPUBLIC_EXPLORATION_DEFAULT,
  STANDARD_EXPLORATION_BANDS,
  STANDARD_EXPLORATION_DEFAULT,
  applyExploration,
  checkExploration,
  computeAcresPerTurn,
  computeAffordableExplorationTurns,
  computeExploration,
  computeExplorationBaseCostPerAcre,
  computeExplorationCostPerAcre,
  computeExplorationCostSteps,
} from "./exploration.js";

/**
 * Every band edge of both tables, written out: [land, acres]. At each inclusive upper edge the
 * band's value applies; one acre further the next band's.
 */
const REPUBLIC_EDGES: [number, number][] = [
  [0, 54],
  [1915, 54],
  [1916, 53],
  [1990, 53],
  [1991, 52],
  [2065, 52],
  [2066, 51],
  [2140, 51],
  [2141, 50],
  [2215, 50],
  [2216, 49],
  [2290, 49],
  [2291, 48],
  [2365, 48],
  [2366, 47],
  [2440, 47],
  [2441, 46],
  [2515, 46],
  [2516, 45],
  [2590, 45],
  [2591, 44],
  [2665, 44],
  [2666, 43],
  [2740, 43],
  [2741, 42],
  [2815, 42],
  [2816, 41],
  [2890, 41],
  [2891, 40],
  [2965, 40],
  [2966, 39],
  [3040, 39],
  [3041, 38],
  [3115, 38],
  [3116, 37],
  [3190, 37],
  [3191, 36],
  [3265, 36],
  [3266, 35],
  [3340, 35],
  [3341, 34],
  [3415, 34],
  [3416, 33],
  [3490, 33],
  [3491, 32],
  [3565, 32],
  [3566, 31],
  [3640, 31],
  [3641, 30],
  [3715, 30],
  [3716, 7],
  [21620, 7],
  [21621, 7],
  [1_000_000, 7],
];
const STANDARD_EDGES: [number, number][] = [
  [0, 45],
  [1920, 45],
  [1921, 44],
  [2002, 44],
  [2003, 43],
  [2084, 43],
  [2085, 42],
  [2166, 42],
  [2167, 41],
  [2248, 41],
  [2249, 40],
  [2330, 40],
  [2331, 39],
  [2412, 39],
  [2413, 38],
  [2494, 38],
  [2495, 37],
  [2576, 37],
  [2577, 36],
  [2658, 36],
  [2659, 35],
  [2740, 35],
  [2741, 34],
  [2822, 34],
  [2823, 33],
  [2904, 33],
  [2905, 32],
  [2986, 32],
  [2987, 31],
  [3068, 31],
  [3069, 30],
  [3150, 30],
  [3151, 29],
  [3232, 29],
  [3233, 28],
  [3314, 28],
  [3315, 27],
  [3396, 27],
  [3397, 26],
  [3478, 26],
  [3479, 25],
  [3560, 25],
  [3561, 6],
  [21280, 6],
  [21281, 6],
  [1_000_000, 6],
];

describe("republic land-size table", () => {
  it.each(REPUBLIC_EDGES)("land %d explores %d acres per turn", (land, acres) => {
    expect(computeAcresPerTurn(land, "republic")).toBe(acres);
  });

  it("runs from 54 (to 1915) down 1 per 75-acre step to 30 (to 3715), then 7 to 21620, default 7", () => {
    expect(REPUBLIC_EXPLORATION_BANDS[0]).toEqual({ upTo: 1915, acres: 54 });
    expect(REPUBLIC_EXPLORATION_BANDS.at(-2)).toEqual({ upTo: 3715, acres: 30 });
    expect(REPUBLIC_EXPLORATION_BANDS.at(-1)).toEqual({ upTo: 21620, acres: 7 });
    expect(REPUBLIC_EXPLORATION_DEFAULT).toBe(7);
    for (let i = 1; i < 25; i++) {
      expect(REPUBLIC_EXPLORATION_BANDS[i].upTo - REPUBLIC_EXPLORATION_BANDS[i - 1].upTo).toBe(75);
      expect(REPUBLIC_EXPLORATION_BANDS[i - 1].acres - REPUBLIC_EXPLORATION_BANDS[i].acres).toBe(1);
    }
  });

  it("already includes the republic's +20% acres (54 = 45 x 1.2, 30 = 25 x 1.2)", () => {
    expect(REPUBLIC_EXPLORATION_BANDS[0].acres).toBe((STANDARD_EXPLORATION_BANDS[0].acres * 12) / 10);
    expect(REPUBLIC_EXPLORATION_BANDS.at(-2)?.acres).toBe((STANDARD_EXPLORATION_BANDS.at(-2)!.acres * 12) / 10);
  });
});

describe("standard land-size table (every government but republic)", () => {
  it.each(STANDARD_EDGES)("land %d explores %d acres per turn", (land, acres) => {
    for (const gov of GOVERNMENT_TYPES) if (gov !== "republic") expect(computeAcresPerTurn(land, gov)).toBe(acres);
  });

  it("runs from 45 (to 1920) down 1 per 82-acre step to 25 (to 3560), then 6 to 21280, default 6", () => {
    expect(STANDARD_EXPLORATION_BANDS[0]).toEqual({ upTo: 1920, acres: 45 });
    expect(STANDARD_EXPLORATION_BANDS.at(-2)).toEqual({ upTo: 3560, acres: 25 });
    expect(STANDARD_EXPLORATION_BANDS.at(-1)).toEqual({ upTo: 21280, acres: 6 });
    expect(STANDARD_EXPLORATION_DEFAULT).toBe(6);
    for (let i = 1; i < 21; i++) {
      expect(STANDARD_EXPLORATION_BANDS[i].upTo - STANDARD_EXPLORATION_BANDS[i - 1].upTo).toBe(82);
      expect(STANDARD_EXPLORATION_BANDS[i - 1].acres - STANDARD_EXPLORATION_BANDS[i].acres).toBe(1);
    }
  });

  it("never rises with land", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30_000 }), fc.constantFrom(...GOVERNMENT_TYPES), (land, gov) => {
        expect(computeAcresPerTurn(land + 1, gov)).toBeLessThanOrEqual(computeAcresPerTurn(land, gov));
      }),
    );
  });
});

describe("cost per acre: floor((50 + 5 per full 100 acres) x 0.9 republic / x1 others)", () => {
  it.each([
    [0, 50, 45],
    [99, 50, 45],
    [100, 55, 49],
    [199, 55, 49],
    [200, 60, 54],
    [1000, 100, 90],
    [1950, 145, 130],
    [3715, 235, 211],
  ])("land %d costs %d (others) and %d (republic)", (land, others, republic) => {
    expect(computeExplorationCostPerAcre(land, "monarchy")).toBe(others);
    expect(computeExplorationCostPerAcre(land, "republic")).toBe(republic);
  });
});

describe("computeExploration (rates fixed at the start of the action)", () => {
  it("prices 10 turns for the starting monarchy", () => {
    expect(computeExploration(startingCountry(), 10)).toEqual({
      acresPerTurn: 45,
      costPerAcre: 55,
      totalAcres: 450,
      totalCost: 24_750,
      remainingCash: 75_250,
    });
  });

  it("prices 10 turns for a starting republic", () => {
    expect(computeExploration({ ...startingCountry(), governmentType: "republic" }, 10)).toEqual({
      acresPerTurn: 54,
      costPerAcre: 49,
      totalAcres: 540,
      totalCost: 26_460,
      remainingCash: 73_540,
    });
  });

  it("shows a negative remaining cash when unaffordable", () => {
    expect(computeExploration({ ...startingCountry(), cash: 1000 }, 1).remainingCash).toBe(1000 - 45 * 55);
  });
});

describe("checkExploration", () => {
  it.each([
    [{}, 1, null],
    [{ cash: 123_750 }, 50, null],
    [{ cash: 123_749 }, 50, "exploration/insufficient_funds"],
    [{}, 51, "exploration/invalid_turns"],
    [{}, 0, "exploration/invalid_turns"],
    [{ turns: 5 }, 6, "exploration/invalid_turns"],
    [{ turns: 0 }, 1, "exploration/no_turns"],
    [{ cash: 2475 }, 1, null],
    [{ cash: 2474 }, 1, "exploration/insufficient_funds"],
  ])("%o, %d turns -> %s", (patch, turns, code) => {
    expect(checkExploration({ ...startingCountry(), ...patch }, turns)?.code ?? null).toBe(code);
  });

  it("uses the spec's message with the missing amount", () => {
    expect(checkExploration({ ...startingCountry(), cash: 2000 }, 1)?.message).toBe("Insufficient funds. Need $475 more.");
  });

  it("caps turns at 50", () => {
    expect(EXPLORE_MAX_TURNS).toBe(50);
    expect(checkExploration({ ...startingCountry(), turns: 150, cash: 10_000_000 }, 51)?.message).toBe("Turns must be between 1 and 50");
  });
});

describe("applyExploration", () => {
  it("adds land, pays and spends turns without mutating", () => {
    const c = startingCountry();
    const { next } = applyExploration(c, 10);
    expect([next.land, next.cash, next.turns]).toEqual([550, 75_250, 90]);
    expect(c.land).toBe(100);
  });

  it("never leaves negative cash when the check passed", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: -5, max: 60 }),
        fc.constantFrom(...GOVERNMENT_TYPES),
        (land, cash, turns, t, governmentType) => {
          const c = { ...startingCountry(), land, cash, turns, governmentType };
          if (checkExploration(c, t) !== null) return;
          const { next } = applyExploration(c, t);
          expect(next.cash).toBeGreaterThanOrEqual(0);
          expect(next.turns).toBeGreaterThanOrEqual(0);
          expect(next.land).toBeGreaterThan(land);
        },
      ),
    );
  });
});

describe("the price steps behind the cost per acre", () => {
  it.each([
    // land, full 100-acre steps, base price before the government (dollars)
    [0, 0, 50],
    [99, 0, 50],
    [100, 1, 55],
    [325, 3, 65],
    [1999, 19, 145],
    [2000, 20, 150],
    [-5, 0, 50],
  ])("land %d: %d steps, base %d", (land, steps, base) => {
    expect(computeExplorationCostSteps(land)).toBe(steps);
    expect(computeExplorationBaseCostPerAcre(land)).toBe(base);
    // the government's percent applies to that base, rounded down
    expect(computeExplorationCostPerAcre(land, "republic")).toBe(Math.floor((base * 90) / 100));
    expect(computeExplorationCostPerAcre(land, "monarchy")).toBe(base);
  });
});

describe("computeAffordableExplorationTurns: the most turns checkExploration accepts", () => {
  it.each([
    // patch of the starting monarchy (100 acres: 45 acres x 55 dollars = 2,475 a turn), turns
    [{}, 40], // 100,000 / 2,475 = 40.4
    [{ cash: 123_750 }, 50], // exactly 50 turns' worth
    [{ cash: 10_000_000 }, 50], // capped by the 50 turns per action
    [{ cash: 10_000_000, turns: 7 }, 7], // capped by the turns available
    [{ cash: 2_475 }, 1],
    [{ cash: 2_474 }, 0],
    [{ cash: -500 }, 0],
    [{ turns: 0 }, 0],
  ])("%o -> %d", (patch, turns) => {
    expect(computeAffordableExplorationTurns({ ...startingCountry(), ...patch })).toBe(turns);
  });

  it("accepts every count up to it and refuses one more (any land, cash, turns, government)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: -10_000, max: 5_000_000 }), fc.integer({ min: 0, max: 150 }), fc.constantFrom(...GOVERNMENT_TYPES), (land, cash, turns, governmentType) => {
        const country = { ...startingCountry(), land, cash, turns, governmentType };
        const max = computeAffordableExplorationTurns(country);
        if (max > 0) expect(checkExploration(country, max)).toBeNull();
        expect(checkExploration(country, max + 1)).not.toBeNull();
      }),
    );
  });
});
