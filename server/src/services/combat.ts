import { isDeepStrictEqual } from "node:util";
import type { AttackLaunchResponse, AttackPreviewResponse, AllySupportOfferJson, AlliesResponse, BattleReplayResponse, BattleReportJson, StrikeJson, ValidateTurnsResponse } from "@game/schema/api";
import {
  ATTACK_TYPES,
  MAX_SCHEDULE_AHEAD_MS,
  PLANNED_STRIKE_PREP_MS,
  PLANNED_STRIKE_REHAB_MS,
  allyAvailability,
  applyAttackFatigue,
  applyBattleToRecord,
  availableForAttack,
  checkAttackTarget,
  checkAttackTech,
  checkAttackTurns,
  checkAttackUnits,
  completeBrigades,
  computeAllySupport,
  computeBrigadeReadiness,
  computeForcePower,
  attackerViewOfPhases,
  computeAttackerView,
  computeProtectionStatus,
  countReadyBrigades,
  countDeployedBrigades,
  isMissileAttack,
  needsBrigade,
  orderUnits,
  pickAttackBrigade,
  previewAttack,
  resolveBattle,
  runEconomyTurns,
  reject,
  Rng,
  type AllyFacts,
  type AttackTypeId,
  type AttackUnits,
  type BattleOutcome as ResolvedBattle,
  type BattleReplayInput,
  type BattleResult,
  type BrigadeRecord,
  type CountryState,
  type IntelConfidence,
  type RuleRejection,
  type TargetFacts,
} from "@game/schema/rules";
import { findCountryById, rowToState, toOwnCountryJson, type CountryRow, type CountryRowPatch } from "../db/countries.js";
import {
  allyOf,
  battleInsertStatement,
  brigadeOf,
  brigadeWriteStatement,
  findAllianceMembers,
  findBattle,
  findBrigades,
  findRecentLosses,
  findRehab,
  findSettings,
  findStrike,
  findWarsBetween,
  insertStrike,
  listBattles,
  listStrikes,
  loadAttackContext,
  postureOf,
  rehabilitationInsertStatement,
  strikeFinishStatement,
  toBattleReportJson,
  toStrikeJson,
  type BattleFilter,
  type AttackContextRow,
  type BattleRow,
  type StrikeRow,
} from "../db/military.js";
import { knownIntelligence } from "../db/knownIntelligence.js";
import { allianceLabels } from "../db/alliances.js";
import { allianceAfterBattle, attackBonusOf, combatSupportFor, type CombatSupport } from "./allianceCombat.js";
import { withTransaction } from "../db/pool.js";
import { readTogether } from "../db/readBatch.js";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.js";
import { allianceTopic, countryTopic, WORLD_TOPIC, type PublicBattleEvent } from "../events.js";
import { runCountriesAction, type ActionTransaction, type LockedCountry, type StepOutcome } from "./actions.js";
import type { ServiceContext } from "./context.js";
import { ruleError } from "./economy.js";
import { buildTurnResult } from "./turnResults.js";
import { recordNewsBatch } from "./news.js";
import { strikeSchedulerFor } from "./strikeScheduler.js";

/**
 * Combat actions: launching an attack (now, planned or scheduled), executing a strike, the
 * preview and the turn check, cancelling strikes, battle reports. Every battle is one
 * runCountriesAction over attacker and defender (locked in ascending id order), with the pure
 * resolveBattle deciding; the action's seed is stored with the report.
 */

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** An attack order as the routes and other services (alliance operations) give it. */
export interface AttackOrderInput {
  /** the attacking country */
  countryId: number;
  targetCountryId?: number | null;
  attackType?: AttackTypeId | null;
  units: AttackUnits;
  /** draw on the alliance's members (boolean, or the spec's {enabled} with the allies ticked) */
  allianceSupport?: boolean | { enabled: boolean; allies?: number[] };
  /** the brigade to lead it (slot 1..5), else the readiest */
  brigadeId?: number | null;
  /** ISO time to run it at (scheduled attack); planned strikes wait 12 hours anyway */
  scheduledFor?: string | null;
}

/** The player acting, or null for a system-run attack on behalf of order.countryId. */
export type AttackActor = { userId: number; countryId: number } | null;

/** What launchAttack answers: the battle fought now, or the strike that will fight it. */
export type LaunchResult = { executed: true; report: BattleReportJson; row: CountryRow } | { executed: false; strike: StrikeJson; row: CountryRow };

const supportAsked = (s: AttackOrderInput["allianceSupport"]) => (typeof s === "object" && s !== null ? s.enabled : Boolean(s));
/** Whether an ally was ticked (every active ally when the order names none). */
const allyTicked = (s: AttackOrderInput["allianceSupport"], allyId: number) => !(typeof s === "object" && s !== null && s.allies) || s.allies.includes(allyId);

/** The targeting facts of a row. */
function factsOf(row: CountryRow): TargetFacts {
  return {
    id: row.id,
    networth: row.networth,
    land: row.land,
    protectedUntil: row.protected_until.getTime(),
    gdiMember: row.gdi_protection,
    isEliminated: row.is_eliminated,
    allianceId: row.alliance_id,
  };
}

