import type { IntelligenceReportJson, IntelligenceReportsResponse, IntelligenceStatusJson, MissionRequest, MissionResponse, SpyExecuteRequest, SpyMissionJson } from "@game/schema/api";
import {
  DAILY_OPS_LIMIT,
  ESPIONAGE_MESSAGES,
  MISSION_TYPES,
  MISSION_TYPE_IDS,
  SPIES_PER_TURN,
  SPY_OPERATIONS,
  SPY_OPERATION_IDS,
  SPY_TRAINING_COST,
  applySabotage,
  buildIntelligence,
  checkEspionageTarget,
  checkMission,
  checkSpyOperation,
  checkTraining,
  computeMilitaryUpkeep,
  computePostureEffects,
  computeReadiness,
  computeSabotage,
  defaultPosture,
  estimateSpyTarget,
  computeTaxRevenue,
  cooldownRemaining,
  governmentSpyBonusPct,
  governmentSpyMultiplier,
  missionSuccess,
  operationSuccess,
  nextResetAt,
  performTraining,
  reportExpiresAt,
  rollOperation,
  spiesLostText,
  spyCapacity,
  spendOperationTurns,
  trainingTurns,
  type CountryState,
  type IntelType,
  type MissionTypeId,
  type RuleRejection,
  type SabotageDamage,
  type SpyForce,
  type SpyOperationId,
  type TargetSnapshot,
} from "@game/schema/rules";
import type { CountryRow } from "../db/countries.js";
import { knownIntelligenceOfAll } from "../db/knownIntelligence.js";
import { rowToState } from "../db/countries.js";
import {
  allowsSpyOperations,
  canViewReport,
  countOperation,
  findReport,
  findUsage,
  insertMission,
  insertReport,
  listOwnReports,
  listSharedReports,
  recentMissions,
  recentSabotages,
  setAllowSpyOperations,
  shareReport as shareReportRow,
  toMissionJson,
  toReportJson,
  type ReportFilter,
  type ReportRow,
} from "../db/espionage.js";
import { findSettings, postureOf } from "../db/military.js";
import type { Db, DbClient } from "../db/pool.js";
import { AppError, badRequest, conflict, forbidden, notFound } from "../errors.js";
import { countryTopic } from "../events.js";
import { runCountriesAction, type ActionContext, type ActionTransaction } from "./actions.js";
import { ECONOMY_BONUS_INPUTS, economyBonusesFromInputs } from "./allianceEffects.js";
import { buildTurnResult } from "./turnResults.js";
import { allianceEffectsOf } from "./alliances.js";
import { postAllianceSystemMessage } from "./allianceChat.js";
import { diplomaticEffectsOf } from "./diplomacy.js";
import { recordNews } from "./news.js";
import type { ServiceContext } from "./context.js";
import { readTogether } from "../db/readBatch.js";
import { noCountry, ownCountryWith, type CountryOwner } from "./countries.js";

/**
 * Espionage (docs/rules.md "Espionage", docs/architecture.md "Espionage"): one function per
 * action, each one runCountriesAction over the spy's and the target's countries (both locked:
 * the spy loses spies and turns, sabotage damages the target), with the daily counter read and
 * written under the spy's row lock, so parallel missions queue and never pass the cap or spend
 * spies twice. The seed is stored with the mission and its report.
 */

function ensure(rejection: RuleRejection | null): void {
  if (rejection) throw new AppError(400, rejection.message, rejection.code);
}

/** Options tests use: a fixed time (the injected clock) and seed. */
export interface EspionageOptions {
  now?: Date;
  seed?: number;
}

/** What one operation asks for, whichever centre sent it. */
interface OperationOrder {
  centre: "spy_center" | "intelligence_center";
  kind: SpyOperationId | MissionTypeId;
  intelType: IntelType;
  targetCountryId: number;
  spiesUsed: number;
  turnCost: number;
}

