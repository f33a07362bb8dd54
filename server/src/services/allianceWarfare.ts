import {
  ALLIANCE_MESSAGES,
  DEFENSE_COMMITMENT_MS,
  DEFENSE_REQUEST_LIFETIME_MS,
  OPERATION_LIMITS,
  OPERATION_TYPE_LABELS,
  checkCancelOperation,
  checkLaunchOperation,
  checkPlanOperation,
  checkRequestDefense,
  checkRespondDefense,
  checkRespondOperation,
  computeOperationReadiness,
  computeOperationRewardPoints,
  computeOperationRewards,
  computeTotalForce,
  openOperationStatus,
  type AllianceRole,
  type OperationContribution,
} from "@game/schema/rules";
import type { DefenseRequestJson, OperationJson, OperationOutcomeJson } from "@game/schema/api";
import type { ParsedPlanOperationMessage, ParsedRequestDefenseMessage, ParsedRespondDefenseMessage, ParsedRespondOperationMessage } from "@game/schema/messages";
import type { ServiceContext } from "./context.js";
import { runCountriesAction, type ActionTransaction, type StepOutcome } from "./actions.js";
import { allianceTopic, on, type TopicEvent } from "../events.js";
import { AppError, forbidden, notFound } from "../errors.js";
import { findCountryById, type CountryRow } from "../db/countries.js";
import { withTransaction, type DbClient } from "../db/pool.js";
import { addMilitarySupport, allianceLabels, allianceMemberIds, listMembers, lockAllianceShared, type AllianceRow } from "../db/alliances.js";
import {
  hasResponded,
  insertDefenseRequest,
  insertDefenseResponse,
  insertOperation,
  insertParticipants,
  loadDefenseRequests,
  loadOperations,
  lockDefenseRequest,
  lockOperation,
  openOperationIds,
  openRequestCount,
  operationParticipants,
  setOperationStatus,
  setParticipantResponse,
} from "../db/allianceWarfare.js";
import { ensure, refusal } from "./allianceErrors.js";
import { actorCountry, creditAlliancePoints, membershipIn, notice, noticeTo } from "./alliances.js";
import { postAllianceSystemMessage } from "./allianceChat.js";
import { recordNews } from "./news.js";
import { launchAttack } from "./combat.js";
import { emitDefenseRequest } from "./defenseRequests.js";
import { shareWithAlliance } from "./espionage.js";

/**
 * Alliance warfare: operations (plan, respond, launch, cancel) and defense requests (request,
 * respond; raised automatically when a member is attacked). Each is one runCountriesAction
 * over the countries whose units it reads, with the alliance's row shared-locked (roles cannot
 * change under it) and the operation's or request's row locked (answers queue on it). After
 * commit the whole operation or request travels on the alliance's topic, so every member's
 * alliance room shows it at once without a query.
 */

const NOTHING = new Map();

/** The acting member of the room's alliance, with the alliance shared-locked; 403 for anyone else. */
async function memberOf(client: DbClient, row: CountryRow, allianceId: number): Promise<{ alliance: AllianceRow; role: AllianceRole }> {
  const m = await membershipIn(client, row);
  if (m.allianceId !== allianceId) throw forbidden("You are not in this alliance", "alliance/not_member");
  const alliance = await lockAllianceShared(client, allianceId);
  if (!alliance) throw forbidden(ALLIANCE_MESSAGES.notMember, "alliance/not_member");
  return { alliance, role: m.role! };
}

async function emitOperation(tx: Pick<ActionTransaction, "client" | "emit">, allianceId: number, operationId: number): Promise<void> {
  const [operation] = await loadOperations(tx.client, { ids: [operationId] });
  if (operation) tx.emit(allianceTopic(allianceId), { type: "operationChanged", allianceId, operation });
}

function unitsOf(row: CountryRow): { troops: number; jets: number; tanks: number; turrets: number } {
  return { troops: row.troops, jets: row.jets, tanks: row.tanks, turrets: row.turrets };
}

/**
 * "planOperation": a leader plans an operation against a target (or, for defensive support,
 * for an ally) and invites members (all of them when none are named).
 */
