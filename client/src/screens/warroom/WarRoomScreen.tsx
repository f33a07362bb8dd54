import { useMemo, useState } from "react";
import type { WarDeclarationJson } from "@game/schema/api";
import {
  DAILY_LAND_LOSS_CAP_PCT,
  HOUR_MS,
  LAND_GRAB_MAX_PCT,
  LAND_GRAB_MIN_PCT,
  LOWEST_POWER_BAND,
  PLANNED_STRIKE_BONUS_PCT,
  PLANNED_STRIKE_PREP_MS,
  PLANNED_STRIKE_REHAB_MS,
  POWER_BANDS,
  VICTORY_THRESHOLD,
  WAR_ATTACK_BONUS_PCT,
  WAR_COST_PER_ACRE_PER_TURN,
  WAR_MIN_DURATION_MS,
  WAR_ROOM_POWER_WEIGHTS,
  checkDeclareWar,
  warRoomPower,
} from "@game/schema/rules";
import { useConfirmAction } from "../../components/confirm";
import { useGame } from "../../game/GameContext";
import { militaryApi, useBattleReports, useBrigades, useMilitaryRefresh, useWarDeclarations } from "../../api/military";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { dateTimeText, durationText, fmt, hoursText, money } from "../../components/format";
import { chanceText, useTargets, protectionText, type TargetRow } from "../military/TargetPanel";
import { selection } from "../military/selection";
import type { Route } from "../shell/navigation";
import { viewerWon } from "../military/BattleReportView";

type RoomTab = "targets" | "declarations" | "strategy" | "intel";

const STATUS_BADGE: Record<WarDeclarationJson["status"], string> = { active: "bad", cooldown: "warn", ended: "" };

/**
 * The War Room: active wars, military power, ready brigades and potential targets; Target
 * Analysis with war declarations (a target under an active declaration shows the +10% bonus),
 * War Declarations with their status and time, Battle Strategy and Military Intel.
 */
export function WarRoomScreen({ onNavigate }: { onNavigate(route: Route): void }) {
  const { country, countryError } = useGame();
  const [tab, setTab] = useState<RoomTab>("targets");
  const wars = useWarDeclarations(Boolean(country));
  const brigades = useBrigades(country?.id);
  const active = useMemo(() => new Set((wars.data ?? []).flatMap((w) => (w.isDeclarer && w.status === "active" && w.targetId !== null ? [w.targetId] : []))), [wars.data]);
  const { rows, query } = useTargets(country, active);
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading war data..." />;
  // the server's checkAttackTarget on each: protection, the networth band, alliance and GDI
  const attackable = rows.filter((r) => r.refusal === null);
  // what a war declaration would open too (it passes the GDI)
  const reachable = rows.filter((r) => r.refusalAtWar === null);
  return (
    <div className="stack" data-testid="war-room">
      <div className="page-header">
        <h1>War Room</h1>
      </div>
      <div className="grid">
        <Panel title="Command Summary">
          <Stat label="Active wars" value={fmt(active.size)} testId="wr-active-wars" />
          <Stat label="Military power" value={fmt(warRoomPower(country))} />
          <Stat label="Brigades ready" value={brigades.data ? fmt(brigades.data.ready) : "..."} testId="wr-brigades" />
          <Stat label="Potential targets" value={query.isPending ? "..." : fmt(attackable.length)} />
        </Panel>
      </div>
      <Tabs
        label="War room sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "targets", label: "Target Analysis" },
          { id: "declarations", label: "War Declarations" },
          { id: "strategy", label: "Battle Strategy" },
          { id: "intel", label: "Military Intel" },
        ]}
      />
      {tab === "targets" &&
        (query.isPending ? (
          <Loading text="Loading potential targets..." />
        ) : (
          <TargetAnalysisTab
            rows={reachable}
            active={active}
            declarations={wars.data ?? []}
            onAttack={(r) => {
              selection.selectTarget({ id: r.country.id, name: r.country.name });
              onNavigate({ view: "military", intent: "combat" });
            }}
          />
        ))}
      {tab === "declarations" && <DeclarationsTab wars={wars} />}
      {tab === "strategy" && <StrategyTab />}
      {tab === "intel" && <IntelTab />}
    </div>
  );
}

