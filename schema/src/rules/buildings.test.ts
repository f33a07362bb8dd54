import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BUILDING_TYPES, GOVERNMENT_TYPES, emptyBuildings, startingCountry } from "./country.js";
import type { BuildingType, CountryState } from "./country.js";
import {
  BUILDING_DEFINITIONS,
  applyConstruction,
  checkConstruction,
  computeBuildingCost,
  computeBuildingCosts,
  computeBuildingMaintenance,
  computeBuildingUpkeep,
  computeBuildingsPerTurn,
  computeMaxBuildable,
  computeConstruction,
  computeFreeLand,
  computeLandUsed,
} from "./buildings.js";

describe("the spec's building table", () => {
  it.each([
    ["enterprise_zones", "Commercial", 2500, 1, 1, 100],
    ["residences", "Residential", 2000, 1, 1, 75],
    ["industrial_complexes", "Industrial", 5000, 3, 2, 250],
    ["military_bases", "Military", 4000, 2, 1, 200],
    ["research_labs", "Research", 3000, 1, 1, 150],
    ["farms", "Food Production", 1500, 2, 1, 50],
    ["oil_rigs", "Infrastructure", 8000, 3, 2, 300], // 3 acres: the buildings screen's reading
    ["construction_sites", "Infrastructure", 1000, 1, 1, 25],
  ] as const)("%s: %s, cost %d, land %d, turns %d, maintenance %d", (id, category, cost, land, turns, maintenance) => {
    expect(BUILDING_DEFINITIONS[id]).toMatchObject({ id, category, cost, land, turns, maintenance });
  });

  it("lists the eight types in the spec's order", () => {
    expect(Object.keys(BUILDING_DEFINITIONS)).toEqual([...BUILDING_TYPES]);
  });
});

describe("computeBuildingsPerTurn = floor((1 + floor(sites / 4)) x factor)", () => {
  it.each([
    [0, 1, 1, 0],
    [3, 1, 1, 0],
    [4, 2, 2, 1],
    [7, 2, 2, 1],
    [8, 3, 4, 2],
    [12, 4, 5, 2],
    [16, 5, 7, 3],
    [40, 11, 15, 7],
  ])("%d sites: %d (factor 1), %d (theocracy 1.4), %d (dictatorship 0.7)", (sites, normal, theocracy, dictatorship) => {
    expect(computeBuildingsPerTurn(sites, "monarchy")).toBe(normal);
    expect(computeBuildingsPerTurn(sites, "theocracy")).toBe(theocracy);
    expect(computeBuildingsPerTurn(sites, "dictatorship")).toBe(dictatorship);
  });

  it("uses factor 1 for every other government", () => {
    for (const gov of GOVERNMENT_TYPES) {
      if (gov === "theocracy" || gov === "dictatorship") continue;
      expect(computeBuildingsPerTurn(8, gov)).toBe(3);
    }
  });
});

describe("land", () => {
  it.each(BUILDING_TYPES.map((t) => [t, BUILDING_DEFINITIONS[t].land] as const))("one %s uses %d acres", (type, land) => {
    expect(computeLandUsed({ ...emptyBuildings(), [type]: 1 })).toBe(land);
  });

  it("free land is land minus land used, never negative", () => {
    const buildings = { ...emptyBuildings(), farms: 10, oil_rigs: 2 };
    expect(computeFreeLand({ land: 100, buildings })).toBe(100 - 20 - 6);
    expect(computeFreeLand({ land: 10, buildings })).toBe(0);
  });
});

describe("prices and maintenance by government", () => {
  it.each([
    ["farms", "monarchy", 1200],
    ["farms", "republic", 1350],
    ["farms", "tyranny", 1500],
    ["oil_rigs", "monarchy", 6400],
    ["construction_sites", "republic", 900],
  ] as const)("%s for %s costs %d", (type, gov, cost) => {
    expect(computeBuildingCost(type, gov)).toBe(cost);
  });

  it.each([
    ["democracy", 1000],
    ["dictatorship", 1050],
    ["tyranny", 900],
    ["theocracy", 850],
  ] as const)("maintenance of 20 farms for %s is %d per turn", (gov, maintenance) => {
    expect(computeBuildingMaintenance({ ...emptyBuildings(), farms: 20 }, gov)).toBe(maintenance);
  });

  it("the price list covers the eight types with capacity and free land", () => {
    const costs = computeBuildingCosts(startingCountry());
    expect(costs.buildings).toHaveLength(8);
    expect(costs.buildingsPerTurn).toBe(1);
    expect(costs.freeLand).toBe(100);
    expect(costs.buildings.find((b) => b.id === "research_labs")?.cost).toBe(2400);
  });
});

