import { useMemo, useState } from "react";
import type { IntelligenceStatusJson, MissionResponse, SpyMissionJson } from "@game/schema/api";
import { MISSION_TYPES, MISSION_TYPE_IDS, chanceBand, checkMission, clampSpiesToSend, missionSuccess, shownChancePct, type DailyUsage, type MissionTypeId, type SpyForce } from "@game/schema/rules";
import type { Country } from "../../api/country";
import { espionageApi, useIntelligenceStatus, useSpyAction } from "../../api/espionage";
import { useTargetCountries } from "../../api/military";
import { ActionButton, Loading, Panel, Stat } from "../../components/ui";
import { fmt } from "../../components/format";
import { operationName } from "./ReportDetail";

const BAND_CLASS = { good: "ok", fair: "warn", poor: "bad" } as const;

/** Today's usage as the server counts it, from the status answer (the daily and cooldown rules' input). */
export function usageOf(s: Pick<IntelligenceStatusJson, "operationsUsed" | "usedByKind" | "lastMissionAt">): DailyUsage {
  return { used: s.operationsUsed, byKind: s.usedByKind, lastAt: s.lastMissionAt };
}

/** The country's side of a success chance, from the status answer. */
export function spyForceOf(s: Pick<IntelligenceStatusJson, "availableSpies" | "land" | "governmentType" | "spyTech" | "inAlliance" | "spySuccessBonusPct">): SpyForce {
  return { spies: s.availableSpies, land: s.land, governmentType: s.governmentType, spyTech: s.spyTech, inAlliance: s.inAlliance, bonusPct: s.spySuccessBonusPct };
}

/** Why a mission of `type` with `spiesSent` cannot go now: the server's checkMission on the same inputs, or null. */
export function missionBlocked(type: MissionTypeId, s: IntelligenceStatusJson, spiesSent: number, now: number): string | null {
  return checkMission(MISSION_TYPES[type], { spies: s.availableSpies, turns: s.turns }, spiesSent, usageOf(s), now)?.message ?? null;
}

/** The chance shown for `spiesSent` spies: the server's missionSuccess on the preview's target (a report's numbers, else parity). */
export function missionChancePct(type: MissionTypeId, s: IntelligenceStatusJson, spiesSent: number): number {
  return shownChancePct(missionSuccess(MISSION_TYPES[type], spyForceOf(s), spiesSent, s.successPreview.target, s.successPreview.spyDefensePct));
}

/**
 * The Intelligence Center (spec: alliance area, spy operations): daily operations remaining
 * of 30 (reset at midnight UTC), tiles, the type picker, target search, mission parameters and
 * 'Active & Recent Missions'. Every number comes from the server.
 */
