import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { MilitaryStatusJson } from "@game/schema/api";
import {
  ALERT_EFFECTS,
  ALERT_LEVELS,
  ALLOCATION_EFFECT_DIVISOR,
  COUNTER_INTEL_EFFECT_DIVISOR,
  GDI_BAND_HIGH_PCT,
  GDI_BAND_LOW_PCT,
  DEFENSE_ALLOCATION_KEYS,
  applySliderChange,
  checkBuyMissiles,
  checkDefenseAllocation,
  checkJoinGdi,
  checkLeaveGdi,
  type AlertLevel,
  type DefenseAllocation,
} from "@game/schema/rules";
import type { Country } from "../../api/country";
import { toCountryState } from "../../api/country";
import { militaryApi, useMilitaryRefresh } from "../../api/military";
import { queryKeys } from "../../api/queries";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { dateTimeText, fmt, money, titleCase } from "../../components/format";

/** What each share does, from ALLOCATION_EFFECT_DIVISOR and COUNTER_INTEL_EFFECT_DIVISOR (issue 26: help text from constants). */
export function allocationText(): Record<keyof DefenseAllocation, string> {
  const per = `per ${ALLOCATION_EFFECT_DIVISOR}%`;
  return {
    garrison: `Fortified positions: losses when defending -1% ${per}`,
    perimeter: `Against ground attacks: defence +1% ${per}`,
    airDefense: `Against bombing: defence +1% ${per}; missile interception +1 point ${per}`,
    counterIntel: `Against spy raids: defence +1% per ${COUNTER_INTEL_EFFECT_DIVISOR}%`,
  };
}

/**
 * Defense Configuration: the alert level and force allocation (kept on the server, felt in
 * battle), defense readiness, coverage, upkeep, threats from real attacks, the four systems,
 * strengths, vulnerabilities, recommendations; missiles and the GDI.
 */