export async function planOperation(ctx: ServiceContext, userId: number, allianceId: number, input: ParsedPlanOperationMessage): Promise<{ operationId: number }> {
  const actor = await actorCountry(ctx, userId);
  const target = await findCountryById(ctx.db, input.targetCountryId);
  if (!target) throw notFound("Target country not found", "operation/unknown_target");
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.operation.plan",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await memberOf(tx.client, row, allianceId);
      const targetNow = (await findCountryById(tx.client, input.targetCountryId))!;
      ensure(
        checkPlanOperation({
          role,
          operationType: input.operationType,
          requirements: input.requirements,
          scheduledFor: input.scheduledFor,
          now: tx.now.getTime(),
          targetIsMember: targetNow.alliance_id === alliance.id,
          openOperations: (await openOperationIds(tx.client, alliance.id)).length,
        }),
      );
      const members = await listMembers(tx.client, alliance.id);
      const wanted = input.invitedCountryIds.length ? new Set(input.invitedCountryIds) : null;
      if (wanted && [...wanted].some((id) => !members.some((m) => m.country_id === id))) {
        throw refusal({ code: "operation/invalid_invitee", message: "Only members of your alliance can be invited" });
      }
      const invited = members
        .filter((m) => (wanted ? wanted.has(m.country_id) : true) && !(input.operationType === "defensive_support" && m.country_id === targetNow.id))
        .map((m) => ({ countryId: m.country_id, countryName: m.country_name, role: m.role, isCommander: m.country_id === row.id }));
      const targetAlliance = targetNow.alliance_id === null ? "" : ((await allianceLabels(tx.client, [targetNow.alliance_id])).get(targetNow.alliance_id)?.name ?? "");
      const operationId = await insertOperation(tx.client, {
        allianceId: alliance.id,
        name: input.name,
        description: input.description,
        operationType: input.operationType,
        targetCountryId: targetNow.id,
        targetName: targetNow.name,
        targetAllianceName: targetAlliance,
        initiatorId: row.id,
        initiatorName: row.name,
        scheduledFor: new Date(input.scheduledFor),
        minParticipants: input.requirements.minParticipants,
        maxParticipants: input.requirements.maxParticipants,
        minTotalForce: input.requirements.minTotalForce,
        rewardBonusPoints: computeOperationRewardPoints(input.requirements.minParticipants, input.requirements.minTotalForce),
        now: tx.now,
      });
      await insertParticipants(tx.client, operationId, invited);
      await emitOperation(tx, alliance.id, operationId);
      await postAllianceSystemMessage(tx, {
        allianceId: alliance.id,
        channel: "military",
        type: "announcement",
        content: `${row.name} planned ${OPERATION_TYPE_LABELS[input.operationType]} "${input.name}" on ${targetNow.name}`,
        allianceTag: alliance.tag,
      });
      return { next: NOTHING, result: { operationId } };
    },
  });
  return result;
}

/**
 * "respondOperation": an invited member joins with a contribution (units it holds) or
 * declines; the operation's readiness and status follow for everyone.
 */
export async function respondOperation(ctx: ServiceContext, userId: number, allianceId: number, input: ParsedRespondOperationMessage): Promise<{ operationId: number; readiness: string }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.operation.respond",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance } = await memberOf(tx.client, row, allianceId);
      const operation = await lockOperation(tx.client, input.operationId);
      if (!operation || operation.alliance_id !== alliance.id) throw notFound("Operation not found", "operation/not_found");
      const participants = await operationParticipants(tx.client, [operation.id]);
      const mine = participants.find((p) => p.country_id === row.id);
      const confirmedOthers = participants.filter((p) => p.status === "confirmed" && p.country_id !== row.id).length;
      const contribution = input.response === "join" ? input.contribution : { troops: 0, jets: 0, tanks: 0, turrets: 0 };
      ensure(
        checkRespondOperation({
          status: operation.status,
          operationType: operation.operation_type,
          participantStatus: mine?.status ?? null,
          response: input.response,
          confirmedOthers,
          maxParticipants: operation.max_participants,
          contribution,
          available: unitsOf(row),
        }),
      );
      await setParticipantResponse(tx.client, operation.id, row.id, input.response === "join" ? "confirmed" : "declined", contribution, tx.now);
      const after = (await operationParticipants(tx.client, [operation.id])).map((p) => ({ status: p.status, totalForce: computeTotalForce(p) }));
      const readiness = computeOperationReadiness(after, { minParticipants: operation.min_participants, maxParticipants: operation.max_participants, minTotalForce: operation.min_total_force });
      const status = openOperationStatus(readiness.ready);
      if (status !== operation.status) await setOperationStatus(tx.client, operation.id, status);
      await emitOperation(tx, alliance.id, operation.id);
      return { next: NOTHING, result: { operationId: operation.id, readiness: readiness.label } };
    },
  });
  return result;
}

