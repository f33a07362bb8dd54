import { computeAllianceEffects, computeDiplomaticEffects, type BonusPurchase, type EconomyBonuses, type RelationType } from "@game/schema/rules";
import type { Db, DbClient } from "../db/pool.js";

/**
 * Everything a country's economy bonuses depend on, as JSON text: the database function
 * economy_bonus_inputs(country id) (migration 018) yields its alliance's bonus purchases and the
 * relations it holds. An economy action reads it with its row lock (the action's
 * contextFunction); whatever changes those inputs touches the country's row (migration 020),
 * so an optimistic write's version guard covers them (services/actions.ts).
 */
export const ECONOMY_BONUS_INPUTS = "economy_bonus_inputs";

type BonusInput = [bonusId: string | null, level: number | null, purchasedAt: number | null, expiresAt: number | null, relationType: RelationType | null];

/**
 * The outside bonuses the economy turn applies to a country at `now`, from its bonus inputs
 * (ECONOMY_BONUS_INPUTS): its alliance's research and income bonuses in force (Collaborative
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

/**
 * The outside bonuses in force for a country now, read as an economy action reads them (the
 * same database function, the same rule): the read models' production and research figures and
 * the client's income previews use them, so a preview says what spending a turn will give.
 */
export async function readEconomyBonuses(db: Db | DbClient, countryId: number, now: number): Promise<EconomyBonuses> {
  const { rows } = await db.query<{ inputs: string }>({ name: "economy_bonus_inputs_read", text: `SELECT ${ECONOMY_BONUS_INPUTS}($1) AS inputs`, values: [countryId] });
  return economyBonusesFromInputs(rows[0]!.inputs, now);
}
