import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { COUNTRY_TECH_FIELDS, TECHNOLOGY_IDS, emptyBuildings, startingCountry } from "./country.js";
import type { CountryState } from "./country.js";
import {
  AGRICULTURAL_FOOD_PCT_PER_LEVEL,
  BUSINESS_TAX_PCT_PER_LEVEL,
  INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL,
  MILITARY_STORE_PRICE_PCT_PER_LEVEL,
  MILITARY_STRENGTH_PERMILLE_PER_LEVEL,
  RESEARCH_POINTS_PER_LAB,
  SPY_FORCE_PCT_PER_LEVEL,
  TECHNOLOGIES,
  TECHNOLOGY_LIST,
  applyResearchAllocation,
  checkResearchAllocation,
  computeProductionBonuses,
  computeResearchPointsPerTurn,
  computeResearchStatus,
  computeResearchTurns,
  computeTechEffects,
  computeTechnologyCost,
  technologyState,
} from "./research.js";

function withLabs(labs: number, patch: Partial<CountryState> = {}): CountryState {
  return { ...startingCountry(), buildings: { ...emptyBuildings(), research_labs: labs }, ...patch };
}

describe("the eleven categories", () => {
  it("are the spec's, in its order", () => {
    expect(TECHNOLOGY_LIST.map((t) => t.name)).toEqual([
      "Military",
      "Medical",
      "Business",
      "Residential",
      "Agricultural",
      "Warfare",
      "Military Strategy",
      "Weapons",
      "Industrial",
      "Spy",
      "SDI",
    ]);
  });

  it.each([
    ["military", 1000, 20, [], "military"],
    ["medical", 800, 10, [], null],
    ["business", 1000, 20, [], "business"],
    ["residential", 800, 10, ["medical"], null],
    ["agricultural", 800, 20, [], "agricultural"],
    ["warfare", 1500, 10, ["military"], null],
    ["military_strategy", 1500, 10, ["military", "warfare"], null],
    ["weapons", 2000, 15, ["military", "industrial"], null],
    ["industrial", 1200, 20, ["business"], "industrial"],
    ["spy", 1000, 20, [], "spy"],
    ["sdi", 3000, 10, ["weapons", "military_strategy"], null],
  ] as const)("%s: base %d, max %d, prerequisites %o, stored in %s", (id, baseCost, maxLevel, prerequisites, countryField) => {
    expect(TECHNOLOGIES[id]).toMatchObject({ baseCost, maxLevel, prerequisites, countryField });
    expect(TECHNOLOGIES[id].effects.length).toBeGreaterThan(0);
  });

  it("maps the five country tech fields to agricultural, business, military, industrial, spy", () => {
    const stored = TECHNOLOGY_IDS.filter((id) => TECHNOLOGIES[id].countryField !== null);
    expect(stored.sort()).toEqual([...COUNTRY_TECH_FIELDS].sort());
  });

  it("stored technologies only require stored technologies (so they can be reached)", () => {
    for (const def of TECHNOLOGY_LIST) {
      if (!def.countryField) continue;
      for (const p of def.prerequisites) expect(TECHNOLOGIES[p].countryField).not.toBeNull();
    }
  });
});

describe("points per turn = research labs x 100 (x government research bonus)", () => {
  it.each([
    [0, "monarchy", 0],
    [1, "monarchy", 100],
    [7, "monarchy", 700],
    [10, "democracy", 1150],
    [10, "theocracy", 1120],
    [10, "communism", 1200],
  ] as const)("%d labs, %s: %d points", (labs, governmentType, points) => {
    expect(RESEARCH_POINTS_PER_LAB).toBe(100);
    expect(computeResearchPointsPerTurn(withLabs(labs, { governmentType }))).toBe(points);
  });
});

describe("cost = base x (level + 1) / government category multiplier, rounded up", () => {
  it.each([
    ["agricultural", 0, "tyranny", 800],
    ["agricultural", 1, "tyranny", 1600],
    ["agricultural", 0, "monarchy", 500], // 800 / 1.6
    ["agricultural", 0, "democracy", 348], // 800 / 2.3 = 347.8
    ["agricultural", 0, "theocracy", 330], // 800 / 2.43 = 329.2
    ["agricultural", 0, "republic", 434], // 800 / 1.845 = 433.6
    ["agricultural", 4, "republic", 2169], // 4000 / 1.845 = 2168.02, rounded up
    ["warfare", 0, "monarchy", 15000], // 1500 / 0.1
    ["military", 2, "monarchy", 2728], // 3000 / 1.1 = 2727.3
  ] as const)("%s from level %d for %s costs %d", (id, level, gov, cost) => {
    expect(computeTechnologyCost(id, level, gov)).toBe(cost);
  });

  it.each([
    [1000, 100, 10],
    [1001, 100, 11],
    [50, 100, 1],
    [500, 0, null],
  ])("cost %d at %d points per turn takes %s turns", (cost, ppt, turns) => {
    expect(computeResearchTurns(cost, ppt)).toBe(turns);
  });
});