/** Refusals that need no database: no target, no type, attacking oneself. */
function precheck(order: AttackOrderInput): { targetId: number; attackType: AttackTypeId } {
  if (order.targetCountryId === null || order.targetCountryId === undefined) throw ruleError(reject("combat/no_target", "No target selected"));
  if (!order.attackType) throw ruleError(reject("combat/no_attack_type", "No attack type selected"));
  if (order.targetCountryId === order.countryId) throw ruleError(reject("combat/own_country", "You cannot attack your own country"));
  return { targetId: order.targetCountryId, attackType: order.attackType };
}

/**
 * Launches an attack. `options.seed` fixes the dice (replays and tests). A planned strike, or any attack with `scheduledFor`, becomes a strike
 * that the job queue runs later (answered with the strike); anything else is fought now in one
 * transaction over both countries (answered with the report). `actor` null runs it on behalf of
 * the country without an owner check (system jobs, alliance operations).
 */
export async function launchAttack(ctx: ServiceContext, actor: AttackActor, order: AttackOrderInput, options: { seed?: number } = {}): Promise<LaunchResult> {
  if (actor && actor.countryId !== order.countryId) throw forbidden();
  const { attackType } = precheck(order);
  if (order.scheduledFor || attackType === "planned_strike") return planStrike(ctx, actor, order);
  const outcome = await fightBattle(ctx, actor, order, null, options.seed);
  if (outcome.kind !== "fought") throw new Error("an immediate attack cannot be skipped");
  return { executed: true, report: outcome.report, row: outcome.row };
}

type BattleOutcome = { kind: "fought"; report: BattleReportJson; row: CountryRow } | { kind: "skipped" } | { kind: "failed"; reason: RuleRejection };

/**
 * The battle: lock both countries (ascending ids), then three steps. loadBattleContext reads
 * the context (posture, brigades, rehabilitation, war, the defender's day, allies) in one round
 * trip; decideBattle, pure, checks everything, spends the turns (the economy runs for them) and
 * resolves; writeBattle sends the report (with the inputs a replay needs), the brigade, the
 * rehabilitation, the strike and both countries with COMMIT in one batch, and queues the
 * events and news.
 */
async function fightBattle(ctx: ServiceContext, actor: AttackActor, order: AttackOrderInput, strike: StrikeRow | null, seed?: number): Promise<BattleOutcome> {
  const { targetId } = precheck(order);
  const attackerId = order.countryId;
  // Alliance and treaty bonuses and allies' committed units (alliance work), read before the
  // locks in one round trip on one connection. Read beside them (on a second connection while
  // the transaction held its own and the rows) it made a locked transaction wait for a free
  // connection of the pool: at 2,000 playing clients the pool was the queue (docs/performance.md).
  const [support] = await readTogether(ctx.db, (db) => [combatSupportFor(db, attackerId, targetId, new Date(ctx.clock.now()))] as const);
  const { result, rows } = await runCountriesAction<BattleOutcome>(ctx, {
    name: "attack",
    actor,
    countryIds: [attackerId, targetId],
    notFoundMessage: "Country not found",
    seed,
    async step(countries, tx) {
      const attacker = countries.get(attackerId)!;
      const defender = countries.get(targetId)!;
      if (strike) {
        // Exactly once: the strike row is locked after the countries (every execution of this
        // strike locks the same countries first, so they queue) and must still be pending.
        const { rows } = await tx.client.query<{ state: string }>("SELECT state FROM strikes WHERE id = $1 FOR UPDATE", [strike.id]);
        if (rows[0]?.state !== "pending") return { next: new Map(), result: { kind: "skipped" } };
      }
      const context = await loadBattleContext(tx, attacker, defender, order, strike, support);
      const decision = decideBattle(context, tx.rng);
      if ("code" in decision) {
        if (!strike) throw ruleError(decision);
        return strikeRefused(tx, strike, defender.row, decision);
      }
      return writeBattle(tx, context, decision);
    },
  });
  // the attacker's row as written
  return result.kind === "fought" ? { ...result, row: rows.get(attackerId)! } : result;
}

/** Everything a battle's decision reads: the two locked countries, the order, the time and the context row. */
interface BattleContext {
  attacker: LockedCountry;
  defender: LockedCountry;
  order: AttackOrderInput;
  attackType: AttackTypeId;
  strike: StrikeRow | null;
  now: Date;
  seed: number;
  context: AttackContextRow;
  alliance: CombatSupport;
}

async function loadBattleContext(tx: ActionTransaction, attacker: LockedCountry, defender: LockedCountry, order: AttackOrderInput, strike: StrikeRow | null, support: CombatSupport): Promise<BattleContext> {
  const { attackType } = precheck(order);
  const context = await loadAttackContext(tx.client, attacker.row.id, defender.row.id, tx.now, supportAsked(order.allianceSupport) ? attacker.row.alliance_id : null, defender.row.alliance_id);
  return { attacker, defender, order, attackType, strike, now: tx.now, seed: tx.seed, context, alliance: support };
}

/** What decideBattle decided: the inputs it gave the rules (kept for the replay), their outcome, the economy of the turns spent, the brigade that led. */
interface BattleDecision {
  inputs: BattleReplayInput;
  outcome: ResolvedBattle;
  economy: ReturnType<typeof runEconomyTurns<CountryState>>;
  brigade: BrigadeRecord | null;
  atWar: boolean;
}

