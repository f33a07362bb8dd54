import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GOVERNMENT_TYPES, TECHNOLOGY_IDS, emptyBuildings, emptyTechLevels, startingCountry } from "./country.js";
import type { CountryState, TechLevels, TechnologyId } from "./country.js";
import { computeHousingCap, computePopulationChange } from "./economy.js";
import { computeMilitaryStrength } from "./military.js";
import {
  AGRICULTURAL_FOOD_PCT_PER_LEVEL,
  BUSINESS_TAX_PCT_PER_LEVEL,
  INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL,
  MEDICAL_GROWTH_PCT_PER_LEVEL,
  MILITARY_STORE_PRICE_PCT_PER_LEVEL,
  MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL,
  MILITARY_STRENGTH_PERMILLE_PER_LEVEL,
  RESEARCH_POINTS_PER_LAB,
  RESIDENTIAL_HOUSING_PCT_PER_LEVEL,
  SDI_MISSILE_DEFENSE_PCT_PER_LEVEL,
  SPY_FORCE_PCT_PER_LEVEL,
  TECHNOLOGIES,
  WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL,
  WEAPONS_STRENGTH_PCT_PER_LEVEL,
  TECHNOLOGY_LIST,
  applyResearchAllocation,
  checkResearchAllocation,
  computeProductionBonuses,
  computeResearchPointsPerTurn,
  computeResearchStatus,
  computeResearchTurns,
  computeTechEffects,
  computeTechnologyCost,
  isTechnologyId,
  technologyState,
} from "./research.js";

function withLabs(labs: number, patch: Partial<CountryState> = {}): CountryState {
  return { ...startingCountry(), buildings: { ...emptyBuildings(), research_labs: labs }, ...patch };
}

describe("the eleven categories", () => {
  it("are the spec's, in its order", () => {
    expect(TECHNOLOGY_LIST.map((t) => t.name)).toEqual(["Military", "Medical", "Business", "Residential", "Agricultural", "Warfare", "Military Strategy", "Weapons", "Industrial", "Spy", "SDI"]);
  });

  it.each([
    ["military", 1000, 20, []],
    ["medical", 800, 10, []],
    ["business", 1000, 20, []],
    ["residential", 800, 10, ["medical"]],
    ["agricultural", 800, 20, []],
    ["warfare", 1500, 10, ["military"]],
    ["military_strategy", 1500, 10, ["military", "warfare"]],
    ["weapons", 2000, 15, ["military", "industrial"]],
    ["industrial", 1200, 20, ["business"]],
    ["spy", 1000, 20, []],
    ["sdi", 3000, 10, ["weapons", "military_strategy"]],
  ] as const)("%s: base %d, max %d, prerequisites %o", (id, baseCost, maxLevel, prerequisites) => {
    expect(TECHNOLOGIES[id]).toMatchObject({ id, baseCost, maxLevel, prerequisites });
    expect(TECHNOLOGIES[id].effects.length).toBeGreaterThan(0);
  });

  it("a new country has every category at level 0", () => {
    expect(startingCountry().tech).toEqual(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, 0])));
    expect(emptyTechLevels()).toEqual(startingCountry().tech);
  });

  it("recognises the eleven ids and nothing else", () => {
    for (const id of TECHNOLOGY_IDS) expect(isTechnologyId(id)).toBe(true);
    for (const v of ["alchemy", "", "Military", 3, null]) expect(isTechnologyId(v)).toBe(false);
  });

  it.each(GOVERNMENT_TYPES)("every category can be researched to its maximum from a new %s", (governmentType) => {
    // the prerequisites form no cycle: researching whatever is available, round after round, maxes all eleven
    let c = withLabs(1, { governmentType, researchPoints: 1_000_000_000 });
    for (let round = 0; round < TECHNOLOGY_IDS.length; round++) {
      const open = TECHNOLOGY_IDS.filter((id) => technologyState(c.tech, id) === "available");
      if (open.length === 0) break;
      const allocations = Object.fromEntries(open.map((id) => [id, 10_000_000]));
      expect(checkResearchAllocation(c, allocations)).toBeNull();
      c = applyResearchAllocation(c, allocations).next;
    }
    for (const id of TECHNOLOGY_IDS) expect(c.tech[id], id).toBe(TECHNOLOGIES[id].maxLevel);
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

  it.each([
    [1000, 100, 1000, 0],
    [1000, 0, 5000, 0],
    [1000, 100, 400, 6],
    [1000, 0, 400, null],
  ])("cost %d at %d points per turn with %d in hand takes %s more turns (issue 30 #9: '5 turns' with the points in hand)", (cost, ppt, inHand, turns) => {
    expect(computeResearchTurns(cost, ppt, inHand)).toBe(turns);
  });

  it("the research status counts the points in hand", () => {
    const status = computeResearchStatus({ ...startingCountry(), researchPoints: 1_000_000 });
    expect(status.technologies.filter((t) => t.cost !== null).every((t) => t.turns === 0)).toBe(true);
  });
});

