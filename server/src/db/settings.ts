import type { Db } from "./pool.js";

export interface StoredSettings {
  settings: unknown;
  updated_at: Date;
}

export async function findSettings(db: Db, userId: number): Promise<StoredSettings | undefined> {
  const { rows } = await db.query<StoredSettings>("SELECT settings, updated_at FROM user_settings WHERE user_id = $1", [userId]);
  return rows[0];
}

/** Writes the whole document (last write wins). @returns when it was written */
export async function saveSettings(db: Db, userId: number, settings: object): Promise<Date> {
  const { rows } = await db.query<{ updated_at: Date }>(
    `INSERT INTO user_settings (user_id, settings, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (user_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()
     RETURNING updated_at`,
    [userId, JSON.stringify(settings)],
  );
  return rows[0]!.updated_at;
}
