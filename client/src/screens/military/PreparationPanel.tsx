import { useState } from "react";
import type { MilitaryStatusJson, StrikeJson } from "@game/schema/api";
import {
  ALLY_SUPPORT_PCT,
  ATTACK_TYPES,
  ATTACK_TYPE_IDS,
  MAX_SCHEDULE_AHEAD_MS,
  PLANNED_STRIKE_BONUS_PCT,
  PLANNED_STRIKE_PREP_MS,
  UNIT_LABELS,
  attackTypeSelectable,
  clampUnitInput,
  halfForces,
  isMissileAttack,
  orderUnits,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { militaryApi, useAllies, useMilitaryRefresh, useStrikes } from "../../api/military";
import { ActionButton, Panel, Stat, Tabs } from "../../components/ui";
import { dateTimeText, daysWords, fmt, hoursText } from "../../components/format";
import { BattleReportView } from "./BattleReportView";
import { launchRejection, useAvailable, useLaunch } from "./CombatPanel";
import { selection, useAttackSelection } from "./selection";

type PrepTab = "units" | "alliance" | "timing" | "review";

/**
 * Attack Preparation: Unit Allocation (with the 50% button), Alliance Support (active allies
 * can be ticked), Timing & Coordination (immediate or a date and time; pending strikes can be
 * cancelled) and Review & Execute (the spec's checks; Execute disabled while any fails).
 */
export function PreparationPanel({ country, status, onChooseTarget }: { country: Country; status: MilitaryStatusJson | undefined; onChooseTarget(): void }) {
  const [tab, setTab] = useState<PrepTab>("units");
  const sel = useAttackSelection();
  if (!status) return <p className="muted">Loading attack preparation...</p>;
  return (
    <div className="stack" data-testid="attack-preparation">
      <Panel title="Attack Preparation">
        <Stat
          label="Target"
          value={
            sel.target ? (
              sel.target.name
            ) : (
              <button type="button" className="link-btn" onClick={onChooseTarget}>
                No target selected
              </button>
            )
          }
        />
        <Stat label="Attack type" value={sel.attackType ? ATTACK_TYPES[sel.attackType].name : "None"} />
      </Panel>
      <Tabs
        label="Preparation steps"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "units", label: "Unit Allocation" },
          { id: "alliance", label: "Alliance Support" },
          { id: "timing", label: "Timing & Coordination" },
          { id: "review", label: "Review & Execute" },
        ]}
      />
      {tab === "units" && <UnitsStep country={country} status={status} />}
      {tab === "alliance" && <AllianceStep country={country} />}
      {tab === "timing" && <TimingStep country={country} />}
      {tab === "review" && <ReviewStep country={country} status={status} />}
    </div>
  );
}

