import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BUILDING_TYPES, GOVERNMENT_TYPES, TECHNOLOGY_IDS, UNIT_TYPES, emptyBuildings, emptyTechLevels, startingCountry } from "./country.js";
import type { CountryState, TechnologyId } from "./country.js";
import { TECHNOLOGIES } from "./research.js";
import { computeNetworth } from "./networth.js";
import { ENTERPRISE_ZONE_INCOME, HOUSING_PER_RESIDENCE } from "./buildings.js";
import {
  BANKRUPTCY_DESERTION_PCT,
  FARM_FOOD_TENTHS,
  FOOD_HUNDREDTHS_PER,
  HOUSING_PER_ACRE,
  OIL_PER_COMPLEX,
  OIL_PER_RIG,
  OIL_TENTHS_PER_VEHICLE,
  POPULATION_GROWTH_DIVISOR,
  STARVATION_LOSS_PCT,
  TAX_PER_PERSON,
  addEffects,
  checkProcessTurns,
  computeBuildingProductionRates,
  computeFoodDemand,
  computeFoodProduced,
  computeHousingCap,
  computeOilDemand,
  computeOilProduced,
  computePopulationChange,
  computeProductionPerTurn,
  computeTaxRevenue,
  emptyEffects,
  performConstruction,
  performExploration,
  performProduction,
  runEconomyTurn,
  runEconomyTurns,
} from "./economy.js";

function country(patch: Partial<CountryState> = {}, buildings: Partial<CountryState["buildings"]> = {}): CountryState {
  const base = startingCountry();
  return { ...base, ...patch, buildings: { ...emptyBuildings(), ...buildings } };
}