/** Spy success + percent from the spy's alliance bonuses (Intelligence Network) and its intelligence treaties. */
async function spyBonusPct(db: Db | DbClient, countryId: number, now: number): Promise<number> {
  // Both sent at once: on a transaction's client they queue on its one connection; in a view's
  // read (db/readBatch.ts) they travel with the others in one round trip.
  const [alliance, diplomacy] = await Promise.all([allianceEffectsOf(db, [countryId], now), diplomaticEffectsOf(db, [countryId])]);
  return (alliance.get(countryId)?.spySuccessPct ?? 0) + (diplomacy.get(countryId)?.spySuccessPct ?? 0);
}

async function counterIntelPct(db: Db | DbClient, targetId: number): Promise<number> {
  const posture = postureOf(await findSettings(db, targetId));
  return computePostureEffects(posture.deployment, posture.defense, posture.alertLevel).spyDefensePct;
}

/** The target's counter-intelligence factor when its allocation is not known: the default posture's. */
const DEFAULT_SPY_DEFENSE_PCT = (() => {
  const p = defaultPosture();
  return computePostureEffects(p.deployment, p.defense, p.alertLevel).spyDefensePct;
})();

/** A country's side of a success chance. */
function spyForceOf(state: CountryState, inAlliance: boolean, bonusPct: number): SpyForce {
  return { spies: state.spies, land: state.land, governmentType: state.governmentType, spyTech: state.tech.spy, inAlliance, bonusPct };
}

/** POST /spy/execute: a Spy Center operation. */
export async function executeSpyOperation(ctx: ActionContext, userId: number, countryId: number, req: SpyExecuteRequest, opts: EspionageOptions = {}): Promise<MissionResponse> {
  const op = SPY_OPERATIONS[req.operationType];
  return runOperation(ctx, userId, countryId, { centre: "spy_center", kind: op.id, intelType: op.intelType, targetCountryId: req.targetCountryId, spiesUsed: req.spiesUsed, turnCost: op.turnCost }, opts);
}

/** POST /intelligence/missions: an Intelligence Center mission. */
export async function launchMission(ctx: ActionContext, userId: number, countryId: number, req: MissionRequest, opts: EspionageOptions = {}): Promise<MissionResponse> {
  const type = MISSION_TYPES[req.type];
  return runOperation(ctx, userId, countryId, { centre: "intelligence_center", kind: type.id, intelType: type.intelType, targetCountryId: req.targetCountryId, spiesUsed: req.spiesUsed, turnCost: type.turnCost }, opts);
}