function UnitsStep({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const sel = useAttackSelection();
  const available = useAvailable(country, status);
  const units = orderUnits(sel.units);
  return (
    <Panel title="Unit Allocation">
      <div className="field">
        <label htmlFor="prep-type">Attack type</label>
        <select id="prep-type" value={sel.attackType ?? ""} onChange={(e) => selection.setAttackType((e.target.value || null) as never)}>
          <option value="">Choose...</option>
          {ATTACK_TYPE_IDS.map((id) => (
            <option key={id} value={id} disabled={!attackTypeSelectable(id, available).selectable}>
              {ATTACK_TYPES[id].name}
            </option>
          ))}
        </select>
      </div>
      {sel.attackType &&
        (isMissileAttack(sel.attackType) ? ["missiles" as const] : ATTACK_TYPES[sel.attackType].allowedUnits).map((u) => (
          <div className="field" key={u}>
            <label htmlFor={`prep-${u}`}>
              {UNIT_LABELS[u]} ({fmt(available[u])} available)
            </label>
            <input id={`prep-${u}`} className="input" type="number" min={0} max={available[u]} value={units[u]} onChange={(e) => selection.setUnits({ ...sel.units, [u]: clampUnitInput(Number(e.target.value), available[u]) })} />
          </div>
        ))}
      <button type="button" className="btn small" disabled={!sel.attackType} onClick={() => sel.attackType && selection.setUnits(halfForces(sel.attackType, available))}>
        50%
      </button>
    </Panel>
  );
}

function AllianceStep({ country }: { country: Country }) {
  const sel = useAttackSelection();
  const allies = useAllies(country.id, sel.target?.id ?? null);
  if (allies.isPending) return <p className="muted">Loading attack preparation...</p>;
  if (allies.isError) return <div className="alert error">{allies.error.message}</div>;
  const list = allies.data.allies;
  return (
    <Panel title="Alliance Support">
      {country.allianceId === null ? (
        <p className="muted">You are not in an alliance: no allies can support this attack.</p>
      ) : list.length === 0 ? (
        <p className="muted">Your alliance has no other members.</p>
      ) : (
        <ul className="plain-list">
          {list.map((a) => (
            <li key={a.countryId} className="row between">
              <label className="row">
                <input type="checkbox" disabled={!a.isActive} checked={sel.allies.includes(a.countryId)} onChange={(e) => selection.toggleAlly(a.countryId, e.target.checked)} />
                <span>{a.countryName}</span>
              </label>
              {a.isActive ? (
                <span className="small muted">
                  {Object.entries(a.availableForces)
                    .map(([u, n]) => `${fmt(n ?? 0)} ${u}`)
                    .join(", ") || "no forces"}{" "}
                  (+{a.supportContribution}%)
                </span>
              ) : (
                <span className="reason small">{a.reason}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <AllySupportHelp />
    </Panel>
  );
}

function TimingStep({ country }: { country: Country }) {
  const sel = useAttackSelection();
  const strikes = useStrikes(true);
  const refresh = useMilitaryRefresh(country.id);
  const [error, setError] = useState<string | null>(null);
  const scheduled = sel.scheduledFor !== null;
  const local = sel.scheduledFor ? toLocalInput(sel.scheduledFor) : "";
  const pending = (strikes.data ?? []).filter((s) => s.state === "pending");
  const cancel = async (s: StrikeJson) => {
    setError(null);
    try {
      await militaryApi.cancelStrike(s.id);
      refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to cancel the strike");
    }
  };
  return (
    <div className="grid">
      <Panel title="Timing & Coordination">
        <div className="row" role="radiogroup" aria-label="Timing">
          <label className="row">
            <input type="radio" name="timing" checked={!scheduled} onChange={() => selection.setScheduledFor(null)} /> Immediate
          </label>
          <label className="row">
            <input type="radio" name="timing" checked={scheduled} onChange={() => selection.setScheduledFor(new Date(Date.now() + 3_600_000).toISOString())} /> Scheduled
          </label>
        </div>
        {scheduled && (
          <div className="field" style={{ marginTop: "0.6rem" }}>
            <label htmlFor="prep-when">Date and time</label>
            <input id="prep-when" className="input" type="datetime-local" value={local} onChange={(e) => e.target.value && selection.setScheduledFor(new Date(e.target.value).toISOString())} />
          </div>
        )}
        <PlannedStrikeHelp />
      </Panel>
      <Panel title="Pending Strikes">
        {error && <div className="alert error">{error}</div>}
        {pending.length === 0 ? (
          <p className="muted">No active military operations</p>
        ) : (
          <ul className="plain-list">
            {pending.map((s) => (
              <li key={s.id} className="row between">
                <span>
                  {ATTACK_TYPES[s.attackType].name} on {s.targetName} at {dateTimeText(s.executeAt)}
                </span>
                <button type="button" className="btn small danger" onClick={() => cancel(s)}>
                  Cancel
                </button>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

function ReviewStep({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const sel = useAttackSelection();
  const available = useAvailable(country, status);
  const { launch, running, error, report, strike } = useLaunch(country);
  const rejection = launchRejection(sel, country, available);
  const units = orderUnits(sel.units);
  return (
    <div className="stack">
      <Panel title="Review & Execute">
        <Stat label="Target" value={sel.target?.name ?? "—"} />
        <Stat label="Attack" value={sel.attackType ? ATTACK_TYPES[sel.attackType].name : "—"} />
        <Stat
          label="Forces"
          value={
            Object.entries(units)
              .filter(([, n]) => n > 0)
              .map(([u, n]) => `${fmt(n)} ${u}`)
              .join(", ") || "—"
          }
        />
        <Stat label="Alliance support" value={sel.allianceSupport ? `${sel.allies.length} allies` : "none"} />
        <Stat label="Timing" value={sel.scheduledFor ? dateTimeText(sel.scheduledFor) : sel.attackType === "planned_strike" ? "in 12 hours" : "immediate"} />
        {error && <div className="alert error">{error}</div>}
        <ActionButton variant="danger" block disabledReason={rejection?.message ?? null} busy={running} busyLabel="Executing..." onClick={() => launch(sel)}>
          Execute
        </ActionButton>
      </Panel>
      {strike && (
        <div className="alert info">
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

/** An ISO time as a datetime-local input value in the browser's zone. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Alliance support in numbers, from ALLY_SUPPORT_PCT (issue 26: help text from constants). */
export function AllySupportHelp() {
  return (
    <p className="hint" data-testid="help-ally-support">
      Allies lend {ALLY_SUPPORT_PCT}% of their forces; together they never add more than your own force.
    </p>
  );
}

/** Planned and scheduled strikes in numbers, from the rules' constants. */
export function PlannedStrikeHelp() {
  return (
    <p className="hint" data-testid="help-planned-strike">
      A planned strike always prepares {hoursText(PLANNED_STRIKE_PREP_MS)} (+{PLANNED_STRIKE_BONUS_PCT}% strength). Scheduled attacks run at their time, up to {daysWords(MAX_SCHEDULE_AHEAD_MS)} ahead, and are checked again then.
    </p>
  );
}
