import type { Db } from "./pool.js";

/**
 * A session counts as online while its room refreshed it within this many seconds. Rooms
 * refresh every ONLINE_HEARTBEAT_MS, so a crashed process's clients drop out after this.
 */
export const ONLINE_WINDOW_SECONDS = 90;
/** How often a room refreshes its sessions' seen_at (milliseconds). */
export const ONLINE_HEARTBEAT_MS = 30_000;

const FRESH = `seen_at > now() - make_interval(secs => ${ONLINE_WINDOW_SECONDS})`;

export async function insertOnlineSession(db: Db, session: { sessionId: string; userId: number; roomId: string }): Promise<void> {
  await db.query(
    `INSERT INTO online_sessions (session_id, user_id, room_id) VALUES ($1, $2, $3)
     ON CONFLICT (session_id) DO UPDATE SET room_id = EXCLUDED.room_id, seen_at = now()`,
    [session.sessionId, session.userId, session.roomId],
  );
}

/** Ends a session. @returns how many live sessions the user still has (other tabs, shards). */
export async function deleteOnlineSession(db: Db, sessionId: string, userId: number): Promise<number> {
  const { rows } = await db.query<{ remaining: number }>(
    `WITH gone AS (DELETE FROM online_sessions WHERE session_id = $1)
     SELECT count(*)::int AS remaining FROM online_sessions WHERE user_id = $2 AND session_id <> $1 AND ${FRESH}`,
    [sessionId, userId],
  );
  return rows[0]!.remaining;
}

/** Heartbeat: the room's sessions are still connected. Also drops long-dead rows. */
export async function touchRoomSessions(db: Db, roomId: string): Promise<void> {
  await db.query("UPDATE online_sessions SET seen_at = now() WHERE room_id = $1", [roomId]);
  await db.query(`DELETE FROM online_sessions WHERE seen_at < now() - make_interval(secs => ${ONLINE_WINDOW_SECONDS * 10})`);
}

export async function deleteRoomSessions(db: Db, roomId: string): Promise<void> {
  await db.query("DELETE FROM online_sessions WHERE room_id = $1", [roomId]);
}

/** An online player with the public fields of their country. */
export interface OnlineUserRow {
  user_id: number;
  username: string;
  country_id: number;
  government_type: string;
  networth: number;
  alliance_id: number | null;
}

/** Players online now, richest first, at most `limit`. */
export async function listOnlineUsers(db: Db, limit: number): Promise<OnlineUserRow[]> {
  const { rows } = await db.query<OnlineUserRow>(
    `SELECT u.id AS user_id, u.username, c.id AS country_id, c.government_type, c.networth, c.alliance_id
     FROM users u JOIN countries c ON c.user_id = u.id
     WHERE u.id IN (SELECT user_id FROM online_sessions WHERE ${FRESH})
     ORDER BY c.networth DESC, u.id
     LIMIT $1`,
    [limit],
  );
  return rows;
}

/** SQL predicate: the user `userIdColumn` has a live session (for ranking rows). */
export const IS_ONLINE_SQL = (userIdColumn: string) => `EXISTS (SELECT 1 FROM online_sessions o WHERE o.user_id = ${userIdColumn} AND o.${FRESH})`;

/** Which of `userIds` are online now. */
export async function onlineAmong(db: Db, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const { rows } = await db.query<{ user_id: number }>(`SELECT DISTINCT user_id FROM online_sessions WHERE user_id = ANY($1::bigint[]) AND ${FRESH}`, [userIds]);
  return new Set(rows.map((r) => r.user_id));
}

/** How many players are online, and which online countries belong to `allianceId`. */
export async function onlineCounts(db: Db, allianceId: number | null): Promise<{ total: number; allianceCountries: Array<{ id: number; alliance_id: number | null }> }> {
  const [total, alliance] = await Promise.all([
    db.query<{ total: number }>(`SELECT count(DISTINCT user_id)::int AS total FROM online_sessions WHERE ${FRESH}`),
    allianceId === null
      ? Promise.resolve({ rows: [] as Array<{ id: number; alliance_id: number | null }> })
      : db.query<{ id: number; alliance_id: number | null }>(
          `SELECT c.id, c.alliance_id FROM countries c
           WHERE c.alliance_id = $1 AND c.user_id IN (SELECT user_id FROM online_sessions WHERE ${FRESH})`,
          [allianceId],
        ),
  ]);
  return { total: total.rows[0]!.total, allianceCountries: alliance.rows };
}
