import { describe, expect, it } from "vitest";
import { startingCountry, type CountryState } from "../rules/country.js";
import { countryStateFromOwnJson, ownJsonFieldsOfState, type OwnCountryJson } from "./countryFields.js";

/** An own view of `state` as the server writes it: numeric columns as strings. */
function ownJsonOf(state: CountryState): OwnCountryJson {
  return { id: 7, name: "Testland", protection_status: "unprotected", networth: "12345", ...ownJsonFieldsOfState(state) } as unknown as OwnCountryJson;
}

describe("countryStateFromOwnJson", () => {
  it("reads back the state an own view was written from", () => {
    const state: CountryState = { ...startingCountry(), cash: 123_456_789_012, troops: 4_321, researchPoints: 55 };
    state.buildings = { ...state.buildings, farms: 12, research_labs: 3 };
    state.tech = { ...state.tech, agricultural: 2 };
    state.unitAllocation = { troops: 40, jets: 20, turrets: 20, tanks: 20 };
    expect(countryStateFromOwnJson(ownJsonOf(state))).toEqual(state);
  });

  it("maps the spec's column names onto the rules' paths", () => {
    const json = ownJsonOf(startingCountry());
    const c = countryStateFromOwnJson({ ...json, residential_areas: 9, cash: "77", turns: 42, sdi_tech: 1 });
    expect([c.buildings.residences, c.cash, c.turns, c.tech.sdi]).toEqual([9, 77, 42, 1]);
  });

  it("refuses a view that lacks a number the rules need (a public view)", () => {
    const { cash: _cash, ...publicOnly } = ownJsonOf(startingCountry());
    expect(() => countryStateFromOwnJson(publicOnly as OwnCountryJson)).toThrow(/country\.cash/);
  });
});