/** "cancelOperation": a leader calls off an open operation. */
export async function cancelOperation(ctx: ServiceContext, userId: number, allianceId: number, operationId: number): Promise<{ operationId: number }> {
  const actor = await actorCountry(ctx, userId);
  await runCountriesAction(ctx, {
    name: "alliance.operation.cancel",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await memberOf(tx.client, row, allianceId);
      const operation = await lockOperation(tx.client, operationId);
      if (!operation || operation.alliance_id !== alliance.id) throw notFound("Operation not found", "operation/not_found");
      ensure(checkCancelOperation({ role, status: operation.status }));
      await setOperationStatus(tx.client, operation.id, "cancelled", { closedAt: tx.now });
      await emitOperation(tx, alliance.id, operation.id);
      await postAllianceSystemMessage(tx, { allianceId: alliance.id, channel: "military", type: "system", content: `${row.name} cancelled operation "${operation.name}"`, allianceTag: alliance.tag });
      return { next: NOTHING, result: null };
    },
  });
  return { operationId };
}

/**
 * What launching an operation of a type does, inside the launch's transaction over every
 * confirmed participant and the target (all locked). Returns the outcome lines.
 */
export type OperationStrike = (input: {
  ctx: ServiceContext;
  tx: ActionTransaction;
  operation: { id: number; name: string; allianceId: number; targetId: number; type: string };
  participants: Array<{ row: CountryRow; contribution: OperationContribution }>;
  target: CountryRow;
}) => Promise<{ outcome: OperationOutcomeJson; next: Map<number, import("@game/schema/rules").CountryState>; patches?: Map<number, import("../db/countries.js").CountryRowPatch> }>;

/**
 * Defensive support: each confirmed participant's units defend the target ally for
 * DEFENSE_COMMITMENT_MS, as military support answers to a defense request the launch raises.
 */
const defensiveSupport: OperationStrike = async ({ tx, operation, participants, target }) => {
  const requestId = await insertDefenseRequest(tx.client, {
    allianceId: operation.allianceId,
    requesterId: target.id,
    requesterName: target.name,
    attackerId: null,
    attackerName: "",
    attackType: `operation: ${operation.name}`,
    urgency: "medium",
    need: { military: true, intelligence: false, resources: false },
    message: `Defensive support operation "${operation.name}"`,
    requestedAt: tx.now,
    expiresAt: new Date(tx.now.getTime() + DEFENSE_REQUEST_LIFETIME_MS),
    battleRef: `operation-${operation.id}`,
  });
  const until = new Date(tx.now.getTime() + DEFENSE_COMMITMENT_MS);
  const lines: string[] = [];
  for (const p of participants) {
    const c = p.contribution;
    await insertDefenseResponse(tx.client, {
      requestId: requestId!,
      responderId: p.row.id,
      responderName: p.row.name,
      responseType: "military_support",
      troops: c.troops,
      jets: c.jets,
      tanks: c.tanks,
      commitmentExpiresAt: until,
      reportId: null,
      now: tx.now,
    });
    lines.push(`${p.row.name} commits ${c.troops} troops, ${c.jets} jets, ${c.tanks} tanks to ${target.name}'s defence until ${until.toISOString()}`);
  }
  await emitDefenseRequest(tx, operation.allianceId, requestId!);
  return { outcome: { summary: `${participants.length} members defend ${target.name}`, lines, battleReportIds: [] }, next: new Map() };
};