describe("designed constants", () => {
  it.each([
    ["TAX_PER_PERSON", TAX_PER_PERSON, 1],
    ["ENTERPRISE_ZONE_INCOME", ENTERPRISE_ZONE_INCOME, 200],
    ["HOUSING_PER_ACRE", HOUSING_PER_ACRE, 10],
    ["HOUSING_PER_RESIDENCE", HOUSING_PER_RESIDENCE, 200],
    ["POPULATION_GROWTH_DIVISOR", POPULATION_GROWTH_DIVISOR, 20],
    ["FARM_FOOD_TENTHS (5.3 bushels, spec)", FARM_FOOD_TENTHS, 53],
    ["OIL_PER_RIG (spec)", OIL_PER_RIG, 2],
    ["OIL_TENTHS_PER_VEHICLE", OIL_TENTHS_PER_VEHICLE, 1],
    ["OIL_PER_COMPLEX", OIL_PER_COMPLEX, 1],
    ["STARVATION_LOSS_PCT", STARVATION_LOSS_PCT, 5],
    ["BANKRUPTCY_DESERTION_PCT", BANKRUPTCY_DESERTION_PCT, 5],
  ])("%s is %d", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("food per person and per unit, in hundredths of a bushel", () => {
    expect(FOOD_HUNDREDTHS_PER).toEqual({ population: 1, troops: 2, jets: 3, turrets: 1, tanks: 3, spies: 2 });
  });
});

describe("income", () => {
  it.each<[string, Partial<CountryState>, Partial<CountryState["buildings"]>, number]>([
    ["1000 people, monarchy", {}, {}, 1000],
    ["1000 people, republic (+12%)", { governmentType: "republic" }, {}, 1120],
    ["business level 5 (+10%)", { tech: { ...startingCountry().tech, business: 5 } }, {}, 1100],
    ["3 enterprise zones", {}, { enterprise_zones: 3 }, 1600],
    ["overcrowded: only the housed 1000 of 2000 pay", { population: 2000 }, {}, 1000],
    ["republic, business 10, 2 zones", { governmentType: "republic", tech: { ...startingCountry().tech, business: 10 } }, { enterprise_zones: 2 }, 1881], // 1400 x 1.12 x 1.2 = 1881.6
  ])("%s: %d", (_name, patch, buildings, tax) => {
    expect(computeTaxRevenue(country(patch, buildings))).toBe(tax);
  });
});

describe("food and oil", () => {
  it.each<[string, Partial<CountryState>, number]>([
    ["monarchy", {}, 53],
    ["fascism (+15%)", { governmentType: "fascism" }, 60], // 60.95
    ["agricultural 10 (+20%)", { tech: { ...startingCountry().tech, agricultural: 10 } }, 63], // 63.6
  ])("10 farms, %s, grow %d bushels", (_name, patch, food) => {
    expect(computeFoodProduced(country(patch, { farms: 10 }))).toBe(food);
  });

  it("people eat 0.01 and units 0.01-0.03 each, rounded up", () => {
    expect(computeFoodDemand(startingCountry())).toBe(14); // 10 + 2 + 1 + 0.3 = 13.3
    expect(computeFoodDemand({ population: 100, troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 })).toBe(1);
    expect(computeFoodDemand({ population: 0, troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 })).toBe(0);
  });

  it.each<[string, Partial<CountryState>, number]>([
    ["monarchy", {}, 10],
    ["fascism (+75%)", { governmentType: "fascism" }, 17], // 17.5
  ])("5 rigs, %s, pump %d barrels", (_name, patch, oil) => {
    expect(computeOilProduced(country(patch, { oil_rigs: 5 }))).toBe(oil);
  });

  it("jets and tanks burn 0.1 each (rounded up), complexes 1 each", () => {
    expect(computeOilDemand({ jets: 0, tanks: 10, buildings: emptyBuildings() })).toBe(1);
    expect(computeOilDemand({ jets: 11, tanks: 10, buildings: { ...emptyBuildings(), industrial_complexes: 3 } })).toBe(3 + 3);
  });
});

describe("population", () => {
  it("the housing cap is 10 per acre plus 200 per residence", () => {
    expect(computeHousingCap(country({ land: 550 }, { residences: 3 }))).toBe(6100);
  });

  it.each<[string, Partial<CountryState>, Partial<CountryState["buildings"]>, number]>([
    ["100 acres, residential 0", {}, {}, 1000],
    ["100 acres, residential 1 (+2%)", { tech: { ...emptyTechLevels(), residential: 1 } }, {}, 1020],
    ["100 acres, residential 10 (+20%)", { tech: { ...emptyTechLevels(), residential: 10 } }, {}, 1200],
    ["550 acres, 3 residences, residential 5 (+10%)", { land: 550, tech: { ...emptyTechLevels(), residential: 5 } }, { residences: 3 }, 6710],
    ["33 acres, residential 3: 349.8 floored", { land: 33, tech: { ...emptyTechLevels(), residential: 3 } }, {}, 349],
    ["no land, residential 10", { land: 0, tech: { ...emptyTechLevels(), residential: 10 } }, {}, 0],
  ])("housing cap, %s: %d", (_name, patch, buildings, cap) => {
    expect(computeHousingCap(country(patch, buildings))).toBe(cap);
  });

  it.each<[string, Partial<CountryState>, number]>([
    ["at the cap", {}, 0],
    ["below the cap: 1/20 of the gap", { land: 550 }, 225],
    ["democracy grows 10% faster", { land: 550, governmentType: "democracy" }, 248], // 247.5 up
    ["communism grows 8% faster", { land: 550, governmentType: "communism" }, 243],
    ["a gap under 20 still closes", { population: 995 }, 1],
    ["above the cap: 1/20 of the excess", { population: 2000 }, -50],
    ["never overshoots the cap", { population: 999, governmentType: "democracy" }, 1],
    ["medical 1 grows 5% faster", { land: 550, tech: { ...emptyTechLevels(), medical: 1 } }, 237], // 236.25 up
    ["medical 10 grows 50% faster", { land: 550, tech: { ...emptyTechLevels(), medical: 10 } }, 338], // 337.5 up
    ["democracy and medical 10 multiply", { land: 550, governmentType: "democracy", tech: { ...emptyTechLevels(), medical: 10 } }, 372], // 4500 / 20 x 1.1 x 1.5 = 371.25 up
    ["medical never overshoots the cap", { population: 999, tech: { ...emptyTechLevels(), medical: 10 } }, 1],
    ["medical does not speed the decline", { population: 2000, tech: { ...emptyTechLevels(), medical: 10 } }, -50],
    ["residential 10 lifts the cap: a full country grows again", { tech: { ...emptyTechLevels(), residential: 10 } }, 10], // (1200 - 1000) / 20
  ])("%s: %d", (_name, patch, change) => {
    expect(computePopulationChange(country(patch))).toBe(change);
  });
});

describe("runEconomyTurn", () => {
  it("one turn of the starting country", () => {
    const { next, effects } = runEconomyTurn(startingCountry());
    expect(effects).toEqual({
      ...emptyEffects(),
      taxRevenue: 1000,
      expenses: 162,
      militaryUpkeep: 162,
      netCashChange: 838,
      foodConsumed: 14,
      netFoodChange: -14,
      oilConsumed: 1,
      netOilChange: -1,
    });
    expect(next).toMatchObject({ cash: 100_838, food: 9986, oil: 99, population: 1000, turns: 100 });
  });

  it("a built-up country produces food, oil, units and research", () => {
    const c = country({ land: 1000, population: 9000 }, { farms: 20, oil_rigs: 5, industrial_complexes: 2, research_labs: 3, residences: 5 });
    const { next, effects } = runEconomyTurn(c);
    expect(effects.maintenanceCosts).toBe(20 * 50 + 5 * 300 + 2 * 250 + 3 * 150 + 5 * 75);
    expect(effects.foodProduced).toBe(106);
    expect(effects.oilProduced).toBe(10);
    expect(effects.militaryProduced).toEqual({ troops: 12, jets: 4, turrets: 8, tanks: 5 });
    expect(effects.researchPointsGained).toBe(300);
    expect(effects.populationChange).toBe(Math.ceil((11_000 - 9000) / 20));
    expect(next.researchPoints).toBe(300);
    expect(next.troops).toBe(112);
  });

  it("starvation: food runs out, 5% of people and troops die, no growth", () => {
    const c = country({ food: 0, land: 500 });
    const { next, effects } = runEconomyTurn(c);
    expect(next.food).toBe(0);
    expect(effects.starvingTurns).toBe(1);
    expect(next.population).toBe(950);
    expect(next.troops).toBe(95);
    expect(effects.unitsLost.troops).toBe(5);
    expect(effects.foodConsumed).toBe(0);
  });

  it("bankruptcy: cash stops at 0 and 5% of every unit deserts", () => {
    const c = country({ cash: 0, population: 0, land: 0, troops: 1000, jets: 100, turrets: 0, tanks: 0, spies: 20 });
    const { next, effects } = runEconomyTurn(c);
    expect(next.cash).toBe(0);
    expect(effects.bankruptTurns).toBe(1);
    expect(effects.unpaidExpenses).toBe(effects.expenses);
    expect([next.troops, next.jets, next.spies]).toEqual([950, 95, 19]);
  });

  it("out of oil: no jets or tanks are built", () => {
    const c = country({ oil: 0, tanks: 0 }, { industrial_complexes: 4 });
    const { next, effects } = runEconomyTurn(c);
    expect(effects.oilShortageTurns).toBe(1);
    expect(next.oil).toBe(0);
    expect(effects.militaryProduced.jets).toBe(0);
    expect(effects.militaryProduced.tanks).toBe(0);
    expect(effects.militaryProduced.troops).toBe(25);
  });

  it("reports the unit production bonus", () => {
    expect(runEconomyTurn(country({ governmentType: "communism" })).effects.productionBonus).toBe(35);
  });
});

describe("runEconomyTurns", () => {
  it("equals running turns one by one and adding the effects", () => {
    const c = country({ land: 800 }, { farms: 3, industrial_complexes: 1 });
    let cur = c;
    let sum = emptyEffects();
    for (let i = 0; i < 7; i++) {
      const r = runEconomyTurn(cur);
      cur = r.next;
      sum = addEffects(sum, r.effects);
    }
    expect(runEconomyTurns(c, 7)).toEqual({ next: cur, effects: sum });
  });

  it("zero turns change nothing", () => {
    const c = startingCountry();
    expect(runEconomyTurns(c, 0)).toEqual({ next: c, effects: emptyEffects() });
  });
});

describe("an idle country over 100 turns", () => {
  it("the starting country neither starves nor grows", () => {
    const { next, effects } = runEconomyTurns(startingCountry(), 100);
    expect(effects.starvingTurns).toBe(0);
    expect(effects.bankruptTurns).toBe(0);
    expect(next.population).toBe(1000);
    expect(next.food).toBe(10_000 - 14 * 100);
    expect(next.cash).toBe(100_000 + 838 * 100);
    expect(next.oil).toBe(0);
    expect(computeNetworth(next)).toBeLessThan(computeNetworth(startingCountry()) + 100);
  });

  it.each(GOVERNMENT_TYPES)("%s with every category at its maximum stays alive and bounded", (governmentType) => {
    const tech = Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, TECHNOLOGIES[id].maxLevel])) as Record<TechnologyId, number>;
    const { next, effects } = runEconomyTurns({ ...startingCountry(), governmentType, tech }, 100);
    expect(effects.starvingTurns).toBe(0);
    expect(effects.bankruptTurns).toBe(0);
    // residential 10 lifts the cap of 100 acres to 1,200 people; medical only speeds the way there
    expect(next.population).toBeGreaterThan(1000);
    expect(next.population).toBeLessThanOrEqual(1200);
    expect(next.cash).toBeLessThan(300_000);
  });

  it.each(GOVERNMENT_TYPES)("%s stays alive and bounded", (governmentType) => {
    const { next, effects } = runEconomyTurns({ ...startingCountry(), governmentType }, 100);
    expect(effects.starvingTurns).toBe(0);
    expect(effects.bankruptTurns).toBe(0);
    expect(next.population).toBe(1000);
    expect(next.cash).toBeLessThan(300_000);
  });

  it("any idle country stays within its housing cap (or shrinks toward it) and keeps integers", () => {
    fc.assert(
      fc.property(arbitraryCountry(), (c) => {
        const cap = computeHousingCap(c);
        const { next } = runEconomyTurns(c, 100);
        expect(next.population).toBeLessThanOrEqual(Math.max(c.population, cap));
        expectSane(next);
      }),
      { numRuns: 40 },
    );
  });
});

