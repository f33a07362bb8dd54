import { isGovernmentType, STARTING_GOVERNMENT, type CountryState, type GovernmentType } from "../rules/country.js";
import type { CombatProtectionStatus } from "../rules/combat.js";

/**
 * The country, described once. Each entry is one column of the server's `countries` table
 * and says how it appears in JSON (its key is the column name, which is the spec's server
 * field name: government_type, turns, land, residential_areas, gdi_protection...), who may
 * see it, and where the pure rules keep it in `CountryState`. The server builds its column
 * lists, row-to-state and state-to-values mapping and both JSON views from this list; the
 * JSON types below are derived from it, so a new country field is one line here plus a
 * migration.
 */

/**
 * How a column travels:
 * - numeric: bigint in Postgres, a numeric string in JSON (the spec's "numeric strings")
 * - int: integer in Postgres and in JSON
 * - bool, text: as is; government: text holding a GovernmentType
 * - time: timestamptz in Postgres, an ISO 8601 string in JSON
 */
export type CountryFieldFormat = "numeric" | "int" | "bool" | "text" | "government" | "time";

/**
 * Who sees a field: everybody (public), only the owner (own), or nobody (internal: kept for
 * the server; a derived JSON field may show it in another shape).
 */
export type CountryFieldView = "public" | "own" | "internal";

/** One column of the country. */
export interface CountryField {
  /** column name and JSON key */
  readonly key: string;
  readonly format: CountryFieldFormat;
  readonly view: CountryFieldView;
  /** dotted path in the rules' CountryState (e.g. "buildings.farms"); absent: row only */
  readonly state?: string;
}

function f<const K extends string, const F extends CountryFieldFormat, const V extends CountryFieldView, const S extends string | undefined = undefined>(key: K, format: F, view: V, state?: S) {
  return { key, format, view, state } as { readonly key: K; readonly format: F; readonly view: V; readonly state: S };
}

/** Every column of the country, in table order. */
export const COUNTRY_FIELDS = [
  f("id", "int", "public"),
  f("user_id", "int", "internal"),
  f("name", "text", "public"),
  f("government_type", "government", "public", "governmentType"),
  f("has_used_free_government_change", "bool", "own"),
  f("government_change_count", "int", "own"),
  f("cash", "numeric", "own", "cash"),
  f("networth", "numeric", "public"),
  f("turns", "int", "own", "turns"),
  f("stored_turns", "int", "own", "storedTurns"),
  f("land", "numeric", "public", "land"),
  f("food", "numeric", "own", "food"),
  f("oil", "numeric", "own", "oil"),
  f("population", "numeric", "own", "population"),
  f("troops", "numeric", "own", "troops"),
  f("jets", "numeric", "own", "jets"),
  f("turrets", "numeric", "own", "turrets"),
  f("tanks", "numeric", "own", "tanks"),
  f("spies", "numeric", "own", "spies"),
  f("missiles", "numeric", "own", "missiles"),
  f("farms", "int", "own", "buildings.farms"),
  f("residential_areas", "int", "own", "buildings.residences"),
  f("industrial_complexes", "int", "own", "buildings.industrial_complexes"),
  f("research_labs", "int", "own", "buildings.research_labs"),
  f("construction_sites", "int", "own", "buildings.construction_sites"),
  f("military_bases", "int", "own", "buildings.military_bases"),
  f("oil_rigs", "int", "own", "buildings.oil_rigs"),
  f("enterprise_zones", "int", "own", "buildings.enterprise_zones"),
  f("agricultural_tech", "int", "own", "tech.agricultural"),
  f("business_tech", "int", "own", "tech.business"),
  f("military_tech", "int", "own", "tech.military"),
  f("industrial_tech", "int", "own", "tech.industrial"),
  f("spy_tech", "int", "own", "tech.spy"),
  f("medical_tech", "int", "own", "tech.medical"),
  f("residential_tech", "int", "own", "tech.residential"),
  f("warfare_tech", "int", "own", "tech.warfare"),
  f("military_strategy_tech", "int", "own", "tech.military_strategy"),
  f("weapons_tech", "int", "own", "tech.weapons"),
  f("sdi_tech", "int", "own", "tech.sdi"),
  f("research_points", "numeric", "own", "researchPoints"),
  // shown as unit_allocation {troops, jets, turrets, tanks}
  f("alloc_troops", "int", "internal", "unitAllocation.troops"),
  f("alloc_jets", "int", "internal", "unitAllocation.jets"),
  f("alloc_turrets", "int", "internal", "unitAllocation.turrets"),
  f("alloc_tanks", "int", "internal", "unitAllocation.tanks"),
  f("victories", "int", "public"),
  f("defeats", "int", "public"),
  f("total_battles", "int", "public"),
  f("total_land_captured", "numeric", "own"),
  f("combat_efficiency", "int", "own"),
  f("war_expenses", "numeric", "own"),
  f("is_ai", "bool", "public"),
  f("is_eliminated", "bool", "public"),
  f("alliance_id", "int", "public"),
  f("gdi_protection", "bool", "public"),
  f("tutorial_completed", "bool", "own"),
  f("created_at", "time", "public"),
  f("updated_at", "time", "internal"),
  f("last_active", "time", "public"),
  // end of new-player protection (military: protection_status below)
  f("protected_until", "time", "public"),
] as const;