/**
 * Reconnaissance and blockade without spies or markets of their own: reconnaissance reports
 * what any country may know of the target (its public numbers), posted to the intelligence
 * channel; a blockade is recorded for the market to read.
 */
const reconnaissance: OperationStrike = async ({ tx, participants, target }) => {
  const labels = target.alliance_id === null ? new Map() : await allianceLabels(tx.client, [target.alliance_id]);
  const lines = [
    `Target: ${target.name} (${target.government_type})`,
    `Networth ${target.networth.toLocaleString("en-US")}, land ${target.land.toLocaleString("en-US")} acres`,
    `Alliance: ${target.alliance_id === null ? "none" : (labels.get(target.alliance_id)?.name ?? "unknown")}`,
    `Battle record: ${target.victories} won, ${target.defeats} lost`,
    `Scouts: ${participants.map((p) => p.row.name).join(", ")}`,
  ];
  return { outcome: { summary: `Reconnaissance of ${target.name} complete`, lines, battleReportIds: [] }, next: new Map() };
};

const STRIKES: Record<string, OperationStrike> = {
  defensive_support: defensiveSupport,
  reconnaissance,
  blockade: async ({ operation, participants, target }) => ({
    outcome: { summary: `${target.name} is under blockade`, lines: [`${participants.length} members blockade ${target.name} (operation "${operation.name}")`], battleReportIds: [] },
    next: new Map(),
  }),
};

/**
 * "launchOperation": a leader launches a ready operation. A coordinated attack runs every
 * confirmed participant's attack through the combat service (launchCoordinatedStrike). The
 * other types lock every confirmed participant and the target in one transaction; the
 * participants' contributions are re-checked against what they hold now; the type's strike
 * runs; the operation completes and its rewards are credited (bonus points to the alliance,
 * military support to each participant).
 */
