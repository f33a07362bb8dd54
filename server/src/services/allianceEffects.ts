import { computeAllianceEffects, computeDiplomaticEffects, type BonusPurchase, type EconomyBonuses, type RelationType } from "@game/schema/rules";
import type { Db, DbClient } from "../db/pool.js";

/**
 * The outside bonuses the economy turn applies to a country now: its alliance's research and
 * income bonuses in force (Collaborative Research, Research Sprint, Economic Surge) and the
 * research relations it holds. One query (the alliance's purchases and the country's
 * relations together), so an economy action can run it beside its row lock.
 */
export async function economyBonusesOf(db: Db | DbClient, countryId: number, now: number): Promise<EconomyBonuses> {
  const { rows } = await db.query<{ bonus_id: string | null; level: number | null; purchased_at: Date | null; expires_at: Date | null; relation_type: RelationType | null }>({
    name: "economy_bonuses",
    text: `SELECT p.bonus_id, p.level, p.purchased_at, p.expires_at, NULL::text AS relation_type
           FROM countries c JOIN alliance_bonus_purchases p ON p.alliance_id = c.alliance_id WHERE c.id = $1
           UNION ALL
           SELECT NULL, NULL, NULL, NULL, r.relation_type FROM diplomatic_relations r
           WHERE r.status = 'active' AND (r.from_country_id = $1 OR (r.to_country_id = $1 AND r.relation_type <> 'trade'))`,
    values: [countryId],
  });
  const purchases: BonusPurchase[] = rows
    .filter((r) => r.bonus_id !== null)
    .map((r) => ({ bonusId: r.bonus_id!, level: r.level!, purchasedAt: r.purchased_at!.getTime(), expiresAt: r.expires_at?.getTime() ?? null }));
  const alliance = computeAllianceEffects(purchases, now);
  const diplomacy = computeDiplomaticEffects(rows.filter((r) => r.relation_type !== null).map((r) => r.relation_type!));
  return { researchPct: alliance.researchPct + diplomacy.researchPct, incomePct: alliance.incomePct };
}
