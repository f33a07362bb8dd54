import { describe, expect, it } from "vitest";
import { TECHNOLOGY_IDS, emptyBuildings, emptyTechLevels, startingCountry } from "./country.js";
import type { NetworthInput } from "./networth.js";
import { NETWORTH_WEIGHTS, computeNetworth } from "./networth.js";

function zero(): NetworthInput {
  return {
    troops: 0,
    jets: 0,
    turrets: 0,
    tanks: 0,
    spies: 0,
    land: 0,
    cash: 0,
    food: 0,
    missiles: 0,
    population: 0,
    oil: 0,
    buildings: emptyBuildings(),
    tech: emptyTechLevels(),
  };
}

describe("networth weights (spec document 1, section 9)", () => {
  it.each([
    ["troops", 0.5],
    ["jets", 0.6],
    ["turrets", 0.6],
    ["tanks", 2],
    ["spies", 1],
    ["techLevel", 2],
    ["land", 45],
    ["building", 35],
    ["cash", 1 / 20_000],
    ["food", 1 / 1_000],
    ["missiles", 2_500],
    ["population", 1 / 6],
    ["oil", 1 / 100],
  ] as const)("%s weighs %d", (key, weight) => {
    expect(NETWORTH_WEIGHTS[key]).toBe(weight);
  });
});

describe("computeNetworth", () => {
  it("is 0 for an empty country", () => {
    expect(computeNetworth(zero())).toBe(0);
  });

  it.each([
    ["troops", 10, 5],
    ["jets", 10, 6],
    ["turrets", 10, 6],
    ["tanks", 10, 20],
    ["spies", 10, 10],
    ["land", 10, 450],
    ["cash", 200_000, 10],
    ["food", 10_000, 10],
    ["missiles", 2, 5_000],
    ["population", 60, 10],
    ["oil", 1_000, 10],
  ] as const)("%s x %d adds %d", (field, count, worth) => {
    expect(computeNetworth({ ...zero(), [field]: count })).toBe(worth);
  });

  it("counts each building at 35 whatever its type", () => {
    const buildings = { ...emptyBuildings(), farms: 2, oil_rigs: 1, construction_sites: 1 };
    expect(computeNetworth({ ...zero(), buildings })).toBe(4 * 35);
  });

  it("counts the sum of all eleven tech levels at 2 each", () => {
    const tech = { agricultural: 1, business: 2, military: 3, industrial: 4, spy: 5, medical: 6, residential: 7, warfare: 8, military_strategy: 9, weapons: 10, sdi: 11 };
    expect(computeNetworth({ ...zero(), tech })).toBe(66 * 2);
  });

  it.each(TECHNOLOGY_IDS)("a level of %s is worth 2", (id) => {
    expect(computeNetworth({ ...zero(), tech: { ...emptyTechLevels(), [id]: 1 } })).toBe(2);
  });

  it("floors the total (population 1000 is worth 166.67 -> 166)", () => {
    expect(computeNetworth({ ...zero(), population: 1000 })).toBe(166);
  });

  it("is 4812 for the starting country (the formula wins over the spec's 'about 75000')", () => {
    // 100x0.5 + 100x0.6 + 10x2 + 100x45 + 100000/20000 + 10000/1000 + 1000/6 + 100/100 = 4812.67
    expect(computeNetworth(startingCountry())).toBe(4812);
  });
});