/** Pure: the first refusal of the rules, or the battle fought. */
function decideBattle(c: BattleContext, rng: Rng): BattleDecision | RuleRejection {
  const { attacker: a, defender: d, order, attackType, context } = c;
  const type = ATTACK_TYPES[attackType];
  const atWar = context.war !== null;
  const nowMs = c.now.getTime();
  const brigades = context.brigades.map(brigadeOf);
  const attackerBrigades = completeBrigades(brigades.filter((_, i) => context.brigades[i]!.country_id === a.row.id));
  const defenderBrigades = completeBrigades(brigades.filter((_, i) => context.brigades[i]!.country_id === d.row.id));

  const refusal =
    checkAttackUnits(attackType, order.units, availableForAttack(a.state, context.rehab)) ??
    checkAttackTech(attackType, a.state.tech) ??
    checkAttackTurns(attackType, a.state.turns) ??
    checkAttackTarget(factsOf(a.row), factsOf(d.row), { now: nowMs, atWar });
  if (refusal) return refusal;
  let brigade: BrigadeRecord | null = null;
  if (needsBrigade(attackType)) {
    const picked = pickAttackBrigade(attackerBrigades, nowMs, order.brigadeId ?? null);
    if ("code" in picked) return picked;
    brigade = picked;
  }

  // The turns are spent first and the economy runs for them (as exploring does).
  const spent: CountryState = { ...a.state, turns: a.state.turns - type.turnCost };
  const economy = runEconomyTurns(spent, type.turnCost);
  const units = clampToAvailable(attackType, order.units, economy.next, context.rehab);
  const deserted = economy.effects.unitsLost.troops + economy.effects.unitsLost.jets + economy.effects.unitsLost.tanks > 0;

  const attackerAllies: AllyFacts[] = context.attacker_allies
    .map((r) => allyOf(r, (bs) => countReadyBrigades(completeBrigades(bs), nowMs)))
    .filter((ally) => allyTicked(order.allianceSupport, ally.id) && allyAvailability(ally, d.row.networth, nowMs).available);
  const defenderAllies: AllyFacts[] = context.defender_allies.map((r) => allyOf(r, (bs) => countReadyBrigades(completeBrigades(bs), nowMs))).filter((ally) => allyAvailability(ally, a.row.networth, nowMs).available);

  const inputs: BattleReplayInput = {
    attacker: {
      id: a.row.id,
      name: a.row.name,
      state: economy.next,
      posture: postureOf(context.attacker_settings),
      brigadeReadiness: brigade ? computeBrigadeReadiness(brigade, nowMs) : null,
      atWar,
      allies: attackerAllies,
      bonusPct: c.alliance.attackerBonusPct,
      desertedBeforeBattle: deserted,
    },
    defender: {
      id: d.row.id,
      name: d.row.name,
      state: d.state,
      posture: postureOf(context.defender_settings),
      deployedBrigades: countDeployedBrigades(defenderBrigades, nowMs),
      allies: defenderAllies,
      landLostToday: Number(context.recent.land),
      hitsToday: Number(context.recent.hits),
      bonusPct: c.alliance.defenderBonusPct,
      committed: c.alliance.committed,
    },
    order: { attackType, units },
  };
  const outcome = resolveBattle(inputs.attacker, inputs.defender, inputs.order, rng);
  return { inputs, outcome, economy, brigade, atWar };
}

/** A strike the rules refuse at execution time fails, with the reason, and changes nothing else. */
function strikeRefused(tx: ActionTransaction, strike: StrikeRow, defender: CountryRow, rejection: RuleRejection): StepOutcome<BattleOutcome> {
  tx.emit(countryTopic(strike.attacker_id), {
    type: "notice",
    countryId: strike.attacker_id,
    notice: {
      id: `strike-${strike.id}-failed`,
      kind: "strike_failed",
      severity: "warning",
      title: `${strike.kind === "planned" ? "Planned strike" : "Scheduled attack"} on ${defender.name} called off`,
      body: rejection.message,
      at: tx.now.getTime(),
      view: "military",
    },
  });
  return { next: new Map(), statements: [strikeFinishStatement(strike.id, "failed", null, rejection.message, tx.now)], result: { kind: "failed", reason: rejection } };
}

