import { useMemo, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import type { MissionResponse } from "@game/schema/api";
import {
  ESPIONAGE_MESSAGES,
  SPY_CAPACITY_PCT,
  SPY_OPERATIONS,
  SPY_OPERATION_IDS,
  chanceBand,
  checkEspionageTarget,
  checkSpyOperation,
  checkTraining,
  operationSuccess,
  shownChancePct,
  spyCapacity,
  trainingTurns,
  type SpyOperationId,
  plural,
} from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import type { Country } from "../../api/country";
import { espionageApi, useEspionageRefresh, useIntelligenceStatus, useSpyAction } from "../../api/espionage";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { fmt } from "../../components/format";
import { DEFAULT_TARGET_FILTERS, filterTargets, useTargets } from "../military/TargetPanel";
import { IntelligenceReports } from "./IntelligenceReports";
import { MissionOutcome, RecentMissions, spyForceOf, usageOf } from "./IntelligenceCenter";
import { EspionageLiveUpdates } from "./liveUpdates";

type SpyTab = "operations" | "targets" | "reports" | "training";
const BAND_CLASS = { good: "ok", fair: "warn", poor: "bad" } as const;

/**
 * The Spy Center (spec): a header with the real spies, the spies-per-land ratio to 5 decimals,
 * the daily ops limit and the real operations remaining; tabs Covert Operations, Target
 * Selection (military's target list), Intelligence Reports and Spy Training.
 */
export function SpyCenterScreen() {
  const { country } = useGame();
  const [tab, setTab] = useState<SpyTab>("operations");
  const [targetId, setTargetId] = useState<number | null>(null);
  const status = useIntelligenceStatus(country?.id, targetId);
  if (!country) return <Loading text="Loading ..." />;
  const s = status.data;
  return (
    <div className="stack" data-testid="spy-center">
      <EspionageLiveUpdates />
      <div className="page-header">
        <h1>Spy Center</h1>
      </div>
      <Panel>
        <div className="grid stats-grid">
          <Stat label="Total spies" value={fmt(s?.availableSpies ?? country.spies)} testId="sc-spies" />
          <Stat label="Spies per acre" value={(s?.spiesPerAcre ?? country.spies / Math.max(1, country.landAcres)).toFixed(5)} testId="sc-ratio" />
          <Stat label="Daily Ops Limit" value={s?.dailyLimit ?? 30} />
          <Stat label="Ops Remaining" value={s ? s.operationsRemaining : "-"} testId="sc-remaining" />
        </div>
      </Panel>
      <Tabs
        label="Spy Center"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "operations", label: "Covert Operations" },
          { id: "targets", label: "Target Selection" },
          { id: "reports", label: "Intelligence Reports" },
          { id: "training", label: "Spy Training" },
        ]}
      />
      {tab === "operations" && <CovertOperations country={country} targetId={targetId} onPickTarget={() => setTab("targets")} />}
      {tab === "targets" && (
        <SpyTargets
          country={country}
          chosen={targetId}
          onChoose={(id) => {
            setTargetId(id);
            setTab("operations");
          }}
        />
      )}
      {tab === "reports" && <IntelligenceReports emptyText="No intelligence reports available" inAlliance={country.allianceId !== null} />}
      {tab === "training" && <SpyTraining country={country} />}
    </div>
  );
}