function rich(patch: Partial<CountryState> = {}): CountryState {
  return { ...startingCountry(), cash: 1_000_000, land: 1000, ...patch };
}

describe("computeConstruction", () => {
  it("sums cost and land and takes the longest build time", () => {
    expect(computeConstruction(startingCountry(), { farms: 1, construction_sites: 1 })).toMatchObject({
      cost: 1200 + 800,
      land: 3,
      turns: 1,
      regularBuildings: 1,
      constructionSites: 1,
      capacity: 1,
    });
    expect(computeConstruction(startingCountry(), { oil_rigs: 1 }).turns).toBe(2);
  });
});

describe("checkConstruction: the spec's messages", () => {
  it.each<[string, Partial<CountryState>, Record<string, number>, string | null, string | null]>([
    ["one farm", {}, { farms: 1 }, null, null],
    ["one site and one farm", {}, { farms: 1, construction_sites: 1 }, null, null],
    ["two sites", {}, { construction_sites: 2 }, "buildings/max_construction_sites", "Max 1 Construction Site per turn"],
    ["two farms with capacity 1", {}, { farms: 2 }, "buildings/exceeds_capacity", "Exceeds regular building capacity"],
    ["three farms with 8 sites", { buildings: { ...emptyBuildings(), construction_sites: 8 } }, { farms: 3 }, null, null],
    ["a dictatorship's first farm", { governmentType: "dictatorship" }, { farms: 1 }, "buildings/exceeds_capacity", "Exceeds regular building capacity"],
    ["a dictatorship's first site", { governmentType: "dictatorship" }, { construction_sites: 1 }, null, null],
    ["too little cash", { cash: 1199 }, { farms: 1 }, "buildings/insufficient_cash", "Insufficient resources: cash. Need $1 more."],
    ["exactly enough cash", { cash: 1200 }, { farms: 1 }, null, null],
    ["too little land", { land: 1 }, { farms: 1 }, "buildings/insufficient_land", "Insufficient resources: free land. Need 1 more acre."],
    ["exactly enough land", { land: 2 }, { farms: 1 }, null, null],
    ["too few turns", { turns: 1 }, { oil_rigs: 1 }, "buildings/insufficient_turns", "Insufficient resources: turns. Need 2, have 1."],
    ["exactly enough turns", { turns: 2 }, { oil_rigs: 1 }, null, null],
    ["a negative quantity", {}, { farms: -1 }, "buildings/negative_quantity", "Quantity cannot be negative"],
    ["a fractional quantity", {}, { farms: 0.5 }, "buildings/invalid_quantity", "Quantity must be a whole number"],
    ["nothing", {}, {}, "buildings/nothing_to_build", "Nothing to build"],
    ["zeros", {}, { farms: 0, residences: 0 }, "buildings/nothing_to_build", "Nothing to build"],
    ["an unknown type", {}, { castles: 1 }, "buildings/unknown_type", "Unknown building type: castles"],
  ])("%s", (_name, patch, order, code, message) => {
    const r = checkConstruction({ ...startingCountry(), ...patch }, order);
    expect(r?.code ?? null).toBe(code);
    expect(r?.message ?? null).toBe(message);
  });
});

describe("applyConstruction", () => {
  it("adds the buildings, pays and spends the turns, without mutating", () => {
    const c = startingCountry();
    const { next, quote } = applyConstruction(c, { industrial_complexes: 1, construction_sites: 1 });
    expect(next.buildings.industrial_complexes).toBe(1);
    expect(next.buildings.construction_sites).toBe(1);
    expect(next.cash).toBe(100_000 - 4000 - 800);
    expect(next.turns).toBe(98);
    expect(quote.land).toBe(4);
    expect(c.buildings.industrial_complexes).toBe(0);
  });

  it("never leaves negative cash, turns or free land when the check passed", () => {
    const type = fc.constantFrom<BuildingType>(...BUILDING_TYPES);
    fc.assert(
      fc.property(
        fc.constantFrom(...GOVERNMENT_TYPES),
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 3 }),
        fc.dictionary(type, fc.integer({ min: -1, max: 4 })),
        (governmentType, cash, land, sites, turns, order) => {
          const c = rich({ governmentType, cash, land, turns, buildings: { ...emptyBuildings(), construction_sites: sites } });
          if (checkConstruction(c, order) !== null) return;
          const { next } = applyConstruction(c, order);
          expect(next.cash).toBeGreaterThanOrEqual(0);
          expect(next.turns).toBeGreaterThanOrEqual(0);
          expect(computeLandUsed(next.buildings)).toBeLessThanOrEqual(next.land);
        },
      ),
    );
  });
});

