import { ALLIANCE_MAX_MEMBERS, TECHNOLOGY_IDS, foldName, type AllianceRequirements, type AllianceRole, type BonusPurchase } from "@game/schema/rules";
import type { AllianceFlagJson } from "@game/schema/api";
import type { Db, DbClient } from "./pool.js";
import { ONLINE_WINDOW_SECONDS } from "./online.js";

/**
 * Alliance queries. Membership is countries.alliance_id (the one truth other domains read);
 * alliance_members carries the role, joining time and contributions of a country while its
 * alliance_id names the same alliance, so every read joins on both.
 */

type Q = Db | DbClient;

/** Online: a world room refreshed one of the user's sessions within the window. */
const ONLINE_SQL = `EXISTS (SELECT 1 FROM online_sessions s WHERE s.user_id = c.user_id AND s.seen_at > now() - make_interval(secs => ${ONLINE_WINDOW_SECONDS}))`;

/** The technology columns, in TECHNOLOGY_IDS order (research milestones compare them). */
export const TECH_COLUMNS = TECHNOLOGY_IDS.map((id) => `${id}_tech`);

// --- what the world projections need: labels and roles --------------------------------------

export interface AllianceLabel {
  name: string;
  tag: string;
}

/** Name and tag of each alliance (disbanded ones included: old rows may still name them). */
export async function allianceLabels(db: Q, allianceIds: number[]): Promise<Map<number, AllianceLabel>> {
  if (allianceIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; name: string; tag: string }>("SELECT id, name, tag FROM alliances WHERE id = ANY($1::bigint[])", [allianceIds]);
  return new Map(rows.map((r) => [r.id, { name: r.name, tag: r.tag }]));
}

/**
 * The role of each country in its alliance (countries without one are absent). A country
 * whose alliance_id has no member row (set by an operator's tool) counts as a plain member.
 */
export async function allianceRoles(db: Q, countries: Array<{ id: number; alliance_id: number | null }>): Promise<Map<number, AllianceRole>> {
  const members = countries.filter((c) => c.alliance_id !== null);
  const roles = new Map<number, AllianceRole>();
  if (members.length === 0) return roles;
  const { rows } = await db.query<{ country_id: number; alliance_id: number; role: AllianceRole }>("SELECT country_id, alliance_id, role FROM alliance_members WHERE country_id = ANY($1::bigint[])", [members.map((c) => c.id)]);
  const byCountry = new Map(rows.map((r) => [r.country_id, r]));
  for (const c of members) {
    const row = byCountry.get(c.id);
    roles.set(c.id, row && row.alliance_id === c.alliance_id ? row.role : "member");
  }
  return roles;
}

// --- alliances ------------------------------------------------------------------------------

export interface AllianceRow {
  id: number;
  name: string;
  name_key: string;
  tag: string;
  description: string;
  flag_background: string;
  flag_symbol: string;
  flag_symbol_color: string;
  bonus_points: number;
  points_earned: number;
  min_networth: number;
  min_land: number;
  accept_applications: boolean;
  founded_by: number | null;
  created_at: Date;
  disbanded_at: Date | null;
}

export function allianceFlag(row: AllianceRow): AllianceFlagJson {
  return { backgroundColor: row.flag_background, symbol: row.flag_symbol as AllianceFlagJson["symbol"], symbolColor: row.flag_symbol_color };
}

export function allianceRequirements(row: AllianceRow): AllianceRequirements {
  return { minNetworth: row.min_networth, minLand: row.min_land, acceptApplications: row.accept_applications };
}

/** A live (not disbanded) alliance. */
export async function findAlliance(db: Q, id: number): Promise<AllianceRow | undefined> {
  const { rows } = await db.query<AllianceRow>("SELECT * FROM alliances WHERE id = $1 AND disbanded_at IS NULL", [id]);
  return rows[0];
}

/**
 * Locks a live alliance's row for the rest of the transaction: every change of membership,
 * roles, points and bonuses takes it, after the countries' rows (never before), so counts
 * (200 members, 4 managers) and points cannot be raced.
 */
