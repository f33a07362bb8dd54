import type { Db, DbClient } from "./pool.js";

/** Whether the user is an administrator: the stored role or an email in ADMIN_EMAILS. */
export async function isAdministrator(db: Db, userId: number, adminEmails: readonly string[]): Promise<boolean> {
  const { rows } = await db.query<{ admin: boolean }>("SELECT (is_admin OR lower(email) = ANY($2::text[])) AND suspended_at IS NULL AS admin FROM users WHERE id = $1", [userId, adminEmails]);
  return rows[0]?.admin ?? false;
}

/** The CLI's grant and revoke. @returns whether a user with that email exists */
export async function setAdminByEmail(db: Db, email: string, isAdmin: boolean): Promise<boolean> {
  const result = await db.query("UPDATE users SET is_admin = $2 WHERE lower(email) = lower($1)", [email, isAdmin]);
  return (result.rowCount ?? 0) > 0;
}

export async function logAdminAction(db: Db | DbClient, entry: { adminUserId: number; action: string; targetUserId?: number | null; details?: object }): Promise<void> {
  await db.query("INSERT INTO admin_log (admin_user_id, action, target_user_id, details) VALUES ($1, $2, $3, $4)", [entry.adminUserId, entry.action, entry.targetUserId ?? null, JSON.stringify(entry.details ?? {})]);
}

export interface AdminLogRow {
  id: number;
  admin_username: string | null;
  action: string;
  target_username: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export async function recentAdminLog(db: Db, limit: number): Promise<AdminLogRow[]> {
  const { rows } = await db.query<AdminLogRow>(
    `SELECT l.id, a.username AS admin_username, l.action, t.username AS target_username, l.details, l.created_at
       FROM admin_log l LEFT JOIN users a ON a.id = l.admin_user_id LEFT JOIN users t ON t.id = l.target_user_id
      ORDER BY l.id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

export interface AdminUserRow {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
  suspended_at: Date | null;
  country_id: number | null;
  country_name: string | null;
  created_at: Date;
  last_login: Date | null;
}

const USER_SELECT = `SELECT u.id, u.username, u.email, u.is_admin, u.suspended_at, c.id AS country_id, c.name AS country_name, u.created_at, u.last_login
  FROM users u LEFT JOIN countries c ON c.user_id = u.id`;

/** Users whose username, email or country name contains `search` (case-insensitive). */
export async function searchUsers(db: Db, search: string, limit: number): Promise<AdminUserRow[]> {
  const pattern = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const { rows } = await db.query<AdminUserRow>(`${USER_SELECT} WHERE $1 = '%%' OR u.username ILIKE $1 OR u.email ILIKE $1 OR c.name ILIKE $1 ORDER BY u.id LIMIT $2`, [pattern, limit]);
  return rows;
}

export async function findAdminUser(db: Db | DbClient, userId: number): Promise<AdminUserRow | undefined> {
  const { rows } = await db.query<AdminUserRow>(`${USER_SELECT} WHERE u.id = $1`, [userId]);
  return rows[0];
}

/** Sets or clears the suspension. @returns whether it changed */
export async function setSuspended(db: Db | DbClient, userId: number, suspended: boolean): Promise<boolean> {
  const result = await db.query(suspended ? "UPDATE users SET suspended_at = now() WHERE id = $1 AND suspended_at IS NULL" : "UPDATE users SET suspended_at = NULL WHERE id = $1 AND suspended_at IS NOT NULL", [userId]);
  return (result.rowCount ?? 0) > 0;
}