describe("per-level effects", () => {
  it("has the designed rates", () => {
    expect({
      AGRICULTURAL_FOOD_PCT_PER_LEVEL,
      BUSINESS_TAX_PCT_PER_LEVEL,
      INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL,
      MILITARY_STRENGTH_PERMILLE_PER_LEVEL,
      MILITARY_STORE_PRICE_PCT_PER_LEVEL,
      SPY_FORCE_PCT_PER_LEVEL,
      MEDICAL_GROWTH_PCT_PER_LEVEL,
      RESIDENTIAL_HOUSING_PCT_PER_LEVEL,
      WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL,
      MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL,
      WEAPONS_STRENGTH_PCT_PER_LEVEL,
      SDI_MISSILE_DEFENSE_PCT_PER_LEVEL,
    }).toEqual({
      AGRICULTURAL_FOOD_PCT_PER_LEVEL: 2,
      BUSINESS_TAX_PCT_PER_LEVEL: 2,
      INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL: 2,
      MILITARY_STRENGTH_PERMILLE_PER_LEVEL: 5,
      MILITARY_STORE_PRICE_PCT_PER_LEVEL: 1,
      SPY_FORCE_PCT_PER_LEVEL: 1,
      MEDICAL_GROWTH_PCT_PER_LEVEL: 5,
      RESIDENTIAL_HOUSING_PCT_PER_LEVEL: 2,
      WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL: 3,
      MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL: 2,
      WEAPONS_STRENGTH_PCT_PER_LEVEL: 2,
      SDI_MISSILE_DEFENSE_PCT_PER_LEVEL: 5,
    });
  });

  it("turns levels into multipliers and fractions", () => {
    const tech: TechLevels = {
      agricultural: 10,
      business: 5,
      military: 4,
      industrial: 3,
      spy: 7,
      medical: 6,
      residential: 9,
      warfare: 2,
      military_strategy: 8,
      weapons: 11,
      sdi: 3,
    };
    expect(computeTechEffects(tech)).toEqual({
      foodProductionPct: 120,
      taxPct: 110,
      housingPct: 118,
      populationGrowthPct: 130,
      unitProductionPct: 106,
      strengthPermille: 1020,
      weaponsStrengthPct: 122,
      warfareStrengthPct: 106,
      strategyStrengthPct: 116,
      storePricePct: 4,
      spyPct: 107,
      missileDefensePct: 15,
    });
    expect(computeProductionBonuses(tech)).toEqual({
      agricultural: 0.2,
      business: 0.1,
      military: 0.02,
      industrial: 0.06,
      spy: 0.07,
      medical: 0.3,
      residential: 0.18,
      warfare: 0.06,
      military_strategy: 0.16,
      weapons: 0.22,
      sdi: 0.15,
    });
  });

  it("a new country has no bonus at all", () => {
    expect(computeTechEffects(emptyTechLevels())).toEqual({
      foodProductionPct: 100,
      taxPct: 100,
      housingPct: 100,
      populationGrowthPct: 100,
      unitProductionPct: 100,
      strengthPermille: 1000,
      weaponsStrengthPct: 100,
      warfareStrengthPct: 100,
      strategyStrengthPct: 100,
      storePricePct: 0,
      spyPct: 100,
      missileDefensePct: 0,
    });
    expect(Object.values(computeProductionBonuses(emptyTechLevels())).every((v) => v === 0)).toBe(true);
  });

  // Each new category from level 0 to the given level, measured where docs/rules.md says it
  // applies. Strength: 100 of each unit under democracy is 900 (troops, jets, tanks 650;
  // turrets and spies 250). Growth: 550 acres and 1000 people, a gap of 4500. Housing: 100 acres.
  const army: CountryState = { ...startingCountry(), governmentType: "democracy", troops: 100, jets: 100, turrets: 100, tanks: 100, spies: 100 };
  const growing: CountryState = { ...startingCountry(), land: 550 };
  const measures: Record<string, (tech: TechLevels) => number> = {
    "population growth": (tech) => computePopulationChange({ ...growing, tech }),
    "housing cap": (tech) => computeHousingCap({ ...startingCountry(), tech }),
    "military strength": (tech) => computeMilitaryStrength({ ...army, tech }),
    "missile defense %": (tech) => computeTechEffects(tech).missileDefensePct,
  };
  it.each<[TechnologyId, number, string, number, number]>([
    ["medical", 1, "population growth", 225, 237], // ceil(4500 / 20 x 1.05) = ceil(236.25)
    ["medical", 10, "population growth", 225, 338], // ceil(4500 / 20 x 1.5) = ceil(337.5)
    ["residential", 1, "housing cap", 1000, 1020],
    ["residential", 10, "housing cap", 1000, 1200],
    ["warfare", 1, "military strength", 900, 919], // 650 x 1.03 + 250 = 919.5
    ["warfare", 10, "military strength", 900, 1095], // 650 x 1.3 + 250
    ["military_strategy", 1, "military strength", 900, 918],
    ["military_strategy", 10, "military strength", 900, 1080],
    ["weapons", 1, "military strength", 900, 918],
    ["weapons", 15, "military strength", 900, 1170],
    ["sdi", 1, "missile defense %", 0, 5],
    ["sdi", 10, "missile defense %", 0, 50],
  ])("%s level %d changes %s from %d to %d", (id, level, measure, before, after) => {
    expect(measures[measure](emptyTechLevels())).toBe(before);
    expect(measures[measure]({ ...emptyTechLevels(), [id]: level })).toBe(after);
  });

  it("researching a new category through the allocation raises what it governs", () => {
    // monarchy medical 0 -> 1 costs ceil(800 / 0.7) = 1143
    const c = withLabs(1, { land: 550, researchPoints: 1143 });
    const { next, results } = applyResearchAllocation(c, { medical: 1143 });
    expect(results[0]).toMatchObject({ researchType: "medical", previousLevel: 0, currentLevel: 1, levelUp: true });
    expect(next.researchPoints).toBe(0);
    expect(computePopulationChange(c)).toBe(225);
    expect(computePopulationChange(next)).toBe(237);
  });
});

