import type { KnownIntelligence } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";
import { freshestMilitaryReport, freshestMilitaryReports, type ReportRow } from "./espionage.js";

/**
 * What a country knows of another's forces: its freshest unexpired military intelligence
 * report (estimated units and their confidence), or null.
 *
 * The espionage tables answer it (db/espionage.ts): the observer's own successful military
 * report on the target (military reconnaissance, technology assessment, an Intelligence Center
 * military mission), or one a member of its alliance shared and may still show (privacy:
 * docs/rules.md, "Espionage"), the newest first, expired ones never. The combat service never
 * reads the target's live private numbers for a preview; it passes what this returns to the
 * pure rules (previewAttack, analyzeTarget).
 */
export async function knownIntelligence(db: Db | DbClient, observerId: number, targetId: number, now: Date): Promise<KnownIntelligence | null> {
  const { rows } = await db.query<{ alliance_id: number | null }>("SELECT alliance_id::int FROM countries WHERE id = $1", [observerId]);
  const report = await freshestMilitaryReport(db, observerId, rows[0]?.alliance_id ?? null, targetId, now);
  return report ? toKnown(report) : null;
}

/** What an observer knows of every target it has fresh military intelligence on (the target list's analysis). */
export async function knownIntelligenceOfAll(db: Db | DbClient, observerId: number, observerAllianceId: number | null | "current", now: Date): Promise<Record<number, KnownIntelligence>> {
  const out: Record<number, KnownIntelligence> = {};
  for (const report of await freshestMilitaryReports(db, observerId, observerAllianceId, now)) {
    const known = toKnown(report);
    // a former country (deleted account) is no target any more
    if (known && report.target_id !== null) out[report.target_id] = known;
  }
  return out;
}

function toKnown(report: ReportRow): KnownIntelligence | null {
  if (!report.intelligence || !("military" in report.intelligence) || !report.confidence) return null;
  const m = report.intelligence.military;
  return { estimatedUnits: m.estimatedUnits, confidence: report.confidence, gatheredAt: report.created_at.getTime(), militaryTech: m.militaryTech };
}