export async function lockAlliance(client: DbClient, id: number): Promise<AllianceRow | undefined> {
  const { rows } = await client.query<AllianceRow>("SELECT * FROM alliances WHERE id = $1 AND disbanded_at IS NULL FOR UPDATE", [id]);
  return rows[0];
}

/**
 * A live alliance's row, shared-locked: warfare actions read roles under it, so a role
 * change (which takes the row exclusively) cannot slip between the check and the write.
 */
export async function lockAllianceShared(client: DbClient, id: number): Promise<AllianceRow | undefined> {
  const { rows } = await client.query<AllianceRow>("SELECT * FROM alliances WHERE id = $1 AND disbanded_at IS NULL FOR SHARE", [id]);
  return rows[0];
}

export async function insertAlliance(client: DbClient, a: { name: string; tag: string; description: string; flag: AllianceFlagJson; requirements: AllianceRequirements; foundedBy: number }): Promise<AllianceRow> {
  const { rows } = await client.query<AllianceRow>(
    `INSERT INTO alliances (name, tag, description, flag_background, flag_symbol, flag_symbol_color, min_networth, min_land, accept_applications, founded_by, name_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
    [a.name, a.tag, a.description, a.flag.backgroundColor, a.flag.symbol, a.flag.symbolColor, a.requirements.minNetworth, a.requirements.minLand, a.requirements.acceptApplications, a.foundedBy, foldName(a.name)],
  );
  return rows[0]!;
}

export async function updateAllianceSettings(client: DbClient, id: number, s: { description?: string; flag?: AllianceFlagJson; requirements?: AllianceRequirements }): Promise<void> {
  await client.query(
    `UPDATE alliances SET
       description = COALESCE($2, description),
       flag_background = COALESCE($3, flag_background), flag_symbol = COALESCE($4, flag_symbol), flag_symbol_color = COALESCE($5, flag_symbol_color),
       min_networth = COALESCE($6, min_networth), min_land = COALESCE($7, min_land), accept_applications = COALESCE($8, accept_applications)
     WHERE id = $1`,
    [id, s.description ?? null, s.flag?.backgroundColor ?? null, s.flag?.symbol ?? null, s.flag?.symbolColor ?? null, s.requirements?.minNetworth ?? null, s.requirements?.minLand ?? null, s.requirements?.acceptApplications ?? null],
  );
}

/**
 * Disbands an alliance whose last member left: the row stays (history), its name and tag
 * become free, and everything pending of it ends. `at` is the action's time (tx.now), the one
 * clock of every record its transaction writes (Postgres now() is the transaction's start,
 * before its locks: a purchase applied first read later than a disband that waited for it).
 */
export async function disbandAlliance(client: DbClient, id: number, at: Date): Promise<void> {
  await client.query("UPDATE alliances SET disbanded_at = $2 WHERE id = $1", [id, at]);
  await client.query("UPDATE alliance_invitations SET status = 'cancelled', answered_at = $2 WHERE alliance_id = $1 AND status = 'pending'", [id, at]);
  await client.query("UPDATE alliance_applications SET status = 'rejected', answered_at = $2 WHERE alliance_id = $1 AND status = 'pending'", [id, at]);
}

/** Aggregates of an alliance's members (private unit totals stay on the server unless the reader is a member). */
export interface AllianceAggregate {
  alliance_id: number;
  member_count: number;
  total_networth: number;
  total_land: number;
  total_military: number;
  /** wars a member declared and won (credited to the alliance, source 'war') */
  wars_won: number;
  /** wars a member declared since the alliance was founded that ended without a victory */
  wars_lost: number;
  active_wars: number;
}

/**
 * Every live alliance with its aggregates and its rank by total networth (ties: more members,
 * then the older alliance), or those of `ids` (`limit` null: all). The alliances are few (one
 * per 2-200 players), but their aggregates sum every member: the public list reads them through
 * the alliance ladder (services/alliances.ts `listAlliances`), at most once a second per process,
 * and searches it by name or tag in memory.
 */
export async function rankedAlliances(db: Q, options: { ids?: number[]; limit: number | null; offset: number }): Promise<{ rows: Array<AllianceRow & AllianceAggregate & { rank: number }>; total: number }> {
  const { rows } = await db.query<AllianceRow & AllianceAggregate & { rank: number; total: number }>(
    `WITH agg AS (
       SELECT c.alliance_id, count(*)::int AS member_count, COALESCE(sum(c.networth), 0)::bigint AS total_networth,
              COALESCE(sum(c.land), 0)::bigint AS total_land,
              COALESCE(sum(c.troops + c.jets + c.tanks + c.turrets), 0)::bigint AS total_military
       FROM countries c WHERE c.alliance_id IS NOT NULL GROUP BY c.alliance_id
     ), won AS (
       -- wars, not battles: a war a member declared and won is credited to the alliance once
       SELECT l.alliance_id, count(*)::int AS wars_won FROM alliance_point_ledger l WHERE l.source = 'war' GROUP BY l.alliance_id
     ), lost AS (
       SELECT c.alliance_id, count(*)::int AS wars_lost
       FROM war_declarations w JOIN countries c ON c.id = w.declarer_id JOIN alliances a ON a.id = c.alliance_id
       WHERE w.ended_at IS NOT NULL AND w.declared_at >= a.created_at
         AND NOT EXISTS (SELECT 1 FROM alliance_point_ledger l WHERE l.alliance_id = c.alliance_id AND l.source = 'war' AND l.ref = 'war-' || w.id)
       GROUP BY c.alliance_id
     ), wars AS (
       -- war declarations in force (military's table) by or against a member
       SELECT c.alliance_id, count(DISTINCT w.id)::int AS active_wars
       FROM war_declarations w JOIN countries c ON c.id IN (w.declarer_id, w.target_id)
       WHERE w.ended_at IS NULL AND c.alliance_id IS NOT NULL GROUP BY c.alliance_id
     ), ranked AS (
       SELECT a.*, COALESCE(g.member_count, 0) AS member_count, COALESCE(g.total_networth, 0) AS total_networth,
              COALESCE(g.total_land, 0) AS total_land, COALESCE(g.total_military, 0) AS total_military,
              COALESCE(wn.wars_won, 0) AS wars_won, COALESCE(ls.wars_lost, 0) AS wars_lost, COALESCE(wa.active_wars, 0) AS active_wars,
              rank() OVER (ORDER BY COALESCE(g.total_networth, 0) DESC, COALESCE(g.member_count, 0) DESC, a.id ASC)::int AS rank
       FROM alliances a LEFT JOIN agg g ON g.alliance_id = a.id LEFT JOIN wars wa ON wa.alliance_id = a.id
            LEFT JOIN won wn ON wn.alliance_id = a.id LEFT JOIN lost ls ON ls.alliance_id = a.id
       WHERE a.disbanded_at IS NULL
     )
     SELECT *, count(*) OVER ()::int AS total FROM ranked
     WHERE ($3::bigint[] IS NULL OR id = ANY($3::bigint[]))
     ORDER BY rank, id
     LIMIT $1 OFFSET $2`,
    [options.limit, options.offset, options.ids ?? null],
  );
  return { rows, total: rows[0]?.total ?? 0 };
}

/** Today's alliance ranks (first read of the UTC day), for trend and change; snapshots kept 31 days. */
export async function ensureAllianceRankSnapshot(db: Q): Promise<void> {
  await db.query(
    `INSERT INTO alliance_rank_snapshots (day, alliance_id, rank)
     SELECT current_date, a.id, rank() OVER (ORDER BY COALESCE(g.total, 0) DESC, COALESCE(g.n, 0) DESC, a.id ASC)
     FROM alliances a LEFT JOIN (SELECT alliance_id, sum(networth) AS total, count(*) AS n FROM countries WHERE alliance_id IS NOT NULL GROUP BY alliance_id) g
       ON g.alliance_id = a.id
     WHERE a.disbanded_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM alliance_rank_snapshots WHERE day = current_date)
     ON CONFLICT DO NOTHING;
     DELETE FROM alliance_rank_snapshots WHERE day < current_date - 31`,
  );
}

/** The rank each alliance had in today's snapshot. */
export async function snapshotRanks(db: Q, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ alliance_id: number; rank: number }>("SELECT alliance_id, rank FROM alliance_rank_snapshots WHERE day = current_date AND alliance_id = ANY($1::bigint[])", [ids]);
  return new Map(rows.map((r) => [r.alliance_id, r.rank]));
}

// --- members --------------------------------------------------------------------------------

/** A member as the alliance screens show it: public country numbers, role, contributions. */
export interface MemberRow {
  country_id: number;
  country_name: string;
  player_name: string | null;
  user_id: number | null;
  government_type: string;
  role: AllianceRole;
  networth: number;
  land: number;
  joined_at: Date;
  last_active: Date;
  is_online: boolean;
  points_contributed: number;
  military_support: number;
  resources_shared: number;
}

export async function listMembers(db: Q, allianceId: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT c.id AS country_id, c.name AS country_name, CASE WHEN c.is_ai THEN c.name ELSE u.username END AS player_name, c.user_id, c.government_type,
            COALESCE(m.role, 'member') AS role, c.networth, c.land, COALESCE(m.joined_at, c.created_at) AS joined_at, c.last_active,
            ${ONLINE_SQL} AS is_online,
            COALESCE(m.points_contributed, 0) AS points_contributed, COALESCE(m.military_support, 0) AS military_support,
            COALESCE(m.resources_shared, 0) AS resources_shared
     FROM countries c
     LEFT JOIN users u ON u.id = c.user_id
     LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id
     WHERE c.alliance_id = $1
     ORDER BY CASE COALESCE(m.role, 'member') WHEN 'owner' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END, c.networth DESC, c.id`,
    [allianceId],
  );
  return rows;
}

