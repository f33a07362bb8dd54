import { useEffect, useState } from "react";
import {
  DEFAULT_COUNTRY_OPTIONS,
  GOVERNMENTS,
  MAX_TURNS,
  TECHNOLOGY_LIST,
  checkConvertStoredTurns,
  checkGovernmentChange,
  computeCountryStatistics,
  computeProductionPerTurn,
  type CountryOptions,
  type GovernmentType,
  plural,
} from "@game/schema/rules";
import { useQueryClient } from "@tanstack/react-query";
import { useGame } from "../../game/GameContext";
import { manageApi, manageKeys, useApplyCountry, useCountryOptions, useGovernments } from "../../api/manage";
import { useTurnHistory } from "../../api/queries";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { dateTimeText, decimal2, fmt, money } from "../../components/format";
import type { Route } from "../shell/navigation";
import { useConfirmAction } from "../../components/confirm";

type ManageTab = "overview" | "government" | "settings" | "statistics";
const TAB_IDS: readonly ManageTab[] = ["overview", "government", "settings", "statistics"];

/** Country Management (spec document 3): Overview, Government, Settings, Statistics. */
export function ManageScreen({ intent, onNavigate }: { intent?: string; onNavigate(route: Route): void }) {
  const initial = TAB_IDS.includes(intent as ManageTab) ? (intent as ManageTab) : "overview";
  const [tab, setTab] = useState<ManageTab>(initial);
  useEffect(() => setTab(initial), [initial]);
  const { country, countryError } = useGame();
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  return (
    <div className="stack" data-testid="manage">
      <div className="page-header">
        <h1>Country Management</h1>
      </div>
      <Tabs
        label="Management sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "overview", label: "Overview" },
          { id: "government", label: "Government" },
          { id: "settings", label: "Settings" },
          { id: "statistics", label: "Statistics" },
        ]}
      />
      {tab === "overview" && <ManageOverview onTab={setTab} onNavigate={onNavigate} />}
      {tab === "government" && <GovernmentTab />}
      {tab === "settings" && <SettingsTab />}
      {tab === "statistics" && <StatisticsTab />}
    </div>
  );
}

function ManageOverview({ onTab, onNavigate }: { onTab(tab: ManageTab): void; onNavigate(route: Route): void }) {
  const { country, countryState } = useGame();
  const [showHistory, setShowHistory] = useState(false);
  if (!country || !countryState) return null;
  const flow = computeProductionPerTurn(countryState);
  return (
    <div className="stack">
      <div className="grid">
        <Panel title="Country Information">
          <Stat label="Name" value={`${country.name} (#${country.id})`} />
          <Stat label="Government" value={GOVERNMENTS[country.governmentType].name} testId="manage-government" />
          <Stat label="Land" value={`${fmt(country.landAcres)} acres`} />
          <Stat label="Population" value={fmt(country.population)} />
          <Stat label="Turns" value={`${fmt(country.turnsAvailable)} (+${fmt(country.storedTurns)} stored)`} />
        </Panel>
        <Panel title="Military Forces">
          <Stat label="Troops" value={fmt(country.troops)} />
          <Stat label="Jets" value={fmt(country.jets)} />
          <Stat label="Tanks" value={fmt(country.tanks)} />
          <Stat label="Turrets" value={fmt(country.turrets)} />
          <Stat label="Spies" value={fmt(country.spies)} />
        </Panel>
        <Panel title="Economic Status">
          <Stat label="Cash" value={money(country.cash)} />
          <Stat label="Net cash per turn" value={`${flow.cash < 0 ? "-" : "+"}${money(Math.abs(flow.cash))}`} />
          <Stat label="Food" value={`${fmt(country.food)} (${flow.food < 0 ? "" : "+"}${fmt(flow.food)}/turn)`} />
          <Stat label="Oil" value={`${fmt(country.oil)} (${flow.oil < 0 ? "" : "+"}${fmt(flow.oil)}/turn)`} />
          <Stat label="Networth" value={fmt(country.networth)} />
        </Panel>
      </div>
      <div className="grid">
        <Panel title="Quick Actions">
          <div className="row">
            <button type="button" className="btn small" onClick={() => onTab("government")}>
              Change Government
            </button>
            <button type="button" className="btn small" onClick={() => onNavigate({ view: "advisor" })}>
              Set Objectives
            </button>
            <button type="button" className="btn small" onClick={() => onTab("settings")}>
              Profile Settings
            </button>
            <button type="button" className="btn small" aria-expanded={showHistory} onClick={() => setShowHistory((v) => !v)}>
              Turn History
            </button>
            <button type="button" className="btn small" onClick={() => onNavigate({ view: "military", intent: "production" })}>
              Unit Production Split
            </button>
          </div>
          {showHistory && <TurnHistoryList />}
        </Panel>
        <StoredTurnsPanel />
      </div>
    </div>
  );
}