describe("computeBuildingUpkeep: one building's upkeep per turn, not rounded", () => {
  it.each([
    ["farms", "monarchy", 50],
    ["residences", "monarchy", 75],
    ["oil_rigs", "democracy", 300],
    ["farms", "dictatorship", 52.5], // +5%
    ["residences", "tyranny", 67.5], // -10%
    ["construction_sites", "theocracy", 21.25], // -15%
  ] as const)("%s under %s: %d dollars", (type, government, upkeep) => {
    expect(computeBuildingUpkeep(type, government)).toBe(upkeep);
  });

  it("is the table's maintenance x the government's percent, and sums (rounded up once) to computeBuildingMaintenance", () => {
    for (const government of GOVERNMENT_TYPES) {
      const buildings = { ...emptyBuildings(), farms: 3, residences: 7, oil_rigs: 1 };
      const sum = BUILDING_TYPES.reduce((total, type) => total + buildings[type] * computeBuildingUpkeep(type, government), 0);
      expect(computeBuildingMaintenance(buildings, government)).toBe(Math.ceil(sum - 1e-9));
    }
  });

  it("is what GET /buildings/costs lists per building", () => {
    for (const government of GOVERNMENT_TYPES) {
      const rows = computeBuildingCosts({ ...startingCountry(), governmentType: government }).buildings;
      for (const row of rows) expect(row.maintenance).toBe(computeBuildingUpkeep(row.id, government));
    }
  });
});

describe("computeMaxBuildable: the Max button", () => {
  /** The starting monarchy (100 acres, no buildings: capacity 1) with a patch. */
  const country = (patch: Partial<CountryState> = {}, buildings: Partial<CountryState["buildings"]> = {}): CountryState => ({
    ...startingCountry(),
    ...patch,
    buildings: { ...emptyBuildings(), ...buildings },
  });

  it.each([
    // why, country, rest of the order, type, max
    ["capacity 1 from nothing", country(), {}, "farms", 1],
    ["capacity taken by another type", country(), { residences: 1 }, "farms", 0],
    ["a construction site besides a full order", country(), { farms: 1 }, "construction_sites", 1],
    ["12 sites: capacity 4, 1 used", country({ land: 1000 }, { construction_sites: 12 }), { farms: 1 }, "residences", 3],
    ["cash for 2 farms at 1,200 (monarchy -20%)", country({ cash: 2_400, land: 1000 }, { construction_sites: 20 }), {}, "farms", 2],
    ["land for 1 oil rig (3 acres) with 4 free", country({ land: 4, cash: 10_000_000 }, { construction_sites: 0 }), {}, "oil_rigs", 1],
    ["no land left", country({ land: 0 }), {}, "farms", 0],
    ["a 2-turn building with 1 turn", country({ turns: 1 }), {}, "oil_rigs", 0],
    ["negative cash", country({ cash: -10 }), {}, "farms", 0],
    ["invalid quantities elsewhere are ignored", country(), { residences: -4, farms: 1.5 }, "research_labs", 1],
  ] as const)("%s -> %d", (_why, state, rest, type, max) => {
    expect(computeMaxBuildable(state, rest, type)).toBe(max);
  });

  it("keeps an acceptable order acceptable and refuses one more (any country, rest and type)", () => {
    const order = fc.record(Object.fromEntries(BUILDING_TYPES.map((t) => [t, fc.integer({ min: 0, max: 3 })])) as Record<BuildingType, fc.Arbitrary<number>>, {
      requiredKeys: [],
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: -1_000, max: 200_000 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(...GOVERNMENT_TYPES),
        order,
        fc.constantFrom(...BUILDING_TYPES),
        (land, cash, turns, sites, governmentType, rest, type) => {
          const state = country({ land, cash, turns, governmentType }, { construction_sites: sites });
          const others = { ...rest, [type]: 0 };
          const restOk = checkConstruction(state, others);
          if (restOk !== null && restOk.code !== "buildings/nothing_to_build") return;
          const max = computeMaxBuildable(state, others, type);
          if (max > 0) expect(checkConstruction(state, { ...others, [type]: max })).toBeNull();
          expect(checkConstruction(state, { ...others, [type]: max + 1 })).not.toBeNull();
        },
      ),
    );
  });
});
