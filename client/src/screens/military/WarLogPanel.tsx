import { useEffect, useState } from "react";
import { ATTACK_TYPES, WAR_LOG_FILTERS } from "@game/schema/rules";
import { useBattleReports } from "../../api/military";
import { Loading, Panel } from "../../components/ui";
import { dateTimeText, fmt } from "../../components/format";
import { BattleReportView, viewerWon } from "./BattleReportView";

/** War Log: the battles the country fought, filtered by type and outcome, each expandable to its full report. */
export function WarLogPanel({ focusId }: { focusId?: number | null }) {
  const [type, setType] = useState<string>("All");
  const [outcome, setOutcome] = useState<"" | "victory" | "defeat">("");
  const [open, setOpen] = useState<number | null>(focusId ?? null);
  const attackType = WAR_LOG_FILTERS.find((f) => f.label === type)?.attackType ?? undefined;
  const reports = useBattleReports({ attackType, outcome: outcome || undefined });
  // Opened for one report (a notice's View): bring it into sight once the list has it.
  const focusLoaded = focusId != null && reports.data?.reports.some((r) => r.id === focusId);
  useEffect(() => {
    if (focusLoaded) document.querySelector(`[data-testid="war-log-${focusId}"]`)?.scrollIntoView?.({ block: "start" });
  }, [focusLoaded, focusId]);
  return (
    <div className="stack" data-testid="war-log">
      <Panel title="War Log">
        <div className="row">
          <div className="field">
            <label htmlFor="wl-type">Attack type</label>
            <select id="wl-type" value={type} onChange={(e) => setType(e.target.value)}>
              {WAR_LOG_FILTERS.map((f) => (
                <option key={f.label} value={f.label}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="wl-outcome">Outcome</label>
            <select id="wl-outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)}>
              <option value="">All</option>
              <option value="victory">Victories</option>
              <option value="defeat">Defeats</option>
            </select>
          </div>
        </div>
      </Panel>
      {reports.isPending ? (
        <Loading text="Loading war log..." />
      ) : reports.isError ? (
        <div className="alert error">{reports.error.message}</div>
      ) : reports.data.reports.length === 0 ? (
        <div className="panel center muted" data-testid="war-log-empty">
          No battles match your filters
        </div>
      ) : (
        <div className="stack" aria-busy={reports.isFetching || undefined}>
          {reports.isFetching && <p className="hint">Loading battle reports...</p>}
          {reports.data.reports.map((r) => {
            const won = viewerWon(r);
            const expanded = open === r.id;
            return (
              <section key={r.id} className="panel war-log-entry" data-testid={`war-log-${r.id}`}>
                <button type="button" className="war-log-head" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : r.id)}>
                  <span className={`badge ${won ? "ok" : "bad"}`}>{won ? "Victory" : "Defeat"}</span>
                  <span>
                    {r.isPlayerAttacker ? `You attacked ${r.defenderName}` : `${r.attackerName} attacked you`} · {ATTACK_TYPES[r.attackType]?.name ?? r.attackType}
                  </span>
                  <span className="small muted">
                    {r.landCaptured + r.landDestroyed > 0 ? `${fmt(r.landCaptured + r.landDestroyed)} acres · ` : ""}
                    {dateTimeText(r.timestamp)}
                  </span>
                </button>
                {expanded && <BattleReportView report={r} />}
              </section>
            );
          })}
        </div>
      )}
    </div>
  );
}