/** A country's role in `allianceId`, or null when it is not a member of it. */
export async function memberRole(db: Q, countryId: number, allianceId: number | null): Promise<AllianceRole | null> {
  if (allianceId === null) return null;
  const { rows } = await db.query<{ role: AllianceRole | null; alliance_id: number | null }>(
    `SELECT c.alliance_id, m.role FROM countries c LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id WHERE c.id = $1`,
    [countryId],
  );
  const row = rows[0];
  if (!row || row.alliance_id !== allianceId) return null;
  return row.role ?? "member";
}

export async function countMembers(db: Q, allianceId: number): Promise<{ members: number; managers: number }> {
  const { rows } = await db.query<{ members: number; managers: number }>(
    `SELECT count(*)::int AS members, count(*) FILTER (WHERE m.role = 'manager')::int AS managers
     FROM countries c LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id
     WHERE c.alliance_id = $1`,
    [allianceId],
  );
  return rows[0]!;
}

/** Who may succeed: the members with their roles and tenure. */
export async function memberTenures(db: Q, allianceId: number): Promise<Array<{ countryId: number; role: AllianceRole; joinedAt: number }>> {
  const { rows } = await db.query<{ country_id: number; role: AllianceRole | null; joined_at: Date }>(
    `SELECT c.id AS country_id, m.role, COALESCE(m.joined_at, c.created_at) AS joined_at
     FROM countries c LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id WHERE c.alliance_id = $1`,
    [allianceId],
  );
  return rows.map((r) => ({ countryId: r.country_id, role: r.role ?? "member", joinedAt: r.joined_at.getTime() }));
}