export async function launchOperation(ctx: ServiceContext, userId: number, allianceId: number, operationId: number): Promise<{ operationId: number; outcome: OperationOutcomeJson }> {
  const { rows: kind } = await ctx.db.query<{ operation_type: string }>("SELECT operation_type FROM alliance_operations WHERE id = $1", [operationId]);
  if (kind[0]?.operation_type === "coordinated_attack") return launchCoordinatedStrike(ctx, userId, allianceId, operationId);
  const actor = await actorCountry(ctx, userId);
  const pre = await operationParticipants(ctx.db, [operationId]);
  const { rows: opRows } = await ctx.db.query<{ target_country_id: number | null; operation_type: string }>("SELECT target_country_id, operation_type FROM alliance_operations WHERE id = $1", [operationId]);
  const targetId = opRows[0]?.target_country_id ?? null;
  const confirmedIds = pre.filter((p) => p.status === "confirmed").map((p) => p.country_id);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.operation.launch",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id, ...confirmedIds, ...(targetId === null ? [] : [targetId])],
    notFoundMessage: "A participant or the target no longer exists",
    async step(countries, tx): Promise<StepOutcome<{ operationId: number; outcome: OperationOutcomeJson }>> {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await memberOf(tx.client, row, allianceId);
      const operation = await lockOperation(tx.client, operationId);
      if (!operation || operation.alliance_id !== alliance.id) throw notFound("Operation not found", "operation/not_found");
      const participants = await operationParticipants(tx.client, [operation.id]);
      const confirmed = participants.filter((p) => p.status === "confirmed");
      // Someone confirmed between the first read and the locks: their row is not locked, so go again.
      if (confirmed.some((p) => !countries.has(p.country_id)) || operation.target_country_id === null || !countries.has(operation.target_country_id)) {
        throw refusal({ code: "operation/changed", message: "The operation changed while launching; try again" });
      }
      const readiness = computeOperationReadiness(
        confirmed.map((p) => ({ status: p.status, totalForce: computeTotalForce(p) })),
        { minParticipants: operation.min_participants, maxParticipants: operation.max_participants, minTotalForce: operation.min_total_force },
      );
      ensure(checkLaunchOperation({ role, status: operation.status, ready: readiness.ready }));
      const members = new Set(await allianceMemberIds(tx.client, alliance.id));
      const forces = confirmed
        .filter((p) => members.has(p.country_id))
        .map((p) => {
          const participantRow = countries.get(p.country_id)!.row;
          // Units lost or spent since joining: commit what is still there.
          const contribution = {
            troops: Math.min(p.troops, participantRow.troops),
            jets: Math.min(p.jets, participantRow.jets),
            tanks: Math.min(p.tanks, participantRow.tanks),
            turrets: Math.min(p.turrets, participantRow.turrets),
          };
          return { row: participantRow, contribution };
        })
        .filter((f) => computeTotalForce(f.contribution) > 0);
      if (forces.length === 0) throw refusal({ code: "operation/not_ready", message: "Operation requirements are not met" });
      const strike = STRIKES[operation.operation_type];
      if (!strike) throw refusal({ code: "operation/unavailable", message: `${OPERATION_TYPE_LABELS[operation.operation_type]} operations cannot be launched yet` });
      const target = countries.get(operation.target_country_id)!.row;
      const done = await strike({
        ctx,
        tx,
        operation: { id: operation.id, name: operation.name, allianceId: alliance.id, targetId: target.id, type: operation.operation_type },
        participants: forces,
        target,
      });
      const totalForce = forces.reduce((sum, f) => sum + computeTotalForce(f.contribution), 0);
      const rewards = computeOperationRewards(forces.length, totalForce);
      // Bounded: the room keeps the outcome of its latest closed operations (allianceStateBudget.test.ts).
      const outcome = { ...done.outcome, summary: done.outcome.summary.slice(0, 100), lines: done.outcome.lines.slice(0, OPERATION_LIMITS.maxParticipants).map((l) => l.slice(0, 160)) };
      await setOperationStatus(tx.client, operation.id, "completed", { closedAt: tx.now, outcome, seed: tx.seed, rewards });
      await creditAlliancePoints(tx, { allianceId: alliance.id, countryId: row.id, source: "operation", ref: String(operation.id), points: rewards.bonusPoints });
      for (const f of forces) await addMilitarySupport(tx.client, f.row.id, alliance.id, computeTotalForce(f.contribution));
      await emitOperation(tx, alliance.id, operation.id);
      await postAllianceSystemMessage(tx, {
        allianceId: alliance.id,
        channel: "military",
        type: "war_alert",
        content: `Operation "${operation.name}" launched: ${done.outcome.summary}. +${rewards.bonusPoints} bonus points`,
        allianceTag: alliance.tag,
      });
      await recordNews(tx, {
        kind: "alliance_operation_completed",
        allianceId: alliance.id,
        params: {
          alliance: { id: alliance.id, name: alliance.name },
          operation: operation.name,
          operationType: OPERATION_TYPE_LABELS[operation.operation_type].toLowerCase(),
          target: { id: target.id, name: target.name },
          participants: forces.length,
          bonusPoints: rewards.bonusPoints,
        },
        participants: forces.map((f) => ({ id: f.row.id, name: f.row.name, type: "country" as const, role: "participant", allianceTag: alliance.tag })),
      });
      if (operation.operation_type === "reconnaissance") {
        await postAllianceSystemMessage(tx, { allianceId: alliance.id, channel: "military", type: "system", content: done.outcome.lines.join(" | "), allianceTag: alliance.tag });
      }
      return { next: done.next, patches: done.patches, result: { operationId: operation.id, outcome } };
    },
  });
  return result;
}

/** The attack type of a coordinated strike: troops, jets and tanks against the whole defence. */
export const COORDINATED_ATTACK_TYPE = "standard_strike";

/**
 * A coordinated attack: one strike of every confirmed participant on the target, in one
 * launch. The launch is claimed first (the operation completes in its own transaction, so two
 * leaders clicking at once launch it once); then each participant's attack runs through the
 * combat service on its behalf (`launchAttack` with no actor), one after another in country id
 * order, each against the target as the previous one left it, each its own battle with its
 * own report; an attack the rules refuse (turns, units, protection) is recorded and the others
 * go on. Then the outcome, the rewards (if any attack was fought) and the news are written.
 */
