import { computeMarketFeeModifiers, computeTradePoints, type FeeModifier, type MarketFeeInputs } from "@game/schema/rules";
import type { ActionTransaction } from "./actions.js";
import type { Db, DbClient } from "../db/pool.js";
import { creditAlliancePoints } from "./alliances.js";

/**
 * What alliances and diplomacy do to the market, for the market service to call inside a
 * trade's transaction: the fee modifiers of a public trade, and the bonus points and shared
 * resources a trade earns.
 */

/**
 * What a public trade's fee reductions depend on (schema's `MarketFeeInputs`): the seller's
 * alliance's Market Discount purchases and whether a trade agreement joins seller and buyer.
 * With `buyerId === sellerId` no agreement can match (no country holds a relation with itself):
 * the seller's own half, which the sell preview reads through the store's answer.
 */
export async function marketFeeInputs(db: Db | DbClient, sellerId: number, buyerId: number): Promise<MarketFeeInputs> {
  // One round trip inside the trade's transaction: the seller's alliance's discount purchases
  // and whether a trade agreement joins the two.
  const { rows } = await db.query<{ bonus_id: string | null; level: number | null; purchased_at: Date | null; expires_at: Date | null; agreement: boolean }>({
    name: "market_fee_modifiers",
    text: `SELECT p.bonus_id, p.level, p.purchased_at, p.expires_at, false AS agreement
           FROM countries c JOIN alliance_bonus_purchases p ON p.alliance_id = c.alliance_id AND p.bonus_id = 'market_discount'
           WHERE c.id = $1
           UNION ALL
           SELECT NULL, NULL, NULL, NULL, true FROM diplomatic_relations
           WHERE status = 'active' AND relation_type = 'trade'
             AND ((from_country_id = $1 AND to_country_id = $2) OR (from_country_id = $2 AND to_country_id = $1))`,
    values: [sellerId, buyerId],
  });
  return {
    sellerDiscountPurchases: rows.filter((r) => r.bonus_id !== null).map((r) => ({ bonusId: r.bonus_id!, level: r.level!, purchasedAt: r.purchased_at!.getTime(), expiresAt: r.expires_at?.getTime() ?? null })),
    tradeAgreement: rows.some((r) => r.agreement),
  };
}

/**
 * The seller pays the public fee, so the seller's alliance's Market Discount lowers it (each
 * level takes 10% of the 5% fee: 50 basis points); a trade agreement either side holds with the
 * other takes 2 percentage points (200 basis points) off trades between the two. The rule is
 * schema's `computeMarketFeeModifiers`, which the sell preview calls too.
 */
export async function marketFeeModifiers(db: Db | DbClient, sellerId: number, buyerId: number, now: Date): Promise<FeeModifier[]> {
  return computeMarketFeeModifiers(await marketFeeInputs(db, sellerId, buyerId), now.getTime());
}

/**
 * A trade between two countries earns each side's alliance 1 bonus point per $10,000 (spec),
 * credited once per trade and side; a trade between two members of one alliance counts as
 * resources shared by both.
 */
export async function creditTrade(tx: Pick<ActionTransaction, "client" | "emit">, trade: { id: number; total: number; buyerId: number | null; sellerId: number | null }): Promise<void> {
  const ids = [trade.buyerId, trade.sellerId].filter((id): id is number => id !== null);
  if (ids.length === 0) return;
  // Credited in ascending alliance id order, as every path that writes alliance rows takes them
  // (docs/architecture.md "Lock order"): two trades between members of the same two alliances,
  // one each way, credited each side's alliance in country order and deadlocked (issue 27).
  const { rows } = await tx.client.query<{ id: number; alliance_id: number | null }>("SELECT id, alliance_id FROM countries WHERE id = ANY($1::bigint[]) ORDER BY alliance_id, id", [ids]);
  const points = computeTradePoints(trade.total);
  for (const row of rows) {
    if (row.alliance_id === null || points <= 0) continue;
    await creditAlliancePoints(tx, { allianceId: row.alliance_id, countryId: row.id, source: "trade", ref: `${trade.id}:${row.id}`, points });
  }
  const [a, b] = rows;
  if (rows.length === 2 && a!.alliance_id !== null && a!.alliance_id === b!.alliance_id) {
    await tx.client.query("UPDATE alliance_members SET resources_shared = resources_shared + $3 WHERE alliance_id = $1 AND country_id = ANY($2::bigint[])", [a!.alliance_id, ids, trade.total]);
  }
}
