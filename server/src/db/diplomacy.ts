import type { ProposalStatus, RelationStatus, RelationType } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

/** Diplomatic proposals and relations between countries. */

type Q = Db | DbClient;

export interface ProposalRow {
  id: number;
  from_country_id: number;
  from_country_name: string;
  to_country_id: number;
  to_country_name: string;
  relation_type: RelationType;
  message: string;
  status: ProposalStatus;
  proposed_at: Date;
  expires_at: Date;
}

const PROPOSAL_SELECT = `SELECT p.*, f.name AS from_country_name, t.name AS to_country_name
  FROM diplomatic_proposals p JOIN countries f ON f.id = p.from_country_id JOIN countries t ON t.id = p.to_country_id`;

export async function insertProposal(client: DbClient, p: { from: number; to: number; type: RelationType; message: string; now: Date; expiresAt: Date }): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO diplomatic_proposals (from_country_id, to_country_id, relation_type, message, proposed_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [p.from, p.to, p.type, p.message, p.now, p.expiresAt],
  );
  return rows[0]!.id;
}

export async function findProposal(db: Q, id: number, lock = false): Promise<ProposalRow | undefined> {
  const { rows } = await db.query<ProposalRow>(`${PROPOSAL_SELECT} WHERE p.id = $1${lock ? " FOR UPDATE OF p" : ""}`, [id]);
  return rows[0];
}

export async function setProposalStatus(client: DbClient, id: number, status: ProposalStatus, now: Date): Promise<void> {
  await client.query("UPDATE diplomatic_proposals SET status = $2, answered_at = $3 WHERE id = $1", [id, status, now]);
}

/** Pending, unexpired proposals between two countries, either direction. */
export async function pendingBetween(db: Q, a: number, b: number, now: Date): Promise<ProposalRow[]> {
  const { rows } = await db.query<ProposalRow>(
    `${PROPOSAL_SELECT} WHERE p.status = 'pending' AND p.expires_at > $3
       AND ((p.from_country_id = $1 AND p.to_country_id = $2) OR (p.from_country_id = $2 AND p.to_country_id = $1))`,
    [a, b, now],
  );
  return rows;
}

/** Pending, unexpired proposals to or from a country. */
export async function proposalsOf(db: Q, countryId: number, now: Date): Promise<ProposalRow[]> {
  const { rows } = await db.query<ProposalRow>(`${PROPOSAL_SELECT} WHERE p.status = 'pending' AND p.expires_at > $2 AND (p.from_country_id = $1 OR p.to_country_id = $1) ORDER BY p.id DESC`, [countryId, now]);
  return rows;
}

export interface RelationRow {
  id: number;
  relation_type: RelationType;
  from_country_id: number;
  to_country_id: number;
  established_at: Date;
  can_cancel_after: Date;
  daily_cost: number;
  total_paid: number;
  status: RelationStatus;
  last_activity: Date;
}

export async function insertRelation(client: DbClient, r: { type: RelationType; from: number; to: number; proposalId: number | null; now: Date; canCancelAfter: Date; dailyCost: number }): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO diplomatic_relations (relation_type, from_country_id, to_country_id, proposal_id, established_at, can_cancel_after, daily_cost, last_activity)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $5) RETURNING id`,
    [r.type, r.from, r.to, r.proposalId, r.now, r.canCancelAfter, r.dailyCost],
  );
  return rows[0]!.id;
}

export async function findRelation(db: Q, id: number, lock = false): Promise<RelationRow | undefined> {
  const { rows } = await db.query<RelationRow>(`SELECT * FROM diplomatic_relations WHERE id = $1${lock ? " FOR UPDATE" : ""}`, [id]);
  return rows[0];
}

/** Active relations between two countries, either direction. */
export async function activeBetween(db: Q, a: number, b: number): Promise<RelationRow[]> {
  const { rows } = await db.query<RelationRow>(
    `SELECT * FROM diplomatic_relations WHERE status = 'active'
       AND ((from_country_id = $1 AND to_country_id = $2) OR (from_country_id = $2 AND to_country_id = $1))`,
    [a, b],
  );
  return rows;
}

export async function endRelation(client: DbClient, id: number, status: "cancelled" | "expired", endedBy: number | null, now: Date): Promise<void> {
  await client.query("UPDATE diplomatic_relations SET status = $2, ended_at = $4, ended_by = $3, last_activity = $4 WHERE id = $1", [id, status, endedBy, now]);
}

/** A country's active relations with the partner's public face. */
export async function relationsOf(db: Q, countryId: number): Promise<Array<RelationRow & { partner_id: number; partner_name: string; partner_government: string }>> {
  const { rows } = await db.query<RelationRow & { partner_id: number; partner_name: string; partner_government: string }>(
    `SELECT r.*, p.id AS partner_id, p.name AS partner_name, p.government_type AS partner_government
     FROM diplomatic_relations r
     JOIN countries p ON p.id = CASE WHEN r.from_country_id = $1 THEN r.to_country_id ELSE r.from_country_id END
     WHERE r.status = 'active' AND (r.from_country_id = $1 OR r.to_country_id = $1)
     ORDER BY r.established_at, r.id`,
    [countryId],
  );
  return rows;
}

/** Active relation types each country holds (for effects): a one-sided agreement counts for its holder only. */
export async function heldRelationTypes(db: Q, countryIds: number[]): Promise<Map<number, Array<{ type: RelationType; partnerId: number }>>> {
  const held = new Map<number, Array<{ type: RelationType; partnerId: number }>>(countryIds.map((id) => [id, []]));
  if (countryIds.length === 0) return held;
  const { rows } = await db.query<{ relation_type: RelationType; from_country_id: number; to_country_id: number }>(
    `SELECT relation_type, from_country_id, to_country_id FROM diplomatic_relations
     WHERE status = 'active' AND (from_country_id = ANY($1::bigint[]) OR (to_country_id = ANY($1::bigint[]) AND relation_type <> 'trade'))`,
    [countryIds],
  );
  for (const r of rows) {
    held.get(r.from_country_id)?.push({ type: r.relation_type, partnerId: r.to_country_id });
    if (r.relation_type !== "trade") held.get(r.to_country_id)?.push({ type: r.relation_type, partnerId: r.from_country_id });
  }
  return held;
}