async function runOperation(ctx: ActionContext, userId: number, countryId: number, order: OperationOrder, opts: EspionageOptions): Promise<MissionResponse> {
  if (order.targetCountryId === countryId) throw badRequest(ESPIONAGE_MESSAGES.ownCountry, "espionage/own_country");
  const { result } = await runCountriesAction(ctx, {
    name: `espionage.${order.centre === "spy_center" ? "operation" : "mission"}`,
    actor: { userId, countryId },
    countryIds: [countryId, order.targetCountryId],
    notFoundMessage: "Target country not found",
    seed: opts.seed,
    // the spy's alliance and treaty economy bonuses, for the turns it spends (as exploring reads them)
    contextFunction: ECONOMY_BONUS_INPUTS,
    async step(countries, tx) {
      const now = opts.now ?? tx.now;
      const spyRead = countries.get(countryId)!;
      const spy = { ...spyRead, state: { ...spyRead.state, bonuses: economyBonusesFromInputs(tx.context!, now.getTime()) } };
      const target = countries.get(order.targetCountryId)!;
      const sabotage = order.kind === "sabotage";
      // What the step reads besides the locked rows, in one round trip of the transaction
      // (db/readBatch.ts): the day's usage, the bonuses, the target's counter-intelligence.
      const [usage, bonus, targetDefensePct] = await readTogether(
        tx.client,
        (db) => [findUsage(db, countryId, now), spyBonusPct(db, countryId, now.getTime()), order.centre === "spy_center" ? Promise.resolve(0) : counterIntelPct(db, target.row.id)] as const,
      );
      let chance: number;
      // the same rules as the preview, with the target's real numbers
      const force = spyForceOf(spy.state, spy.row.alliance_id !== null, bonus);
      if (order.centre === "spy_center") {
        const op = SPY_OPERATIONS[order.kind as SpyOperationId];
        ensure(checkSpyOperation(op, spy.state, order.spiesUsed, usage));
        chance = operationSuccess(op, force, target.state);
      } else {
        const type = MISSION_TYPES[order.kind as MissionTypeId];
        ensure(checkMission(type, spy.state, order.spiesUsed, usage, now.getTime()));
        chance = missionSuccess(type, force, order.spiesUsed, target.state, targetDefensePct);
      }

      ensure(
        checkEspionageTarget(
          { id: countryId, allianceId: spy.row.alliance_id },
          { id: target.row.id, allianceId: target.row.alliance_id, protectedUntil: target.row.protected_until.getTime(), isEliminated: target.row.is_eliminated },
          sabotage,
          now.getTime(),
        ),
      );
      const outcome = rollOperation(tx.rng, chance, order.spiesUsed, spy.state.spies, sabotage);
      // The turns are spent with the economy run once per turn, like every action that spends turns.
      const spent = spendOperationTurns(spy.state, order.turnCost, outcome.spiesLost);
      const next = new Map<number, CountryState>([[countryId, spent.next]]);

      let intelligence = null;
      let damage: SabotageDamage | null = null;
      if (outcome.success && sabotage) {
        damage = computeSabotage(target.state, await recentSabotages(tx.client, target.row.id, now));
        if (damage.buildingsDestroyed > 0 || damage.oilDestroyed > 0) next.set(target.row.id, applySabotage(target.state, damage));
        intelligence = { sabotage: damage };
      } else if (outcome.success) {
        const snapshot = await loadSnapshot(tx.client, target.row, target.state, now);
        intelligence = buildIntelligence(order.intelType, snapshot, outcome.confidence!, tx.rng, order.kind === "technology_assessment");
      }

      const missionId = await insertMission(tx.client, {
        country_id: countryId,
        target_id: target.row.id,
        target_name: target.row.name,
        centre: order.centre,
        operation_type: order.kind,
        spies_used: order.spiesUsed,
        success_chance: chance,
        success: outcome.success,
        detected: outcome.detected,
        spies_lost: outcome.spiesLost,
        turns_spent: order.turnCost,
        buildings_destroyed: damage?.buildingsDestroyed ?? 0,
        oil_destroyed: damage?.oilDestroyed ?? 0,
        seed: tx.seed,
        started_at: now,
        completed_at: now,
      });
      const tags = [...new Set([order.intelType, order.kind.replace(/_/g, " "), ...(outcome.confidence ? [outcome.confidence] : ["failed"]), ...(outcome.detected ? ["detected"] : [])])];
      const reportRow = {
        mission_id: missionId,
        owner_id: countryId,
        target_id: target.row.id,
        target_name: target.row.name,
        target_government: target.row.government_type,
        operation_type: order.kind,
        intel_type: order.intelType,
        success: outcome.success,
        spies_used: order.spiesUsed,
        spies_lost: outcome.spiesLost,
        detected: outcome.detected,
        confidence: outcome.confidence,
        intelligence,
        tags,
        seed: tx.seed,
        created_at: now,
        expires_at: new Date(reportExpiresAt(order.intelType, now.getTime())),
      };
      const reportId = await insertReport(tx.client, reportRow);
      await countOperation(tx.client, countryId, order.kind, now);

      const opName = order.centre === "spy_center" ? SPY_OPERATIONS[order.kind as SpyOperationId].name : MISSION_TYPES[order.kind as MissionTypeId].name;
      if (outcome.detected) await announceDetection(tx, spy.row, target.row, opName, outcome.success, outcome.spiesLost, missionId, now);
      if (damage && (damage.buildingsDestroyed > 0 || damage.oilDestroyed > 0)) {
        await recordNews(tx, {
          kind: "sabotage_suffered",
          params: { spy: outcome.detected ? { id: spy.row.id, name: spy.row.name } : null, buildingsDestroyed: damage.buildingsDestroyed, oilDestroyed: damage.oilDestroyed },
          countryId: target.row.id,
        });
      }

      const mission: SpyMissionJson = toMissionJson({
        id: missionId,
        ...reportRow,
        country_id: countryId,
        centre: order.centre,
        success_chance: chance,
        turns_spent: order.turnCost,
        buildings_destroyed: damage?.buildingsDestroyed ?? 0,
        oil_destroyed: damage?.oilDestroyed ?? 0,
        started_at: now,
        completed_at: now,
        report_id: reportId,
      });
      const report = toReportJson({ id: reportId, owner_name: spy.row.name, shared_alliance_id: null, ...reportRow }, countryId, now.getTime());
      const details: string[] = [];
      if (outcome.detected) details.push(ESPIONAGE_MESSAGES.detected);
      if (outcome.spiesLost > 0) details.push(spiesLostText(outcome.spiesLost));
      tx.turnResult(
        countryId,
        buildTurnResult({
          actionType: "espionage",
          turnsConsumed: order.turnCost,
          turnsRemaining: spent.next.turns,
          effects: spent.effects,
          actionResults: [
            { id: "espionage", title: `${opName}: ${outcome.success ? ESPIONAGE_MESSAGES.success : ESPIONAGE_MESSAGES.failure}`, description: `Against ${target.row.name}.`, icon: outcome.success ? "checkmark" : "trending-down", details },
          ],
        }),
      );
      return { next, result: { mission, report, message: outcome.success ? ESPIONAGE_MESSAGES.success : ESPIONAGE_MESSAGES.failure, details } satisfies MissionResponse };
    },
  });
  return result;
}

