import { useEffect, useMemo, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AttackLaunchResponse, BattleReportJson, MilitaryStatusJson, StrikeJson } from "@game/schema/api";
import type { AttackPreview } from "@game/schema/rules";
import {
  ATTACK_TYPES,
  ATTACK_TYPE_IDS,
  UNIT_LABELS,
  attackTypeSelectable,
  availableForAttack,
  checkAttackTech,
  checkAttackTurns,
  checkAttackUnits,
  clampUnitInput,
  halfForces,
  isMissileAttack,
  orderUnits,
  reject,
  type AttackTypeId,
  type RuleRejection,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { mapCountry, toCountryState } from "../../api/country";
import { militaryApi, militaryKeys, useMilitaryRefresh, type AttackRequest } from "../../api/military";
import { queryKeys } from "../../api/queries";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { dateTimeText, fmt } from "../../components/format";
import { BattleReportView } from "./BattleReportView";
import { useConfirmAction } from "../../components/confirm";
import { selection, useAttackSelection, type AttackSelection } from "./selection";

/** Waits this long after the last change before asking for a preview (ms). */
const PREVIEW_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

/** Units that may be sent now: owned less those in rehabilitation. */
export function useAvailable(country: Country, status: MilitaryStatusJson | undefined) {
  return useMemo(() => availableForAttack(toCountryState(country), status?.rehabilitation ?? { troops: 0, jets: 0, tanks: 0 }), [country, status?.rehabilitation]);
}

/**
 * The launch's validation on the client, by the same rules the server runs: the target, the
 * units (the spec's messages), research and turns. The server checks again (and the target's
 * protection, the band and the brigades, which the preview reports).
 */
export function launchRejection(sel: AttackSelection, country: Country, available: Record<string, number>): RuleRejection | null {
  if (!sel.target) return reject("combat/no_target", "No target selected");
  return checkAttackUnits(sel.attackType, sel.units, available as never) ?? (sel.attackType ? (checkAttackTech(sel.attackType, toCountryState(country).tech) ?? checkAttackTurns(sel.attackType, country.turnsAvailable)) : null);
}

/** The order of the current selection. */
export function orderOf(sel: AttackSelection, countryId: number): AttackRequest {
  return {
    countryId,
    targetCountryId: sel.target?.id ?? null,
    attackType: sel.attackType,
    units: sel.units,
    allianceSupport: sel.allianceSupport ? { enabled: true, allies: sel.allies } : false,
    scheduledFor: sel.scheduledFor,
  };
}

/** Launches the selection; the answer's report or strike, and everything it changed refreshed. */
export function useLaunch(country: Country) {
  const queryClient = useQueryClient();
  const refresh = useMilitaryRefresh(country.id);
  const [running, setRunning] = useState(false);
  const confirmAction = useConfirmAction();
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<BattleReportJson | null>(null);
  const [strike, setStrike] = useState<StrikeJson | null>(null);
  const launch = async (sel: AttackSelection) => {
    if (sel.attackType && isMissileAttack(sel.attackType) && !confirmAction(`Launch ${fmt(sel.units.missiles ?? 0)} ${ATTACK_TYPES[sel.attackType].name.toLowerCase()}${(sel.units.missiles ?? 0) === 1 ? "" : "s"}? Missiles fired are gone.`))
      return;
    setRunning(true);
    setError(null);
    setReport(null);
    setStrike(null);
    try {
      const res: AttackLaunchResponse = await militaryApi.launch(orderOf(sel, country.id));
      queryClient.setQueryData(queryKeys.country(country.id), mapCountry(res.country));
      if (res.executed) setReport(res.report);
      else setStrike(res.strike);
      selection.afterLaunch();
      refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Attack failed");
    } finally {
      setRunning(false);
    }
  };
  return { launch, running, error, report, strike };
}

/** The server's preview of the current selection (only what the attacker may know). */
export function usePreview(country: Country, sel: AttackSelection) {
  const order = useDebounced(orderOf(sel, country.id), PREVIEW_DEBOUNCE_MS);
  return useQuery({
    queryKey: militaryKeys.preview(JSON.stringify(order)),
    queryFn: () => militaryApi.preview(order),
    enabled: order.targetCountryId !== null && order.attackType !== null,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/**
 * Combat Operations: attack type cards, the unit allocation (clamped to what is available;
 * changing the type resets it), the preview, the validation and Launch Attack, which really
 * launches and shows the report.
 */
export function CombatPanel({ country, status, onChooseTarget }: { country: Country; status: MilitaryStatusJson | undefined; onChooseTarget(): void }) {
  const sel = useAttackSelection();
  const available = useAvailable(country, status);
  const preview = usePreview(country, sel);
  const { launch, running, error, report, strike } = useLaunch(country);
  const type = sel.attackType ? ATTACK_TYPES[sel.attackType] : null;
  const local = launchRejection(sel, country, available);
  const server = preview.data?.validation ?? null;
  const rejection = local ?? (server && !preview.isPlaceholderData ? server : null);
  const units = orderUnits(sel.units);
  const sent = Object.values(units).some((n) => n > 0);
  const p = sent ? (preview.data?.preview ?? null) : null;

  const setUnit = (unit: keyof typeof units, text: string) => selection.setUnits({ ...sel.units, [unit]: clampUnitInput(Number(text), available[unit]) });

  return (
    <div className="stack" data-testid="combat-operations">
      <Panel title="Target">
        {sel.target ? (
          <div className="row between">
            <strong data-testid="combat-target">{sel.target.name}</strong>
            <button type="button" className="btn small" onClick={onChooseTarget}>
              Change target
            </button>
          </div>
        ) : (
          <div className="row between">
            <span className="muted">No target selected</span>
            <button type="button" className="btn small primary" onClick={onChooseTarget}>
              Choose a target
            </button>
          </div>
        )}
      </Panel>
      <Panel title="Attack Type">
        <div className="attack-cards">
          {ATTACK_TYPE_IDS.map((id) => (
            <AttackTypeCard key={id} id={id} selected={sel.attackType === id} available={available} onSelect={() => selection.setAttackType(id)} />
          ))}
        </div>
      </Panel>
      {type && sel.attackType && (
        <div className="grid">
          <Panel title="Allocate Units">
            {isMissileAttack(sel.attackType) ? (
              <div className="field">
                <label htmlFor="alloc-missiles">
                  Missiles (max {type.maxUnits}; {fmt(available.missiles)} in stock)
                </label>
                <input id="alloc-missiles" className="input" type="number" min={0} max={available.missiles} value={units.missiles} onChange={(e) => setUnit("missiles", e.target.value)} />
              </div>
            ) : (
              type.allowedUnits.map((u) => (
                <div className="field" key={u}>
                  <label htmlFor={`alloc-${u}`}>
                    {UNIT_LABELS[u]} ({fmt(available[u])} available)
                  </label>
                  <input id={`alloc-${u}`} className="input" type="number" min={0} max={available[u]} value={units[u]} onChange={(e) => setUnit(u, e.target.value)} />
                </div>
              ))
            )}
            <div className="row">
              <button type="button" className="btn small" onClick={() => selection.setUnits(halfForces(sel.attackType!, available))}>
                50%
              </button>
              <button type="button" className="btn small ghost" onClick={() => selection.setUnits({})}>
                Clear
              </button>
            </div>
            {status && status.rehabilitation.troops + status.rehabilitation.jets + status.rehabilitation.tanks > 0 && (
              <p className="hint">
                In rehabilitation until {dateTimeText(status.rehabilitation.until!)}: {fmt(status.rehabilitation.troops)} troops, {fmt(status.rehabilitation.tanks)} tanks, {fmt(status.rehabilitation.jets)} jets.
              </p>
            )}
          </Panel>
          <Panel title="Combat Preview">
            {!sel.target ? (
              <p className="muted">Select a target to see the preview.</p>
            ) : !p ? (
              <p className="muted">{sent && preview.isFetching ? "Loading combat systems..." : "Choose units to see the preview."}</p>
            ) : (
              <div data-testid="combat-preview">
                <Stat label="Attack power" value={fmt(p.attackPower)} />
                <Stat label="Defense power" value={p.defensePower ? `${fmt(p.defensePower.low)} - ${fmt(p.defensePower.high)}` : "Unknown: no intelligence"} />
                <PreviewChance preview={p} />
                <Stat label="Expected land" value={p.expectedLand > 0 ? `${fmt(p.expectedLand)} acres` : "—"} />
                <Stat label="Turns" value={p.turnCost} />
                {p.notes.map((n) => (
                  <p key={n} className="hint">
                    {n}
                  </p>
                ))}
              </div>
            )}
          </Panel>
        </div>
      )}
      <Panel title="Launch">
        {error && (
          <div className="alert error" role="alert" data-testid="launch-error">
            {error}
          </div>
        )}
        <ActionButton variant="danger" block disabledReason={rejection?.message ?? null} busy={running} busyLabel="Attacking..." data-testid="launch-attack" onClick={() => launch(sel)}>
          Launch Attack
        </ActionButton>
      </Panel>
      {strike && (
        <div className="alert info" data-testid="strike-created">
          {strike.kind === "planned" ? "Planned strike" : "Scheduled attack"} on {strike.targetName} set for {dateTimeText(strike.executeAt)}.
        </div>
      )}
      {report && (
        <Panel title={`Battle Report #${report.id}`}>
          <BattleReportView report={report} />
        </Panel>
      )}
    </div>
  );
}

function AttackTypeCard({ id, selected, available, onSelect }: { id: AttackTypeId; selected: boolean; available: Record<string, number>; onSelect(): void }) {
  const t = ATTACK_TYPES[id];
  const { selectable, reason } = attackTypeSelectable(id, available as never);
  return (
    <button type="button" className={`attack-card ${selected ? "selected" : ""}`} aria-pressed={selected} disabled={!selectable} title={reason ?? t.description} onClick={onSelect} data-testid={`attack-type-${id}`}>
      <strong>{t.name}</strong>
      <span className="small muted">
        {t.turnCost} {t.turnCost === 1 ? "turn" : "turns"} · {t.allowedUnits.length ? t.allowedUnits.join(", ") : `missiles (max ${t.maxUnits})`}
      </span>
      <span className="small faint">Countered by {t.countersFrom.join(", ")}</span>
      {reason && <span className="reason small">{reason}</span>}
    </button>
  );
}

/**
 * The preview's success chance. With intelligence it is computed from the force sent and moves
 * with it; without, it is the public threat band of the networth ratio, the same whatever is
 * sent, and it says so (issue 30 #5: an "85%" that did not move was read as a forecast).
 */
export function PreviewChance({ preview }: { preview: Pick<AttackPreview, "basis" | "successChance" | "analysis" | "defensePower"> }) {
  if (preview.basis === "intelligence" && preview.defensePower) return <Stat label="Success chance" value={`${preview.successChance}%`} testId="preview-chance" />;
  return (
    <>
      <Stat label="Public band" value={`${preview.analysis.threat} (~${preview.successChance}%)`} testId="preview-chance" />
      <p className="hint" data-testid="preview-band-note">
        A band from networth alone: it does not change with the units you send. Gather military intelligence on the target for an estimate that follows your force.
      </p>
    </>
  );
}
