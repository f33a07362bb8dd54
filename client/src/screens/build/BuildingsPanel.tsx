import { useMemo, useState } from "react";
import {
  BUILDING_DEFINITIONS,
  BUILDING_TYPES,
  CONSTRUCTION_SITES_PER_CAPACITY,
  MAX_CONSTRUCTION_SITES_PER_ACTION,
  checkConstruction,
  computeBuildingCost,
  computeBuildingUpkeep,
  computeBuildingsPerTurn,
  computeConstruction,
  computeFreeLand,
  computeLandUsed,
  computeMaxBuildable,
  countBuildings,
  type BuildingType,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { toCountryState } from "../../api/country";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { decimal2, fmt, money } from "../../components/format";

type Quantities = Record<BuildingType, string>;

const EMPTY: Quantities = Object.fromEntries(BUILDING_TYPES.map((t) => [t, "0"])) as Quantities;

/** Quantity typed for a row as a number (NaN when not a whole number, 0 when empty). */
function parseQuantity(text: string): number {
  if (text.trim() === "") return 0;
  const n = Number(text);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** The order as the rules and the server take it: every typed quantity, by building type. */
export function toOrder(quantities: Quantities): Record<string, number> {
  const order: Record<string, number> = {};
  for (const type of BUILDING_TYPES) {
    const q = parseQuantity(quantities[type]);
    if (q !== 0) order[type] = q;
  }
  return order;
}

export interface BuildingsPanelProps {
  country: Country;
  busy?: boolean;
  onConstruct(order: Record<string, number>): Promise<unknown>;
}

/** The buildings table: the eight types, quantities, Max, Construct Buildings and Clear All. */
export function BuildingsPanel({ country, busy = false, onConstruct }: BuildingsPanelProps) {
  const state = useMemo(() => toCountryState(country), [country]);
  const [quantities, setQuantities] = useState<Quantities>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const order = toOrder(quantities);
  const rejection = checkConstruction(state, order);
  const positive = Object.fromEntries(Object.entries(order).filter(([, q]) => Number.isSafeInteger(q) && q > 0));
  const quote = computeConstruction(state, positive);
  const capacity = computeBuildingsPerTurn(state.buildings.construction_sites, state.governmentType);
  const landUsed = computeLandUsed(state.buildings);
  const freeLand = computeFreeLand(state);

  const set = (type: BuildingType, text: string) => {
    setError(null);
    setQuantities((q) => ({ ...q, [type]: text }));
  };

  const construct = async () => {
    if (rejection || busy) return;
    setError(null);
    try {
      await onConstruct(positive);
      setQuantities(EMPTY);
    } catch (err) {
      setError(err instanceof Error ? err.message : "Building construction failed");
    }
  };

  return (
    <div className="stack" data-testid="buildings">
      <p className="muted">
        Choose how many of each structure to construct, then press Construct Buildings. One action builds up to {fmt(capacity)} regular building
        {capacity === 1 ? "" : "s"} plus {MAX_CONSTRUCTION_SITES_PER_ACTION} construction site; every {CONSTRUCTION_SITES_PER_CAPACITY} construction sites add 1 to that capacity. Buildings need cash, free land and turns; the order takes as
        many turns as its slowest building.
      </p>
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))", gap: "0.6rem" }}>
        <div className="panel">
          <div className="label">Buildings</div>
          <div className="big-number" data-testid="buildings-total">
            {fmt(countBuildings(state.buildings))}
          </div>
        </div>
        <div className="panel">
          <div className="label">Land used</div>
          <div className="big-number">
            {fmt(landUsed)}
            <span className="muted small"> / {fmt(state.land)}</span>
          </div>
        </div>
        <div className="panel">
          <div className="label">Free land</div>
          <div className="big-number" data-testid="buildings-free-land">
            {fmt(freeLand)}
          </div>
        </div>
        <div className="panel">
          <div className="label">Capacity per turn</div>
          <div className="big-number">{fmt(capacity)}</div>
        </div>
        <div className="panel">
          <div className="label">Construction sites</div>
          <div className="big-number">{fmt(state.buildings.construction_sites)}</div>
        </div>
        <div className="panel">
          <div className="label">Turns</div>
          <div className="big-number">{fmt(state.turns)}</div>
        </div>
      </div>

      <div className="table-wrap">
        <table className="table buildings-table">
          <thead>
            <tr>
              <th>Structure</th>
              <th className="n">Cost</th>
              <th className="n">Land</th>
              <th className="n">Turns</th>
              <th className="n">Upkeep</th>
              <th className="n">Owned</th>
              <th className="n">Build</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {BUILDING_TYPES.map((type) => {
              const def = BUILDING_DEFINITIONS[type];
              const max = computeMaxBuildable(state, order, type);
              return (
                <tr key={type} data-testid={`building-row-${type}`}>
                  <td>
                    <strong>{def.name}</strong>
                    <div className="faint small">{def.category}</div>
                  </td>
                  <td className="n" data-label="Cost">
                    {money(computeBuildingCost(type, state.governmentType))}
                  </td>
                  <td className="n" data-label="Land">
                    {def.land}
                  </td>
                  <td className="n" data-label="Turns">
                    {def.turns}
                  </td>
                  <td className="n" data-label="Upkeep">{`$${decimal2(computeBuildingUpkeep(type, state.governmentType))}`}</td>
                  <td className="n" data-label="Owned" data-testid={`owned-${type}`}>
                    {fmt(state.buildings[type])}
                  </td>
                  <td className="n" data-label="Build">
                    <input className="input" type="number" inputMode="numeric" min={0} step={1} aria-label={`${def.name} to build`} value={quantities[type]} onFocus={(e) => e.target.select()} onChange={(e) => set(type, e.target.value)} />
                  </td>
                  <td data-label="">
                    <button type="button" className="btn small" disabled={max === 0} title={max === 0 ? "No more fit this order (capacity, cash, free land or turns)" : `Set to ${max}`} onClick={() => set(type, String(max))}>
                      Max
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <Panel title="Construction Order">
        <Stat label="Regular buildings" value={`${fmt(quote.regularBuildings)} / ${fmt(quote.capacity)}`} />
        <Stat label="Construction sites" value={`${fmt(quote.constructionSites)} / ${MAX_CONSTRUCTION_SITES_PER_ACTION}`} />
        <Stat label="Total cost" value={<span className={quote.cost > state.cash ? "bad" : ""}>{money(quote.cost)}</span>} testId="order-cost" />
        <Stat label="Land required" value={<span className={quote.land > freeLand ? "bad" : ""}>{fmt(quote.land)} acres</span>} />
        <Stat label="Turns required" value={<span className={quote.turns > state.turns ? "bad" : ""}>{fmt(quote.turns)}</span>} />
        {error && (
          <div className="alert error" role="alert" style={{ marginTop: "0.75rem" }}>
            {error}
          </div>
        )}
        <div className="row" style={{ marginTop: "0.75rem", alignItems: "flex-start" }}>
          <ActionButton disabledReason={rejection?.message ?? null} busy={busy} busyLabel="Constructing..." onClick={construct}>
            Construct Buildings
          </ActionButton>
          <button type="button" className="btn" onClick={() => (setQuantities(EMPTY), setError(null))} disabled={busy}>
            Clear All
          </button>
        </div>
      </Panel>
    </div>
  );
}