function CovertOperations({ country, targetId, onPickTarget }: { country: Country; targetId: number | null; onPickTarget(): void }) {
  const status = useIntelligenceStatus(country.id, targetId);
  const { rows } = useTargets(country);
  const [op, setOp] = useState<SpyOperationId | null>(null);
  const [spiesInput, setSpiesInput] = useState("");
  const [result, setResult] = useState<MissionResponse | null>(null);
  const run = useSpyAction(country.id, espionageApi.execute);
  const target = rows.find((r) => r.country.id === targetId)?.country ?? null;
  const s = status.data;
  const spies = s?.availableSpies ?? country.spies;
  const def = op ? SPY_OPERATIONS[op] : null;
  const spiesUsed = def ? Math.max(def.spyCost, Math.min(spies, spiesInput === "" ? def.spyCost : Math.round(Number(spiesInput) || def.spyCost))) : 0;
  // sabotage follows the attack rules' protections (the same check the server runs)
  const targetRefusal = (sabotage: boolean) =>
    target
      ? (checkEspionageTarget(
          { id: country.id, allianceId: country.allianceId },
          { id: target.id, allianceId: target.alliance_id, protectedUntil: Date.parse(target.protected_until), isEliminated: target.is_eliminated },
          sabotage,
          Date.now(),
        )?.message ?? null)
      : null;
  // the server's checks on the same inputs: the operation (spies, daily caps, turns), then the target
  const operationRefusal = (id: SpyOperationId, used: number) => (s ? (checkSpyOperation(SPY_OPERATIONS[id], { spies: s.availableSpies, turns: s.turns }, used, usageOf(s))?.message ?? null) : null);
  const reason = !target ? "No target selected" : !def ? "No operation selected" : (targetRefusal(def.id === "sabotage") ?? operationRefusal(def.id, spiesUsed));
  const estimate = s?.successPreview.basis === "estimate";

  const execute = () => {
    if (!op || !target) return;
    setResult(null);
    run.mutate({ operationType: op, targetCountryId: target.id, spiesUsed }, { onSuccess: setResult });
  };

  return (
    <div className="stack" data-testid="covert-operations">
      <Panel
        title="Target"
        actions={
          <button type="button" className="btn ghost" onClick={onPickTarget}>
            {target ? "Change target" : "Select target"}
          </button>
        }
      >
        {target ? (
          <p data-testid="sc-target">
            <strong>{target.name}</strong>{" "}
            <span className="small muted">
              {target.government_type} · {fmt(Number(target.land))} acres · networth {fmt(Number(target.networth))}
            </span>
          </p>
        ) : (
          <p className="muted">No target selected: choose one in Target Selection.</p>
        )}
      </Panel>
      <Panel title="Covert Operations">
        <div className="attack-cards">
          {SPY_OPERATION_IDS.map((id) => {
            const o = SPY_OPERATIONS[id];
            const blockedTarget = targetRefusal(id === "sabotage");
            const usable = Boolean(target) && spies >= o.spyCost && !blockedTarget;
            // the server's operationSuccess on the preview's target (a report's spies, else parity)
            const chance = s ? shownChancePct(operationSuccess(o, spyForceOf(s), s.successPreview.target)) : undefined;
            return (
              <button key={id} type="button" className={`attack-card ${op === id ? "selected" : ""}`} disabled={!usable} onClick={() => setOp(id)} data-testid={`op-${id}`}>
                <strong>{o.name}</strong>
                <span className="small muted">{o.description}</span>
                <span className="small">
                  {o.spyCost} spies · base {o.successBase}% · {o.turnCost} turn{o.turnCost > 1 ? "s" : ""}
                </span>
                {target && chance !== undefined && (
                  <span className={`small ${BAND_CLASS[chanceBand(chance)]}`} data-testid={`op-chance-${id}`}>
                    {estimate ? `Success about ${chance}% (estimate)` : `Success ${chance}%`}
                  </span>
                )}
                {spies < o.spyCost ? <span className="small bad">{ESPIONAGE_MESSAGES.insufficientSpies}</span> : blockedTarget && <span className="small bad">{blockedTarget}</span>}
              </button>
            );
          })}
        </div>
        {def && (
          <div className="field" style={{ maxWidth: 260, marginTop: "0.75rem" }}>
            <label htmlFor="sc-spies-used">Spies to send (at least {def.spyCost})</label>
            <input
              id="sc-spies-used"
              className="input"
              type="number"
              min={def.spyCost}
              max={spies}
              value={spiesInput === "" ? spiesUsed : spiesInput}
              onChange={(e) => setSpiesInput(e.target.value)}
              onBlur={() => setSpiesInput(String(spiesUsed))}
            />
          </div>
        )}
        <div style={{ marginTop: "0.75rem" }}>
          <ActionButton disabledReason={reason} busy={run.isPending} busyLabel="EXECUTING..." onClick={execute} data-testid="sc-execute">
            EXECUTE OPERATION
          </ActionButton>
        </div>
        {run.error && (
          <div className="alert error" role="alert" style={{ marginTop: "0.75rem" }}>
            {(run.error as Error).message}
          </div>
        )}
        {result && (
          <div style={{ marginTop: "0.75rem" }}>
            <MissionOutcome result={result} />
          </div>
        )}
        {s && s.successPreview.basis === "estimate" && target && <p className="small faint">Success shown is an estimate: the target's spies are unknown until you gather military intelligence.</p>}
      </Panel>
      <Panel title="Recent Operations">{s ? <RecentMissions missions={s.recentMissions} /> : <Loading />}</Panel>
    </div>
  );
}

/** Target Selection: military's target list (public fields), searched; choosing one returns to the operations tab. */
function SpyTargets({ country, chosen, onChoose }: { country: Country; chosen: number | null; onChoose(id: number): void }) {
  const { rows, query } = useTargets(country);
  const [name, setName] = useState("");
  const shown = useMemo(() => filterTargets(rows, { ...DEFAULT_TARGET_FILTERS, protection: "any", networthMax: Number.MAX_SAFE_INTEGER, landMax: Number.MAX_SAFE_INTEGER, name }, country.allianceId), [rows, name, country.allianceId]);
  if (query.isPending) return <Loading text="Loading target selection..." />;
  return (
    <Panel title="Target Selection">
      <div className="field">
        <label htmlFor="sc-search">Search</label>
        <input id="sc-search" className="input" placeholder="Country name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      {shown.length === 0 ? (
        <p className="muted">No countries match your search criteria</p>
      ) : (
        <ul className="target-list" data-testid="sc-targets">
          {shown.map((r) => (
            <li key={r.country.id}>
              <button type="button" className={`target-row ${r.country.id === chosen ? "chosen focused" : ""}`} onClick={() => onChoose(r.country.id)} data-testid="sc-target-row">
                <span className="target-name">{r.country.name}</span>
                <span className="small muted">
                  {r.country.government_type} · {fmt(r.land)} acres · networth {fmt(r.networth)}
                  {r.country.alliance_name ? ` · ${r.country.alliance_name}` : ""}
                </span>
                <span className={`badge ${r.country.protection_status === "unprotected" ? "" : "warn"}`}>{r.country.protection_status.replaceAll("_", " ")}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** Spy Training: 5 spies per turn, $100 each, up to 5% of land; and the allowSpyOperations choice. */
function SpyTraining({ country }: { country: Country }) {
  const status = useIntelligenceStatus(country.id);
  const refresh = useEspionageRefresh(country.id);
  const [quantity, setQuantity] = useState(5);
  const train = useMutation({ mutationFn: (q: number) => espionageApi.train(country.id, q), onSettled: refresh });
  const privacy = useMutation({ mutationFn: (allow: boolean) => espionageApi.privacy(country.id, allow), onSettled: refresh });
  const s = status.data;
  const spies = s?.availableSpies ?? country.spies;
  const cap = spyCapacity(country.landAcres);
  const check = checkTraining({ spies, land: country.landAcres, turns: s?.turns ?? country.turnsAvailable, cash: country.cash }, quantity);
  return (
    <div className="grid two" data-testid="spy-training">
      <Panel title="Spy Training">
        <Stat label="Spies" value={fmt(spies)} testId="st-spies" />
        <Stat label={`Capacity (${SPY_CAPACITY_PCT}% of land)`} value={fmt(cap)} testId="help-spy-capacity" />
        <Stat label="Training rate" value="5 per turn" />
        <Stat label="Cost" value={`$${fmt(s?.trainingCost ?? 100)} per spy`} />
        <div className="field" style={{ marginTop: "0.75rem" }}>
          <label htmlFor="st-quantity">Spies to train</label>
          <input id="st-quantity" className="input" type="number" min={1} max={Math.max(1, cap - spies)} value={quantity} onChange={(e) => setQuantity(Math.max(0, Math.round(Number(e.target.value) || 0)))} />
        </div>
        <p className="small muted">
          {plural(trainingTurns(quantity), "turn")}, ${fmt(quantity * (s?.trainingCost ?? 100))}
        </p>
        <ActionButton disabledReason={check?.message ?? null} busy={train.isPending} busyLabel="Training..." onClick={() => train.mutate(quantity)} data-testid="st-train">
          Train Spies
        </ActionButton>
        {train.data && (
          <p className="small ok">
            Trained {plural(train.data.trained, "spy", "spies")} ({plural(train.data.turnsSpent, "turn")}).
          </p>
        )}
        {train.error && (
          <div className="alert error" role="alert">
            {(train.error as Error).message}
          </div>
        )}
      </Panel>
      <Panel title="Intelligence Privacy">
        <p className="small muted">
          Nobody can opt out of being spied on. With Allow Spy Operations off, intelligence gathered on your country cannot be shared with alliances (and shared reports about you are hidden), and you cannot share your own reports either.
        </p>
        <label className="row">
          <input type="checkbox" checked={s?.allowSpyOperations ?? true} disabled={!s || privacy.isPending} onChange={(e) => privacy.mutate(e.target.checked)} data-testid="allow-spy-ops" />
          Allow Spy Operations (share intelligence)
        </label>
        {privacy.error && <div className="alert error">{(privacy.error as Error).message}</div>}
      </Panel>
    </div>
  );
}