/**
 * A member row for a country joining `allianceId` (an old row of another alliance is
 * replaced). Its technology levels now are credited already: milestones count from here.
 */
export async function insertMember(client: DbClient, m: { countryId: number; allianceId: number; role: AllianceRole; techLevels: number[]; now: Date }): Promise<void> {
  await client.query(
    `INSERT INTO alliance_members (country_id, alliance_id, role, joined_at, research_credited) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (country_id) DO UPDATE SET alliance_id = EXCLUDED.alliance_id, role = EXCLUDED.role, joined_at = EXCLUDED.joined_at,
       points_contributed = 0, military_support = 0, resources_shared = 0, research_credited = EXCLUDED.research_credited`,
    [m.countryId, m.allianceId, m.role, m.now, m.techLevels],
  );
}

export async function deleteMember(client: DbClient, countryId: number): Promise<void> {
  await client.query("DELETE FROM alliance_members WHERE country_id = $1", [countryId]);
}

export async function setMemberRole(client: DbClient, countryId: number, allianceId: number, role: AllianceRole): Promise<void> {
  // An operator-made member without a row gets one.
  await client.query(
    `INSERT INTO alliance_members (country_id, alliance_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (country_id) DO UPDATE SET role = EXCLUDED.role WHERE alliance_members.alliance_id = EXCLUDED.alliance_id`,
    [countryId, allianceId, role],
  );
}

