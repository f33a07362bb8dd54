import { TECHNOLOGY_IDS, computeAllianceEffects, computeDefensePoints, computeDiplomaticEffects, computeWarPoints, type CommittedSupport, type GovernmentType, type RelationType, type TechLevels } from "@game/schema/rules";
import type { ActionTransaction } from "./actions.js";
import type { Db, DbClient } from "../db/pool.js";
import type { CountryRow } from "../db/countries.js";
import { purchasesOfCountries, TECH_COLUMNS } from "../db/alliances.js";
import { heldRelationTypes } from "../db/diplomacy.js";
import { creditAlliancePoints } from "./alliances.js";
import { raiseDefenseRequestForAttack } from "./defenseRequests.js";

/**
 * What alliances and diplomacy bring to a battle, for the combat service: the attacker's and
 * the defender's outside bonuses (Military Support, War Preparations, Fortress Defense, the
 * offensive alliance and the defensive pact) and the units allies committed to the defender's
 * defence by answering a defense request. Read outside the battle's transaction (beside its
 * locks): a bonus bought in the same instant is a race of no consequence, and committed units
 * lend strength without being spent, so they need no lock.
 */
export interface CombatSupport {
  attackerBonusPct: number;
  defenderBonusPct: number;
  committed: CommittedSupport[];
}

export async function combatSupportFor(db: Db | DbClient, attackerId: number, defenderId: number, now: Date): Promise<CombatSupport> {
  const [purchases, held, committed] = await Promise.all([purchasesOfCountries(db, [attackerId, defenderId]), heldRelationTypes(db, [attackerId, defenderId]), committedTo(db, defenderId, now)]);
  const at = now.getTime();
  const types = (id: number): RelationType[] => (held.get(id) ?? []).map((h) => h.type);
  return {
    attackerBonusPct: computeAllianceEffects(purchases.get(attackerId) ?? [], at).attackPct + computeDiplomaticEffects(types(attackerId)).attackPct,
    defenderBonusPct: computeAllianceEffects(purchases.get(defenderId) ?? [], at).defensePct + computeDiplomaticEffects(types(defenderId)).defensePct,
    committed,
  };
}

/**
 * The attack bonus a country's own alliance purchases and treaties give it now (what a
 * battle would apply as `attackerBonusPct`), for the attack preview: nothing of the target's.
 */
export async function attackBonusOf(db: Db | DbClient, countryId: number, now: Date): Promise<number> {
  const [purchases, held] = await Promise.all([purchasesOfCountries(db, [countryId]), heldRelationTypes(db, [countryId])]);
  const types = (held.get(countryId) ?? []).map((h) => h.type);
  return computeAllianceEffects(purchases.get(countryId) ?? [], now.getTime()).attackPct + computeDiplomaticEffects(types).attackPct;
}

/**
 * Units allies committed to `defenderId`'s defence and still in force, each responder's at
 * most what it holds now (a commitment is a promise, not an escrow), with the facts its
 * strength depends on (government, technology). Responders who left the alliance no longer
 * count.
 */
async function committedTo(db: Db | DbClient, defenderId: number, now: Date): Promise<CommittedSupport[]> {
  const { rows } = await db.query<{ id: number; name: string; government_type: GovernmentType; troops: number; jets: number; tanks: number; levels: number[] }>(
    `SELECT c.id, c.name, c.government_type,
            LEAST(sum(r.troops), c.troops)::bigint AS troops, LEAST(sum(r.jets), c.jets)::bigint AS jets, LEAST(sum(r.tanks), c.tanks)::bigint AS tanks,
            ARRAY[${TECH_COLUMNS.map((col) => `c.${col}`).join(", ")}]::int[] AS levels
     FROM alliance_defense_responses r
     JOIN alliance_defense_requests q ON q.id = r.request_id
     JOIN countries c ON c.id = r.responder_id AND c.alliance_id = q.alliance_id
     WHERE q.requester_id = $1 AND r.response_type = 'military_support' AND r.commitment_expires_at > $2
     GROUP BY c.id ORDER BY c.id`,
    [defenderId, now],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    governmentType: r.government_type,
    tech: Object.fromEntries(TECHNOLOGY_IDS.map((id, i) => [id, r.levels[i] ?? 0])) as TechLevels,
    units: { troops: r.troops, jets: r.jets, tanks: r.tanks },
  }));
}

/**
 * After a battle, in its transaction: a defender in an alliance raises a defense request (and
 * every online member is alerted); a defence that held with allied units committed earns the
 * alliance its defending points (spec: 200-800).
 */
export async function allianceAfterBattle(
  tx: Pick<ActionTransaction, "client" | "emit" | "now">,
  battle: {
    id: number;
    attacker: Pick<CountryRow, "id" | "name">;
    defender: Pick<CountryRow, "id" | "name" | "alliance_id" | "land">;
    attackType: string;
    attackerWon: boolean;
    landLost: number;
    /** attack power over defence power */
    powerRatio: number;
    committed: readonly CommittedSupport[];
  },
): Promise<void> {
  await raiseDefenseRequestForAttack(tx, {
    defender: battle.defender,
    attacker: battle.attacker,
    attackType: battle.attackType,
    battleId: battle.id,
    attackerWon: battle.attackerWon,
    landLostPct: battle.defender.land > 0 ? Math.floor((100 * battle.landLost) / battle.defender.land) : 0,
    powerRatioPct: Math.round(100 * battle.powerRatio),
  });
  const units = battle.committed.reduce((sum, c) => sum + (c.units.troops ?? 0) + (c.units.jets ?? 0) + (c.units.tanks ?? 0), 0);
  if (!battle.attackerWon && units > 0 && battle.defender.alliance_id !== null) {
    await creditAlliancePoints(tx, { allianceId: battle.defender.alliance_id, countryId: null, source: "defense", ref: `battle-${battle.id}`, points: computeDefensePoints(units) });
  }
}

/**
 * A war its declarer ends in peace (not bankrupt) having taken more land from the target than
 * it lost to it during the war is a war won: the declarer's alliance earns the war points
 * (spec: 500-1500; 500 + 100 per day it lasted), once per war. Called in the war's end
 * transaction.
 */
export async function creditWarVictory(tx: Pick<ActionTransaction, "client" | "emit" | "now">, war: { id: number; declarer_id: number; target_id: number; declared_at: Date }): Promise<boolean> {
  const { rows } = await tx.client.query<{ alliance_id: number | null; won: number; lost: number }>(
    `SELECT (SELECT alliance_id FROM countries WHERE id = $1) AS alliance_id,
            COALESCE(sum(land_captured + land_destroyed) FILTER (WHERE attacker_id = $1 AND defender_id = $2 AND outcome = 'attacker_victory'), 0)::bigint AS won,
            COALESCE(sum(land_captured + land_destroyed) FILTER (WHERE attacker_id = $2 AND defender_id = $1 AND outcome = 'attacker_victory'), 0)::bigint AS lost
     FROM battles WHERE created_at >= $3 AND ((attacker_id = $1 AND defender_id = $2) OR (attacker_id = $2 AND defender_id = $1))`,
    [war.declarer_id, war.target_id, war.declared_at],
  );
  const r = rows[0]!;
  if (r.alliance_id === null || r.won <= r.lost) return false;
  const days = (tx.now.getTime() - war.declared_at.getTime()) / 86_400_000;
  return creditAlliancePoints(tx, { allianceId: r.alliance_id, countryId: war.declarer_id, source: "war", ref: `war-${war.id}`, points: computeWarPoints(days) });
}
