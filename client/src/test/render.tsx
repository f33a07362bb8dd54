import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createQueryClient } from "../api/queries";
import { AuthProvider } from "../auth/AuthContext";
import type { OwnCountryJson } from "@game/schema/api";
import { mapCountry, type Country } from "../api/country";

/** Renders inside the app's query client and auth providers (no token: unauthenticated). */
export function renderWithProviders(ui: ReactNode) {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <AuthProvider>{ui}</AuthProvider>
    </QueryClientProvider>,
  );
}

/** A freshly registered country as GET /country/:id answers its owner, with overrides. */
export function countryJson(overrides: Partial<OwnCountryJson> = {}): OwnCountryJson {
  return {
    id: 7,
    name: "Testland",
    government_type: "monarchy",
    networth: "4812",
    land: "100",
    cash: "100000",
    food: "10000",
    oil: "100",
    population: "1000",
    troops: "100",
    jets: "0",
    turrets: "100",
    tanks: "10",
    spies: "0",
    missiles: "0",
    turns: 100,
    stored_turns: 0,
    farms: 0,
    residential_areas: 0,
    industrial_complexes: 0,
    research_labs: 0,
    construction_sites: 0,
    military_bases: 0,
    oil_rigs: 0,
    enterprise_zones: 0,
    agricultural_tech: 0,
    business_tech: 0,
    military_tech: 0,
    industrial_tech: 0,
    spy_tech: 0,
    medical_tech: 0,
    residential_tech: 0,
    warfare_tech: 0,
    military_strategy_tech: 0,
    weapons_tech: 0,
    sdi_tech: 0,
    research_points: "0",
    unit_allocation: { troops: 25, jets: 25, turrets: 25, tanks: 25 },
    victories: 0,
    defeats: 0,
    total_battles: 0,
    total_land_captured: "0",
    combat_efficiency: 0,
    war_expenses: "0",
    has_used_free_government_change: false,
    government_change_count: 0,
    alliance_id: null,
    gdi_protection: false,
    protection_status: "unprotected",
    is_ai: false,
    is_eliminated: false,
    tutorial_completed: true,
    last_active: new Date().toISOString(),
    created_at: new Date().toISOString(),
    protected_until: new Date().toISOString(),
    ...overrides,
  };
}

export function testCountry(overrides: Partial<OwnCountryJson> = {}): Country {
  return mapCountry(countryJson(overrides));
}