/** The writes of a battle fought: report, brigade, rehabilitation, strike, both countries' records, the turn result, events and news. */
async function writeBattle(tx: ActionTransaction, c: BattleContext, decision: BattleDecision): Promise<StepOutcome<BattleOutcome>> {
  const { attacker: a, defender: d, attackType, strike, now } = c;
  const { outcome, economy, brigade } = decision;
  const type = ATTACK_TYPES[attackType];
  const nowMs = now.getTime();
  const battleId = Number(c.context.battle_id);
  const r = outcome.result;
  const won = r.outcome === "attacker_victory";
  // how exact the attacker's copy of the defender's side is: its intelligence at this moment
  const intel = await knownIntelligence(tx.client, a.row.id, d.row.id, now);
  const row: NewBattleRow = {
    id: battleId,
    attacker_id: a.row.id,
    defender_id: d.row.id,
    attacker_name: a.row.name,
    defender_name: d.row.name,
    attack_type: attackType,
    outcome: r.outcome,
    land_captured: r.landCaptured,
    land_destroyed: r.landDestroyed,
    seed: c.seed,
    strike_id: strike?.id ?? null,
    report: reportBody(r, decision.atWar, intel?.confidence ?? null),
    economy: {
      turnsSpent: type.turnCost,
      netCashChange: economy.effects.netCashChange,
      netFoodChange: economy.effects.netFoodChange,
      netOilChange: economy.effects.netOilChange,
      populationChange: economy.effects.populationChange,
      militaryProduced: economy.effects.militaryProduced,
      unitsLost: economy.effects.unitsLost,
    },
    replay_input: decision.inputs,
    created_at: now,
  };
  const statements: string[] = [battleInsertStatement(row, now)];
  if (brigade) statements.push(brigadeWriteStatement(a.row.id, applyAttackFatigue(brigade, nowMs, attackType === "planned_strike")));
  if (attackType === "planned_strike" && outcome.survivors.troops + outcome.survivors.jets + outcome.survivors.tanks > 0) {
    statements.push(rehabilitationInsertStatement(a.row.id, outcome.survivors, new Date(nowMs + PLANNED_STRIKE_REHAB_MS), battleId));
  }
  if (strike) statements.push(strikeFinishStatement(strike.id, "executed", battleId, null, now));

  const patches = new Map<number, CountryRowPatch>([
    [a.row.id, recordPatch(a.row, won, r.landCaptured, r.efficiencyRating, nowMs)],
    [d.row.id, recordPatch(d.row, !won, 0, 100 - r.efficiencyRating, null)],
  ]);

  tx.turnResult(
    a.row.id,
    buildTurnResult({
      actionType: "attack",
      turnsConsumed: type.turnCost,
      turnsRemaining: outcome.attacker.turns,
      effects: economy.effects,
      actionResults: [
        {
          id: "combat",
          title: won ? `Victory over ${d.row.name}` : `Defeat against ${d.row.name}`,
          description: `${type.name}: ${won ? `${fmt(r.landCaptured + r.landDestroyed)} acres ${r.landDestroyed > 0 ? "destroyed" : "captured"}` : "the defence held"}.`,
          icon: won ? "trending-up" : "trending-down",
          details: [`Attack ${fmt(r.attackPower)} vs defence ${fmt(r.defensePower)}`, `Battle report #${battleId}`],
        },
      ],
    }),
  );

  const report = toBattleReportJson(row, a.row.id);
  emitBattleEvents(tx, row, a.row, d.row, r, strike);
  await allianceAfterBattle(tx, { id: battleId, attacker: a.row, defender: d.row, attackType, attackerWon: won, landLost: r.landCaptured + r.landDestroyed, powerRatio: r.powerRatio, committed: c.alliance.committed });
  await recordBattleNews(tx, row, d.row.land);
  return {
    next: new Map([
      [a.row.id, outcome.attacker],
      [d.row.id, outcome.defender],
    ]),
    patches,
    statements,
    result: { kind: "fought", report, row: a.row },
  };
}

/** The units of an order, cut to what is left after the attack's economy turns (desertion). */
function clampToAvailable(attackType: AttackTypeId, units: AttackUnits, state: CountryState, rehab: { troops: number; jets: number; tanks: number }): AttackUnits {
  const available = availableForAttack(state, rehab);
  const sent = orderUnits(units);
  const out: AttackUnits = {};
  if (isMissileAttack(attackType)) return { missiles: Math.min(sent.missiles, available.missiles) };
  for (const u of ATTACK_TYPES[attackType].allowedUnits) out[u] = Math.min(sent[u], available[u]);
  return out;
}

/** The report's stored body: the battle's result without the columns kept beside it. */
function reportBody(r: BattleResult, warDeclared: boolean, attackerIntel: IntelConfidence | null): BattleRow["report"] {
  return {
    attackerIntel,
    attackerForces: r.attackerForces,
    defenderForces: r.defenderForces,
    attackerCasualties: r.attackerCasualties,
    defenderCasualties: r.defenderCasualties,
    landCaptured: r.landCaptured,
    landDestroyed: r.landDestroyed,
    resourcesGained: r.resourcesGained,
    resourcesLost: r.resourcesLost,
    buildingsDestroyed: r.buildingsDestroyed,
    buildingsCaptured: r.buildingsCaptured,
    buildingsLost: r.buildingsLost,
    populationKilled: r.populationKilled,
    attackPower: r.attackPower,
    defensePower: r.defensePower,
    powerRatio: r.powerRatio,
    efficiencyRating: r.efficiencyRating,
    strategicValue: r.strategicValue,
    attackerTechBonus: r.attackerTechBonus,
    defenderTechBonus: r.defenderTechBonus,
    weaponsEffectiveness: r.weaponsEffectiveness,
    allianceSupport: r.allianceSupport,
    missilesLaunched: r.missilesLaunched,
    missilesIntercepted: r.missilesIntercepted,
    combatLog: r.combatLog,
    warDeclared,
  };
}

