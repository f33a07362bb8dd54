import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createQueryClient } from "../api/queries";
import { AuthProvider } from "../auth/AuthContext";
import { mapCountry, type Country, type CountryJson } from "../api/country";

/** Renders inside the app's query client and auth providers (no token: unauthenticated). */
export function renderWithProviders(ui: ReactNode) {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <AuthProvider>{ui}</AuthProvider>
    </QueryClientProvider>,
  );
}

/** A freshly registered country as GET /country/:id answers it, with overrides. */
export function countryJson(overrides: Partial<CountryJson> = {}): CountryJson {
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
    research_points: "0",
    unit_allocation: { troops: 25, jets: 25, turrets: 25, tanks: 25 },
    victories: 0,
    defeats: 0,
    total_battles: 0,
    has_used_free_government_change: false,
    government_change_count: 0,
    alliance_id: null,
    gdi_protection: false,
    is_ai: false,
    last_active: new Date().toISOString(),
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

export function testCountry(overrides: Partial<CountryJson> = {}): Country {
  return mapCountry(countryJson(overrides));
}