type Fields = (typeof COUNTRY_FIELDS)[number];

/** Columns that may be NULL (everything else is NOT NULL). */
export const NULLABLE_COUNTRY_COLUMNS = ["user_id", "alliance_id"] as const;
type Nullable = (typeof NULLABLE_COUNTRY_COLUMNS)[number];

type JsonValue<F extends CountryFieldFormat> = F extends "numeric" ? string : F extends "int" ? number : F extends "bool" ? boolean : F extends "government" ? GovernmentType : string;
type RowValue<F extends CountryFieldFormat> = F extends "numeric" | "int" ? number : F extends "bool" ? boolean : F extends "time" ? Date : F extends "government" ? GovernmentType : string;
type WithNull<K extends string, T> = K extends Nullable ? T | null : T;

/** The fields of one view as JSON. */
type ViewJson<V extends CountryFieldView> = {
  [F in Extract<Fields, { view: V }> as F["key"]]: WithNull<F["key"], JsonValue<F["format"]>>;
};

/** A countries row as the server reads it (bigint parsed to number; see server/src/db/pool.ts). */
export type CountryFieldsRow = {
  [F in Fields as F["key"]]: WithNull<F["key"], RowValue<F["format"]>>;
};

/**
 * Protection status shown on target lists, with the underscore replaced by a space on screen:
 * new-player protection (until protected_until), GDI membership, or none. Computed by the
 * military rules (computeProtectionStatus); what depends on the viewer (the attack band, the
 * daily land cap) is in the target analysis instead.
 */
export type ProtectionStatus = CombatProtectionStatus;

/**
 * What anybody may see of a country: identity, government, size and record. Never cash,
 * food, oil, population, units or spies (STYLE.md practice 5).
 */
export type PublicCountryJson = ViewJson<"public"> & {
  protection_status: ProtectionStatus;
};

/** Everything the owner sees of their own country (GET /country/{id} of one's own). */
export type OwnCountryJson = PublicCountryJson &
  ViewJson<"own"> & {
    unit_allocation: { troops: number; jets: number; turrets: number; tanks: number };
  };

/** The columns of each view, for the server's mapping and for tests. */
export function countryFieldsOfView(view: CountryFieldView): readonly CountryField[] {
  return COUNTRY_FIELDS.filter((field) => field.view === view);
}

/**
 * The rules' CountryState of an own-country JSON view (GET /api/country/{id} of one's own, and
 * the `country` of every action answer): each field with a `state` path, numeric strings read
 * as numbers, and the allocation from `unit_allocation`. The inverse of the server's
 * row-to-state-to-JSON path, for programs that play over REST (the load tester's strategy
 * driver) and need the same `check*`/`compute*` answers the server computes.
 * @throws when a field the rules need is missing or not a number
 */
export function countryStateFromOwnJson(json: OwnCountryJson): CountryState {
  const source = json as unknown as Record<string, unknown>;
  const state: Record<string, unknown> = {};
  for (const field of COUNTRY_FIELDS) {
    if (field.state === undefined || field.view === "internal") continue;
    const raw = source[field.key];
    let value: unknown = raw;
    if (field.format === "government") {
      value = isGovernmentType(raw) ? raw : STARTING_GOVERNMENT;
    } else if (field.format === "numeric" || field.format === "int") {
      value = typeof raw === "string" ? Number(raw) : raw;
      if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`country.${field.key} is not a number: ${JSON.stringify(raw)}`);
    }
    const path = field.state.split(".");
    let node = state;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]!] = value;
  }
  const allocation = json.unit_allocation;
  state.unitAllocation = { troops: allocation.troops, jets: allocation.jets, turrets: allocation.turrets, tanks: allocation.tanks };
  return state as unknown as CountryState;
}

/**
 * The rule fields of an own-country JSON view written from `state`, as the server writes them
 * (numeric columns as strings, the allocation as `unit_allocation`): the inverse of
 * countryStateFromOwnJson, for tests and tools that need an own view of a given state. The
 * caller adds the view's other fields (id, name, networth, protection).
 */
export function ownJsonFieldsOfState(state: CountryState): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const field of COUNTRY_FIELDS) {
    if (!field.state || field.view === "internal") continue;
    let value: unknown = state;
    for (const key of field.state.split(".")) value = (value as Record<string, unknown>)[key];
    json[field.key] = field.format === "numeric" ? String(value) : value;
  }
  json.unit_allocation = { ...state.unitAllocation };
  return json;
}
