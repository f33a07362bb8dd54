import { defaultSettings, type IntelligenceReportJson, type SpyMissionJson } from "@game/schema/api";
import { CONFIDENCE_ORDER, MISSION_TYPES, isExpired, utcDay, type DailyUsage, type IntelConfidence, type Intelligence, type IntelType, type MissionTypeId } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

type Q = Db | DbClient;

/** Tables: migration 010_espionage.ts. */

export interface MissionRow {
  id: number;
  country_id: number;
  /** null: a former country (deleted account; migration 022), target_name keeps its name */
  target_id: number | null;
  target_name: string;
  centre: "spy_center" | "intelligence_center";
  operation_type: string;
  spies_used: number;
  success_chance: number;
  success: boolean;
  detected: boolean;
  spies_lost: number;
  turns_spent: number;
  buildings_destroyed: number;
  oil_destroyed: number;
  seed: number;
  started_at: Date;
  completed_at: Date;
  report_id?: number | null;
}

export interface ReportRow {
  id: number;
  mission_id: number;
  owner_id: number;
  owner_name: string;
  /** null: a former country (deleted account; migration 022), target_name keeps its name */
  target_id: number | null;
  target_name: string;
  target_government: string;
  operation_type: string;
  intel_type: IntelType;
  success: boolean;
  spies_used: number;
  spies_lost: number;
  detected: boolean;
  confidence: IntelConfidence | null;
  intelligence: Intelligence | null;
  tags: string[];
  seed: number;
  created_at: Date;
  expires_at: Date;
  shared_alliance_id: number | null;
}

export function toMissionJson(row: MissionRow): SpyMissionJson {
  return {
    id: row.id,
    centre: row.centre,
    operationType: row.operation_type as SpyMissionJson["operationType"],
    targetCountryId: row.target_id,
    targetCountryName: row.target_name,
    spiesUsed: row.spies_used,
    status: row.success ? "completed" : "failed",
    startTime: row.started_at.getTime(),
    completionTime: row.completed_at.getTime(),
    successChance: Math.round(Math.min(1, row.success_chance) * 100),
    results: { success: row.success, spiesLost: row.spies_lost, spiesCaught: row.spies_lost, detected: row.detected, intelGathered: row.success && row.operation_type !== "sabotage" },
    turnsSpent: row.turns_spent,
    reportId: row.report_id ?? null,
  };
}

export function toReportJson(row: ReportRow, viewerId: number, now: number): IntelligenceReportJson {
  return {
    id: row.id,
    operationType: row.operation_type as IntelligenceReportJson["operationType"],
    intelType: row.intel_type,
    targetCountryId: row.target_id,
    targetCountryName: row.target_name,
    targetGovernment: row.target_government,
    spiesUsed: row.spies_used,
    success: row.success,
    operationDate: row.created_at.getTime(),
    intelligence: row.intelligence,
    spiesLost: row.spies_lost,
    detected: row.detected,
    confidenceLevel: row.confidence,
    expiresAt: row.expires_at.getTime(),
    expired: isExpired(row.expires_at.getTime(), now),
    tags: row.tags,
    seed: row.seed,
    ownerCountryId: row.owner_id,
    ownerName: row.owner_name,
    isOwn: row.owner_id === viewerId,
    sharedWithAlliance: row.shared_alliance_id !== null,
  };
}

const MISSION_COLUMNS = `id::int, country_id::int, target_id::int, target_name, centre, operation_type, spies_used, success_chance, success, detected, spies_lost,
  turns_spent, buildings_destroyed, oil_destroyed::int, seed::int8::float8 AS seed, started_at, completed_at`;
const REPORT_COLUMNS = `r.id::int, r.mission_id::int, r.owner_id::int, o.name AS owner_name, r.target_id::int, r.target_name, r.target_government, r.operation_type,
  r.intel_type, r.success, r.spies_used, r.spies_lost, r.detected, r.confidence, r.intelligence, r.tags, r.seed::float8 AS seed, r.created_at, r.expires_at,
  r.shared_alliance_id::int`;