/**
 * A detected operation: the target's live notice and its news item. A failed operation names
 * the spy's country (its operatives were caught); a detected success does not (they got away).
 */
async function announceDetection(tx: ActionTransaction, spy: CountryRow, target: CountryRow, operation: string, success: boolean, caught: number, missionId: number, now: Date): Promise<void> {
  const named = success ? null : { id: spy.id, name: spy.name };
  tx.emit(countryTopic(target.id), {
    type: "notice",
    countryId: target.id,
    notice: {
      id: `spy-${missionId}`,
      kind: "spy_detected",
      severity: "warning",
      title: named ? `Spies of ${named.name} detected` : "Foreign spies detected",
      body: `Your counter-intelligence uncovered a ${operation} operation${named ? ` by ${named.name}` : ""}${caught > 0 ? ` and caught ${caught} ${caught === 1 ? "spy" : "spies"}` : ""}.`,
      at: now.getTime(),
      view: "spy-center",
      refId: missionId,
    },
  });
  await recordNews(tx, { kind: "spy_detected", params: { spy: named, operation, caught }, countryId: target.id });
}

/** The target's real state and surroundings at this moment, read inside the operation's transaction. */
async function loadSnapshot(client: DbClient, row: CountryRow, state: CountryState, now: Date): Promise<TargetSnapshot> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  // One query after another: the transaction is one connection.
  const battles = await client.query<{ attacker_id: number; defender_id: number; attacker_name: string; defender_name: string; outcome: string; created_at: Date }>(
    "SELECT attacker_id::int, defender_id::int, attacker_name, defender_name, outcome, created_at FROM battles WHERE (attacker_id = $1 OR defender_id = $1) ORDER BY created_at DESC LIMIT 5",
    [row.id],
  );
  const alliance =
    row.alliance_id === null
      ? null
      : await client.query<{ name: string; tag: string; points: number; rank: number; members: number; member_names: string[]; activity: string[] }>(
          `SELECT a.name, a.tag, a.points_earned::float8 AS points,
                  (SELECT count(*)::int + 1 FROM alliances b WHERE b.disbanded_at IS NULL AND b.points_earned > a.points_earned) AS rank,
                  (SELECT count(*)::int FROM countries c WHERE c.alliance_id = a.id) AS members,
                  ARRAY(SELECT c.name FROM countries c WHERE c.alliance_id = a.id AND c.id <> $2 ORDER BY c.networth DESC LIMIT 10) AS member_names,
                  ARRAY(SELECT n.title FROM news_items n WHERE n.alliance_id = a.id ORDER BY n.id DESC LIMIT 5) AS activity
             FROM alliances a WHERE a.id = $1`,
          [row.alliance_id, row.id],
        );
  const relations = await client.query<{ relation_type: string; partner: string }>(
    `SELECT r.relation_type, p.name AS partner FROM diplomatic_relations r
         JOIN countries p ON p.id = CASE WHEN r.from_country_id = $1 THEN r.to_country_id ELSE r.from_country_id END
        WHERE r.status = 'active' AND (r.from_country_id = $1 OR r.to_country_id = $1) LIMIT 20`,
    [row.id],
  );
  const wars = await client.query<{ name: string }>(
    `SELECT c.name FROM war_declarations w JOIN countries c ON c.id = CASE WHEN w.declarer_id = $1 THEN w.target_id ELSE w.declarer_id END
        WHERE w.ended_at IS NULL AND (w.declarer_id = $1 OR w.target_id = $1) LIMIT 20`,
    [row.id],
  );
  const market = await client.query<{ purchases: number; purchase_value: number; sales: number; sale_value: number; orders: number; items: string[] }>(
    `SELECT count(*) FILTER (WHERE buyer_id = $1)::int AS purchases, COALESCE(sum(total) FILTER (WHERE buyer_id = $1), 0)::float8 AS purchase_value,
              count(*) FILTER (WHERE seller_id = $1)::int AS sales, COALESCE(sum(total) FILTER (WHERE seller_id = $1), 0)::float8 AS sale_value,
              (SELECT count(*)::int FROM standing_orders WHERE buyer_id = $1 AND status IN ('pending', 'active', 'partial')) AS orders,
              ARRAY(SELECT item_type FROM market_trades WHERE (buyer_id = $1 OR seller_id = $1) AND created_at > $2 GROUP BY item_type ORDER BY count(*) DESC LIMIT 3) AS items
         FROM market_trades WHERE (buyer_id = $1 OR seller_id = $1) AND created_at > $2`,
    [row.id, weekAgo],
  );
  const settings = await findSettings(client, row.id);
  const upkeep = computeMilitaryUpkeep(state);
  const recentBattles = battles.rows.filter((b) => b.created_at > dayAgo).length;
  const a = alliance?.rows[0];
  const m = market.rows[0]!;
  return {
    id: row.id,
    name: row.name,
    state,
    networth: row.networth,
    lastActive: row.last_active.getTime(),
    recentEvents: battles.rows.map((b) =>
      b.attacker_id === row.id ? `Attacked ${b.defender_name} (${b.outcome === "attacker_victory" ? "won" : "lost"})` : `Attacked by ${b.attacker_name} (${b.outcome === "attacker_victory" ? "lost" : "held"})`,
    ),
    alliance: a ? { name: a.name, tag: a.tag, rank: a.rank, memberCount: a.members, reputation: a.points, recentActivity: a.activity } : null,
    relations: relations.rows.map((r) => ({ type: r.relation_type, partner: r.partner })),
    allies: a?.member_names ?? [],
    enemies: wars.rows.map((w) => w.name),
    market: { purchases: m.purchases, purchaseValue: m.purchase_value, sales: m.sales, saleValue: m.sale_value, standingOrders: m.orders, topItems: m.items },
    military: { alertLevel: postureOf(settings).alertLevel, readiness: computeReadiness(state.cash, upkeep), recentBattles, upkeep, income: computeTaxRevenue(state) },
  };
}

