import { useMemo, useState } from "react";
import {
  BUILDING_DEFINITIONS,
  BUILDING_TYPES,
  CONSTRUCTION_SITES_PER_CAPACITY,
  computeAffordableExplorationTurns,
  computeExploration,
  computeLandUsed,
  computeMaxTurnsPerAction,
  type BuildingCategory,
  type BuildingType,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { toCountryState } from "../../api/country";
import { Panel, Stat } from "../../components/ui";
import { decimal2, fmt, money, percent } from "../../components/format";

/** Land utilization above this percent asks for exploration (spec). */
export const HIGH_UTILIZATION_PCT = 85;
export const HIGH_UTILIZATION_MESSAGE = "High utilization - consider exploring";

interface CategoryRow {
  category: BuildingCategory;
  types: BuildingType[];
  buildings: number;
  acres: number;
}

export function LandManagement({ country }: { country: Country }) {
  const state = useMemo(() => toCountryState(country), [country]);
  const [selected, setSelected] = useState<BuildingCategory | null>(null);
  const land = country.landAcres;
  const used = computeLandUsed(state.buildings);
  const free = Math.max(0, land - used);
  const utilization = land > 0 ? (used / land) * 100 : 0;
  const totalBuildings = BUILDING_TYPES.reduce((s, t) => s + state.buildings[t], 0);

  const categories = useMemo(() => {
    const map = new Map<BuildingCategory, CategoryRow>();
    for (const type of BUILDING_TYPES) {
      const def = BUILDING_DEFINITIONS[type];
      const row = map.get(def.category) ?? { category: def.category, types: [], buildings: 0, acres: 0 };
      row.types.push(type);
      row.buildings += state.buildings[type];
      row.acres += state.buildings[type] * def.land;
      map.set(def.category, row);
    }
    return [...map.values()];
  }, [state.buildings]);

  const turnsForGrowth = computeMaxTurnsPerAction(country.turnsAvailable);
  const growth = computeExploration(state, turnsForGrowth);
  const affordableTurns = computeAffordableExplorationTurns(state);
  const affordableAcres = affordableTurns * growth.acresPerTurn;

  const recommendations: string[] = [];
  if (utilization > HIGH_UTILIZATION_PCT) recommendations.push(HIGH_UTILIZATION_MESSAGE);
  if (free > 0 && utilization < 50) recommendations.push(`${fmt(free)} acres are unused: construct buildings to put them to work.`);
  if (state.buildings.farms === 0) recommendations.push("You have no farms: build some before your food stores run out.");
  if (state.buildings.construction_sites < CONSTRUCTION_SITES_PER_CAPACITY) {
    recommendations.push(`Every ${CONSTRUCTION_SITES_PER_CAPACITY} construction sites add 1 building per turn of construction capacity.`);
  }
  if (state.buildings.residences === 0) recommendations.push("Residences house more people, and more people pay more tax.");
  if (country.turnsAvailable === 0) recommendations.push("You have no turns left: wait for the next turn.");

  const selectedRow = categories.find((c) => c.category === selected);
  const utilClass = utilization > HIGH_UTILIZATION_PCT ? "bad" : utilization > 60 ? "warn" : "";

  return (
    <div className="stack" data-testid="land-management">
      <div className="grid">
        <Panel title="Land Totals">
          <Stat label="Total land" value={`${fmt(land)} acres`} testId="land-total" />
          <Stat label="Land used" value={`${fmt(used)} acres`} testId="land-used" />
          <Stat label="Available" value={`${fmt(free)} acres`} testId="land-free" />
          <Stat label="Population density" value={`${decimal2(land > 0 ? country.population / land : 0)} per acre`} />
          <div style={{ marginTop: "0.6rem" }}>
            <div className="row between small">
              <span className="muted">Utilization</span>
              <span className="num">{percent(utilization)}</span>
            </div>
            <div className={`bar ${utilClass}`} role="progressbar" aria-valuenow={Math.round(utilization)} aria-valuemin={0} aria-valuemax={100} aria-label="Land utilization">
              <span style={{ width: `${Math.min(100, utilization)}%` }} />
            </div>
            {utilization > HIGH_UTILIZATION_PCT && (
              <p className="warn small" style={{ marginTop: "0.4rem" }}>
                {HIGH_UTILIZATION_MESSAGE}
              </p>
            )}
          </div>
        </Panel>
        <Panel title="Utilization by Category">
          {categories.map((c) => {
            const pct = land > 0 ? (c.acres / land) * 100 : 0;
            return (
              <div key={c.category} style={{ marginBottom: "0.45rem" }}>
                <div className="row between small">
                  <span>{c.category}</span>
                  <span className="num muted">
                    {fmt(c.acres)} acres · {percent(pct)}
                  </span>
                </div>
                <div className="bar">
                  <span style={{ width: `${Math.min(100, pct)}%` }} />
                </div>
              </div>
            );
          })}
        </Panel>
      </div>

      <Panel title="Building Categories">
        <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(170px, 1fr))", gap: "0.6rem" }}>
          {categories.map((c) => (
            <button
              key={c.category}
              type="button"
              className="btn"
              style={{ flexDirection: "column", alignItems: "flex-start", textAlign: "left", minHeight: 80 }}
              aria-pressed={selected === c.category}
              onClick={() => setSelected((s) => (s === c.category ? null : c.category))}
            >
              <strong>{c.category}</strong>
              <span className="small muted">
                {fmt(c.buildings)} buildings · {fmt(c.acres)} acres
              </span>
            </button>
          ))}
        </div>
        {selectedRow && (
          <div style={{ marginTop: "0.75rem" }} data-testid="category-detail">
            {selectedRow.types.map((type) => {
              const def = BUILDING_DEFINITIONS[type];
              const share = used > 0 ? ((state.buildings[type] * def.land) / used) * 100 : 0;
              return (
                <div key={type} className="panel" style={{ marginBottom: "0.5rem" }}>
                  <h3>{def.name}</h3>
                  <Stat label="Land per building" value={`${def.land} acres`} />
                  <Stat label="Owned" value={fmt(state.buildings[type])} />
                  <Stat label="Share of used land" value={percent(share)} />
                  <Stat label="Efficiency" value={`${def.effect} per ${def.land} acre${def.land > 1 ? "s" : ""}`} />
                </div>
              );
            })}
          </div>
        )}
      </Panel>

      <div className="grid">
        <Panel title="Efficiency Analysis">
          <Stat label="Buildings" value={fmt(totalBuildings)} />
          <Stat label="Buildings per 100 acres" value={decimal2(land > 0 ? (totalBuildings / land) * 100 : 0)} />
          <Stat label="Networth per acre" value={decimal2(land > 0 ? country.networth / land : 0)} />
          <Stat label="Cash per acre" value={money(land > 0 ? Math.floor(country.cash / land) : 0)} />
        </Panel>
        <Panel title="Growth Potential">
          <Stat label="Acres per turn" value={fmt(growth.acresPerTurn)} />
          <Stat label="Cost per acre" value={money(growth.costPerAcre)} />
          <Stat label={`Turns you can afford (max ${turnsForGrowth})`} value={fmt(affordableTurns)} />
          <Stat label="Acres within reach" value={`${fmt(affordableAcres)} acres`} />
        </Panel>
        <Panel title="Recommendations">
          {recommendations.length === 0 ? (
            <p className="muted">Your land is in good order.</p>
          ) : (
            <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
              {recommendations.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}
