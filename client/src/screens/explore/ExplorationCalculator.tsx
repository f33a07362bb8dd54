import { useMemo, useState } from "react";
import {
  EXPLORE_BASE_COST_PER_ACRE,
  EXPLORE_COST_STEP,
  EXPLORE_COST_STEP_ACRES,
  EXPLORE_MAX_TURNS,
  GOVERNMENTS,
  checkExploration,
  computeExploration,
  computeExplorationCostSteps,
  computeAffordableExplorationTurns,
  computeMaxTurnsPerAction,
  explorationTable,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { toCountryState } from "../../api/country";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { fmt, money } from "../../components/format";

export interface ExplorationCalculatorProps {
  country: Country;
  busy?: boolean;
  /** spends the turns; rejects with the error to show */
  onExplore(turns: number): Promise<unknown>;
}

/**
 * Territory Exploration: the calculator and its preview, computed by the same shared rules
 * (computeExploration / checkExploration) the server charges with.
 */
export function ExplorationCalculator({ country, busy = false, onExplore }: ExplorationCalculatorProps) {
  const [turnsText, setTurnsText] = useState("1");
  const [error, setError] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState(false);
  const state = useMemo(() => toCountryState(country), [country]);
  const maxTurns = computeMaxTurnsPerAction(country.turnsAvailable);
  const parsed = Number(turnsText);
  // a fraction is refused with a message, never floored behind the player's back
  const turns = turnsText.trim() === "" || !Number.isFinite(parsed) ? 0 : parsed;
  const whole = Number.isInteger(turns);
  const quote = computeExploration(state, whole ? Math.max(0, turns) : 0);
  const rejection = !whole ? { code: "exploration/invalid_turns", message: "Turns must be a whole number" } : checkExploration(state, turns);
  // Max: the most turns the player both has and can pay for (at least 1, whose price then shows)
  const affordable = computeAffordableExplorationTurns(state);
  const gov = GOVERNMENTS[country.governmentType];
  const table = explorationTable(country.governmentType);

  const setTurns = (n: number) => {
    setError(null);
    setTurnsText(String(Math.max(maxTurns > 0 ? 1 : 0, Math.min(n, maxTurns))));
  };

  const explore = async () => {
    if (rejection || busy) return;
    setError(null);
    try {
      await onExplore(turns);
      setTurnsText("1");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Exploration failed");
    }
  };

  return (
    <div className="stack" data-testid="exploration">
      <div className="grid">
        <Panel title="Territory Exploration">
          <Stat label="Current land" value={`${fmt(country.landAcres)} acres`} testId="explore-land" />
          <Stat label="Available turns" value={fmt(country.turnsAvailable)} testId="explore-turns" />
          <Stat label="Cash" value={money(country.cash)} testId="explore-cash" />
          <Stat label="Government" value={gov.name} />
          <p className="muted small" style={{ marginTop: "0.75rem" }}>
            Send expeditions to claim new acres. Each turn spent explores {fmt(quote.acresPerTurn)} acres at {money(quote.costPerAcre)} an acre, and runs your economy once. The price rises by $5 an acre for every 100 acres you own, and
            fewer acres are found per turn as your country grows.
          </p>
        </Panel>
        <Panel title="Exploration Calculator">
          <div className="field">
            <label htmlFor="explore-turns-input">Turns to spend (1 to {maxTurns})</label>
            <input type="range" min={maxTurns > 0 ? 1 : 0} max={maxTurns} value={Math.min(Math.max(turns, 0), maxTurns)} disabled={maxTurns < 1} aria-label="Turns slider" onChange={(e) => setTurns(Number(e.target.value))} />
            <input
              id="explore-turns-input"
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={maxTurns}
              value={turnsText}
              disabled={maxTurns < 1}
              onChange={(e) => {
                setError(null);
                setTurnsText(e.target.value);
              }}
              onBlur={() => turnsText.trim() !== "" && setTurns(turns)}
            />
          </div>
          <div className="row" style={{ marginBottom: "0.75rem" }}>
            <button type="button" className="btn small" disabled={maxTurns < 1} onClick={() => setTurns(5)}>
              5 Turns
            </button>
            <button type="button" className="btn small" disabled={maxTurns < 1} onClick={() => setTurns(10)}>
              10 Turns
            </button>
            <button type="button" className="btn small" disabled={maxTurns < 1} onClick={() => setTurns(Math.max(1, affordable))} title={`${affordable} ${affordable === 1 ? "turn" : "turns"} affordable`}>
              Max
            </button>
          </div>
          <div data-testid="exploration-preview">
            <Stat label="Acres per turn" value={fmt(quote.acresPerTurn)} testId="preview-acres-per-turn" />
            <Stat label="Cost per acre" value={money(quote.costPerAcre)} testId="preview-cost-per-acre" />
            <Stat label="Total acres" value={fmt(quote.totalAcres)} testId="preview-total-acres" />
            <Stat label="Total cost" value={money(quote.totalCost)} testId="preview-total-cost" />
            <Stat label="Remaining cash" value={<span className={quote.remainingCash < 0 ? "bad" : ""}>{money(quote.remainingCash)}</span>} testId="preview-remaining-cash" />
          </div>
          {error && (
            <div className="alert error" role="alert" style={{ marginTop: "0.75rem" }}>
              {error}
            </div>
          )}
          <div style={{ marginTop: "0.75rem" }}>
            <ActionButton block disabledReason={rejection?.message ?? null} busy={busy} busyLabel="Exploring..." onClick={explore}>
              Explore {turns > 0 ? `${fmt(quote.totalAcres)} acres` : ""}
            </ActionButton>
          </div>
        </Panel>
      </div>
      <div>
        <button type="button" className="btn small ghost" aria-expanded={advanced} onClick={() => setAdvanced((a) => !a)}>
          {advanced ? "▾" : "▸"} Advanced
        </button>
      </div>
      {advanced && (
        <div className="grid" data-testid="exploration-advanced">
          <Panel title="Government Bonuses">
            <Stat label="Government" value={gov.name} />
            <Stat label="Acres per turn" value={gov.explorationAcresPct === 100 ? "Standard table" : `+${gov.explorationAcresPct - 100}% (own table)`} />
            <Stat label="Cost per acre" value={gov.explorationCostPct === 100 ? "x1" : `x${gov.explorationCostPct / 100}`} />
            <ExplorationGovernmentHelp />
          </Panel>
          <Panel title="Cost Formula">
            <ExplorationCostFormulaHelp />
            <p className="small num">
              Now: floor(({EXPLORE_BASE_COST_PER_ACRE} + {EXPLORE_COST_STEP} x {computeExplorationCostSteps(country.landAcres)}) x {gov.explorationCostPct / 100}) = {fmt(quote.costPerAcre)}
            </p>
            <p className="small">
              Acres per turn follow a land-size table: {table.bands[0]!.acres} acres per turn up to {fmt(table.bands[0]!.upTo)} acres, falling as your country grows, {table.fallback} beyond the table.
            </p>
          </Panel>
          <Panel title="Tips">
            <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
              <li>Explore while you are small: land is cheapest and most plentiful per turn.</li>
              <li>Every turn spent also runs your economy, so watch food and cash in the turn report.</li>
              <li>Build on new land quickly; empty acres add networth but produce nothing.</li>
              <li>At most {EXPLORE_MAX_TURNS} turns per exploration.</li>
            </ul>
          </Panel>
        </div>
      )}
    </div>
  );
}

/** The governments whose exploration differs from the standard (the Republic): acres and cost percents. */
const explorationGovernments = () => Object.values(GOVERNMENTS).filter((g) => g.explorationAcresPct !== 100 || g.explorationCostPct !== 100);

/** "A Republic explores 20% more acres per turn and pays 10% less per acre.", from GOVERNMENTS (issue 26: help text from constants). */
export function ExplorationGovernmentHelp() {
  const change = (pct: number, more: string, less: string) => `${Math.abs(pct - 100)}% ${pct >= 100 ? more : less}`;
  return (
    <p className="muted small" style={{ marginTop: "0.5rem" }} data-testid="help-explore-governments">
      {explorationGovernments()
        .map((g) => `A ${g.name} explores ${change(g.explorationAcresPct, "more", "fewer")} acres per turn and pays ${change(g.explorationCostPct, "more", "less")} per acre.`)
        .join(" ")}
    </p>
  );
}

/** The exploration cost formula, from the exploration constants and GOVERNMENTS. */
export function ExplorationCostFormulaHelp() {
  const factors = explorationGovernments()
    .filter((g) => g.explorationCostPct !== 100)
    .map((g) => `x${g.explorationCostPct / 100} for a ${g.name}`);
  return (
    <p className="small" data-testid="help-explore-cost">
      Cost per acre = floor(({EXPLORE_BASE_COST_PER_ACRE} + {EXPLORE_COST_STEP} per full {EXPLORE_COST_STEP_ACRES} acres owned) {[...factors, "x1 otherwise"].join(", ")}).
    </p>
  );
}