/** POST /spy/train: 5 spies per turn, $100 each, up to 5% of land. */
export async function trainSpies(ctx: ActionContext, userId: number, countryId: number, quantity: number): Promise<{ trained: number; spies: number; turnsSpent: number; cost: number }> {
  const { result } = await runCountriesAction(ctx, {
    name: "espionage.train",
    actor: { userId, countryId },
    countryIds: [countryId],
    contextFunction: ECONOMY_BONUS_INPUTS,
    step(countries, tx) {
      const c = countries.get(countryId)!;
      ensure(checkTraining(c.state, quantity));
      const state = { ...c.state, bonuses: economyBonusesFromInputs(tx.context!, tx.now.getTime()) };
      const { next, effects } = performTraining(state, quantity);
      const turnsSpent = trainingTurns(quantity);
      const cost = quantity * SPY_TRAINING_COST;
      tx.turnResult(
        countryId,
        buildTurnResult({
          actionType: "espionage",
          turnsConsumed: turnsSpent,
          turnsRemaining: next.turns,
          effects,
          actionResults: [{ id: "spy_training", title: "Spies Trained", description: `Trained ${quantity} ${quantity === 1 ? "spy" : "spies"} for $${cost.toLocaleString("en-US")}.`, icon: "checkmark", details: [] }],
        }),
      );
      return {
        next: new Map([[countryId, next]]),
        result: { trained: quantity, spies: next.spies, turnsSpent, cost },
      };
    },
  });
  return result;
}

