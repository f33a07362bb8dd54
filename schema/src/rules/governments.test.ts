import { describe, expect, it } from "vitest";
import { GOVERNMENT_TYPES, TECHNOLOGY_IDS } from "./country.js";
import type { GovernmentDefinition } from "./governments.js";
import { GOVERNMENTS, GOVERNMENT_LIST, ceilPct, floorPct, techBonusMilli } from "./governments.js";

type PctKey = Exclude<keyof GovernmentDefinition, "id" | "name" | "description" | "techBonuses" | "bonusText">;

/** Every bonus of the spec as [government, field, percent]. */
const SPEC_BONUSES: [string, PctKey, number][] = [
  // democracy research +15%, population growth +10%, military upkeep +10%, spy 0.8
  ["democracy", "researchPct", 115],
  ["democracy", "populationGrowthPct", 110],
  ["democracy", "militaryUpkeepPct", 110],
  ["democracy", "spyPct", 80],
  // republic exploration +20% acres, -10% cost, tax +12%, construction +10% (cost), upkeep +5%, spy 0.9
  ["republic", "explorationAcresPct", 120],
  ["republic", "explorationCostPct", 90],
  ["republic", "taxPct", 112],
  ["republic", "constructionCostPct", 90],
  ["republic", "militaryUpkeepPct", 105],
  ["republic", "spyPct", 90],
  // monarchy construction +20% (cost), military upkeep -10%, strength 1.1, spy 1
  ["monarchy", "constructionCostPct", 80],
  ["monarchy", "militaryUpkeepPct", 90],
  ["monarchy", "strengthPct", 110],
  ["monarchy", "spyPct", 100],
  // dictatorship production +15%, upkeep -10%, construction -30% (factor 0.7), maintenance +5%, strength 1.5, spy 1.3
  ["dictatorship", "unitProductionPct", 115],
  ["dictatorship", "militaryUpkeepPct", 90],
  ["dictatorship", "buildingsPerTurnPct", 70],
  ["dictatorship", "buildingMaintenancePct", 105],
  ["dictatorship", "strengthPct", 150],
  ["dictatorship", "spyPct", 130],
  // tyranny production +20%, upkeep -15%, maintenance -10%, strength 1.8, spy 1.5
  ["tyranny", "unitProductionPct", 120],
  ["tyranny", "militaryUpkeepPct", 85],
  ["tyranny", "buildingMaintenancePct", 90],
  ["tyranny", "strengthPct", 180],
  ["tyranny", "spyPct", 150],
  // fascism oil +75%, food +15%, upkeep -20%, spy unknown 1
  ["fascism", "oilProductionPct", 175],
  ["fascism", "foodProductionPct", 115],
  ["fascism", "militaryUpkeepPct", 80],
  ["fascism", "spyPct", 100],
  // theocracy construction +40% (factor 1.4), research +12%, maintenance -15%, upkeep +5%, military costs -20%, spy 1.1
  ["theocracy", "buildingsPerTurnPct", 140],
  ["theocracy", "researchPct", 112],
  ["theocracy", "buildingMaintenancePct", 85],
  ["theocracy", "militaryUpkeepPct", 105],
  ["theocracy", "militaryPurchaseCostPct", 80],
  ["theocracy", "spyPct", 110],
  // communism production +35%, research +20%, population +8%, upkeep -12%, spy unknown 1
  ["communism", "unitProductionPct", 135],
  ["communism", "researchPct", 120],
  ["communism", "populationGrowthPct", 108],
  ["communism", "militaryUpkeepPct", 88],
  ["communism", "spyPct", 100],
];

const PCT_KEYS: PctKey[] = [
  "taxPct",
  "researchPct",
  "populationGrowthPct",
  "militaryUpkeepPct",
  "buildingMaintenancePct",
  "unitProductionPct",
  "foodProductionPct",
  "oilProductionPct",
  "buildingsPerTurnPct",
  "constructionCostPct",
  "explorationAcresPct",
  "explorationCostPct",
  "spyPct",
  "strengthPct",
  "militaryPurchaseCostPct",
];

describe("governments", () => {
  it("defines the eight governments of the spec, in its order", () => {
    expect(GOVERNMENT_LIST.map((g) => g.id)).toEqual([...GOVERNMENT_TYPES]);
    for (const id of GOVERNMENT_TYPES) expect(GOVERNMENTS[id].id).toBe(id);
  });

  it.each(SPEC_BONUSES)("%s %s is %d", (gov, key, pct) => {
    expect(GOVERNMENTS[gov as keyof typeof GOVERNMENTS][key]).toBe(pct);
  });

  it("has no bonus the spec does not list (every other percent is 100)", () => {
    for (const gov of GOVERNMENT_TYPES) {
      for (const key of PCT_KEYS) {
        const listed = SPEC_BONUSES.some(([g, k]) => g === gov && k === key);
        if (!listed) expect(GOVERNMENTS[gov][key], `${gov}.${key}`).toBe(100);
      }
    }
  });

  it("strength multipliers are 1 plus 0.5 dictatorship, 0.8 tyranny, 0.1 monarchy, else 1", () => {
    const expected = { democracy: 100, republic: 100, monarchy: 110, dictatorship: 150, tyranny: 180, fascism: 100, theocracy: 100, communism: 100 };
    for (const gov of GOVERNMENT_TYPES) expect(GOVERNMENTS[gov].strengthPct).toBe(expected[gov]);
  });

  it.each([
    ["military", 1.1],
    ["medical", 0.7],
    ["business", 1.2],
    ["residential", 1.4],
    ["agricultural", 1.6],
    ["warfare", 0.1],
    ["military_strategy", 1.5],
    ["weapons", 2],
    ["industrial", 1.3],
    ["spy", 1.2],
    ["sdi", 0.8],
  ] as const)("monarchy techBonuses.%s is %d (spec table)", (tech, value) => {
    expect(GOVERNMENTS.monarchy.techBonuses[tech]).toBe(value);
  });

  it.each([
    ["democracy", 2.3],
    ["theocracy", 2.43],
    ["republic", 1.845],
  ] as const)("%s agricultural multiplier is %d (spec)", (gov, value) => {
    expect(GOVERNMENTS[gov].techBonuses.agricultural).toBe(value);
    expect(techBonusMilli(gov, "agricultural")).toBe(Math.round(value * 1000));
  });

  it("governments without a table in the spec use 1 for every category", () => {
    for (const gov of ["dictatorship", "tyranny", "fascism", "communism"] as const) {
      for (const tech of TECHNOLOGY_IDS) expect(GOVERNMENTS[gov].techBonuses[tech]).toBe(1);
    }
  });

  it("every tech multiplier is positive (costs divide by it)", () => {
    for (const gov of GOVERNMENT_TYPES) for (const tech of TECHNOLOGY_IDS) expect(GOVERNMENTS[gov].techBonuses[tech]).toBeGreaterThan(0);
  });
});

describe("percent helpers", () => {
  it.each([
    [1000, 115, 1150, 1150],
    [55, 90, 49, 50],
    [7, 70, 4, 5],
    [0, 175, 0, 0],
  ])("%d x %d%% floors to %d and ceils to %d", (v, pct, floor, ceil) => {
    expect(floorPct(v, pct)).toBe(floor);
    expect(ceilPct(v, pct)).toBe(ceil);
  });
});
