import type { Db, DbClient } from "./pool.js";

/** A chat_messages row as pg returns it (bigint parsed to number in pool.ts). */
export interface ChatMessageRow {
  id: number;
  channel: string;
  alliance_scope: number;
  type: string;
  sender_user_id: number | null;
  sender_country_id: number | null;
  sender_name: string;
  sender_role: string;
  alliance_tag: string;
  content: string;
  mentions: string[];
  is_edited: boolean;
  created_at: Date;
}

export interface NewChatMessage {
  channel: string;
  allianceScope: number;
  type: string;
  senderUserId: number;
  senderCountryId: number;
  senderName: string;
  senderRole: string;
  allianceTag: string;
  content: string;
  mentions: string[];
}

export async function insertChatMessage(db: Db | DbClient, m: NewChatMessage): Promise<ChatMessageRow> {
  const { rows } = await db.query<ChatMessageRow>(
    `INSERT INTO chat_messages (channel, alliance_scope, type, sender_user_id, sender_country_id, sender_name, sender_role, alliance_tag, content, mentions)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [m.channel, m.allianceScope, m.type, m.senderUserId, m.senderCountryId, m.senderName, m.senderRole, m.allianceTag, m.content, m.mentions],
  );
  return rows[0]!;
}

/**
 * One page of a channel, newest first: messages older than `before` (a message id) when
 * given, without senders the reader ignores. Served by the chat_messages_page index.
 */
export async function listChatMessages(db: Db, options: { channel: string; allianceScope: number; before?: number; limit: number; readerUserId: number }): Promise<ChatMessageRow[]> {
  const { rows } = await db.query<ChatMessageRow>(
    `SELECT m.* FROM chat_messages m
     WHERE m.channel = $1 AND m.alliance_scope = $2 AND ($3::bigint IS NULL OR m.id < $3)
       AND NOT EXISTS (SELECT 1 FROM chat_ignores i WHERE i.user_id = $5 AND i.ignored_user_id = m.sender_user_id)
     ORDER BY m.id DESC
     LIMIT $4`,
    [options.channel, options.allianceScope, options.before ?? null, options.limit, options.readerUserId],
  );
  return rows;
}

/** The latest `perChannel` messages of each open channel (alliance scope 0), newest first. */
export async function recentOpenChannelMessages(db: Db, channels: string[], perChannel: number): Promise<ChatMessageRow[]> {
  const { rows } = await db.query<ChatMessageRow>(
    `SELECT m.* FROM unnest($1::text[]) AS ch(id)
     CROSS JOIN LATERAL (
       SELECT * FROM chat_messages WHERE channel = ch.id AND alliance_scope = 0 ORDER BY id DESC LIMIT $2
     ) m`,
    [channels, perChannel],
  );
  return rows;
}

/** User ids `userId` ignores, oldest first. */
export async function listIgnoredUserIds(db: Db | DbClient, userId: number): Promise<number[]> {
  const { rows } = await db.query<{ ignored_user_id: number }>("SELECT ignored_user_id FROM chat_ignores WHERE user_id = $1 ORDER BY created_at, ignored_user_id", [userId]);
  return rows.map((r) => r.ignored_user_id);
}

/** Usernames `userId` ignores, alphabetically. */
export async function listIgnoredUsernames(db: Db, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ username: string }>("SELECT u.username FROM chat_ignores i JOIN users u ON u.id = i.ignored_user_id WHERE i.user_id = $1 ORDER BY lower(u.username)", [userId]);
  return rows.map((r) => r.username);
}

/** @returns false when it was already ignored */
export async function addIgnore(db: Db, userId: number, ignoredUserId: number): Promise<boolean> {
  const { rowCount } = await db.query("INSERT INTO chat_ignores (user_id, ignored_user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [userId, ignoredUserId]);
  return (rowCount ?? 0) > 0;
}

/** @returns false when it was not ignored */
export async function removeIgnore(db: Db, userId: number, ignoredUserId: number): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM chat_ignores WHERE user_id = $1 AND ignored_user_id = $2", [userId, ignoredUserId]);
  return (rowCount ?? 0) > 0;
}

/** A user by username, case-insensitively (users_username_key). */
export async function findUserByUsername(db: Db, username: string): Promise<{ id: number; username: string } | undefined> {
  const { rows } = await db.query<{ id: number; username: string }>("SELECT id, username FROM users WHERE lower(username) = lower($1)", [username]);
  return rows[0];
}