/** victories/defeats/total_battles/total_land_captured/combat_efficiency after a battle (and the end of an attacker's protection). */
function recordPatch(row: CountryRow, won: boolean, landCaptured: number, efficiency: number, endProtectionAt: number | null): CountryRowPatch {
  const next = applyBattleToRecord({ victories: row.victories, defeats: row.defeats, totalBattles: row.total_battles, totalLandCaptured: row.total_land_captured, combatEfficiency: row.combat_efficiency }, won, landCaptured, efficiency);
  const patch: CountryRowPatch = {
    victories: next.victories,
    defeats: next.defeats,
    total_battles: next.totalBattles,
    total_land_captured: next.totalLandCaptured,
    combat_efficiency: next.combatEfficiency,
  };
  // Attacking ends one's own new-player protection.
  if (endProtectionAt !== null && row.protected_until.getTime() > endProtectionAt) patch.protected_until = new Date(endProtectionAt);
  return patch;
}

/** A battle as its transaction writes it: both sides exist (ids become null only when an account is deleted later). */
type NewBattleRow = BattleRow & { attacker_id: number; defender_id: number };

/** The public face of a battle. */
function publicBattle(row: NewBattleRow): PublicBattleEvent {
  return {
    battleId: row.id,
    attackerId: row.attacker_id,
    attackerName: row.attacker_name,
    defenderId: row.defender_id,
    defenderName: row.defender_name,
    attackType: row.attack_type,
    outcome: row.outcome,
    landCaptured: row.land_captured,
    landDestroyed: row.land_destroyed,
    at: row.created_at.getTime(),
  };
}

/** The defender's alert, the attacker's (for system-run strikes), the world's and the alliances' battleResolved. */
function emitBattleEvents(tx: ActionTransaction, row: NewBattleRow, attacker: CountryRow, defender: CountryRow, r: BattleResult, strike: StrikeRow | null): void {
  const won = r.outcome === "attacker_victory";
  const type = ATTACK_TYPES[row.attack_type];
  const at = row.created_at.getTime();
  const lost = r.landCaptured + r.landDestroyed;
  tx.emit(countryTopic(defender.id), {
    type: "notice",
    countryId: defender.id,
    notice: {
      id: `battle-${row.id}`,
      kind: "attacked",
      severity: won ? "danger" : "warning",
      title: `${attacker.name} attacked you`,
      body: won ? `${type.name}: the attack broke through${lost > 0 ? `; you lost ${fmt(lost)} acres` : ""}.` : `${type.name}: your defence held.`,
      at,
      view: "military",
      refId: row.id,
    },
  });
  if (strike) {
    tx.emit(countryTopic(attacker.id), {
      type: "notice",
      countryId: attacker.id,
      notice: {
        id: `battle-${row.id}-attacker`,
        kind: "strike_executed",
        severity: won ? "success" : "warning",
        title: `${strike.kind === "planned" ? "Planned strike" : "Scheduled attack"} on ${defender.name}: ${won ? "victory" : "defeat"}`,
        body: won ? `${fmt(lost)} acres ${r.landDestroyed > 0 ? "destroyed" : "captured"}.` : "The defence held.",
        at,
        view: "military",
        refId: row.id,
      },
    });
  }
  const battle = publicBattle(row);
  tx.emit(WORLD_TOPIC, { type: "battleResolved", battle });
  if (attacker.alliance_id !== null) tx.emit(allianceTopic(attacker.alliance_id), { type: "battleResolved", allianceId: attacker.alliance_id, side: "attacker", battle });
  if (defender.alliance_id !== null && defender.alliance_id !== attacker.alliance_id) {
    tx.emit(allianceTopic(defender.alliance_id), { type: "battleResolved", allianceId: defender.alliance_id, side: "defender", battle });
  }
}

/** A battle makes global news when it moves this many acres, or this share of the defender's land. */
export const MAJOR_BATTLE_ACRES = 100;
export const MAJOR_BATTLE_SHARE_PCT = 5;

/**
 * The battle's news, in the battle's transaction (services/news.ts): the winner's and the
 * loser's personal items, and a global item for a major battle (100 acres or more, or 5% of
 * the defender's land).
 */
async function recordBattleNews(tx: ActionTransaction, row: NewBattleRow, defenderLandBefore: number): Promise<void> {
  const attacker = { id: row.attacker_id, name: row.attacker_name };
  const defender = { id: row.defender_id, name: row.defender_name };
  const participants = [
    { id: attacker.id, name: attacker.name, type: "country" as const, role: "attacker" },
    { id: defender.id, name: defender.name, type: "country" as const, role: "defender" },
  ];
  const land = row.land_captured + row.land_destroyed;
  const records: Parameters<typeof recordNewsBatch>[1][number][] =
    row.outcome === "attacker_victory"
      ? [
          { kind: "battle_won", params: { attacker, defender, landCaptured: land, defenderLandBefore, battleId: row.id }, participants, countryId: attacker.id },
          { kind: "battle_lost", params: { attacker, defender, landLost: land, landBefore: defenderLandBefore, role: "defender", battleId: row.id }, participants, countryId: defender.id },
        ]
      : [
          { kind: "battle_lost", params: { attacker, defender, landLost: 0, landBefore: defenderLandBefore, role: "attacker", battleId: row.id }, participants, countryId: attacker.id },
          { kind: "battle_repelled", params: { attacker, defender, battleId: row.id }, participants, countryId: defender.id },
        ];
  if (row.outcome === "attacker_victory" && (land >= MAJOR_BATTLE_ACRES || land * 100 >= defenderLandBefore * MAJOR_BATTLE_SHARE_PCT)) {
    records.push({ kind: "major_battle", params: { attacker, defender, landCaptured: land, defenderLandBefore, battleId: row.id }, participants });
  }
  await recordNewsBatch(tx, records);
}

