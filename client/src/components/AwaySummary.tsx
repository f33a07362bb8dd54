import { useEffect, useId, useState } from "react";
import type { AwaySummaryResponse } from "@game/schema/api";
import { ATTACK_TYPES, type AttackTypeId } from "@game/schema/rules";
import { newsApi } from "../api/news";
import { fmt, money } from "./format";
import { ReplayToggle } from "../screens/military/BattleReportView";

/** An absence shorter than this brings no summary (ms): a reload or a quick tab switch is not a visit. */
export const AWAY_MIN_MS = 15 * 60_000;
/** How often the open, visible game records that the player is here (ms). */
const PRESENCE_EVERY_MS = 30_000;

/** Where this browser remembers the player's last visit (per user). */
export const lastSeenKey = (userId: number) => `last_seen_at:${userId}`;

function readLastSeen(userId: number): number | null {
  const v = Number(localStorage.getItem(lastSeenKey(userId)));
  return Number.isFinite(v) && v > 0 ? v : null;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmt(n)} ${n === 1 ? one : many}`;
}

function awayFor(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.round(hours / 24), "day");
}

/** The summary's lines, in the order a player cares about; empty when nothing happened. */
export function awayLines(s: AwaySummaryResponse): string[] {
  const lines: string[] = [];
  if (s.attacksReceived > 0) {
    lines.push(`Attacked ${plural(s.attacksReceived, "time")}: ${fmt(s.attacksRepelled)} repelled${s.landLost > 0 ? `, ${plural(s.landLost, "acre")} lost` : ""}.`);
  }
  if (s.attacksMade > 0) lines.push(`Your attacks: ${fmt(s.attacksWon)} of ${fmt(s.attacksMade)} won${s.landGained > 0 ? `, ${plural(s.landGained, "acre")} taken` : ""}.`);
  if (s.spyDetections > 0) lines.push(`Foreign spies detected ${plural(s.spyDetections, "time")}.`);
  if (s.tradesFilled > 0) lines.push(`${plural(s.tradesFilled, "trade")} filled for ${money(s.tradeValue)}.`);
  if (s.allianceOperations > 0) lines.push(`${plural(s.allianceOperations, "alliance operation")} planned or carried out.`);
  if (s.defenseRequests > 0) lines.push(`${plural(s.defenseRequests, "call", "calls")} for help from your allies.`);
  if (s.rankBefore !== null && s.rankNow !== null && s.rankBefore !== s.rankNow) {
    lines.push(`Rank ${s.rankNow < s.rankBefore ? "up" : "down"} from #${fmt(s.rankBefore)} to #${fmt(s.rankNow)}.`);
  }
  return lines;
}

/**
 * "While you were away" (issue 30): when the game opens, or its tab comes back, after an
 * absence of AWAY_MIN_MS or more, a summary of what happened since the last visit, from the
 * server's news. The last visit is this browser's: the time the game was last open and visible.
 */
export function AwaySummary({ userId }: { userId: number }) {
  const [summary, setSummary] = useState<AwaySummaryResponse | null>(null);
  const headingId = useId();

  useEffect(() => {
    const seen = () => localStorage.setItem(lastSeenKey(userId), String(Date.now()));
    const check = () => {
      const last = readLastSeen(userId);
      if (last !== null && Date.now() - last >= AWAY_MIN_MS) {
        newsApi.awaySummary(new Date(last)).then(
          (s) => setSummary(awayLines(s).length > 0 || s.battles.length > 0 ? s : null),
          () => undefined,
        );
      }
      seen();
    };
    if (document.visibilityState === "visible") check();
    const onVisibility = () => (document.visibilityState === "visible" ? check() : seen());
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", seen);
    const timer = setInterval(() => document.visibilityState === "visible" && seen(), PRESENCE_EVERY_MS);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", seen);
      clearInterval(timer);
    };
  }, [userId]);

  if (!summary) return null;
  const lines = awayLines(summary);
  return (
    <section className="panel away-summary" aria-labelledby={headingId} data-testid="away-summary">
      <div className="row between">
        <h2 id={headingId} style={{ margin: 0 }}>
          While you were away
        </h2>
        <button type="button" className="btn small ghost" onClick={() => setSummary(null)} data-testid="away-dismiss">
          Dismiss
        </button>
      </div>
      <p className="muted small" style={{ margin: "0.3rem 0 0.5rem" }}>
        Away for {awayFor(Date.parse(summary.until) - Date.parse(summary.since))}.
      </p>
      <ul className="away-lines" data-testid="away-lines">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {summary.battles.length > 0 && (
        <>
          <h3 className="away-sub">Battles</h3>
          <ul className="away-battles">
            {summary.battles.map((b) => (
              <li key={b.battleId} data-testid={`away-battle-${b.battleId}`}>
                <span className={b.won ? "ok" : "bad"}>{b.won ? "Won" : "Lost"}</span> {b.role === "defender" ? `${b.opponentName} attacked you` : `You attacked ${b.opponentName}`} (
                {ATTACK_TYPES[b.attackType as AttackTypeId]?.name ?? b.attackType}
                {b.land > 0 ? `, ${plural(b.land, "acre")}` : ""})
                <ReplayToggle battleId={b.battleId} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
