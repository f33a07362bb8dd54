import {
  ALLIANCE_ROOM_CLOSED_OPERATIONS,
  ALLIANCE_ROOM_DEFENSE_REQUESTS,
  computeOperationReadiness,
  computeTotalForce,
  type OperationContribution,
  type OperationStatus,
  type OperationType,
  type ParticipantStatus,
} from "@game/schema/rules";
import type { DefenseRequestJson, OperationJson, OperationOutcomeJson } from "@game/schema/api";
import type { Db, DbClient } from "./pool.js";

/** Operations with participants, defense requests with responses: the alliance room's warfare. */

type Q = Db | DbClient;

/** How many closed operations the room keeps showing (history). */
export const RECENT_CLOSED_OPERATIONS = ALLIANCE_ROOM_CLOSED_OPERATIONS;
/** Expired defense requests stay listed this long (ms), so members see how a request ended. */
export const EXPIRED_REQUESTS_SHOWN_MS = 24 * 3_600_000;

export interface OperationRow {
  id: number;
  alliance_id: number;
  name: string;
  description: string;
  operation_type: OperationType;
  target_country_id: number | null;
  target_name: string;
  target_alliance_name: string;
  initiator_id: number | null;
  initiator_name: string;
  status: OperationStatus;
  scheduled_for: Date;
  min_participants: number;
  max_participants: number;
  min_total_force: number;
  reward_bonus_points: number;
  reward_military_support: number;
  reward_experience: number;
  created_at: Date;
  closed_at: Date | null;
  outcome: OperationOutcomeJson | null;
}

export interface ParticipantRow {
  operation_id: number;
  country_id: number;
  country_name: string;
  role: string;
  status: ParticipantStatus;
  joined_at: Date | null;
  troops: number;
  jets: number;
  tanks: number;
  turrets: number;
  is_commander: boolean;
}

export async function insertOperation(
  client: DbClient,
  o: {
    allianceId: number;
    name: string;
    description: string;
    operationType: OperationType;
    targetCountryId: number;
    targetName: string;
    targetAllianceName: string;
    initiatorId: number;
    initiatorName: string;
    scheduledFor: Date;
    minParticipants: number;
    maxParticipants: number;
    minTotalForce: number;
    rewardBonusPoints: number;
    now: Date;
  },
): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO alliance_operations (alliance_id, name, description, operation_type, target_country_id, target_name, target_alliance_name,
       initiator_id, initiator_name, scheduled_for, min_participants, max_participants, min_total_force, reward_bonus_points, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      o.allianceId,
      o.name,
      o.description,
      o.operationType,
      o.targetCountryId,
      o.targetName,
      o.targetAllianceName,
      o.initiatorId,
      o.initiatorName,
      o.scheduledFor,
      o.minParticipants,
      o.maxParticipants,
      o.minTotalForce,
      o.rewardBonusPoints,
      o.now,
    ],
  );
  return rows[0]!.id;
}

/** Invites members to an operation (the initiator is its commander). */
export async function insertParticipants(client: DbClient, operationId: number, invited: Array<{ countryId: number; countryName: string; role: string; isCommander: boolean }>): Promise<void> {
  if (invited.length === 0) return;
  await client.query(
    `INSERT INTO alliance_operation_participants (operation_id, country_id, country_name, role, is_commander)
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::boolean[]) ON CONFLICT DO NOTHING`,
    [operationId, invited.map((i) => i.countryId), invited.map((i) => i.countryName), invited.map((i) => i.role), invited.map((i) => i.isCommander)],
  );
}

/** Locks an operation's row (joins and launches of one operation queue on it). */
export async function lockOperation(client: DbClient, id: number): Promise<OperationRow | undefined> {
  const { rows } = await client.query<OperationRow>("SELECT * FROM alliance_operations WHERE id = $1 FOR UPDATE", [id]);
  return rows[0];
}

export async function findOperation(db: Q, id: number): Promise<OperationRow | undefined> {
  const { rows } = await db.query<OperationRow>("SELECT * FROM alliance_operations WHERE id = $1", [id]);
  return rows[0];
}

export async function operationParticipants(db: Q, operationIds: number[]): Promise<ParticipantRow[]> {
  if (operationIds.length === 0) return [];
  const { rows } = await db.query<ParticipantRow>("SELECT * FROM alliance_operation_participants WHERE operation_id = ANY($1::bigint[]) ORDER BY operation_id, is_commander DESC, country_name", [operationIds]);
  return rows;
}

export async function setParticipantResponse(client: DbClient, operationId: number, countryId: number, status: ParticipantStatus, c: OperationContribution, now: Date): Promise<void> {
  await client.query(
    `UPDATE alliance_operation_participants SET status = $3, joined_at = $8, troops = $4, jets = $5, tanks = $6, turrets = $7
     WHERE operation_id = $1 AND country_id = $2`,
    [operationId, countryId, status, c.troops, c.jets, c.tanks, c.turrets, now],
  );
}