export function IntelligenceCenter({ country }: { country: Country }) {
  const [type, setType] = useState<MissionTypeId | null>(null);
  const [targetId, setTargetId] = useState<number | null>(null);
  const [search, setSearch] = useState("");
  const [spiesInput, setSpiesInput] = useState("");
  const [result, setResult] = useState<MissionResponse | null>(null);
  const status = useIntelligenceStatus(country.id, targetId);
  const targets = useTargetCountries(true);
  const run = useSpyAction(country.id, espionageApi.mission);

  const list = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (targets.data?.countries ?? []).filter((c) => c.id !== country.id && (!q || c.name.toLowerCase().includes(q) || (c.alliance_name ?? "").toLowerCase().includes(q)));
  }, [targets.data, search, country.id]);

  if (status.isPending) return <Loading text="Loading intelligence center..." />;
  if (status.error || !status.data) return <div className="alert error">{(status.error as Error | null)?.message ?? "Failed to get intelligence status"}</div>;
  const s = status.data;
  const target = list.find((c) => c.id === targetId) ?? targets.data?.countries.find((c) => c.id === targetId) ?? null;
  const def = type ? MISSION_TYPES[type] : null;
  const spies = def ? clampSpiesToSend(def, s.availableSpies, spiesInput === "" ? def.spiesRequired : Number(spiesInput)) : 0;
  const now = Date.now();
  // the chance moves with the spies chosen; the same rule the server rolls against
  const chance = type ? missionChancePct(type, s, spies) : null;
  const estimate = s.successPreview.basis === "estimate";
  const chanceText = (pct: number) => (
    <span className={BAND_CLASS[chanceBand(pct)]} data-testid="ic-chance">
      {estimate ? `about ${pct}% (estimate)` : `${pct}%`}
    </span>
  );
  const blocked = type ? missionBlocked(type, s, spies, now) : null;
  const reason = !type ? "No operation type selected" : !target ? "No target selected" : blocked;

  const execute = () => {
    if (!type || !target) return;
    setResult(null);
    run.mutate({ type, targetCountryId: target.id, spiesUsed: spies }, { onSuccess: setResult });
  };

  return (
    <div className="stack" data-testid="intelligence-center">
      <Panel title="Intelligence Center" actions={<span className="small muted">Resets at midnight UTC</span>}>
        <p data-testid="ops-remaining">
          Daily operations remaining: <strong>{s.operationsRemaining}</strong> / {s.dailyLimit}
        </p>
        <div className="grid stats-grid">
          <Stat label="Available spies" value={fmt(s.availableSpies)} testId="ic-spies" />
          <Stat label="Spy technology" value={`Level ${s.spyTech}`} />
          <Stat label="Government bonus" value={`${s.governmentBonus > 0 ? "+" : ""}${s.governmentBonus}%`} />
          <Stat label="Success rate" value={chance === null ? "-" : chanceText(chance)} />
        </div>
        {(s.inAlliance || s.spySuccessBonusPct > 0) && (
          <p className="small muted">
            {s.inAlliance && "Alliance: force x1.1. "}
            {s.spySuccessBonusPct > 0 && `Intelligence Network and treaties: +${s.spySuccessBonusPct}% success.`}
          </p>
        )}
      </Panel>

      <Panel title="Operation Type">
        <div className="attack-cards">
          {MISSION_TYPE_IDS.map((id) => {
            const t = MISSION_TYPES[id];
            const why = missionBlocked(id, s, t.spiesRequired, now);
            return (
              <button key={id} type="button" className={`attack-card ${type === id ? "selected" : ""}`} disabled={Boolean(why)} onClick={() => setType(id)} data-testid={`mission-type-${id}`} title={why ?? undefined}>
                <strong>{t.name}</strong>
                <span className="small muted">{t.description}</span>
                <span className="small">
                  {t.spiesRequired} spies · {t.difficulty}% difficulty · {t.turnCost} turn · {t.cooldownHours ? `${t.cooldownHours} h cooldown` : "no cooldown"} · {s.usedByKind[id] ?? 0}/{t.maxDaily} today
                </span>
                {why && <span className="small bad">{why}</span>}
              </button>
            );
          })}
        </div>
      </Panel>

      <div className="grid two">
        <Panel title="Target">
          <div className="field">
            <label htmlFor="ic-search">Search</label>
            <input id="ic-search" className="input" placeholder="Country or alliance name" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          {targets.isPending ? (
            <Loading text="Loading targets..." />
          ) : list.length === 0 ? (
            <p className="muted">No countries match your search criteria</p>
          ) : (
            <ul className="target-list" style={{ maxHeight: 300 }}>
              {list.slice(0, 100).map((c) => (
                <li key={c.id}>
                  <button type="button" className={`target-row ${c.id === targetId ? "focused chosen" : ""}`} onClick={() => setTargetId(c.id)} data-testid="ic-target">
                    <span className="target-name">{c.name}</span>
                    <span className="small muted">
                      {c.government_type} · {fmt(Number(c.land))} acres{c.alliance_name ? ` · ${c.alliance_name}` : ""}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title="Mission Parameters">
          <Stat label="Target" value={target ? target.name : "none"} />
          <Stat label="Operation" value={def ? def.name : "none"} />
          {def && (
            <div className="field">
              <label htmlFor="ic-spies-input">
                Spies to deploy ({def.spiesRequired} to {Math.max(def.spiesRequired, Math.min(s.availableSpies, 3 * def.spiesRequired))})
              </label>
              <input
                id="ic-spies-input"
                className="input"
                type="number"
                min={def.spiesRequired}
                max={3 * def.spiesRequired}
                value={spiesInput === "" ? spies : spiesInput}
                onChange={(e) => setSpiesInput(e.target.value)}
                onBlur={() => setSpiesInput(String(spies))}
              />
            </div>
          )}
          <Stat label="Success chance" value={chance === null ? "-" : chanceText(chance)} />
          <Stat label="Turn cost" value={def ? def.turnCost : "-"} />
          <p className="small faint">
            {estimate
              ? "Estimate: the target's spies are unknown until you gather military intelligence, so it is assumed to hold as many spies per acre as you do. The mission rolls against its real numbers."
              : "Chance from your latest military report on this target."}
          </p>
          <ActionButton block disabledReason={reason} busy={run.isPending} busyLabel="Executing..." onClick={execute} data-testid="ic-execute">
            Execute Mission
          </ActionButton>
          {run.error && (
            <div className="alert error" role="alert">
              {(run.error as Error).message}
            </div>
          )}
          {result && <MissionOutcome result={result} />}
        </Panel>
      </div>

      <Panel title="Active & Recent Missions">
        <RecentMissions missions={s.recentMissions} />
      </Panel>
    </div>
  );
}

/** The outcome card: 'Mission Successful' / 'Mission Failed', 'Operation detected...', 'Spies lost: N'. */
export function MissionOutcome({ result }: { result: MissionResponse }) {
  const ok = result.mission.results.success;
  return (
    <div className={`alert ${ok ? "info" : "error"}`} role="status" data-testid="mission-outcome">
      <strong>{result.message}</strong>
      {result.details.map((d) => (
        <div key={d}>{d}</div>
      ))}
      {ok && result.report.confidenceLevel && <div className="small">Confidence: {result.report.confidenceLevel}. The report is in Intelligence Reports.</div>}
    </div>
  );
}

export function RecentMissions({ missions }: { missions: SpyMissionJson[] }) {
  if (missions.length === 0) return <p className="muted">No active missions</p>;
  return (
    <ul className="plain-list" data-testid="recent-missions">
      {missions.map((m) => (
        <li key={m.id} className="list-card">
          <div>
            <strong>{operationName(m.operationType)}</strong> → {m.targetCountryName}
            <p className="small muted">
              {new Date(m.startTime).toLocaleString()} · {m.spiesUsed} spies · actual chance {Math.min(100, m.successChance)}%{m.results.detected && " · detected"}
              {m.results.spiesLost > 0 && ` · spies lost: ${m.results.spiesLost}`}
            </p>
          </div>
          <span className={`badge ${m.status === "completed" ? "ok" : "bad"}`}>{m.status}</span>
        </li>
      ))}
    </ul>
  );
}
