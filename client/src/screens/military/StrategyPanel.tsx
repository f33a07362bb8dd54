import { useEffect, useState } from "react";
import type { MilitaryStatusJson } from "@game/schema/api";
import { ALLOCATION_EFFECT_DIVISOR, DEPLOYMENT_KEYS, applySliderChange, checkDeployment, computeDeploymentGroups, objectiveDeadlineWarning, type Deployment } from "@game/schema/rules";
import type { Country } from "../../api/country";
import { militaryApi, useMilitaryRefresh } from "../../api/military";
import { ActionButton, Panel, Stat, Tabs } from "../../components/ui";
import { dateTimeText, fmt, titleCase } from "../../components/format";
import { useNow } from "../../components/Clock";
import { Brigades, readinessClass } from "./CommandPanel";

/** What each deployment share does, from ALLOCATION_EFFECT_DIVISOR (issue 26: help text from constants). */
export function deploymentText(): Record<keyof Deployment, string> {
  const per = `per ${ALLOCATION_EFFECT_DIVISOR}%`;
  return {
    garrison: `Defence +1% ${per} garrisoned`,
    patrol: `Land lost -1% ${per} on patrol`,
    reserve: `Own losses -1% ${per} in reserve`,
    expedition: `Attack +1% ${per} on expedition`,
  };
}

/**
 * Military Strategy: Force Deployment (saved on the server, felt in battle), Military
 * Formations (the five brigades) and Strategic Objectives (computed from the country).
 */
export function StrategyPanel({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const [tab, setTab] = useState<"deployment" | "formations" | "objectives">("deployment");
  return (
    <div className="stack" data-testid="military-strategy">
      <Tabs
        label="Strategy sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "deployment", label: "Force Deployment" },
          { id: "formations", label: "Military Formations" },
          { id: "objectives", label: "Strategic Objectives" },
        ]}
      />
      {tab === "deployment" && <DeploymentEditor country={country} status={status} />}
      {tab === "formations" && <Brigades brigades={status.brigades.brigades} countryId={country.id} />}
      {tab === "objectives" && <Objectives status={status} />}
    </div>
  );
}

function DeploymentEditor({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const refresh = useMilitaryRefresh(country.id);
  const [split, setSplit] = useState<Deployment>(status.deployment);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  useEffect(() => setSplit(status.deployment), [status.deployment]);
  const groups = computeDeploymentGroups(country, split);
  const total = DEPLOYMENT_KEYS.reduce((s, k) => s + split[k], 0);
  const rejection = checkDeployment(split);
  const unchanged = DEPLOYMENT_KEYS.every((k) => split[k] === status.deployment[k]);
  const save = async () => {
    setBusy(true);
    setMessage(null);
    try {
      await militaryApi.setDeployment(country.id, split);
      refresh();
      setMessage({ kind: "info", text: "Deployment saved." });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to update deployment" });
    } finally {
      setBusy(false);
    }
  };
  const readiness = status.readiness;
  return (
    <div className="grid">
      <Panel title="Force Deployment">
        {DEPLOYMENT_KEYS.map((k) => (
          <div className="field" key={k}>
            <label htmlFor={`deploy-${k}`}>
              {titleCase(k)}: {split[k]}%
            </label>
            <input id={`deploy-${k}`} type="range" min={0} max={100} value={split[k]} onChange={(e) => setSplit(applySliderChange(split, k, Number(e.target.value)))} />
            <span className="hint">
              {deploymentText()[k]} · {fmt(groups[k].troops)} troops, {fmt(groups[k].tanks)} tanks, {fmt(groups[k].jets)} jets, {fmt(groups[k].turrets)} turrets
            </span>
          </div>
        ))}
        <Stat label="Total" value={`${total}%`} />
        {message && <div className={`alert ${message.kind}`}>{message.text}</div>}
        <ActionButton disabledReason={rejection?.message ?? (unchanged ? "No changes to save" : null)} busy={busy} busyLabel="Saving..." onClick={save}>
          Save deployment
        </ActionButton>
      </Panel>
      <Panel title="Strategic Analysis">
        <Stat label="Overall readiness" value={<span className={readinessClass(readiness)}>{readiness}%</span>} />
        <Stat label="Defence bonus" value={`+${(split.garrison / 4).toFixed(1)}%`} />
        <Stat label="Attack bonus" value={`+${(split.expedition / 4).toFixed(1)}%`} />
        <Stat label="Land loss when beaten" value={`-${(split.patrol / 4).toFixed(1)}%`} />
        <Stat label="Own casualties" value={`-${(split.reserve / 4).toFixed(1)}%`} />
        <ul className="small" style={{ margin: "0.6rem 0 0", paddingLeft: "1.1rem" }}>
          {split.garrison < 25 && <li>A small garrison leaves your land open to raids.</li>}
          {split.expedition >= 40 && <li>A large expedition favours attacking over holding.</li>}
          {total < 100 && <li>{100 - total}% of your forces have no assignment and give no bonus.</li>}
          {split.garrison >= 25 && split.expedition < 40 && total === 100 && <li>A balanced posture: defence first, with a striking force.</li>}
        </ul>
      </Panel>
    </div>
  );
}

function Objectives({ status }: { status: MilitaryStatusJson }) {
  const now = useNow(60_000);
  return (
    <div className="grid">
      {status.objectives.map((o) => {
        const warning = objectiveDeadlineWarning(o, now);
        return (
          <Panel key={o.id} title={o.name}>
            <div className="row" style={{ marginBottom: "0.4rem" }}>
              <span className="badge">{o.type}</span>
              <span className={`badge ${o.priority === "high" ? "bad" : o.priority === "medium" ? "warn" : "ok"}`}>{o.priority} priority</span>
            </div>
            <div className={`bar ${o.progress < 50 ? "warn" : ""}`} aria-label={`Progress ${o.progress}%`}>
              <span style={{ width: `${o.progress}%` }} />
            </div>
            <Stat label="Progress" value={`${o.progress}%`} />
            {o.deadline !== null && <Stat label="Deadline" value={dateTimeText(o.deadline)} />}
            {warning && <p className="reason">{warning}</p>}
            {o.requiredForces.troops + o.requiredForces.tanks + o.requiredForces.jets + o.requiredForces.turrets > 0 && (
              <p className="hint">
                Needs {fmt(o.requiredForces.troops)} troops, {fmt(o.requiredForces.tanks)} tanks, {fmt(o.requiredForces.jets)} jets, {fmt(o.requiredForces.turrets)} turrets
              </p>
            )}
          </Panel>
        );
      })}
    </div>
  );
}