export async function setOperationStatus(
  client: DbClient,
  id: number,
  status: OperationStatus,
  extra: { closedAt?: Date; outcome?: OperationOutcomeJson; seed?: number; rewards?: { bonusPoints: number; militarySupport: number; experienceGain: number } } = {},
): Promise<void> {
  await client.query(
    `UPDATE alliance_operations SET status = $2, closed_at = COALESCE($3, closed_at), outcome = COALESCE($4, outcome), seed = COALESCE($5, seed),
       reward_bonus_points = COALESCE($6, reward_bonus_points), reward_military_support = COALESCE($7, reward_military_support),
       reward_experience = COALESCE($8, reward_experience)
     WHERE id = $1`,
    [id, status, extra.closedAt ?? null, extra.outcome ? JSON.stringify(extra.outcome) : null, extra.seed ?? null, extra.rewards?.bonusPoints ?? null, extra.rewards?.militarySupport ?? null, extra.rewards?.experienceGain ?? null],
  );
}

/**
 * A member left: its places in the alliance's open operations go.
 * @returns the operations it was in
 */
export async function removeFromOpenOperations(client: DbClient, countryId: number, allianceId: number): Promise<number[]> {
  const { rows } = await client.query<{ operation_id: number }>(
    `DELETE FROM alliance_operation_participants p USING alliance_operations o
     WHERE p.operation_id = o.id AND o.alliance_id = $2 AND o.status IN ('planning', 'active') AND p.country_id = $1
     RETURNING p.operation_id`,
    [countryId, allianceId],
  );
  return rows.map((r) => r.operation_id);
}

/** Open operations of an alliance (the ones whose status follows readiness). */
export async function openOperationIds(db: Q, allianceId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>("SELECT id FROM alliance_operations WHERE alliance_id = $1 AND status IN ('planning', 'active')", [allianceId]);
  return rows.map((r) => r.id);
}

/** Operations as JSON (with readiness), by ids or an alliance's open and latest closed ones. */
export async function loadOperations(db: Q, select: { ids: number[] } | { allianceId: number }): Promise<OperationJson[]> {
  const { rows } =
    "ids" in select
      ? await db.query<OperationRow>("SELECT * FROM alliance_operations WHERE id = ANY($1::bigint[]) ORDER BY id", [select.ids])
      : await db.query<OperationRow>(
          `(SELECT * FROM alliance_operations WHERE alliance_id = $1 AND status IN ('planning', 'active'))
           UNION ALL
           (SELECT * FROM alliance_operations WHERE alliance_id = $1 AND status IN ('completed', 'cancelled') ORDER BY id DESC LIMIT $2)
           ORDER BY id`,
          [select.allianceId, RECENT_CLOSED_OPERATIONS],
        );
  const participants = await operationParticipants(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toOperationJson(
      row,
      participants.filter((p) => p.operation_id === row.id),
    ),
  );
}

export function toOperationJson(row: OperationRow, participants: ParticipantRow[]): OperationJson {
  const parts = participants.map((p) => {
    const contribution = { troops: p.troops, jets: p.jets, tanks: p.tanks, turrets: p.turrets };
    return {
      countryId: p.country_id,
      countryName: p.country_name,
      role: p.role,
      status: p.status,
      joinedAt: p.joined_at?.toISOString() ?? null,
      contribution: { ...contribution, totalForce: computeTotalForce(contribution) },
      isCommander: p.is_commander,
    };
  });
  const requirements = { minParticipants: row.min_participants, maxParticipants: row.max_participants, minTotalForce: row.min_total_force };
  const readiness = computeOperationReadiness(
    parts.map((p) => ({ status: p.status, totalForce: p.contribution.totalForce })),
    requirements,
  );
  return {
    id: row.id,
    allianceId: row.alliance_id,
    name: row.name,
    description: row.description,
    operationType: row.operation_type,
    targetId: row.target_country_id,
    targetName: row.target_name,
    targetAlliance: row.target_alliance_name,
    initiatorId: row.initiator_id,
    initiatorName: row.initiator_name,
    status: row.status,
    scheduledFor: row.scheduled_for.toISOString(),
    participants: parts,
    requirements,
    rewards: { bonusPoints: row.reward_bonus_points, militarySupport: row.reward_military_support, experienceGain: row.reward_experience },
    createdAt: row.created_at.toISOString(),
    readiness: readiness.label,
    outcome: row.outcome,
  };
}

// --- defense requests -----------------------------------------------------------------------

export interface DefenseRequestRow {
  id: number;
  alliance_id: number;
  requester_id: number;
  requester_name: string;
  attacker_id: number | null;
  attacker_name: string;
  attack_type: string;
  urgency: DefenseRequestJson["urgency"];
  need_military: boolean;
  need_intelligence: boolean;
  need_resources: boolean;
  message: string;
  requested_at: Date;
  expires_at: Date;
}