describe("technology states", () => {
  const tech: TechLevels = { ...emptyTechLevels(), agricultural: 20, medical: 10, military: 1 };
  it.each([
    ["agricultural", "maxed"],
    ["medical", "maxed"],
    ["business", "available"],
    ["industrial", "locked"], // needs business 1
    ["military", "available"],
    ["warfare", "available"], // needs military 1
    ["military_strategy", "locked"], // needs warfare 1
    ["residential", "available"], // needs medical 1
    ["weapons", "locked"], // needs industrial 1 as well
    ["sdi", "locked"], // needs weapons and military strategy
    ["spy", "available"],
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
    ["medical (800 / 0.7)", ready, { medical: 1143 }, null],
    ["medical below its cost", ready, { medical: 1142 }, "research/insufficient_points"],
    ["prerequisites unmet", ready, { industrial: 2000 }, "research/prerequisites_unmet"],
    ["residential without medical", ready, { residential: 2000 }, "research/prerequisites_unmet"],
    ["warfare without military", ready, { warfare: 2000 }, "research/prerequisites_unmet"],
    ["sdi without weapons and strategy", ready, { sdi: 2000 }, "research/prerequisites_unmet"],
    ["residential after medical (800 / 1.4)", withLabs(1, { researchPoints: 2000, tech: { ...emptyTechLevels(), medical: 1 } }), { residential: 572 }, null],
    ["warfare for a monarchy (1500 / 0.1)", withLabs(1, { researchPoints: 2000, tech: { ...emptyTechLevels(), military: 1 } }), { warfare: 2000 }, "research/insufficient_points"],
    ["sdi maxed", withLabs(1, { researchPoints: 2000, tech: { ...emptyTechLevels(), weapons: 1, military_strategy: 1, sdi: 10 } }), { sdi: 2000 }, "research/max_level"],
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

  it("never spends more than the pool, never lowers a level, never passes a maximum", () => {
    const levels = fc.record(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, fc.nat(TECHNOLOGIES[id].maxLevel)])) as Record<TechnologyId, fc.Arbitrary<number>>);
    // per technology: 0 (not allocated) or 1-3 times the next level's cost plus some change
    const shares = fc.record(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, fc.tuple(fc.nat(3), fc.nat(999))])) as Record<TechnologyId, fc.Arbitrary<[number, number]>>);
    let applied = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), levels, shares, fc.constantFrom(...GOVERNMENT_TYPES), (pool, tech, share, governmentType) => {
        const c = withLabs(1, { researchPoints: pool, tech, governmentType });
        const allocations: Record<string, number> = {};
        for (const id of TECHNOLOGY_IDS) {
          const [times, change] = share[id];
          if (times > 0 && tech[id] < TECHNOLOGIES[id].maxLevel) allocations[id] = computeTechnologyCost(id, tech[id], governmentType) * times + change;
        }
        if (checkResearchAllocation(c, allocations) !== null) return;
        applied += 1;
        const { next } = applyResearchAllocation(c, allocations);
        expect(next.researchPoints).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(next.researchPoints)).toBe(true);
        for (const id of TECHNOLOGY_IDS) {
          expect(next.tech[id]).toBeGreaterThanOrEqual(c.tech[id]);
          expect(next.tech[id]).toBeLessThanOrEqual(TECHNOLOGIES[id].maxLevel);
          if (allocations[id]) expect(next.tech[id]).toBeGreaterThan(c.tech[id]);
          else expect(next.tech[id]).toBe(c.tech[id]);
        }
      }),
      { numRuns: 500 },
    );
    expect(applied).toBeGreaterThan(25);
  });
});