/** POST /intelligence/privacy: allowSpyOperations (what it governs: docs/rules.md, "Espionage"). */
export async function setPrivacy(ctx: ActionContext, userId: number, countryId: number, allow: boolean): Promise<{ allowSpyOperations: boolean }> {
  await runCountriesAction(ctx, {
    name: "espionage.privacy",
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(_countries, tx) {
      await setAllowSpyOperations(tx.client, countryId, allow, tx.now);
      return { next: new Map(), result: null };
    },
  });
  return { allowSpyOperations: allow };
}

/**
 * POST /intelligence/reports/{id}/share ("Share Intelligence"): the owner shares a successful,
 * unexpired report with its alliance. Refused when the owner or the target has turned
 * allowSpyOperations off.
 */
export async function shareReport(ctx: ActionContext, userId: number, countryId: number, reportId: number, opts: EspionageOptions = {}): Promise<{ report: IntelligenceReportJson }> {
  const { result } = await runCountriesAction(ctx, {
    name: "espionage.share",
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(countries, tx) {
      const now = opts.now ?? tx.now;
      const row = countries.get(countryId)!.row;
      if (row.alliance_id === null) throw badRequest("You are not in an alliance", "espionage/no_alliance");
      const report = await shareWithAlliance(tx, row, reportId, row.alliance_id, now);
      return { next: new Map(), result: toReportJson({ ...report, shared_alliance_id: row.alliance_id }, countryId, now.getTime()) };
    },
  });
  return { report: result };
}

/**
 * Shares one of `owner`'s reports with its alliance inside the caller's transaction (the owner's
 * row locked): "Share Intelligence" here and in the alliance's defense-request answer
 * (services/allianceWarfare.ts passes the report a member answers with).
 */