export function DefensePanel({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const refresh = useMilitaryRefresh(country.id);
  const queryClient = useQueryClient();
  const d = status.defense;
  const [split, setSplit] = useState<DefenseAllocation>(d.allocation);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  const [missiles, setMissiles] = useState(1);
  useEffect(() => setSplit(d.allocation), [d.allocation]);
  const state = toCountryState(country);
  const now = Date.now();
  const gdiFacts = { member: status.protection.gdi.member, joinedAt: toMs(status.protection.gdi.joinedAt), leftAt: toMs(status.protection.gdi.leftAt) };

  const run = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    setMessage(null);
    try {
      const result = await work();
      if (result && typeof result === "object" && "id" in result && "landAcres" in result) queryClient.setQueryData(queryKeys.country(country.id), result);
      refresh();
      setMessage({ kind: "info", text: done });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to update defense configuration" });
    } finally {
      setBusy(null);
    }
  };

  const total = DEFENSE_ALLOCATION_KEYS.reduce((s, k) => s + split[k], 0);
  const allocationRejection = checkDefenseAllocation(split);
  const unchanged = DEFENSE_ALLOCATION_KEYS.every((k) => split[k] === d.allocation[k]);
  const missileRejection = checkBuyMissiles(state, missiles);
  const gdiRejection = gdiFacts.member ? checkLeaveGdi(gdiFacts, now) : checkJoinGdi(state, gdiFacts, now);
  const upkeep = d.systems.reduce((s, x) => s + x.upkeep, 0);

  return (
    <div className="stack" data-testid="defense-configuration">
      {message && <div className={`alert ${message.kind}`}>{message.text}</div>}
      <div className="grid">
        <Panel title="Alert Level">
          <div className="row" role="radiogroup" aria-label="Alert level">
            {ALERT_LEVELS.map((level) => (
              <button
                key={level}
                type="button"
                role="radio"
                aria-checked={d.alertLevel === level}
                className={`btn small ${d.alertLevel === level ? "primary" : ""}`}
                disabled={busy !== null}
                onClick={() => level !== d.alertLevel && run("alert", () => militaryApi.setDefense(country.id, { alertLevel: level as AlertLevel }), `Alert level set to ${level}.`)}
              >
                {titleCase(level)}
              </button>
            ))}
          </div>
          <p className="hint" style={{ marginTop: "0.5rem" }}>
            {titleCase(d.alertLevel)}: defence x{ALERT_EFFECTS[d.alertLevel].defensePct / 100}, attacks x{ALERT_EFFECTS[d.alertLevel].attackPct / 100}. A higher alert holds forces at home.
          </p>
          <Stat label="Defense readiness" value={`${d.readiness}%`} testId="defense-readiness" />
          <Stat label="Turrets" value={fmt(country.turrets)} />
          <Stat label="Spies" value={fmt(country.spies)} />
          <Stat label="Average coverage" value={`${d.averageCoverage}%`} />
          <Stat label="Defense upkeep per turn" value={money(upkeep)} />
          <Stat label="Missile interception" value={`${d.interceptChance}% per missile`} />
        </Panel>
        <Panel title="Threat Assessment">
          {(["missile", "air", "ground", "spy"] as const).map((k) => (
            <div key={k} style={{ marginBottom: "0.5rem" }}>
              <div className="row between">
                <span>{titleCase(k)}</span>
                <span className="num">{d.threats[k]}</span>
              </div>
              <div className={`bar ${d.threats[k] >= 50 ? "bad" : d.threats[k] >= 25 ? "warn" : ""}`}>
                <span style={{ width: `${d.threats[k]}%` }} />
              </div>
            </div>
          ))}
          <p className="hint">From the attacks your country suffered in the last 7 days.</p>
        </Panel>
        <Panel title="Force Allocation">
          {DEFENSE_ALLOCATION_KEYS.map((k) => (
            <div className="field" key={k}>
              <label htmlFor={`def-${k}`}>
                {titleCase(k)}: {split[k]}%
              </label>
              <input id={`def-${k}`} type="range" min={0} max={100} value={split[k]} onChange={(e) => setSplit(applySliderChange(split, k, Number(e.target.value)))} />
              <span className="hint">{allocationText()[k]}</span>
            </div>
          ))}
          <Stat label="Total" value={`${total}%`} />
          <ActionButton
            disabledReason={allocationRejection?.message ?? (unchanged ? "No changes to save" : null)}
            busy={busy === "allocation"}
            busyLabel="Saving..."
            onClick={() => run("allocation", () => militaryApi.setDefense(country.id, { allocation: split }), "Force allocation saved.")}
          >
            Save allocation
          </ActionButton>
        </Panel>
      </div>
      <div className="grid">
        {d.systems.map((s) => (
          <Panel key={s.id} title={s.name}>
            <Stat label="Level" value={`${s.level} of ${s.maxLevel}`} />
            <Stat label="Effectiveness" value={`${s.effectiveness}%`} />
            <Stat label="Coverage" value={`${s.coverage}%`} />
            <Stat label="Upkeep" value={money(s.upkeep)} />
            <p className="hint">{s.description}</p>
            <p className="hint">Raised by: {s.requiredTech}</p>
          </Panel>
        ))}
      </div>
      <div className="grid">
        <Panel title="Strengths">{d.review.strengths.length ? <List items={d.review.strengths} /> : <p className="muted">None yet.</p>}</Panel>
        <Panel title="Vulnerabilities">{d.review.vulnerabilities.length ? <List items={d.review.vulnerabilities} /> : <p className="muted">None found.</p>}</Panel>
        <Panel title="Recommendations">
          <List items={d.review.recommendations} />
        </Panel>
      </div>
      <div className="grid">
        <Panel title="Missiles">
          <Stat label="In stock" value={`${fmt(status.missiles.stock)} of ${fmt(status.missiles.capacity)}`} testId="missile-stock" />
          <Stat label="Price" value={money(status.missiles.price)} />
          <p className="hint">Stored at military bases (2 each). Chemical warheads need Weapons research 2, nuclear 5.</p>
          <div className="row">
            <input className="input" type="number" min={1} aria-label="Missiles to buy" style={{ width: 90 }} value={missiles} onChange={(e) => setMissiles(Math.max(0, Math.floor(Number(e.target.value) || 0)))} />
            <ActionButton
              disabledReason={missileRejection?.message ?? null}
              busy={busy === "missiles"}
              busyLabel="Buying..."
              onClick={() => run("missiles", () => militaryApi.buyMissiles(country.id, missiles), `${missiles} missile(s) bought.`)}
            >
              Buy {money(missiles * status.missiles.price)}
            </ActionButton>
          </div>
        </Panel>
        <Panel title="Protection">
          <Stat label="Status" value={titleCase(status.protection.status)} testId="protection-status" />
          {status.protection.status === "new_player_protection" && <Stat label="Protected until" value={dateTimeText(status.protection.protectedUntil)} />}
          <p className="hint">
            <GdiBandHelp /> Joining costs {money(status.protection.gdi.fee)}; members stay at least 24 hours and wait 24 hours to rejoin after leaving.
          </p>
          <ActionButton
            variant={gdiFacts.member ? "danger" : "primary"}
            disabledReason={gdiRejection?.message ?? null}
            busy={busy === "gdi"}
            busyLabel="..."
            onClick={() => run("gdi", () => militaryApi.gdi(country.id, !gdiFacts.member), gdiFacts.member ? "You left the GDI." : "You joined the GDI.")}
          >
            {gdiFacts.member ? "Leave the GDI" : `Join the GDI (${money(status.protection.gdi.fee)})`}
          </ActionButton>
        </Panel>
      </div>
    </div>
  );
}

function List({ items }: { items: string[] }) {
  return (
    <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
      {items.map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}

function toMs(iso: string | null): number | null {
  return iso === null ? null : Date.parse(iso);
}

/** The GDI band, from its constants (issue 26: help text from constants). */
export function GdiBandHelp() {
  return (
    <span data-testid="help-gdi">
      GDI members can only be attacked by countries with {GDI_BAND_LOW_PCT}% to {GDI_BAND_HIGH_PCT}% of their networth, unless war is declared.
    </span>
  );
}