export interface DefenseResponseRow {
  request_id: number;
  responder_id: number;
  responder_name: string;
  response_type: DefenseRequestJson["responses"][number]["responseType"];
  response_at: Date;
  troops: number;
  jets: number;
  tanks: number;
  commitment_expires_at: Date | null;
}

/**
 * Inserts a defense request. An automatic one names its battle (`battleRef`), so the same
 * battle never raises two.
 * @returns its id, or null when the battle already raised one (or the alliance is gone)
 */
export async function insertDefenseRequest(
  client: DbClient,
  r: {
    allianceId: number;
    requesterId: number;
    requesterName: string;
    attackerId: number | null;
    attackerName: string;
    attackType: string;
    urgency: DefenseRequestJson["urgency"];
    need: { military: boolean; intelligence: boolean; resources: boolean };
    message: string;
    requestedAt: Date;
    expiresAt: Date;
    battleRef?: string;
  },
): Promise<number | null> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO alliance_defense_requests (alliance_id, requester_id, requester_name, attacker_id, attacker_name, attack_type, urgency,
       need_military, need_intelligence, need_resources, message, requested_at, expires_at, battle_ref)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
     WHERE EXISTS (SELECT 1 FROM alliances WHERE id = $1 AND disbanded_at IS NULL)
     ON CONFLICT (battle_ref) DO NOTHING RETURNING id`,
    [r.allianceId, r.requesterId, r.requesterName, r.attackerId, r.attackerName, r.attackType, r.urgency, r.need.military, r.need.intelligence, r.need.resources, r.message, r.requestedAt, r.expiresAt, r.battleRef ?? null],
  );
  return rows[0]?.id ?? null;
}

export async function lockDefenseRequest(client: DbClient, id: number): Promise<DefenseRequestRow | undefined> {
  const { rows } = await client.query<DefenseRequestRow>("SELECT * FROM alliance_defense_requests WHERE id = $1 FOR UPDATE", [id]);
  return rows[0];
}

export async function openRequestCount(db: Q, requesterId: number, now: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM alliance_defense_requests WHERE requester_id = $1 AND expires_at > $2", [requesterId, now]);
  return rows[0]!.n;
}

export async function hasResponded(db: Q, requestId: number, responderId: number): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM alliance_defense_responses WHERE request_id = $1 AND responder_id = $2", [requestId, responderId]);
  return rows.length > 0;
}

export async function insertDefenseResponse(
  client: DbClient,
  r: { requestId: number; responderId: number; responderName: string; responseType: string; troops: number; jets: number; tanks: number; commitmentExpiresAt: Date | null; reportId: number | null; now: Date },
): Promise<void> {
  await client.query(
    `INSERT INTO alliance_defense_responses (request_id, responder_id, responder_name, response_type, response_at, troops, jets, tanks, commitment_expires_at, report_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [r.requestId, r.responderId, r.responderName, r.responseType, r.now, r.troops, r.jets, r.tanks, r.commitmentExpiresAt, r.reportId],
  );
}

/** Defense requests as JSON, by ids or an alliance's open and recently expired ones. */
export async function loadDefenseRequests(db: Q, select: { ids: number[] } | { allianceId: number; now: Date }): Promise<DefenseRequestJson[]> {
  const { rows } =
    "ids" in select
      ? await db.query<DefenseRequestRow>("SELECT * FROM alliance_defense_requests WHERE id = ANY($1::bigint[]) ORDER BY id", [select.ids])
      : await db.query<DefenseRequestRow>("SELECT * FROM (SELECT * FROM alliance_defense_requests WHERE alliance_id = $1 AND expires_at > $2 ORDER BY id DESC LIMIT $3) r ORDER BY id", [
          select.allianceId,
          new Date(select.now.getTime() - EXPIRED_REQUESTS_SHOWN_MS),
          ALLIANCE_ROOM_DEFENSE_REQUESTS,
        ]);
  if (rows.length === 0) return [];
  const { rows: responses } = await db.query<DefenseResponseRow>("SELECT * FROM alliance_defense_responses WHERE request_id = ANY($1::bigint[]) ORDER BY response_at, responder_id", [rows.map((r) => r.id)]);
  return rows.map((r) => ({
    id: r.id,
    allianceId: r.alliance_id,
    requesterId: r.requester_id,
    requesterName: r.requester_name,
    attackerId: r.attacker_id,
    attackerName: r.attacker_name,
    attackType: r.attack_type,
    requestedAt: r.requested_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    urgency: r.urgency,
    supportNeeded: { military: r.need_military, intelligence: r.need_intelligence, resources: r.need_resources },
    message: r.message,
    responses: responses
      .filter((x) => x.request_id === r.id)
      .map((x) => ({
        responderId: x.responder_id,
        responderName: x.responder_name,
        responseType: x.response_type,
        responseAt: x.response_at.toISOString(),
        commitment: { troops: x.troops, jets: x.jets, tanks: x.tanks },
        commitmentExpiresAt: x.commitment_expires_at?.toISOString() ?? null,
      })),
  }));
}
