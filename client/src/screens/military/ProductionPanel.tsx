import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { MilitaryStatusJson } from "@game/schema/api";
import { PRODUCED_UNIT_TYPES, PRODUCTION_PRESETS, PRODUCTION_PRESET_IDS, RECOMMENDED_MIN_COMPLEXES, UNIT_LABELS, checkUnitAllocation, computeOutputPerComplex, type UnitAllocation } from "@game/schema/rules";
import type { Country } from "../../api/country";
import { militaryApi, militaryKeys } from "../../api/military";
import { queryKeys, useTurnHistory } from "../../api/queries";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { dateTimeText, fmt, titleCase } from "../../components/format";

/** The most facilities listed one by one (the rest are summed in one line). */
const LISTED_FACILITIES = 8;

/**
 * Unit Production: the country's real industrial complexes and their output per turn, the
 * spec's presets and four sliders; Apply saves the split on the server (POST
 * /production/allocation) and is enabled only at exactly 100%.
 */
export function ProductionPanel({ country, status }: { country: Country; status: MilitaryStatusJson }) {
  const queryClient = useQueryClient();
  const [split, setSplit] = useState<UnitAllocation>(country.unitAllocation);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const history = useTurnHistory(true);
  useEffect(() => setSplit(country.unitAllocation), [country.unitAllocation]);

  const rejection = checkUnitAllocation(split);
  const total = PRODUCED_UNIT_TYPES.reduce((s, u) => s + split[u], 0);
  const p = status.production;
  const lastProduced = history.data?.find((r) => r.militaryProduced.troops + r.militaryProduced.jets + r.militaryProduced.tanks + r.militaryProduced.turrets > 0);
  const facilities = Array.from({ length: Math.min(p.complexes, LISTED_FACILITIES) }, (_, i) => i + 1);

  const apply = async () => {
    if (rejection) return;
    setSaving(true);
    setMessage(null);
    try {
      const next = await militaryApi.setAllocation(country.id, split);
      queryClient.setQueryData(queryKeys.country(country.id), next);
      void queryClient.invalidateQueries({ queryKey: militaryKeys.status(country.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.productionStatus(country.id) });
      setMessage({ kind: "ok", text: "Production allocation saved." });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to update production allocation" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="stack" data-testid="unit-production">
      <div className="grid">
        <Panel title="Unit Production">
          <Stat label="Industrial complexes" value={`${fmt(p.activeComplexes)} active of ${fmt(p.complexes)}`} testId="production-complexes" />
          {PRODUCED_UNIT_TYPES.map((u) => (
            <Stat key={u} label={`${UNIT_LABELS[u]} per turn`} value={fmt(p.perTurn[u])} />
          ))}
          <Stat label="Production bonus" value={p.bonusPct > 0 ? `+${p.bonusPct}%` : "none"} />
          {country.oil === 0 && p.complexes > 0 && <p className="reason">No oil: jets and tanks are not built until oil returns.</p>}
          {p.complexes < RECOMMENDED_MIN_COMPLEXES && (
            <p className="hint" data-testid="complex-hint">
              Build more industrial complexes: you have {p.complexes}, at least {RECOMMENDED_MIN_COMPLEXES} keep an army growing.
            </p>
          )}
        </Panel>
        <Panel title="Production Allocation">
          <div className="row" style={{ marginBottom: "0.75rem" }}>
            {PRODUCTION_PRESET_IDS.map((id) => (
              <button key={id} type="button" className="btn small" onClick={() => setSplit({ ...PRODUCTION_PRESETS[id] })}>
                {titleCase(id)}
              </button>
            ))}
          </div>
          {PRODUCED_UNIT_TYPES.map((u) => (
            <div className="field" key={u}>
              <label htmlFor={`alloc-${u}`}>
                {UNIT_LABELS[u]}: {split[u]}%
              </label>
              <input id={`alloc-${u}`} type="range" min={0} max={100} value={split[u]} onChange={(e) => setSplit({ ...split, [u]: Number(e.target.value) })} />
            </div>
          ))}
          <Stat label="Total" value={<span className={total === 100 ? "ok" : "bad"}>{total}%</span>} />
          {rejection && (
            <p className="reason" role="note" data-testid="allocation-message">
              {rejection.message}
            </p>
          )}
          {message && <div className={`alert ${message.kind === "ok" ? "info" : "error"}`}>{message.text}</div>}
          <ActionButton disabledReason={rejection ? rejection.message : null} busy={saving} busyLabel="Saving..." onClick={apply}>
            Apply
          </ActionButton>
        </Panel>
      </div>
      <Panel title="Production Facilities">
        {p.complexes === 0 ? (
          <p className="muted">No industrial complexes yet: build them on the Build screen.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th className="n">Level</th>
                  <th>Status</th>
                  <th className="n">Capacity</th>
                  <th>Output per turn</th>
                  <th>Bonus</th>
                  <th>Last production</th>
                </tr>
              </thead>
              <tbody>
                {facilities.map((n) => (
                  <tr key={n}>
                    <td>Industrial Complex #{n}</td>
                    <td className="n">1</td>
                    <td>
                      <span className={`badge ${country.oil > 0 ? "ok" : "warn"}`}>{country.oil > 0 ? "active" : "idle (no oil)"}</span>
                    </td>
                    <td className="n">25</td>
                    <td className="small">{PRODUCED_UNIT_TYPES.map((u) => `${computeOutputPerComplex(split[u], u)} ${u}`).join(", ")}</td>
                    <td>{p.bonusPct > 0 ? `+${p.bonusPct}%` : "—"}</td>
                    <td className="small">{lastProduced ? dateTimeText(lastProduced.timestamp) : "—"}</td>
                  </tr>
                ))}
                {p.complexes > LISTED_FACILITIES && (
                  <tr>
                    <td colSpan={7} className="muted">
                      and {fmt(p.complexes - LISTED_FACILITIES)} more complexes like these
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}