/** Adds to a member's military support contribution (units committed). */
export async function addMilitarySupport(client: DbClient, countryId: number, allianceId: number, units: number): Promise<void> {
  if (units <= 0) return;
  await client.query("UPDATE alliance_members SET military_support = military_support + $3 WHERE country_id = $1 AND alliance_id = $2", [countryId, allianceId, units]);
}

/** Leaders of an alliance (owner and managers), for notices. */
export async function allianceLeaders(db: Q, allianceId: number): Promise<number[]> {
  const { rows } = await db.query<{ country_id: number }>(
    `SELECT m.country_id FROM alliance_members m JOIN countries c ON c.id = m.country_id AND c.alliance_id = m.alliance_id
     WHERE m.alliance_id = $1 AND m.role IN ('owner', 'manager')`,
    [allianceId],
  );
  return rows.map((r) => r.country_id);
}

/** Every member's country id. */
export async function allianceMemberIds(db: Q, allianceId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>("SELECT id FROM countries WHERE alliance_id = $1", [allianceId]);
  return rows.map((r) => r.id);
}

// --- invitations and applications -----------------------------------------------------------

export interface InvitationRow {
  id: number;
  alliance_id: number;
  alliance_name: string;
  alliance_tag: string;
  target_country_id: number;
  target_country_name: string;
  invited_by: number | null;
  invited_by_name: string;
  message: string;
  status: string;
  sent_at: Date;
  expires_at: Date;
}

const INVITATION_SELECT = `SELECT i.*, a.name AS alliance_name, a.tag AS alliance_tag, c.name AS target_country_name
  FROM alliance_invitations i JOIN alliances a ON a.id = i.alliance_id JOIN countries c ON c.id = i.target_country_id`;

export async function insertInvitation(client: DbClient, i: { allianceId: number; targetCountryId: number; invitedBy: number; invitedByName: string; message: string; expiresAt: Date }): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO alliance_invitations (alliance_id, target_country_id, invited_by, invited_by_name, message, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [i.allianceId, i.targetCountryId, i.invitedBy, i.invitedByName, i.message, i.expiresAt],
  );
  return rows[0]!.id;
}

export async function findInvitation(db: Q, id: number, lock = false): Promise<InvitationRow | undefined> {
  const { rows } = await db.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.id = $1${lock ? " FOR UPDATE OF i" : ""}`, [id]);
  return rows[0];
}

/** Pending, unexpired invitations to a country. */
export async function invitationsFor(db: Q, countryId: number): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.target_country_id = $1 AND i.status = 'pending' AND i.expires_at > now() AND a.disbanded_at IS NULL ORDER BY i.id DESC`, [countryId]);
  return rows;
}