async function launchCoordinatedStrike(ctx: ServiceContext, userId: number, allianceId: number, operationId: number): Promise<{ operationId: number; outcome: OperationOutcomeJson }> {
  const actor = await actorCountry(ctx, userId);
  const { result: claim } = await runCountriesAction(ctx, {
    name: "alliance.operation.launch",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await memberOf(tx.client, row, allianceId);
      const operation = await lockOperation(tx.client, operationId);
      if (!operation || operation.alliance_id !== alliance.id) throw notFound("Operation not found", "operation/not_found");
      const participants = await operationParticipants(tx.client, [operation.id]);
      const confirmed = participants.filter((p) => p.status === "confirmed");
      const readiness = computeOperationReadiness(
        confirmed.map((p) => ({ status: p.status, totalForce: computeTotalForce(p) })),
        { minParticipants: operation.min_participants, maxParticipants: operation.max_participants, minTotalForce: operation.min_total_force },
      );
      ensure(checkLaunchOperation({ role, status: operation.status, ready: readiness.ready }));
      if (operation.target_country_id === null) throw refusal({ code: "operation/closed", message: "The target no longer exists" });
      const outcome: OperationOutcomeJson = { summary: "Strike under way", lines: [], battleReportIds: [] };
      await setOperationStatus(tx.client, operation.id, "completed", { closedAt: tx.now, outcome, seed: tx.seed });
      await emitOperation(tx, alliance.id, operation.id);
      await postAllianceSystemMessage(tx, { allianceId: alliance.id, channel: "military", type: "war_alert", content: `${row.name} launched operation "${operation.name}" on ${operation.target_name}`, allianceTag: alliance.tag });
      return { next: NOTHING, result: { alliance, operation, confirmed, launcher: row } };
    },
  });

  const { alliance, operation, confirmed, launcher } = claim;
  const lines: string[] = [];
  const reports: number[] = [];
  const fought: Array<{ countryId: number; units: number }> = [];
  let land = 0;
  for (const p of [...confirmed].sort((x, y) => x.country_id - y.country_id)) {
    const now = await findCountryById(ctx.db, p.country_id);
    if (!now || now.alliance_id !== alliance.id) {
      lines.push(`${p.country_name} is no longer in the alliance`);
      continue;
    }
    // A commitment is a promise, not an escrow: send what of it the country still holds.
    const units = { troops: Math.min(p.troops, now.troops), jets: Math.min(p.jets, now.jets), tanks: Math.min(p.tanks, now.tanks) };
    try {
      const launched = await launchAttack(ctx, null, { countryId: p.country_id, targetCountryId: operation.target_country_id!, attackType: COORDINATED_ATTACK_TYPE, units, allianceSupport: false });
      if (!launched.executed) continue;
      const r = launched.report;
      reports.push(r.id);
      fought.push({ countryId: p.country_id, units: units.troops + units.jets + units.tanks });
      land += r.landCaptured + r.landDestroyed;
      const won = r.outcome === "attacker_victory";
      lines.push(`${p.country_name}: ${won ? `victory, ${r.landCaptured + r.landDestroyed} acres` : "repelled"} (report #${r.id})`);
    } catch (err) {
      if (!(err instanceof AppError)) ctx.logger.error({ err, operationId, countryId: p.country_id }, "coordinated strike attack failed");
      lines.push(`${p.country_name} could not attack: ${err instanceof AppError ? err.message : "the attack failed"}`);
    }
  }

  const totalForce = fought.reduce((sum, f) => sum + f.units, 0);
  const rewards = fought.length > 0 ? computeOperationRewards(fought.length, totalForce) : { bonusPoints: 0, militarySupport: 0, experienceGain: 0 };
  const outcome: OperationOutcomeJson = {
    summary: `${fought.length} of ${confirmed.length} attacks struck ${operation.target_name}: ${land} acres taken`.slice(0, 100),
    lines: lines.slice(0, OPERATION_LIMITS.maxParticipants).map((l) => l.slice(0, 160)),
    battleReportIds: reports,
  };
  await runAllianceTransaction(ctx, async (tx) => {
    await setOperationStatus(tx.client, operation.id, "completed", { outcome, rewards });
    if (rewards.bonusPoints > 0) await creditAlliancePoints(tx, { allianceId: alliance.id, countryId: launcher.id, source: "operation", ref: String(operation.id), points: rewards.bonusPoints });
    for (const f of fought) await addMilitarySupport(tx.client, f.countryId, alliance.id, f.units);
    await emitOperation(tx, alliance.id, operation.id);
    await postAllianceSystemMessage(tx, {
      allianceId: alliance.id,
      channel: "military",
      type: "war_alert",
      content: `Operation "${operation.name}": ${outcome.summary}${rewards.bonusPoints ? `. +${rewards.bonusPoints} bonus points` : ""}`,
      allianceTag: alliance.tag,
    });
    if (fought.length > 0) {
      await recordNews(tx, {
        kind: "alliance_operation_completed",
        allianceId: alliance.id,
        params: {
          alliance: { id: alliance.id, name: alliance.name },
          operation: operation.name,
          operationType: OPERATION_TYPE_LABELS.coordinated_attack.toLowerCase(),
          target: { id: operation.target_country_id!, name: operation.target_name },
          participants: fought.length,
          bonusPoints: rewards.bonusPoints,
        },
      });
    }
  });
  return { operationId: operation.id, outcome };
}