// ---------------------------------------------------------------------------------------
// Planned strikes and scheduled attacks

/**
 * Creates a strike: checks what can be checked now (the order, the target, the turns), then
 * records it for the job queue. Everything is checked again when it runs.
 */
async function planStrike(ctx: ServiceContext, actor: AttackActor, order: AttackOrderInput): Promise<LaunchResult> {
  const { targetId, attackType } = precheck(order);
  const now = new Date(ctx.clock.now());
  const planned = attackType === "planned_strike";
  let executeAt = planned ? now.getTime() + PLANNED_STRIKE_PREP_MS : 0;
  if (order.scheduledFor) {
    const at = new Date(order.scheduledFor).getTime();
    if (!Number.isFinite(at) || at <= now.getTime()) throw badRequest("The scheduled time must be in the future", "combat/schedule_past");
    if (at > now.getTime() + MAX_SCHEDULE_AHEAD_MS) throw badRequest("Attacks can be scheduled at most 7 days ahead", "combat/schedule_too_far");
    executeAt = Math.max(executeAt, at);
  }
  const { result, rows } = await runCountriesAction(ctx, {
    name: "plan_strike",
    actor,
    countryIds: [order.countryId, targetId],
    notFoundMessage: "Country not found",
    async step(countries, tx) {
      const a = countries.get(order.countryId)!;
      const d = countries.get(targetId)!;
      const [rehab, wars] = [await findRehab(tx.client, a.row.id, tx.now), await findWarsBetween(tx.client, a.row.id, d.row.id)];
      const atWar = wars.between.some((w) => w.ended_at === null);
      for (const rejection of [
        checkAttackUnits(attackType, order.units, availableForAttack(a.state, rehab)),
        checkAttackTech(attackType, a.state.tech),
        checkAttackTurns(attackType, a.state.turns),
        checkAttackTarget(factsOf(a.row), factsOf(d.row), { now: tx.now.getTime(), atWar }),
      ]) {
        if (rejection) throw ruleError(rejection);
      }
      const strike = await insertStrike(tx.client, {
        attacker_id: a.row.id,
        target_id: d.row.id,
        kind: planned ? "planned" : "scheduled",
        attack_type: attackType,
        units: orderUnits(order.units),
        alliance_support: supportAsked(order.allianceSupport),
        brigade_slot: order.brigadeId ?? null,
        execute_at: new Date(executeAt),
      });
      return { next: new Map(), result: strike };
    },
  });
  await strikeSchedulerFor(ctx)?.schedule(result.id, result.execute_at);
  return { executed: false, strike: toStrikeJson(result), row: rows.get(order.countryId)! };
}

/**
 * Runs a strike (the job queue calls this): at most once, whatever the deliveries. A strike
 * no longer pending is skipped; one the rules refuse now is marked failed with the reason.
 */
export async function executeStrike(ctx: ServiceContext, strikeId: number): Promise<"executed" | "failed" | "skipped"> {
  const strike = await findStrike(ctx.db, strikeId);
  if (!strike || strike.state !== "pending") return "skipped";
  const order: AttackOrderInput = {
    countryId: strike.attacker_id,
    targetCountryId: strike.target_id,
    attackType: strike.attack_type,
    units: strike.units as AttackUnits,
    allianceSupport: strike.alliance_support,
    brigadeId: strike.brigade_slot,
  };
  try {
    const outcome = await fightBattle(ctx, null, order, strike);
    return outcome.kind === "fought" ? "executed" : outcome.kind;
  } catch (err) {
    // The target or the attacker is gone (404): the strike cannot run.
    if (err instanceof AppError && err.status === 404) {
      await ctx.db.query(strikeFinishStatement(strike.id, "failed", null, err.message, new Date(ctx.clock.now())));
      return "failed";
    }
    throw err;
  }
}

/** Cancels a pending strike of the caller's country (409 once it has run). */
export async function cancelStrike(ctx: ServiceContext, countryId: number, strikeId: number): Promise<StrikeJson> {
  const row = await withTransaction(ctx.db, async (client) => {
    const { rows } = await client.query<StrikeRow>("SELECT * FROM strikes WHERE id = $1 FOR UPDATE", [strikeId]);
    const strike = rows[0];
    if (!strike || strike.attacker_id !== countryId) throw notFound("Strike not found", "combat/strike_not_found");
    if (strike.state !== "pending") throw conflict(`This strike has already ${strike.state === "cancelled" ? "been cancelled" : strike.state === "executed" ? "run" : "failed"}`, "combat/strike_not_pending");
    await client.query("UPDATE strikes SET state = 'cancelled', finished_at = now() WHERE id = $1", [strikeId]);
    return strike;
  });
  await strikeSchedulerFor(ctx)?.cancel(strikeId);
  const fresh = await findStrike(ctx.db, row.id);
  return toStrikeJson(fresh!);
}

