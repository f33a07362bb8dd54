import type { BattleReportJson } from "@game/schema/api";

/** Whether the report is a victory from the viewer's side (the report and its replay both say it). */
export function viewerWon(r: BattleReportJson): boolean {
  return r.isPlayerAttacker ? r.outcome === "attacker_victory" : r.outcome === "defender_victory";
}