export async function shareWithAlliance(tx: Pick<ActionTransaction, "client" | "emit">, owner: Pick<CountryRow, "id" | "name">, reportId: number, allianceId: number, now: Date): Promise<ReportRow> {
  const client = tx.client;
  const report = await findReport(client, reportId);
  if (!report) throw notFound("Report not found", "espionage/report_not_found");
  if (report.owner_id !== owner.id) throw forbidden("You can only share your own reports", "espionage/not_your_report");
  if (!report.success) throw badRequest("A failed operation has no intelligence to share", "espionage/nothing_to_share");
  if (report.expires_at.getTime() < now.getTime()) throw badRequest(ESPIONAGE_MESSAGES.expired, "espionage/expired");
  if (!(await allowsSpyOperations(client, owner.id))) throw conflict("Your privacy settings do not allow sharing intelligence (allowSpyOperations is off)", "espionage/privacy_own");
  if (report.target_id === null) throw conflict(`${report.target_name} no longer exists: there is nothing to share about it`, "espionage/former_country");
  if (!(await allowsSpyOperations(client, report.target_id))) throw conflict(`${report.target_name} does not allow intelligence about it to be shared`, "espionage/privacy_target");
  await shareReportRow(client, reportId, allianceId, now);
  // the alliance hears of it live, in its military channel
  const { rows } = await client.query<{ tag: string }>("SELECT tag FROM alliances WHERE id = $1", [allianceId]);
  const what = report.confidence ? `${report.confidence}-confidence ` : "";
  await postAllianceSystemMessage(tx, {
    allianceId,
    channel: "military",
    type: "system",
    content: `${owner.name} shared ${what}${report.intel_type} intelligence on ${report.target_name} (Alliances > Intelligence Operations > Shared Intelligence)`,
    allianceTag: rows[0]?.tag ?? "",
  });
  return report;
}

/** GET /intelligence/status/{countryId}: today's counts, cooldowns, spies, bonuses and a success preview; the owner's row and its reads in one round trip. */
export async function intelligenceStatus(ctx: ServiceContext, owner: CountryOwner, countryId: number, targetCountryId: number | undefined, now = new Date(ctx.clock.now())): Promise<IntelligenceStatusJson> {
  const {
    country,
    values: [usage, bonus, allow, missions],
  } = await ownCountryWith(ctx, owner, (db, id) => [findUsage(db, id, now), spyBonusPct(db, id, now.getTime()), allowsSpyOperations(db, id), recentMissions(db, id)] as const, { countryId });
  const state = rowToState(country);
  const inAlliance = country.alliance_id !== null;
  // The target's spies are private: the preview uses the observer's freshest report, else parity
  // (without a target, a country like the observer); its counter-intelligence allocation is
  // private too, so the default is assumed.
  let target = estimateSpyTarget(state, state.land, null);
  let targetId: number | null = null;
  if (targetCountryId !== undefined && targetCountryId !== country.id) {
    const { rows } = await ctx.db.query<{ land: number; spies: number | null }>(
      `SELECT c.land::float8 AS land,
              (SELECT (r.intelligence -> 'military' -> 'estimatedUnits' ->> 'spies')::float8 FROM spy_reports r
                WHERE r.owner_id = $2 AND r.target_id = c.id AND r.success AND r.intel_type = 'military' AND r.expires_at >= $3 AND r.intelligence ? 'military'
                ORDER BY r.created_at DESC LIMIT 1) AS spies
         FROM countries c WHERE c.id = $1`,
      [targetCountryId, country.id, now],
    );
    if (rows[0]) {
      targetId = targetCountryId;
      target = estimateSpyTarget(state, rows[0].land, rows[0].spies);
    }
  }
  const { basis, ...estimated } = target;
  const force = spyForceOf(state, inAlliance, bonus);
  const spyDefensePct = DEFAULT_SPY_DEFENSE_PCT;
  // each type with the spies its form sends by default (the requirement); the screen recomputes for the spies chosen
  const missionsPreview = Object.fromEntries(MISSION_TYPE_IDS.map((id) => [id, Math.round(missionSuccess(MISSION_TYPES[id], force, MISSION_TYPES[id].spiesRequired, estimated, spyDefensePct) * 100)])) as Record<MissionTypeId, number>;
  const operationsPreview = Object.fromEntries(SPY_OPERATION_IDS.map((id) => [id, Math.round(operationSuccess(SPY_OPERATIONS[id], force, estimated) * 100)])) as Record<SpyOperationId, number>;
  return {
    countryId: country.id,
    dailyLimit: DAILY_OPS_LIMIT,
    operationsUsed: usage.used,
    operationsRemaining: Math.max(0, DAILY_OPS_LIMIT - usage.used),
    resetAt: nextResetAt(now.getTime()),
    usedByKind: usage.byKind as Record<string, number>,
    cooldowns: Object.fromEntries(MISSION_TYPE_IDS.map((id) => [id, cooldownRemaining(MISSION_TYPES[id], usage.lastAt[id], now.getTime())])) as Record<MissionTypeId, number>,
    lastMissionAt: usage.lastAt,
    availableSpies: state.spies,
    land: state.land,
    spiesPerAcre: Math.round((state.spies / Math.max(1, state.land)) * 100_000) / 100_000,
    spyCapacity: spyCapacity(state.land),
    spyTech: state.tech.spy,
    governmentType: state.governmentType,
    governmentMultiplier: governmentSpyMultiplier(state.governmentType),
    governmentBonus: governmentSpyBonusPct(state.governmentType),
    inAlliance,
    spySuccessBonusPct: bonus,
    successPreview: { missions: missionsPreview, operations: operationsPreview, basis, targetCountryId: targetId, target: estimated, spyDefensePct },
    turns: state.turns,
    trainingCost: SPY_TRAINING_COST,
    spiesPerTurn: SPIES_PER_TURN,
    allowSpyOperations: allow,
    recentMissions: missions.map(toMissionJson),
  };
}