/**
 * A transaction of the alliance domain that changes no country row (an operation's outcome, a
 * ledger entry): its events are published after it commits.
 */
async function runAllianceTransaction(ctx: ServiceContext, work: (tx: Pick<ActionTransaction, "client" | "emit" | "now">) => Promise<void>): Promise<void> {
  const events: TopicEvent[] = [];
  await withTransaction(ctx.db, (client) => work({ client, now: new Date(ctx.clock.now()), emit: (topic, event) => events.push(on(topic, event)) }));
  ctx.events.publishAll(events);
}

/** Units a country has already committed to allies' defence and that are still in force. */
async function committedUnits(client: DbClient, countryId: number, at: Date): Promise<{ troops: number; jets: number; tanks: number }> {
  const { rows } = await client.query<{ troops: number; jets: number; tanks: number }>(
    `SELECT COALESCE(sum(troops), 0)::bigint AS troops, COALESCE(sum(jets), 0)::bigint AS jets, COALESCE(sum(tanks), 0)::bigint AS tanks
     FROM alliance_defense_responses WHERE responder_id = $1 AND response_type = 'military_support' AND commitment_expires_at > $2`,
    [countryId, at],
  );
  return rows[0]!;
}

/** "requestDefense": a member asks the alliance for help (one open request at a time). */
export async function requestDefense(ctx: ServiceContext, userId: number, allianceId: number, input: ParsedRequestDefenseMessage): Promise<{ requestId: number }> {
  const actor = await actorCountry(ctx, userId);
  const attacker = input.attackerCountryId === undefined ? undefined : await findCountryById(ctx.db, input.attackerCountryId);
  if (input.attackerCountryId !== undefined && !attacker) throw notFound("Attacker not found", "defense/unknown_attacker");
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.defense.request",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await memberOf(tx.client, row, allianceId);
      ensure(checkRequestDefense({ role, openRequests: await openRequestCount(tx.client, row.id, tx.now), supportNeeded: input.supportNeeded }));
      const requestId = (await insertDefenseRequest(tx.client, {
        allianceId: alliance.id,
        requesterId: row.id,
        requesterName: row.name,
        attackerId: attacker?.id ?? null,
        attackerName: attacker?.name ?? "",
        attackType: "",
        urgency: input.urgency,
        need: input.supportNeeded,
        message: input.message,
        requestedAt: tx.now,
        expiresAt: new Date(tx.now.getTime() + DEFENSE_REQUEST_LIFETIME_MS),
      }))!;
      await emitDefenseRequest(tx, alliance.id, requestId);
      await postAllianceSystemMessage(tx, {
        allianceId: alliance.id,
        channel: "military",
        type: "war_alert",
        content: `${row.name} requests ${describeNeeds(input.supportNeeded)} (${input.urgency})${attacker ? ` against ${attacker.name}` : ""}`,
        allianceTag: alliance.tag,
      });
      return { next: NOTHING, result: { requestId } };
    },
  });
  return result;
}

