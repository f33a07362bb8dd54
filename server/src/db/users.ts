import type { Db, DbClient } from "./pool.js";

export interface UserRow {
  id: number;
  email: string;
  username: string;
  password_hash: string;
  created_at: Date;
  last_login: Date | null;
}

export async function insertUser(client: DbClient, user: { email: string; username: string; passwordHash: string }): Promise<UserRow> {
  const { rows } = await client.query<UserRow>("INSERT INTO users (email, username, password_hash, last_login) VALUES ($1, $2, $3, now()) RETURNING *", [user.email, user.username, user.passwordHash]);
  return rows[0]!;
}

export async function findUserByEmail(db: Db | DbClient, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>("SELECT * FROM users WHERE lower(email) = lower($1)", [email]);
  return rows[0];
}

export async function findUserById(db: Db | DbClient, id: number): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>("SELECT * FROM users WHERE id = $1", [id]);
  return rows[0];
}

export async function touchLastLogin(db: Db, id: number): Promise<void> {
  await db.query("UPDATE users SET last_login = now() WHERE id = $1", [id]);
}

export async function revokeToken(db: Db, jti: string, expiresAt: Date): Promise<void> {
  await db.query("INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING", [jti, expiresAt]);
}
