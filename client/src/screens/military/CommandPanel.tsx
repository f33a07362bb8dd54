import { useState } from "react";
import type { BrigadeJson, MilitaryStatusJson } from "@game/schema/api";
import { BRIGADE_ATTACK_FATIGUE, BRIGADE_DUTY_DEFENSE_PCT, BRIGADE_DUTY_MS, BRIGADE_RECOVERY_PER_HOUR, UNIT_LABELS, brigadeName } from "@game/schema/rules";
import { militaryApi, useMilitaryRefresh } from "../../api/military";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { decimal2, fmt, hoursText, money } from "../../components/format";

/** The spec's readiness colour bands: 90+ good, 70-89 middling, below 70 poor. */
export function readinessClass(readiness: number): "ok" | "warn" | "bad" {
  return readiness >= 90 ? "ok" : readiness >= 70 ? "warn" : "bad";
}

const STATUS_BADGE: Record<BrigadeJson["status"], string> = { ready: "ok", deployed: "warn", recovering: "bad" };

/** Military Command: totals, a card per unit, tech effects, recommendations, the readiness warnings; the brigades. */
export function CommandPanel({ status, countryId }: { status: MilitaryStatusJson; countryId: number }) {
  return (
    <div className="stack" data-testid="military-command">
      {status.warning && (
        <div className={`alert ${status.readiness < 25 ? "error" : "warn"}`} role="alert" data-testid="readiness-warning">
          {status.warning}
        </div>
      )}
      <div className="grid">
        <Panel title="Military Command">
          <Stat label="Total strength" value={fmt(status.totalStrength)} testId="mc-strength" />
          <Stat label="Upkeep per turn" value={money(status.upkeep)} />
          <Stat label="Readiness" value={<span className={readinessClass(status.readiness)}>{status.readiness}%</span>} testId="mc-readiness" />
          <Stat label="Offensive capability" value={decimal2(status.offensiveCapability)} />
          <Stat label="Defensive capability" value={decimal2(status.defensiveCapability)} />
          <Stat label="Government strength" value={`x${status.strengthMultiplier}`} />
        </Panel>
        <Panel title="Tech Effects">
          {status.techEffects.map((e) => (
            <Stat key={e.label} label={e.label} value={e.value} />
          ))}
        </Panel>
        <Panel title="Strategic Recommendations">
          <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
            {status.recommendations.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </Panel>
      </div>
      <div className="grid">
        {status.units.map((u) => (
          <Panel key={u.unit} title={UNIT_LABELS[u.unit]} className="unit-card">
            <div className="big-number" data-testid={`unit-${u.unit}`}>
              {fmt(u.count)}
            </div>
            <Stat label="Strength each" value={u.strength} />
            <Stat label="Upkeep each per turn" value={`$${u.upkeep}`} />
          </Panel>
        ))}
      </div>
      <Brigades brigades={status.brigades.brigades} countryId={countryId} />
    </div>
  );
}

/** The five brigades with the three spec calls: use (defensive duty), recover readiness, reduce readiness. */
export function Brigades({ brigades, countryId }: { brigades: BrigadeJson[]; countryId: number }) {
  const refresh = useMilitaryRefresh(countryId);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (action: "use-brigade" | "recover-readiness" | "reduce-readiness", id: number) => {
    setBusy(`${action}-${id}`);
    setError(null);
    try {
      await militaryApi.brigadeAction(action, countryId, id);
      refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to use brigade");
    } finally {
      setBusy(null);
    }
  };
  return (
    <Panel title={`Brigades (${brigades.filter((b) => b.status === "ready").length} ready)`} testId="brigades">
      {error && <div className="alert error">{error}</div>}
      <BrigadeHelp />
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Brigade</th>
              <th>Status</th>
              <th className="n">Readiness</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {brigades.map((b) => (
              <tr key={b.id} data-testid={`brigade-${b.id}`}>
                <td>{brigadeName(b.id)}</td>
                <td>
                  <span className={`badge ${STATUS_BADGE[b.status]}`}>{b.status}</span>
                </td>
                <td className="n">
                  <span className={readinessClass(b.readiness)}>{b.readiness}%</span>
                  {b.effectiveReadiness < b.readiness && <span className="faint small"> ({b.effectiveReadiness}% funded)</span>}
                </td>
                <td>
                  <div className="row">
                    {b.status === "deployed" ? (
                      <button type="button" className="btn small" disabled={busy !== null} onClick={() => act("reduce-readiness", b.id)}>
                        Stand down
                      </button>
                    ) : (
                      <button type="button" className="btn small" disabled={busy !== null || b.readiness < 20} title={b.readiness < 20 ? "Too exhausted to deploy" : undefined} onClick={() => act("use-brigade", b.id)}>
                        Defend
                      </button>
                    )}
                    <ActionButton
                      variant=""
                      className="small"
                      disabled={busy !== null || b.readiness >= 100}
                      busy={busy === `recover-readiness-${b.id}`}
                      busyLabel="..."
                      title={b.readiness >= 100 ? "Already at full readiness" : `Restore to 100% for ${money(b.recoveryCost)}`}
                      onClick={() => act("recover-readiness", b.id)}
                    >
                      Recover {b.readiness < 100 ? money(b.recoveryCost) : ""}
                    </ActionButton>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

/** What a brigade costs and gives, from the brigade constants (issue 26: help text from constants). */
export function BrigadeHelp() {
  return (
    <p className="hint" style={{ marginBottom: "0.6rem" }} data-testid="help-brigades">
      A brigade leads each attack (it costs {BRIGADE_ATTACK_FATIGUE} readiness; readiness recovers {BRIGADE_RECOVERY_PER_HOUR} points an hour). On defensive duty a brigade adds {BRIGADE_DUTY_DEFENSE_PCT}% defence for{" "}
      {hoursText(BRIGADE_DUTY_MS)}.
    </p>
  );
}