function describeNeeds(n: { military: boolean; intelligence: boolean; resources: boolean }): string {
  const parts = [n.military && "military support", n.intelligence && "intelligence", n.resources && "resources"].filter(Boolean);
  return parts.join(", ");
}

/**
 * "respondDefense": once per member, before the request expires. Military support commits
 * units (at most what the responder holds beyond its other commitments) to the requester's
 * defence for DEFENSE_COMMITMENT_MS: combat counts them while the commitment lasts.
 */
export async function respondDefense(ctx: ServiceContext, userId: number, allianceId: number, input: ParsedRespondDefenseMessage): Promise<{ requestId: number }> {
  const actor = await actorCountry(ctx, userId);
  await runCountriesAction(ctx, {
    name: "alliance.defense.respond",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance } = await memberOf(tx.client, row, allianceId);
      const request = await lockDefenseRequest(tx.client, input.requestId);
      if (!request || request.alliance_id !== alliance.id) throw notFound("Defense request not found", "defense/not_found");
      const committed = await committedUnits(tx.client, row.id, tx.now);
      const military = input.responseType === "military_support";
      const commitment = military ? input.commitment : { troops: 0, jets: 0, tanks: 0 };
      ensure(
        checkRespondDefense({
          responderId: row.id,
          requesterId: request.requester_id,
          expiresAt: request.expires_at.getTime(),
          now: tx.now.getTime(),
          alreadyResponded: await hasResponded(tx.client, request.id, row.id),
          responseType: input.responseType,
          supportNeeded: { military: request.need_military, intelligence: request.need_intelligence },
          commitment,
          available: { troops: row.troops - committed.troops, jets: row.jets - committed.jets, tanks: row.tanks - committed.tanks },
        }),
      );
      // "Share Intelligence" with a spy report: shared with the alliance (espionage checks it is the responder's, fresh and allowed)
      if (input.responseType === "intelligence" && input.reportId !== undefined) await shareWithAlliance(tx, row, input.reportId, alliance.id, tx.now);
      await insertDefenseResponse(tx.client, {
        requestId: request.id,
        responderId: row.id,
        responderName: row.name,
        responseType: input.responseType,
        ...commitment,
        commitmentExpiresAt: military ? new Date(tx.now.getTime() + DEFENSE_COMMITMENT_MS) : null,
        reportId: input.reportId ?? null,
        now: tx.now,
      });
      if (military) await addMilitarySupport(tx.client, row.id, alliance.id, commitment.troops + commitment.jets + commitment.tanks);
      await emitDefenseRequest(tx, alliance.id, request.id);
      if (input.responseType !== "declined") {
        const what = military ? `${commitment.troops} troops, ${commitment.jets} jets and ${commitment.tanks} tanks` : "intelligence";
        noticeTo(tx, request.requester_id, notice(`defense-${request.id}-${row.id}`, "defense_response", "success", "Help is coming", `${row.name} sends ${what}`, tx.now, request.id));
      }
      return { next: NOTHING, result: null };
    },
  });
  return { requestId: input.requestId };
}

/** GET /alliance/operations: the alliance's operations as its room shows them. */
export function allianceOperations(ctx: ServiceContext, allianceId: number): Promise<OperationJson[]> {
  return loadOperations(ctx.db, { allianceId });
}

/** GET /alliance/defense-requests: the alliance's defense requests as its room shows them. */
export function allianceDefenseRequests(ctx: ServiceContext, allianceId: number, now: Date): Promise<DefenseRequestJson[]> {
  return loadDefenseRequests(ctx.db, { allianceId, now });
}