function arbitraryCountry(): fc.Arbitrary<CountryState> {
  const n = (max: number) => fc.integer({ min: 0, max });
  return fc
    .record({
      governmentType: fc.constantFrom(...GOVERNMENT_TYPES),
      cash: n(10_000_000),
      food: n(1_000_000),
      oil: n(100_000),
      land: n(30_000),
      population: n(500_000),
      troops: n(1_000_000),
      jets: n(100_000),
      turrets: n(100_000),
      tanks: n(100_000),
      spies: n(100_000),
      buildings: fc.record(Object.fromEntries(BUILDING_TYPES.map((t) => [t, n(500)])) as Record<(typeof BUILDING_TYPES)[number], fc.Arbitrary<number>>),
      tech: fc.record(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, n(TECHNOLOGIES[id].maxLevel)])) as Record<TechnologyId, fc.Arbitrary<number>>),
      researchPoints: n(1_000_000),
      unitAllocation: fc.record({ troops: n(100), jets: n(100), turrets: n(100), tanks: n(100) }),
    })
    .map((r) => ({ ...startingCountry(), ...r }));
}

function expectSane(c: CountryState): void {
  for (const key of ["cash", "food", "oil", "land", "population", "researchPoints", ...UNIT_TYPES] as const) {
    expect(Number.isSafeInteger(c[key]), key).toBe(true);
    expect(c[key], key).toBeGreaterThanOrEqual(0);
  }
}

