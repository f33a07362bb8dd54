import type { KnownIntelligence } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

/**
 * What a country knows of another's forces: its freshest unexpired military intelligence
 * report (estimated units and their confidence), or null.
 *
 * This is the seam the espionage work fills: the spy reports are its tables, so until it lands
 * nobody knows anything and every preview and target analysis uses public fields only. The
 * combat service never reads the target's live private numbers for a preview; it passes what
 * this returns to the pure rules (previewAttack, analyzeTarget).
 */
export async function knownIntelligence(_db: Db | DbClient, _observerId: number, _targetId: number, _now: Date): Promise<KnownIntelligence | null> {
  return null;
}