export async function strikesOf(ctx: ServiceContext, countryId: number): Promise<StrikeJson[]> {
  return (await listStrikes(ctx.db, countryId)).map(toStrikeJson);
}

// ---------------------------------------------------------------------------------------
// Reads: turns check, preview, allies, reports

/** POST /attack/validate-turns: whether the country's turns suffice for the attack type. */
export async function validateAttackTurns(ctx: ServiceContext, country: CountryRow, attackType: AttackTypeId | null | undefined): Promise<ValidateTurnsResponse> {
  if (!attackType) throw ruleError(reject("combat/no_attack_type", "No attack type selected"));
  const rejection = checkAttackTurns(attackType, country.turns);
  return { valid: rejection === null, turnsRequired: ATTACK_TYPES[attackType].turnCost, turnsAvailable: country.turns, message: rejection?.message ?? null };
}

/** Available allies of `country` against an opponent of networth `opponentNetworth`. */
async function alliesOf(ctx: ServiceContext, country: CountryRow, opponent: CountryRow | null, now: number): Promise<{ offers: AllySupportOfferJson[]; available: AllyFacts[] }> {
  if (country.alliance_id === null) return { offers: [], available: [] };
  const members = await findAllianceMembers(ctx.db, country.alliance_id, [country.id, opponent?.id ?? 0]);
  const labels = await allianceLabels(ctx.db, [country.alliance_id]);
  const ownPower = computeForcePower(rowState(country), { troops: country.troops, jets: country.jets, tanks: country.tanks });
  const offers: AllySupportOfferJson[] = [];
  const available: AllyFacts[] = [];
  for (const m of members) {
    const ally = allyOf(m, (bs) => countReadyBrigades(completeBrigades(bs), now));
    const verdict = allyAvailability(ally, opponent?.networth ?? ally.networth, now);
    const lent = computeAllySupport([ally], ["troops", "jets", "tanks"], Infinity).contributions[0];
    offers.push({
      allianceId: country.alliance_id,
      allianceName: labels.get(country.alliance_id)?.name ?? null,
      countryId: ally.id,
      countryName: ally.name,
      supportType: "forces",
      availableForces: lent?.units ?? {},
      supportContribution: ownPower > 0 && lent ? Math.round((100 * lent.power) / ownPower) : 0,
      isActive: verdict.available,
      reason: verdict.reason,
    });
    if (verdict.available) available.push(ally);
  }
  return { offers, available };
}

function rowState(row: CountryRow): CountryState {
  return { governmentType: row.government_type, tech: techOf(row) } as CountryState;
}

function techOf(row: CountryRow): CountryState["tech"] {
  return {
    military: row.military_tech,
    medical: row.medical_tech,
    business: row.business_tech,
    residential: row.residential_tech,
    agricultural: row.agricultural_tech,
    warfare: row.warfare_tech,
    military_strategy: row.military_strategy_tech,
    weapons: row.weapons_tech,
    industrial: row.industrial_tech,
    spy: row.spy_tech,
    sdi: row.sdi_tech,
  };
}

/** GET /attack/allies/{countryId}: the alliance support offers against a target. */
export async function allianceSupportOffers(ctx: ServiceContext, country: CountryRow, targetId: number | undefined): Promise<AlliesResponse> {
  const target = targetId ? await findCountryById(ctx.db, targetId) : undefined;
  const { offers } = await alliesOf(ctx, country, target ?? null, ctx.clock.now());
  const own = computeForcePower(rowState(country), { troops: country.troops, jets: country.jets, tanks: country.tanks });
  const total = offers.filter((o) => o.isActive).reduce((s, o) => s + (o.supportContribution * own) / 100, 0);
  return { allies: offers, estimatedContribution: own > 0 ? Math.min(100, Math.round((100 * total) / own)) : 0 };
}

/**
 * POST /attack/preview: the outcome estimate from the shared rules and only what the attacker
 * may know (its own numbers, the target's public fields and public day, its own unexpired
 * intelligence), with the first refusal the launch would answer.
 */