/** Today's usage of a country: counters of its current UTC day (a row from an earlier day counts as none) and its latest mission of each type. */
export async function findUsage(db: Q, countryId: number, now: Date): Promise<DailyUsage> {
  const { rows } = await db.query<{ day: number | null; used: number | null; by_kind: Record<string, number> | null; last_at: Record<string, string> | null }>(
    `SELECT c.day, c.used, c.by_kind,
            (SELECT json_object_agg(operation_type, at) FROM (SELECT operation_type, max(started_at) AS at FROM spy_missions
               WHERE country_id = $1 AND centre = 'intelligence_center' AND started_at > $2 GROUP BY operation_type) x) AS last_at
       FROM (SELECT 1) one LEFT JOIN spy_daily_counters c ON c.country_id = $1`,
    // cooldowns are at most a few hours: older missions cannot hold one
    [countryId, new Date(now.getTime() - MAX_COOLDOWN_MS)],
  );
  const r = rows[0]!;
  const today = utcDay(now.getTime());
  const current = r.day === today;
  const lastAt: DailyUsage["lastAt"] = {};
  for (const [k, v] of Object.entries(r.last_at ?? {})) lastAt[k as MissionTypeId] = new Date(v).getTime();
  return { used: current ? (r.used ?? 0) : 0, byKind: current ? (r.by_kind ?? {}) : {}, lastAt };
}

/** The longest cooldown of a type (ms): missions older than this never block one. */
const MAX_COOLDOWN_MS = Math.max(...Object.values(MISSION_TYPES).map((t) => t.cooldownHours)) * 3_600_000;

/** Counts one operation of `kind` for the country's day (starting the day afresh if the row is older). */
export async function countOperation(client: DbClient, countryId: number, kind: string, now: Date): Promise<void> {
  await client.query(
    `INSERT INTO spy_daily_counters (country_id, day, used, by_kind) VALUES ($1, $2, 1, jsonb_build_object($3::text, 1))
     ON CONFLICT (country_id) DO UPDATE SET
       used = CASE WHEN spy_daily_counters.day = $2 THEN spy_daily_counters.used + 1 ELSE 1 END,
       by_kind = CASE WHEN spy_daily_counters.day = $2
                      THEN spy_daily_counters.by_kind || jsonb_build_object($3::text, COALESCE((spy_daily_counters.by_kind ->> $3)::int, 0) + 1)
                      ELSE jsonb_build_object($3::text, 1) END,
       day = $2`,
    [countryId, utcDay(now.getTime()), kind],
  );
}

/** Missions (and their reports) kept this long, then deleted by the daily phase (days). */
export const SPY_RECORD_RETENTION_DAYS = 30;

/** Deletes missions started before `before`, with their reports. */
export async function deleteOldMissions(db: Q, before: Date): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM spy_missions WHERE started_at < $1", [before]);
  return rowCount ?? 0;
}

/** The daily reset: every counter of an earlier day goes to zero for `day`. Applied twice, it changes nothing. */
export async function resetDailyCounters(db: Q, day: number): Promise<number> {
  const { rowCount } = await db.query("UPDATE spy_daily_counters SET day = $1, used = 0, by_kind = '{}' WHERE day < $1", [day]);
  return rowCount ?? 0;
}

export async function insertMission(client: DbClient, m: Omit<MissionRow, "id" | "report_id">): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO spy_missions (country_id, target_id, target_name, centre, operation_type, spies_used, success_chance, success, detected, spies_lost, turns_spent,
       buildings_destroyed, oil_destroyed, seed, started_at, completed_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16) RETURNING id::int`,
    [m.country_id, m.target_id, m.target_name, m.centre, m.operation_type, m.spies_used, m.success_chance, m.success, m.detected, m.spies_lost, m.turns_spent, m.buildings_destroyed, m.oil_destroyed, m.seed, m.started_at, m.completed_at],
  );
  return rows[0]!.id;
}

export async function insertReport(client: DbClient, r: Omit<ReportRow, "id" | "owner_name" | "shared_alliance_id">): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO spy_reports (mission_id, owner_id, target_id, target_name, target_government, operation_type, intel_type, success, spies_used, spies_lost, detected,
       confidence, confidence_rank, intelligence, tags, seed, created_at, expires_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING id::int`,
    [
      r.mission_id,
      r.owner_id,
      r.target_id,
      r.target_name,
      r.target_government,
      r.operation_type,
      r.intel_type,
      r.success,
      r.spies_used,
      r.spies_lost,
      r.detected,
      r.confidence,
      r.confidence ? CONFIDENCE_ORDER[r.confidence] : 0,
      r.intelligence === null ? null : JSON.stringify(r.intelligence),
      r.tags,
      r.seed,
      r.created_at,
      r.expires_at,
    ],
  );
  return rows[0]!.id;
}

