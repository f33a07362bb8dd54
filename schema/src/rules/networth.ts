import type { CountryState } from "./country.js";
import { BUILDING_TYPES, TECHNOLOGY_IDS } from "./country.js";

/**
 * Networth weights of the spec (document 1, section 9): points per unit of each holding.
 * Cash, food, population and oil are divided, so their weight is a fraction.
 */
export const NETWORTH_WEIGHTS = {
  troops: 0.5,
  jets: 0.6,
  turrets: 0.6,
  tanks: 2,
  spies: 1,
  /** per tech level, summed over every stored level (all eleven categories) */
  techLevel: 2,
  /** per acre */
  land: 45,
  /** per building of any type */
  building: 35,
  /** per dollar (cash / 20000) */
  cash: 1 / 20_000,
  /** per bushel (food / 1000) */
  food: 1 / 1_000,
  missiles: 2_500,
  /** per person (population / 6) */
  population: 1 / 6,
  /** per barrel (oil / 100) */
  oil: 1 / 100,
} as const;

export type NetworthInput = Pick<CountryState, "troops" | "jets" | "turrets" | "tanks" | "spies" | "land" | "cash" | "food" | "missiles" | "population" | "oil" | "buildings" | "tech">;

/**
 * Networth by the spec's formula, floored to an integer so it can be stored and ranked.
 * The starting country is worth 4,812 by this formula (the spec's "about 75000" does not
 * follow from its own formula; docs/rules.md records that the formula wins).
 */
export function computeNetworth(c: NetworthInput): number {
  const w = NETWORTH_WEIGHTS;
  const buildings = BUILDING_TYPES.reduce((sum, type) => sum + c.buildings[type], 0);
  const techLevels = TECHNOLOGY_IDS.reduce((sum, id) => sum + c.tech[id], 0);
  // Fractional terms are divided rather than multiplied by the weight so the
  // arithmetic stays exact for integer inputs.
  const value =
    c.troops * w.troops +
    c.jets * w.jets +
    c.turrets * w.turrets +
    c.tanks * w.tanks +
    c.spies * w.spies +
    techLevels * w.techLevel +
    c.land * w.land +
    buildings * w.building +
    c.cash / 20_000 +
    c.food / 1_000 +
    c.missiles * w.missiles +
    c.population / 6 +
    c.oil / 100;
  return Math.floor(value);
}