export async function previewAttackFor(ctx: ServiceContext, country: CountryRow, request: AttackOrderInput): Promise<AttackPreviewResponse> {
  const now = new Date(ctx.clock.now());
  if (request.targetCountryId === null || request.targetCountryId === undefined) {
    return { preview: null, validation: reject("combat/no_target", "No target selected"), target: null };
  }
  const target = await findCountryById(ctx.db, request.targetCountryId);
  if (!target) throw notFound("Country not found", "country/not_found");
  const targetJson = {
    id: target.id,
    name: target.name,
    networth: target.networth,
    land: target.land,
    protection_status: computeProtectionStatus({ protectedUntil: target.protected_until.getTime(), gdiMember: target.gdi_protection }, now.getTime()),
  };
  const attackType = request.attackType ?? null;
  if (!attackType) return { preview: null, validation: reject("combat/no_attack_type", "No attack type selected"), target: targetJson };
  const state = rowToState(country);
  const [settings, brigades, rehab, wars, recent, intel, allies, bonusPct] = await Promise.all([
    findSettings(ctx.db, country.id),
    findBrigades(ctx.db, country.id),
    findRehab(ctx.db, country.id, now),
    findWarsBetween(ctx.db, country.id, target.id),
    findRecentLosses(ctx.db, target.id, now),
    knownIntelligence(ctx.db, country.id, target.id, now),
    supportAsked(request.allianceSupport) ? alliesOf(ctx, country, target, now.getTime()) : Promise.resolve({ offers: [], available: [] as AllyFacts[] }),
    attackBonusOf(ctx.db, country.id, now),
  ]);
  allies.available = allies.available.filter((ally) => allyTicked(request.allianceSupport, ally.id));
  const atWar = wars.between.some((w) => w.ended_at === null);
  const nowMs = now.getTime();
  const picked = needsBrigade(attackType) ? pickAttackBrigade(brigades, nowMs, request.brigadeId ?? null) : null;
  const brigadeReadiness = picked && !("code" in picked) ? computeBrigadeReadiness(picked, nowMs) : null;
  const type = ATTACK_TYPES[attackType];
  const own = computeForcePower(state, Object.fromEntries(type.allowedUnits.map((u) => [u, orderUnits(request.units)[u]])));
  const allyPower = computeAllySupport(allies.available, type.allowedUnits, own).power;
  const preview = previewAttack(
    { state, posture: postureOf(settings), brigadeReadiness: needsBrigade(attackType) ? (brigadeReadiness ?? 0) : null, atWar, allyPower, bonusPct },
    {
      id: target.id,
      name: target.name,
      governmentType: target.government_type,
      networth: target.networth,
      land: target.land,
      victories: target.victories,
      defeats: target.defeats,
      landLostToday: Number(recent.land),
      hitsToday: Number(recent.hits),
    },
    { attackType, units: request.units },
    intel,
  );
  const validation =
    (target.id === country.id ? reject("combat/own_country", "You cannot attack your own country") : null) ??
    checkAttackUnits(attackType, request.units, availableForAttack(state, rehab)) ??
    checkAttackTech(attackType, state.tech) ??
    checkAttackTurns(attackType, state.turns) ??
    checkAttackTarget(factsOf(country), factsOf(target), { now: nowMs, atWar }) ??
    (picked && "code" in picked ? picked : null);
  return { preview, validation, target: targetJson };
}

/** GET /battle-reports: the caller's battles, as attacker or defender. */
export async function battleReportsOf(ctx: ServiceContext, countryId: number, filter: BattleFilter): Promise<{ reports: BattleReportJson[]; total: number }> {
  const { rows, total } = await listBattles(ctx.db, countryId, filter);
  return { reports: rows.map((r) => toBattleReportJson(r, countryId)), total };
}

/** GET /battle-reports/{id}: only for the two sides (403 for anyone else). */
export async function battleReportFor(ctx: ServiceContext, countryId: number, id: number): Promise<BattleReportJson> {
  const row = await findBattle(ctx.db, id);
  if (!row) throw notFound("Battle report not found", "combat/report_not_found");
  if (row.attacker_id !== countryId && row.defender_id !== countryId) throw forbidden("Only the two sides of a battle can read its report", "combat/not_a_party");
  return toBattleReportJson(row, countryId);
}

/**
 * GET /battle-reports/{id}/replay: the battle run again from its stored inputs and seed with
 * the same pure rules, step by step; only for the two sides (403 for anyone else). A battle
 * fought before replays were recorded, or whose rerun no longer gives the stored report (the
 * rules changed since), is refused with 409 rather than shown wrong.
 */
export async function battleReplayFor(ctx: ServiceContext, countryId: number, id: number): Promise<BattleReplayResponse["replay"]> {
  const row = await findBattle(ctx.db, id);
  if (!row) throw notFound("Battle report not found", "combat/report_not_found");
  if (row.attacker_id !== countryId && row.defender_id !== countryId) throw forbidden("Only the two sides of a battle can replay it", "combat/not_a_party");
  const input = row.replay_input;
  if (!input) throw conflict("This battle was fought before replays were recorded", "combat/replay_unavailable");
  const rerun = resolveBattle(input.attacker, input.defender, input.order, Rng.fromSeed(row.seed));
  const attackerIntel = row.report.attackerIntel ?? null;
  const report = toBattleReportJson({ ...row, report: reportBody(rerun.result, row.report.warDeclared, attackerIntel) }, countryId);
  const stored = toBattleReportJson(row, countryId);
  if (!isDeepStrictEqual(report, stored)) {
    ctx.logger.warn({ battleId: id }, "battle replay diverged from the stored report");
    throw conflict("This battle was fought under earlier rules and cannot be replayed", "combat/replay_diverged");
  }
  // the attacker watches the defender's side as its report shows it (docs/rules.md)
  if (row.attacker_id !== countryId) return { report, phases: rerun.phases };
  const r = rerun.result;
  const side = { defenderName: row.defender_name, defenderForces: r.defenderForces, defenderCasualties: r.defenderCasualties, defenderAllies: r.allianceSupport.defenderAllies, combatLog: r.combatLog };
  return { report, phases: attackerViewOfPhases(rerun.phases, side, computeAttackerView(side, attackerIntel, row.seed)) };
}

/** The answer of POST /attack/launch. */
export function launchResponse(result: LaunchResult): AttackLaunchResponse {
  return result.executed ? { executed: true, report: result.report, country: toOwnCountryJson(result.row) } : { executed: false, strike: result.strike, country: toOwnCountryJson(result.row) };
}
