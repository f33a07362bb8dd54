import { foldName } from "@game/schema/rules";
import type { Logger } from "../logger.js";
import type { Db, DbClient } from "./pool.js";

/**
 * Unique keys of user and country names on their confusable-folded form (`foldName`), in
 * `username_keys` and `country_name_keys` (migration 008). Whoever creates or renames a user
 * or a country writes its key in the same transaction.
 */

/** Unique indexes a registration can violate, for the 409 message. */
export const NAME_KEY_CONSTRAINTS = { username: "username_keys_folded", country: "country_name_keys_folded" } as const;

export async function insertUsernameKey(client: DbClient, userId: number, username: string): Promise<void> {
  await client.query("INSERT INTO username_keys (user_id, folded) VALUES ($1, $2)", [userId, foldName(username)]);
}

export async function insertCountryNameKey(client: DbClient, countryId: number, name: string): Promise<void> {
  await client.query("INSERT INTO country_name_keys (country_id, folded) VALUES ($1, $2)", [countryId, foldName(name)]);
}

/**
 * Which of a registration's email, username and country name are already taken (email
 * case-insensitively, names on their folded keys): one indexed round trip, so a taken name
 * answers 409 before the expensive password hash.
 */
export async function takenRegistrationFields(db: Db, fields: { email: string; username: string; countryName: string }): Promise<{ email: boolean; username: boolean; countryName: boolean }> {
  const { rows } = await db.query<{ email: boolean; username: boolean; country_name: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1)) AS email,
            EXISTS (SELECT 1 FROM username_keys WHERE folded = $2) AS username,
            EXISTS (SELECT 1 FROM country_name_keys WHERE folded = $3) AS country_name`,
    [fields.email, foldName(fields.username), foldName(fields.countryName)],
  );
  const row = rows[0]!;
  return { email: row.email, username: row.username, countryName: row.country_name };
}

/** Rows per backfill batch. */
const BACKFILL_BATCH = 1_000;

/**
 * Gives every user and country without a key one (rows created before migration 008, or by
 * scripts writing SQL directly). Two old names that fold alike keep the first (lowest id) as
 * the key holder; the others are logged and stay unkeyed, so they block no one but cannot be
 * copied either. Returns how many keys were written.
 */
export async function backfillNameKeys(db: Db, logger: Logger): Promise<number> {
  let written = 0;
  const tables = [
    { keys: "username_keys", keyColumn: "user_id", source: "users", name: "username" },
    { keys: "country_name_keys", keyColumn: "country_id", source: "countries", name: "name" },
  ] as const;
  for (const t of tables) {
    let afterId = 0;
    for (;;) {
      const { rows } = await db.query<{ id: number; name: string }>(
        `SELECT s.id, s.${t.name} AS name FROM ${t.source} s
          WHERE s.id > $1 AND NOT EXISTS (SELECT 1 FROM ${t.keys} k WHERE k.${t.keyColumn} = s.id)
          ORDER BY s.id LIMIT ${BACKFILL_BATCH}`,
        [afterId],
      );
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1]!.id;
      const { rows: inserted } = await db.query<{ id: number }>(
        `INSERT INTO ${t.keys} (${t.keyColumn}, folded)
         SELECT * FROM unnest($1::bigint[], $2::text[])
         ON CONFLICT DO NOTHING RETURNING ${t.keyColumn} AS id`,
        [rows.map((r) => r.id), rows.map((r) => foldName(r.name))],
      );
      written += inserted.length;
      if (inserted.length < rows.length) {
        const keyed = new Set(inserted.map((r) => r.id));
        const clashes = rows.filter((r) => !keyed.has(r.id)).map((r) => r.id);
        logger.warn({ table: t.source, ids: clashes.slice(0, 20), count: clashes.length }, "names that look like an existing name were left without a uniqueness key");
      }
    }
  }
  if (written > 0) logger.info({ written }, "name uniqueness keys backfilled");
  return written;
}