/** Successful sabotages against a target in the 24 hours before `now`. */
export async function recentSabotages(db: Q, targetId: number, now: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM spy_missions WHERE target_id = $1 AND operation_type = 'sabotage' AND success AND buildings_destroyed + oil_destroyed > 0 AND started_at > $2", [
    targetId,
    new Date(now.getTime() - 86_400_000),
  ]);
  return rows[0]!.n;
}

export async function recentMissions(db: Q, countryId: number, limit = 20): Promise<MissionRow[]> {
  const { rows } = await db.query<MissionRow>(`SELECT ${MISSION_COLUMNS}, (SELECT r.id::int FROM spy_reports r WHERE r.mission_id = m.id) AS report_id FROM spy_missions m WHERE country_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`, [
    countryId,
    limit,
  ]);
  return rows;
}

export async function findReport(db: Q, id: number): Promise<ReportRow | undefined> {
  const { rows } = await db.query<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM spy_reports r JOIN countries o ON o.id = r.owner_id WHERE r.id = $1`, [id]);
  return rows[0];
}

/**
 * Whether a shared report may be shown to the members of its alliance: its owner is still a
 * member of that alliance and neither the owner nor the target has turned allowSpyOperations
 * off (docs/rules.md, "Espionage": privacy).
 */
const allowsSql = (countryColumn: string) => `COALESCE((SELECT (us.settings -> 'privacy' ->> 'allowSpyOperations')::boolean FROM countries sc JOIN user_settings us ON us.user_id = sc.user_id WHERE sc.id = ${countryColumn}), true)`;
const SHARE_VISIBLE = `r.shared_alliance_id IS NOT NULL AND o.alliance_id = r.shared_alliance_id AND ${allowsSql("r.owner_id")} AND ${allowsSql("r.target_id")}`;

/** Whether `viewer` (with its alliance) may read the report. */
export async function canViewReport(db: Q, reportId: number, viewerId: number, viewerAllianceId: number | null): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT (r.owner_id = $2 OR ($3::bigint IS NOT NULL AND r.shared_alliance_id = $3 AND ${SHARE_VISIBLE})) AS ok
       FROM spy_reports r JOIN countries o ON o.id = r.owner_id WHERE r.id = $1`,
    [reportId, viewerId, viewerAllianceId],
  );
  return rows[0]?.ok ?? false;
}

export interface ReportFilter {
  search?: string;
  type: "all" | IntelType;
  sort: "date" | "target" | "confidence";
  offset: number;
  limit: number;
}

const ORDER: Record<ReportFilter["sort"], string> = {
  date: "r.created_at DESC, r.id DESC",
  target: "lower(r.target_name) ASC, r.created_at DESC, r.id DESC",
  confidence: "r.confidence_rank DESC, r.created_at DESC, r.id DESC",
};

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A country's own reports, searched (target name or tag), filtered, sorted and paged. */
export async function listOwnReports(db: Q, ownerId: number, f: ReportFilter): Promise<{ rows: ReportRow[]; total: number }> {
  const search = f.search?.trim() ? `%${escapeLike(f.search.trim())}%` : null;
  const where = `r.owner_id = $1 AND ($2::text = 'all' OR r.intel_type = $2) AND ($3::text IS NULL OR r.target_name ILIKE $3 OR EXISTS (SELECT 1 FROM unnest(r.tags) t WHERE t ILIKE $3))`;
  const [list, count] = await Promise.all([
    db.query<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM spy_reports r JOIN countries o ON o.id = r.owner_id WHERE ${where} ORDER BY ${ORDER[f.sort]} LIMIT $4 OFFSET $5`, [ownerId, f.type, search, f.limit, f.offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM spy_reports r WHERE ${where}`, [ownerId, f.type, search]),
  ]);
  return { rows: list.rows, total: count.rows[0]!.n };
}