function TurnHistoryList() {
  const history = useTurnHistory(true);
  if (history.isPending) return <p className="muted">Loading turn history...</p>;
  const items = (history.data ?? []).slice(0, 10);
  if (items.length === 0) return <p className="muted">No turns spent yet.</p>;
  return (
    <ul className="plain-list" data-testid="turn-history" style={{ marginTop: "0.6rem" }}>
      {items.map((r) => (
        <li key={r.id} className="small">
          <strong>{r.actionResults[0]?.title ?? r.actionType}</strong> · {r.turnsConsumed} {r.turnsConsumed === 1 ? "turn" : "turns"} · <span className="faint">{dateTimeText(r.timestamp)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Stored turns into available turns (POST /turns/convert-stored), within the 150 cap. */
export function StoredTurnsPanel() {
  const { country, countryState } = useGame();
  const applyCountry = useApplyCountry();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  if (!country || !countryState) return null;
  const room = Math.max(0, MAX_TURNS - country.turnsAvailable);
  const fits = Math.min(country.storedTurns, room);
  const quantity = text.trim() === "" ? fits : Number(text);
  const rejection = text.trim() !== "" && !/^\d+$/.test(text.trim()) ? "Quantity must be a whole number of at least 1" : (checkConvertStoredTurns(countryState, quantity)?.message ?? null);
  const convert = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await manageApi.convertStoredTurns(country.id, quantity);
      applyCountry(outcome.country);
      setMessage({ kind: "info", text: `${fmt(quantity)} stored ${quantity === 1 ? "turn" : "turns"} converted.` });
      setText("");
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to convert stored turns" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Stored Turns" testId="stored-turns">
      <Stat label="Available turns" value={`${fmt(country.turnsAvailable)} / ${MAX_TURNS}`} />
      <Stat label="Stored turns" value={fmt(country.storedTurns)} testId="stored-turns-count" />
      <div className="field">
        <label htmlFor="convert-quantity">Turns to convert (up to {fmt(fits)})</label>
        <input id="convert-quantity" className="input" inputMode="numeric" placeholder={String(fits)} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <ActionButton onClick={convert} busy={busy} busyLabel="CONVERTING..." disabledReason={rejection} data-testid="convert-stored">
        CONVERT {fmt(Number.isFinite(quantity) ? quantity : 0)}
      </ActionButton>
      {message && (
        <div className={`alert ${message.kind}`} role="status" style={{ marginTop: "0.6rem" }}>
          {message.text}
        </div>
      )}
    </Panel>
  );
}

function GovernmentTab() {
  const { country, countryState } = useGame();
  const governments = useGovernments();
  const applyCountry = useApplyCountry();
  const [changing, setChanging] = useState<GovernmentType | null>(null);
  const confirmAction = useConfirmAction();
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  if (!country || !countryState) return null;
  if (governments.isPending) return <Loading text="Loading governments..." />;
  if (governments.isError) return <div className="alert error">{governments.error.message}</div>;
  const { changeCost, governments: list } = governments.data;
  const history = { hasUsedFreeGovernmentChange: country.hasUsedFreeGovernmentChange, governmentChangeCount: country.governmentChangeCount };
  const select = async (id: GovernmentType) => {
    if (!confirmAction(`Change your government to ${GOVERNMENTS[id].name}?`)) return;
    setChanging(id);
    setMessage(null);
    try {
      const outcome = await manageApi.changeGovernment(id);
      applyCountry(outcome.country);
      setMessage({ kind: "info", text: outcome.turnResult?.actionResults[0]?.description ?? `Government changed to ${GOVERNMENTS[id].name}.` });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to change government" });
    } finally {
      setChanging(null);
    }
  };
  return (
    <div className="stack">
      <Panel title="Change Cost">
        <p data-testid="government-cost">
          {changeCost.free ? "Your first government change is free." : `The next change costs ${money(changeCost.cash)} and ${plural(changeCost.turns, "turn")} (each paid change costs more than the last).`}
        </p>
        {message && (
          <div className={`alert ${message.kind}`} role="status" data-testid="government-message">
            {message.text}
          </div>
        )}
      </Panel>
      <div className="attack-cards" data-testid="government-list">
        {list.map((g) => {
          const current = g.id === country.governmentType;
          const rejection = current ? null : checkGovernmentChange(countryState, history, g.id);
          return (
            <div key={g.id} className={`attack-card ${current ? "selected" : ""}`} data-testid={`government-${g.id}`}>
              <span className="row between">
                <strong>{g.name}</strong>
                {current && (
                  <span className="badge ok" aria-label="Current government">
                    ✓ current
                  </span>
                )}
              </span>
              <span className="small muted">{g.description}</span>
              <ul className="plain-list small" style={{ maxHeight: "none" }}>
                {g.bonusText.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
              {!current && (
                <ActionButton className="small" onClick={() => void select(g.id)} busy={changing !== null} busyLabel="CHANGING..." disabledReason={rejection?.message ?? null} data-testid={`select-${g.id}`}>
                  SELECT
                </ActionButton>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function SettingsTab() {
  const { country } = useGame();
  const options = useCountryOptions();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<CountryOptions | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  useEffect(() => {
    if (options.data) setDraft(options.data);
  }, [options.data]);
  if (!country) return null;
  if (options.isError) return <div className="alert error">{options.error.message}</div>;
  const value = draft ?? options.data ?? DEFAULT_COUNTRY_OPTIONS;
  const dirty = options.data ? JSON.stringify(value) !== JSON.stringify(options.data) : false;
  const toggle = (key: keyof CountryOptions) => setDraft({ ...value, [key]: !value[key] });
  const save = async () => {
    setSaving(true);
    setMessage(null);
    try {
      const saved = await manageApi.saveOptions(value);
      queryClient.setQueryData(manageKeys.options, saved);
      setMessage({ kind: "info", text: "Settings saved." });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to save country options" });
    } finally {
      setSaving(false);
    }
  };
  const box = (key: keyof CountryOptions, label: string, hint?: string) => (
    <label className="row" style={{ alignItems: "flex-start", gap: "0.5rem" }}>
      <input type="checkbox" checked={value[key]} onChange={() => toggle(key)} disabled={options.isPending} data-testid={`option-${key}`} />
      <span>
        {label}
        {hint && (
          <span className="small faint" style={{ display: "block" }}>
            {hint}
          </span>
        )}
      </span>
    </label>
  );
  return (
    <div className="grid">
      <Panel title="Country">
        <div className="field">
          <label htmlFor="country-name">Country name</label>
          <input id="country-name" className="input" value={country.name} readOnly aria-describedby="country-name-hint" />
          <span id="country-name-hint" className="small muted">
            Country name cannot be changed
          </span>
        </div>
      </Panel>
      <Panel title="Auto-build (applied each turn tick)">
        <div className="stack" style={{ gap: "0.5rem" }}>
          {box("autoFarms", "Build farms when food is low", "Up to 5 farms a tick when food lasts under 24 turns; keeps 10 turns of expenses in cash.")}
          {box("autoResearch", "Research when points are available", "One level of the cheapest available technology per tick.")}
          {box("autoMilitary", "Train military units", "One turn of unit production per tick while you hold 140 turns or more.")}
        </div>
      </Panel>
      <Panel title="Notifications">
        <div className="stack" style={{ gap: "0.5rem" }}>
          {box("notifyAttacks", "Notify me of attacks")}
          {box("notifyAlliance", "Notify me of alliance messages")}
          {box("notifyMarket", "Notify me of market updates")}
        </div>
        <div className="row" style={{ marginTop: "0.75rem" }}>
          <ActionButton onClick={save} busy={saving} busyLabel="SAVING..." disabledReason={dirty ? null : "No unsaved changes"} data-testid="save-options">
            Save Changes
          </ActionButton>
        </div>
        {message && (
          <div className={`alert ${message.kind}`} role="status" style={{ marginTop: "0.6rem" }} data-testid="options-message">
            {message.text}
          </div>
        )}
      </Panel>
    </div>
  );
}

function StatisticsTab() {
  const { countryState } = useGame();
  if (!countryState) return null;
  const s = computeCountryStatistics(countryState);
  return (
    <div className="grid">
      <Panel title="Country Statistics" testId="statistics">
        <Stat label="Per-capita income (cash / population)" value={`$${decimal2(s.perCapitaIncome)}`} testId="stat-per-capita" />
        <Stat label="Food per population" value={decimal2(s.foodPerPopulation)} testId="stat-food-per-pop" />
        <Stat label="Development index (networth / land)" value={decimal2(s.developmentIndex)} testId="stat-development" />
        <Stat label="Military / land ratio" value={decimal2(s.militaryLandRatio)} testId="stat-military-land" />
        <Stat label="Total forces" value={fmt(s.totalForces)} />
        <Stat label="Spies" value={fmt(s.spies)} />
      </Panel>
      <Panel title="Technology Levels">
        {TECHNOLOGY_LIST.map((t) => (
          <Stat key={t.id} label={t.name} value={`${s.techLevels[t.id]} / ${t.maxLevel}`} />
        ))}
        <Stat label="Total" value={fmt(s.totalTechLevels)} />
      </Panel>
    </div>
  );
}
