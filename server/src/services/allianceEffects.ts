import { computeAllianceEffects, computeDiplomaticEffects, type BonusPurchase, type EconomyBonuses, type RelationType } from "@game/schema/rules";
import { sqlLiteral } from "../db/sqlLiteral.js";

/**
 * Everything a country's economy bonuses depend on, as one SQL expression yielding JSON text
 * (the database function economy_bonus_inputs, migration 018): its alliance's bonus purchases
 * and the relations it holds. An economy action reads it with its row lock (the action's
 * contextSql), and an optimistic write holds only while it yields the same text
 * (services/actions.ts).
 */
export function economyBonusInputsSql(countryId: number): string {
  return `SELECT economy_bonus_inputs(${sqlLiteral(countryId)})`;
}

type BonusInput = [bonusId: string | null, level: number | null, purchasedAt: number | null, expiresAt: number | null, relationType: RelationType | null];

/**
 * The outside bonuses the economy turn applies to a country at `now`, from its bonus inputs
 * (economyBonusInputsSql): its alliance's research and income bonuses in force (Collaborative
 * Research, Research Sprint, Economic Surge) and the research relations it holds.
 */
export function economyBonusesFromInputs(inputsJson: string, now: number): EconomyBonuses {
  const inputs = JSON.parse(inputsJson) as BonusInput[];
  const purchases: BonusPurchase[] = [];
  const relations: RelationType[] = [];
  for (const [bonusId, level, purchasedAt, expiresAt, relationType] of inputs) {
    if (bonusId !== null) purchases.push({ bonusId, level: level!, purchasedAt: purchasedAt!, expiresAt });
    if (relationType !== null) relations.push(relationType);
  }
  const alliance = computeAllianceEffects(purchases, now);
  const diplomacy = computeDiplomaticEffects(relations);
  return { researchPct: alliance.researchPct + diplomacy.researchPct, incomePct: alliance.incomePct };
}