/** GET /intelligence/reports: the caller's reports, searched, filtered, sorted, paged. */
export async function reportsOf(
  ctx: ServiceContext,
  countryId: number,
  q: { search?: string; type: ReportFilter["type"]; sort: ReportFilter["sort"]; page: number; limit: number },
  now = new Date(ctx.clock.now()),
): Promise<IntelligenceReportsResponse> {
  const { rows, total } = await listOwnReports(ctx.db, countryId, { search: q.search, type: q.type, sort: q.sort, offset: (q.page - 1) * q.limit, limit: q.limit });
  return { reports: rows.map((r) => toReportJson(r, countryId, now.getTime())), total, page: q.page, limit: q.limit };
}

/** GET /intelligence/reports/{id}: the owner's, or a visible share of the caller's alliance; 403 for anyone else. */
export async function reportFor(ctx: ServiceContext, country: CountryRow, reportId: number, now = new Date(ctx.clock.now())): Promise<IntelligenceReportJson> {
  const report = await findReport(ctx.db, reportId);
  if (!report) throw notFound("Report not found", "espionage/report_not_found");
  if (!(await canViewReport(ctx.db, reportId, country.id, country.alliance_id))) throw forbidden("You cannot view this intelligence report", "espionage/not_your_report");
  return toReportJson(report, country.id, now.getTime());
}

/** GET /intelligence/shared: the reports shared with the caller's alliance (the alliances view's Intelligence Operations tab). */
export async function sharedReportsOf(ctx: ServiceContext, country: CountryRow, now = new Date(ctx.clock.now())): Promise<{ reports: IntelligenceReportJson[]; allianceId: number | null }> {
  if (country.alliance_id === null) return { reports: [], allianceId: null };
  const rows = await listSharedReports(ctx.db, country.alliance_id);
  return { reports: rows.map((r) => toReportJson(r, country.id, now.getTime())), allianceId: country.alliance_id };
}

/**
 * GET /intelligence/known: what the caller's country and its alliance know of every other
 * (fresh military reports; 404 without a country), with the row in one round trip.
 */
export async function knownIntelligenceOf(ctx: ServiceContext, owner: CountryOwner, now: Date): ReturnType<typeof knownIntelligenceOfAll> {
  const {
    values: [known],
  } = await ownCountryWith(ctx, owner, (db, id) => [knownIntelligenceOfAll(db, id, "current", now)] as const, { refuse: noCountry });
  return known;
}