function TargetAnalysisTab({ rows, active, declarations, onAttack }: { rows: TargetRow[]; active: ReadonlySet<number>; declarations: WarDeclarationJson[]; onAttack(r: TargetRow): void }) {
  const { country } = useGame();
  const refresh = useMilitaryRefresh(country?.id);
  const confirmAction = useConfirmAction();
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  if (!country) return null;
  const declare = async (r: TargetRow) => {
    const cost = WAR_COST_PER_ACRE_PER_TURN * r.land;
    if (!confirmAction(`Declare war on ${r.country.name}? It costs ${money(cost)} per turn and lasts at least ${WAR_MIN_DURATION_MS / HOUR_MS} hours.`, { always: true })) return;
    setBusy(r.country.id);
    setMessage(null);
    try {
      await militaryApi.declareWar(r.country.id);
      refresh();
      setMessage({ kind: "info", text: `War declared on ${r.country.name}.` });
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Failed to declare war" });
    } finally {
      setBusy(null);
    }
  };
  const now = Date.now();
  return (
    <Panel title="Target Analysis">
      {message && <div className={`alert ${message.kind}`}>{message.text}</div>}
      {rows.length === 0 ? (
        <div className="center muted">
          <p>No countries match your search criteria</p>
          <p className="hint">Try adjusting your filters</p>
        </div>
      ) : (
        <ul className="target-list">
          {rows.map((r) => {
            const atWar = active.has(r.country.id);
            const rejection = atWar
              ? null
              : checkDeclareWar({
                  declarerId: country.id,
                  target: { id: r.country.id, land: r.land, isEliminated: r.country.is_eliminated, protectedUntil: Date.parse(r.country.protected_until), allianceId: r.country.alliance_id },
                  declarerAllianceId: country.allianceId,
                  cash: country.cash,
                  existing: declarations
                    .filter((d) => d.isDeclarer && d.targetId === r.country.id)
                    .map((d) => ({ declarerId: d.declarerId, targetId: d.targetId, declaredAt: Date.parse(d.declaredAt), endedAt: d.endedAt ? Date.parse(d.endedAt) : null })),
                  activeWars: active.size,
                  now,
                });
            return (
              <li key={r.country.id} className="target-row static" data-testid={`wr-target-${r.country.id}`}>
                <span className="target-name">
                  {r.country.name} {atWar && <span className="badge bad">At war: +{WAR_ATTACK_BONUS_PCT}% attack</span>}
                </span>
                <span className="small muted">
                  {fmt(r.networth)} nw · {fmt(r.land)} acres · {protectionText(r.country.protection_status)}
                  {r.refusal ? "" : ` · ${r.analysis.threat} (${chanceText(r.analysis)})`}
                </span>
                <div className="row">
                  <ActionButton className="small" disabledReason={r.refusal} onClick={() => onAttack(r)}>
                    Attack
                  </ActionButton>
                  {!atWar && (
                    <ActionButton variant="danger" className="small" disabledReason={rejection?.message ?? null} busy={busy === r.country.id} busyLabel="..." onClick={() => declare(r)}>
                      Declare war ({money(WAR_COST_PER_ACRE_PER_TURN * r.land)}/turn)
                    </ActionButton>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

function DeclarationsTab({ wars }: { wars: ReturnType<typeof useWarDeclarations> }) {
  const { country } = useGame();
  const refresh = useMilitaryRefresh(country?.id);
  const [error, setError] = useState<string | null>(null);
  if (wars.isPending) return <Loading text="Loading war data..." />;
  if (wars.isError) return <div className="alert error">{wars.error.message}</div>;
  const end = async (w: WarDeclarationJson) => {
    setError(null);
    try {
      await militaryApi.endWar(w.id);
      refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to end the war");
    }
  };
  return (
    <Panel title="War Declarations">
      {error && <div className="alert error">{error}</div>}
      {wars.data.length === 0 ? (
        <p className="muted">No wars declared by or on your country.</p>
      ) : (
        <ul className="plain-list" data-testid="war-declarations">
          {wars.data.map((w) => (
            <li key={w.id} className="war-row">
              <div className="row between">
                <strong>{w.isDeclarer ? `You declared war on ${w.targetName}` : `${w.declarerName} declared war on you`}</strong>
                <span className={`badge ${STATUS_BADGE[w.status]}`}>{w.status}</span>
              </div>
              <div className="small muted">
                Declared {dateTimeText(w.declaredAt)} · {money(w.totalCost)} paid · {money(w.costPerTurn)} per turn
                {w.endReason === "bankrupt" ? " · ended: could not pay" : w.endReason === "season_end" ? " · ended with the season" : w.endReason === "country_deleted" ? " · ended: the other country left" : ""}
              </div>
              {w.status !== "ended" && w.remainingTime > 0 && (
                <div className="small">{w.status === "active" ? `Minimum duration: ${durationText(w.remainingTime * 1000)} left` : `Cooldown: ${durationText(w.remainingTime * 1000)} left`}</div>
              )}
              {w.isDeclarer && w.status === "active" && (
                <ActionButton variant="" className="small" disabledReason={w.canEnd ? null : "A war lasts at least 48 hours"} onClick={() => end(w)}>
                  Make peace
                </ActionButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        A war costs ${WAR_COST_PER_ACRE_PER_TURN} per target acre per turn, gives +{WAR_ATTACK_BONUS_PCT}% attack against the target and passes its GDI protection. It lasts at least 48 hours; peace comes automatically when you cannot pay.
      </p>
    </Panel>
  );
}

function StrategyTab() {
  return (
    <div className="grid">
      <Panel title="Battle Strategy">
        <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
          <BattleRulesHelp />
          <li>Guerrilla strikes fight troops only; bombing runs meet only turrets; artillery meets only tanks.</li>
          <li>Missiles destroy land and people instead of capturing them; SDI, air defense and turrets intercept.</li>
        </ul>
      </Panel>
      <Panel title="Power Ratio Bands">
        <PowerBandsHelp />
      </Panel>
    </div>
  );
}

function IntelTab() {
  const reports = useBattleReports({});
  const recent = (reports.data?.reports ?? []).slice(0, 5);
  return (
    <div className="grid">
      <Panel title="Military Intel">
        <p className="muted">No intelligence data available</p>
        <p className="hint">Spy reports on a target's forces sharpen the attack preview and the target analysis.</p>
      </Panel>
      <Panel title="Recent Combat">
        {reports.isPending ? (
          <p className="muted">Loading battle reports...</p>
        ) : recent.length === 0 ? (
          <p className="muted">No recent combat activity</p>
        ) : (
          recent.map((r) => <Stat key={r.id} label={r.isPlayerAttacker ? `vs ${r.defenderName}` : `by ${r.attackerName}`} value={<span className={viewerWon(r) ? "ok" : "bad"}>{viewerWon(r) ? "Victory" : "Defeat"}</span>} />)
        )}
      </Panel>
    </div>
  );
}

const ratioText = (r: number) => r.toFixed(1);

/** The power ratio bands and the power formula, written from POWER_BANDS and WAR_ROOM_POWER_WEIGHTS (issue 26: help text from constants). */
export function PowerBandsHelp() {
  const lowest = POWER_BANDS[POWER_BANDS.length - 1]!;
  const w = WAR_ROOM_POWER_WEIGHTS;
  return (
    <div data-testid="help-power-bands">
      {POWER_BANDS.map((b, i) => (
        <Stat key={b.band} label={i === 0 ? `${ratioText(b.minRatio)} and above` : ratioText(b.minRatio)} value={b.band} />
      ))}
      <Stat label={`below ${ratioText(lowest.minRatio)}`} value={LOWEST_POWER_BAND} />
      <p className="hint" data-testid="help-power">
        Your power: troops{w.troops === 1 ? "" : ` x ${w.troops}`} + jets x {w.jets} + tanks x {w.tanks} + turrets x {w.turrets}. A target&apos;s power is known only from intelligence.
      </p>
    </div>
  );
}

/** The battle rules the strategy tab explains, written from the rules' constants (issue 26: help text from constants). */
export function BattleRulesHelp() {
  return (
    <>
      <li data-testid="help-victory">An attack wins when its power exceeds the defence by {Math.round((VICTORY_THRESHOLD - 1) * 100)}%.</li>
      <li data-testid="help-land">
        Standard strikes take {LAND_GRAB_MIN_PCT}-{LAND_GRAB_MAX_PCT}% of the target's land (more from larger targets); repeated hits on one target within a day take less, and no country loses more than {DAILY_LAND_LOSS_CAP_PCT}% of its
        land in a day.
      </li>
      <li data-testid="help-planned">
        Planned strikes prepare {hoursText(PLANNED_STRIKE_PREP_MS)} for +{PLANNED_STRIKE_BONUS_PCT}% strength; their units rest {hoursText(PLANNED_STRIKE_REHAB_MS)} after.
      </li>
    </>
  );
}
