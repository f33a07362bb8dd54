import type { Db } from "./pool.js";
import { withTransaction } from "./pool.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

/** Arbitrary constant: the advisory lock every process takes while migrating. */
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies every migration not yet recorded in schema_migrations, in one transaction under an
 * advisory lock, so several processes starting at once migrate exactly once.
 * @returns the versions applied by this call
 */
export async function runMigrations(pool: Db, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}