describe("per-level effects of the five stored levels", () => {
  it("has the designed rates", () => {
    expect([
      AGRICULTURAL_FOOD_PCT_PER_LEVEL,
      BUSINESS_TAX_PCT_PER_LEVEL,
      INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL,
      MILITARY_STRENGTH_PERMILLE_PER_LEVEL,
      MILITARY_STORE_PRICE_PCT_PER_LEVEL,
      SPY_FORCE_PCT_PER_LEVEL,
    ]).toEqual([2, 2, 2, 5, 1, 1]);
  });

  it("turns levels into multipliers and fractions", () => {
    const tech = { agricultural: 10, business: 5, military: 4, industrial: 3, spy: 7 };
    expect(computeTechEffects(tech)).toEqual({
      foodProductionPct: 120,
      taxPct: 110,
      unitProductionPct: 106,
      strengthPermille: 1020,
      storePricePct: 4,
      spyPct: 107,
    });
    expect(computeProductionBonuses(tech)).toEqual({ agricultural: 0.2, business: 0.1, military: 0.02, industrial: 0.06, spy: 0.07 });
  });
});

describe("technology states", () => {
  const tech = { agricultural: 20, business: 0, military: 1, industrial: 0, spy: 0 };
  it.each([
    ["agricultural", "maxed"],
    ["business", "available"],
    ["industrial", "locked"], // needs business 1
    ["military", "available"],
    ["warfare", "locked"], // not stored
  ] as const)("%s is %s", (id, state) => {
    expect(technologyState(tech, id)).toBe(state);
  });
});

describe("checkResearchAllocation", () => {
  const ready = withLabs(1, { researchPoints: 2000 });
  it.each<[string, CountryState, Record<string, number>, string | null]>([
    ["one level of agricultural", ready, { agricultural: 500 }, null],
    ["two technologies", ready, { agricultural: 500, business: 834 }, null],
    ["no labs", withLabs(0, { researchPoints: 2000 }), { agricultural: 500 }, "research/no_labs"],
    ["unknown", ready, { alchemy: 500 }, "research/unknown_technology"],
    ["negative", ready, { agricultural: -1 }, "research/invalid_points"],
    ["fractional", ready, { agricultural: 1.5 }, "research/invalid_points"],
    ["nothing", ready, {}, "research/nothing_allocated"],
    ["zeros", ready, { agricultural: 0 }, "research/nothing_allocated"],
    ["not stored", ready, { medical: 5000 }, "research/not_available"],
    ["prerequisites unmet", ready, { industrial: 2000 }, "research/prerequisites_unmet"],
    ["below the next level", ready, { agricultural: 499 }, "research/insufficient_points"],
    ["more than the pool", ready, { agricultural: 2001 }, "research/insufficient_points"],
    ["maxed", withLabs(1, { researchPoints: 2000, tech: { ...ready.tech, agricultural: 20 } }), { agricultural: 500 }, "research/max_level"],
  ])("%s -> %s", (_name, country, allocations, code) => {
    expect(checkResearchAllocation(country, allocations)?.code ?? null).toBe(code);
  });
});

describe("applyResearchAllocation", () => {
  it("buys whole levels and returns the rest to the pool", () => {
    // monarchy agricultural: level 1 costs 500, level 2 costs 1000
    const c = withLabs(1, { researchPoints: 2000 });
    const { next, results } = applyResearchAllocation(c, { agricultural: 1800 });
    expect(next.tech.agricultural).toBe(2);
    expect(next.researchPoints).toBe(500);
    expect(results).toEqual([
      {
        researchType: "agricultural",
        pointsGained: 1500,
        previousLevel: 0,
        currentLevel: 2,
        levelUp: true,
        progressPercent: 33, // 500 of level 3's 1500
        description: "Agricultural research advanced to level 2.",
      },
    ]);
    expect(c.tech.agricultural).toBe(0);
  });

  it("stops at the maximum level", () => {
    const c = withLabs(1, { researchPoints: 1_000_000, tech: { ...startingCountry().tech, spy: 19 } });
    const { next, results } = applyResearchAllocation(c, { spy: 1_000_000 });
    expect(next.tech.spy).toBe(20);
    expect(results[0].progressPercent).toBe(100);
    expect(next.researchPoints).toBe(1_000_000 - computeTechnologyCost("spy", 19, "monarchy"));
  });

  it("never spends more than the pool and never lowers a level", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.record({ agricultural: fc.nat(60_000), business: fc.nat(60_000), military: fc.nat(60_000), spy: fc.nat(60_000) }),
        (pool, allocations) => {
          const c = withLabs(1, { researchPoints: pool });
          if (checkResearchAllocation(c, allocations) !== null) return;
          const { next } = applyResearchAllocation(c, allocations);
          expect(next.researchPoints).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(next.researchPoints)).toBe(true);
          for (const f of COUNTRY_TECH_FIELDS) expect(next.tech[f]).toBeGreaterThanOrEqual(c.tech[f]);
        },
      ),
    );
  });
});

describe("computeResearchStatus", () => {
  it("gives the dashboard fields and eleven cards", () => {
    const s = computeResearchStatus(withLabs(2, { researchPoints: 300 }));
    expect(s.currentResearchPoints).toBe(300);
    expect(s.pointsPerTurn).toBe(200);
    expect(s.technologies).toHaveLength(11);
    expect(s.researchEfficiency.agricultural).toBe(1.6);
    expect(s.technologies.find((t) => t.id === "agricultural")).toMatchObject({ cost: 500, turns: 3, state: "available" });
  });
});