describe("computeResearchStatus", () => {
  it("gives the dashboard fields and eleven cards", () => {
    const s = computeResearchStatus(withLabs(2, { researchPoints: 300 }));
    expect(s.currentResearchPoints).toBe(300);
    expect(s.pointsPerTurn).toBe(200);
    expect(s.technologies).toHaveLength(11);
    expect(s.researchEfficiency.agricultural).toBe(1.6);
    expect(s.technologies.find((t) => t.id === "agricultural")).toMatchObject({ cost: 500, turns: Math.ceil((500 - 300) / s.pointsPerTurn), state: "available" });
    // the dashboard fields cover all eleven categories
    for (const field of [s.technologyLevels, s.productionBonuses, s.researchEfficiency]) expect(Object.keys(field).sort()).toEqual([...TECHNOLOGY_IDS].sort());
    expect(s.researchEfficiency).toMatchObject({ medical: 0.7, warfare: 0.1, weapons: 2, sdi: 0.8 });
    expect(s.technologies.find((t) => t.id === "medical")).toMatchObject({ level: 0, cost: 1143, turns: Math.ceil((1143 - 300) / s.pointsPerTurn), state: "available" });
    expect(s.technologies.find((t) => t.id === "sdi")).toMatchObject({ state: "locked", cost: 3750 }); // 3000 / 0.8
  });
});