/** Pending, unexpired invitations an alliance sent. */
export async function invitationsOf(db: Q, allianceId: number): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.alliance_id = $1 AND i.status = 'pending' AND i.expires_at > now() ORDER BY i.id DESC`, [allianceId]);
  return rows;
}

export async function setInvitationStatus(client: DbClient, id: number, status: "accepted" | "declined" | "cancelled", at: Date): Promise<void> {
  await client.query("UPDATE alliance_invitations SET status = $2, answered_at = $3 WHERE id = $1", [id, status, at]);
}

export interface ApplicationRow {
  id: number;
  alliance_id: number;
  alliance_name: string;
  applicant_country_id: number;
  applicant_name: string;
  applicant_networth: number;
  applicant_land: number;
  applicant_government: string;
  message: string;
  status: string;
  applied_at: Date;
  expires_at: Date;
  min_networth: number;
  min_land: number;
  accept_applications: boolean;
}

const APPLICATION_SELECT = `SELECT p.*, a.name AS alliance_name, a.min_networth, a.min_land, a.accept_applications,
    c.name AS applicant_name, c.networth AS applicant_networth, c.land AS applicant_land, c.government_type AS applicant_government
  FROM alliance_applications p JOIN alliances a ON a.id = p.alliance_id JOIN countries c ON c.id = p.applicant_country_id`;

export async function insertApplication(client: DbClient, a: { allianceId: number; countryId: number; message: string; expiresAt: Date }): Promise<number> {
  const { rows } = await client.query<{ id: number }>("INSERT INTO alliance_applications (alliance_id, applicant_country_id, message, expires_at) VALUES ($1, $2, $3, $4) RETURNING id", [a.allianceId, a.countryId, a.message, a.expiresAt]);
  return rows[0]!.id;
}

export async function findApplication(db: Q, id: number, lock = false): Promise<ApplicationRow | undefined> {
  const { rows } = await db.query<ApplicationRow>(`${APPLICATION_SELECT} WHERE p.id = $1${lock ? " FOR UPDATE OF p" : ""}`, [id]);
  return rows[0];
}

/** Pending, unexpired applications to an alliance. */
export async function applicationsTo(db: Q, allianceId: number): Promise<ApplicationRow[]> {
  const { rows } = await db.query<ApplicationRow>(`${APPLICATION_SELECT} WHERE p.alliance_id = $1 AND p.status = 'pending' AND p.expires_at > now() ORDER BY p.id`, [allianceId]);
  return rows;
}

/** A country's own pending, unexpired applications. */
export async function applicationsBy(db: Q, countryId: number): Promise<ApplicationRow[]> {
  const { rows } = await db.query<ApplicationRow>(`${APPLICATION_SELECT} WHERE p.applicant_country_id = $1 AND p.status = 'pending' AND p.expires_at > now() AND a.disbanded_at IS NULL ORDER BY p.id DESC`, [countryId]);
  return rows;
}

export async function setApplicationStatus(client: DbClient, id: number, status: "accepted" | "rejected" | "withdrawn", answeredBy: number | null, at: Date): Promise<void> {
  await client.query("UPDATE alliance_applications SET status = $2, answered_at = $4, answered_by = $3 WHERE id = $1", [id, status, answeredBy, at]);
}

/** A country joined an alliance: its other pending applications are withdrawn. @returns the alliances they were to */
export async function withdrawApplicationsOf(client: DbClient, countryId: number, at: Date): Promise<number[]> {
  const { rows } = await client.query<{ alliance_id: number }>("UPDATE alliance_applications SET status = 'withdrawn', answered_at = $2 WHERE applicant_country_id = $1 AND status = 'pending' RETURNING alliance_id", [countryId, at]);
  return rows.map((r) => r.alliance_id);
}

/** Pending applications and invitations of an alliance (the leadership's counters). */
export async function pendingCounts(db: Q, allianceId: number): Promise<{ applications: number; invitations: number }> {
  const { rows } = await db.query<{ applications: number; invitations: number }>(
    `SELECT (SELECT count(*) FROM alliance_applications WHERE alliance_id = $1 AND status = 'pending' AND expires_at > now())::int AS applications,
            (SELECT count(*) FROM alliance_invitations WHERE alliance_id = $1 AND status = 'pending' AND expires_at > now())::int AS invitations`,
    [allianceId],
  );
  return rows[0]!;
}

// --- bonus points and bonuses ---------------------------------------------------------------

/**
 * Credits points once: the ledger's (alliance, source, ref) is unique, so the same activity
 * credited again adds nothing. The alliance's balance and the member's contribution move in
 * the same statement.
 * @returns whether it was credited now
 */
export async function creditPoints(client: DbClient, c: { allianceId: number; countryId: number | null; source: string; ref: string; points: number }): Promise<boolean> {
  if (c.points <= 0) return false;
  const { rows } = await client.query<{ credited: number }>(
    `WITH ins AS (
       INSERT INTO alliance_point_ledger (alliance_id, country_id, source, ref, points)
       SELECT $1, $2, $3, $4, $5 FROM alliances WHERE id = $1 AND disbanded_at IS NULL
       ON CONFLICT (alliance_id, source, ref) DO NOTHING RETURNING points
     ), a AS (
       UPDATE alliances SET bonus_points = bonus_points + ins.points, points_earned = points_earned + ins.points FROM ins WHERE alliances.id = $1
     ), m AS (
       UPDATE alliance_members SET points_contributed = points_contributed + ins.points FROM ins WHERE country_id = $2 AND alliance_id = $1
     )
     SELECT count(*)::int AS credited FROM ins`,
    [c.allianceId, c.countryId, c.source, c.ref, c.points],
  );
  return rows[0]!.credited > 0;
}

export interface PurchaseRow {
  id: number;
  alliance_id: number;
  bonus_id: string;
  level: number;
  cost: number;
  purchased_at: Date;
  expires_at: Date | null;
  purchased_by_name: string;
}

export async function listPurchases(db: Q, allianceId: number): Promise<PurchaseRow[]> {
  const { rows } = await db.query<PurchaseRow>("SELECT * FROM alliance_bonus_purchases WHERE alliance_id = $1 ORDER BY purchased_at DESC, id DESC", [allianceId]);
  return rows;
}

export function toBonusPurchase(row: PurchaseRow): BonusPurchase {
  return { bonusId: row.bonus_id, level: row.level, purchasedAt: row.purchased_at.getTime(), expiresAt: row.expires_at?.getTime() ?? null };
}

/** Bonus purchases of the alliances of the given countries, keyed by country (the rules' modifiers read these). */
export async function purchasesOfCountries(db: Q, countryIds: number[]): Promise<Map<number, BonusPurchase[]>> {
  if (countryIds.length === 0) return new Map();
  const { rows } = await db.query<PurchaseRow & { country_id: number }>(
    `SELECT c.id AS country_id, p.* FROM countries c JOIN alliance_bonus_purchases p ON p.alliance_id = c.alliance_id
     WHERE c.id = ANY($1::bigint[])`,
    [countryIds],
  );
  const map = new Map<number, BonusPurchase[]>();
  for (const r of rows) {
    const list = map.get(r.country_id) ?? [];
    list.push(toBonusPurchase(r));
    map.set(r.country_id, list);
  }
  return map;
}

export async function insertPurchase(client: DbClient, p: { allianceId: number; bonusId: string; level: number; cost: number; expiresAt: Date | null; by: number; byName: string; now: Date }): Promise<void> {
  await client.query(
    `INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_at, expires_at, purchased_by, purchased_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [p.allianceId, p.bonusId, p.level, p.cost, p.now, p.expiresAt, p.by, p.byName],
  );
  // The CHECK (bonus_points >= 0) is the last guard; the service checked the balance under the lock.
  await client.query("UPDATE alliances SET bonus_points = bonus_points - $2 WHERE id = $1", [p.allianceId, p.cost]);
}

/** The latest ledger entries (finances). */
export async function recentLedger(db: Q, allianceId: number, limit = 20): Promise<Array<{ source: string; country_name: string | null; points: number; created_at: Date }>> {
  const { rows } = await db.query<{ source: string; country_name: string | null; points: number; created_at: Date }>(
    `SELECT l.source, c.name AS country_name, l.points, l.created_at FROM alliance_point_ledger l LEFT JOIN countries c ON c.id = l.country_id
     WHERE l.alliance_id = $1 ORDER BY l.id DESC LIMIT $2`,
    [allianceId, limit],
  );
  return rows;
}

export async function pointsSpent(db: Q, allianceId: number): Promise<number> {
  const { rows } = await db.query<{ spent: number }>("SELECT COALESCE(sum(cost), 0)::bigint AS spent FROM alliance_bonus_purchases WHERE alliance_id = $1", [allianceId]);
  return rows[0]!.spent;
}

/** Seats left, for refusing a 201st member before the insert. */
export function seatsLeft(members: number): number {
  return Math.max(0, ALLIANCE_MAX_MEMBERS - members);
}