describe("invariants (property tests)", () => {
  it("runEconomyTurn never yields a negative or non-integer resource", () => {
    fc.assert(
      fc.property(arbitraryCountry(), (c) => {
        const { next, effects } = runEconomyTurn(c);
        expectSane(next);
        for (const [k, v] of Object.entries(effects)) if (typeof v === "number") expect(Number.isSafeInteger(v), k).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("cash is conserved: next cash = cash + income - expenses, or 0 with the shortfall unpaid", () => {
    fc.assert(
      fc.property(arbitraryCountry(), (c) => {
        const { next, effects } = runEconomyTurn(c);
        expect(next.cash).toBe(c.cash + effects.taxRevenue - effects.expenses + effects.unpaidExpenses);
        expect(effects.netCashChange).toBe(next.cash - c.cash);
        expect(effects.expenses).toBe(effects.maintenanceCosts + effects.militaryUpkeep);
      }),
      { numRuns: 300 },
    );
  });

  it("food and oil are conserved", () => {
    fc.assert(
      fc.property(arbitraryCountry(), (c) => {
        const { next, effects } = runEconomyTurn(c);
        expect(next.food).toBe(c.food + effects.foodProduced - effects.foodConsumed);
        expect(next.oil).toBe(c.oil + effects.oilProduced - effects.oilConsumed);
        expect(effects.netFoodChange).toBe(next.food - c.food);
        expect(effects.netOilChange).toBe(next.oil - c.oil);
      }),
      { numRuns: 300 },
    );
  });

  it("units change only by production and losses", () => {
    fc.assert(
      fc.property(arbitraryCountry(), (c) => {
        const { next, effects } = runEconomyTurn(c);
        for (const u of ["troops", "jets", "turrets", "tanks"] as const) {
          expect(next[u]).toBe(c[u] + effects.militaryProduced[u] - effects.unitsLost[u]);
        }
        expect(next.spies).toBe(c.spies - effects.unitsLost.spies);
      }),
      { numRuns: 300 },
    );
  });
});

describe("status figures", () => {
  it("production per turn of the starting country", () => {
    expect(computeProductionPerTurn(startingCountry())).toEqual({ cash: 838, food: -14, oil: -1, troops: 0, jets: 0, tanks: 0, turrets: 0 });
  });

  it("building production rates", () => {
    expect(computeBuildingProductionRates(country({}, { farms: 10, oil_rigs: 5, residences: 1 }))).toEqual({
      population: { total: 1200 },
      food: { total: 53 },
      oil: { total: 10 },
    });
  });
});

describe("whole actions from the starting country", () => {
  it("explore 10 turns", () => {
    const { next, quote, effects } = performExploration(startingCountry(), 10);
    expect(quote.totalAcres).toBe(450);
    expect(next.land).toBe(550);
    expect(next.turns).toBe(90);
    // paid 24,750 for the land, then 10 turns of economy as the new land fills with people
    expect(next.cash).toBe(100_000 - 24_750 + effects.netCashChange);
    expect(next.cash).toBe(92_531);
    expect(next.population).toBe(2809);
    expect(effects.populationChange).toBe(1809);
  });

  it("build one farm", () => {
    const { next, effects } = performConstruction(startingCountry(), { farms: 1 });
    expect(next.buildings.farms).toBe(1);
    expect(next.turns).toBe(99);
    expect(effects.foodProduced).toBe(5);
    expect(next.cash).toBe(100_000 - 1200 + 1000 - 50 - 162);
    expect(next.food).toBe(10_000 + 5 - 14);
  });

  it("build an industrial complex (2 turns)", () => {
    const { next, effects } = performConstruction(startingCountry(), { industrial_complexes: 1 });
    expect(next.turns).toBe(98);
    expect(effects.militaryProduced).toEqual({ troops: 12, jets: 4, turrets: 8, tanks: 4 });
  });

  it("process production turns", () => {
    expect(checkProcessTurns(startingCountry(), 5)).toBeNull();
    expect(checkProcessTurns({ turns: 3 }, 5)?.code).toBe("production/invalid_turns");
    const { next } = performProduction(startingCountry(), 5);
    expect(next.turns).toBe(95);
    expect(next.cash).toBe(100_000 + 5 * 838);
  });
});