/** Reports shared with an alliance that its members may see now, newest first. */
export async function listSharedReports(db: Q, allianceId: number, limit = 50): Promise<ReportRow[]> {
  const { rows } = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM spy_reports r JOIN countries o ON o.id = r.owner_id WHERE r.shared_alliance_id = $1 AND ${SHARE_VISIBLE}
     ORDER BY r.shared_at DESC, r.id DESC LIMIT $2`,
    [allianceId, limit],
  );
  return rows;
}

export async function shareReport(client: DbClient, reportId: number, allianceId: number, now: Date): Promise<void> {
  await client.query("UPDATE spy_reports SET shared_alliance_id = $2, shared_at = $3 WHERE id = $1", [reportId, allianceId, now]);
}

/**
 * The player's privacy setting allowSpyOperations (the Settings screen's document in
 * user_settings, migration 016; default on). Migration 010's espionage_settings table is no
 * longer read or written: the settings document is the one place the choice lives.
 */
export async function allowsSpyOperations(db: Q, countryId: number): Promise<boolean> {
  const { rows } = await db.query<{ allow: boolean }>(`SELECT ${allowsSql("$1::bigint")} AS allow`, [countryId]);
  return rows[0]?.allow ?? true;
}

/** Sets allowSpyOperations in the owner's settings document (created with the defaults if it has none). */
export async function setAllowSpyOperations(client: DbClient, countryId: number, allow: boolean, now: Date): Promise<void> {
  const fresh = defaultSettings();
  fresh.privacy.allowSpyOperations = allow;
  await client.query(
    `INSERT INTO user_settings (user_id, settings, updated_at) SELECT c.user_id, $2::jsonb, $3 FROM countries c WHERE c.id = $1
     ON CONFLICT (user_id) DO UPDATE SET
       settings = jsonb_set(user_settings.settings, '{privacy}', COALESCE(user_settings.settings -> 'privacy', '{}'::jsonb) || jsonb_build_object('allowSpyOperations', $4::boolean)),
       updated_at = $3`,
    [countryId, JSON.stringify(fresh), now, allow],
  );
}

/** The freshest unexpired successful military report an observer can read on a target (its own, or one shared with its alliance). */
export async function freshestMilitaryReport(db: Q, observerId: number, observerAllianceId: number | null, targetId: number, now: Date): Promise<ReportRow | undefined> {
  const { rows } = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM spy_reports r JOIN countries o ON o.id = r.owner_id
      WHERE r.target_id = $2 AND r.intel_type = 'military' AND r.success AND r.expires_at >= $4 AND r.intelligence ? 'military'
        AND (r.owner_id = $1 OR ($3::bigint IS NOT NULL AND r.shared_alliance_id = $3 AND ${SHARE_VISIBLE}))
      ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
    [observerId, targetId, observerAllianceId, now],
  );
  return rows[0];
}

/**
 * The freshest unexpired successful military report per target that an observer can read
 * (target analysis of the whole list). `observerAllianceId` "current" reads the observer's
 * alliance in the statement itself (a read that travels with the observer's row, db/readBatch.ts).
 */
export async function freshestMilitaryReports(db: Q, observerId: number, observerAllianceId: number | null | "current", now: Date): Promise<ReportRow[]> {
  const current = observerAllianceId === "current";
  const alliance = current ? "(SELECT alliance_id FROM countries WHERE id = $1)" : "$3::bigint";
  const { rows } = await db.query<ReportRow>(
    `SELECT DISTINCT ON (r.target_id) ${REPORT_COLUMNS} FROM spy_reports r JOIN countries o ON o.id = r.owner_id
      WHERE r.intel_type = 'military' AND r.success AND r.expires_at >= $2 AND r.intelligence ? 'military'
        AND (r.owner_id = $1 OR (${alliance} IS NOT NULL AND r.shared_alliance_id = ${alliance} AND ${SHARE_VISIBLE}))
      ORDER BY r.target_id, r.created_at DESC, r.id DESC LIMIT 500`,
    current ? [observerId, now] : [observerId, now, observerAllianceId],
  );
  return rows;
}
