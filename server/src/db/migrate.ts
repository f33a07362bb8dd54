import crypto from "node:crypto";
import type { Db, DbClient } from "./pool.js";
import { withTransaction } from "./pool.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

/** Arbitrary constant: the advisory lock every process takes while migrating. */
const MIGRATION_LOCK_KEY = 727_001;

/** The checksum recorded for a migration: SHA-256 of its SQL text, hex. */
export function migrationChecksum(migration: Pick<Migration, "sql">): string {
  return crypto.createHash("sha256").update(migration.sql, "utf8").digest("hex");
}

/** A migration's file, as the convention names it (server/src/db/migrations/NNN_name.ts). */
const fileOf = (migration: Pick<Migration, "version" | "name">) => `server/src/db/migrations/${String(migration.version).padStart(3, "0")}_${migration.name}.ts`;

/**
 * Thrown at start when a migration this database applied has changed since: the database was
 * built by the old SQL, so the new SQL would describe tables that do not exist here (and would
 * build them differently on a fresh database). Nothing is applied; the server does not start.
 */
export class ChangedMigrationError extends Error {
  constructor(readonly changed: ReadonlyArray<{ version: number; name: string; recorded: string; now: string }>) {
    super(
      `Refusing to start: ${changed.length === 1 ? "a migration this database applied has" : "migrations this database applied have"} changed since: ` +
        changed.map((c) => `${c.version} (${c.name}, ${fileOf(c)}: applied with sha256 ${c.recorded.slice(0, 12)}, now ${c.now.slice(0, 12)})`).join("; ") +
        ". A released migration is never edited: restore it as it was and put the change in a new numbered migration.",
    );
    this.name = "ChangedMigrationError";
  }
}

/**
 * Checks every applied migration against the code's: each recorded checksum must be the
 * checksum of the same version's SQL now (ChangedMigrationError otherwise). A row applied before
 * checksums were recorded (checksum null) takes the code's checksum: from then on it is held to
 * it. A recorded version the code does not know (a database migrated by a newer release) is left
 * alone.
 */
async function checkApplied(client: DbClient, migrations: readonly Migration[]): Promise<Set<number>> {
  const { rows } = await client.query<{ version: number; checksum: string | null }>("SELECT version, checksum FROM schema_migrations ORDER BY version");
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const changed: Array<{ version: number; name: string; recorded: string; now: string }> = [];
  const unrecorded: Array<{ version: number; checksum: string }> = [];
  for (const row of rows) {
    const migration = byVersion.get(row.version);
    if (!migration) continue;
    const now = migrationChecksum(migration);
    if (row.checksum === null) unrecorded.push({ version: row.version, checksum: now });
    else if (row.checksum !== now) changed.push({ version: migration.version, name: migration.name, recorded: row.checksum, now });
  }
  if (changed.length > 0) throw new ChangedMigrationError(changed);
  for (const { version, checksum } of unrecorded) await client.query("UPDATE schema_migrations SET checksum = $2 WHERE version = $1", [version, checksum]);
  return new Set(rows.map((r) => r.version));
}

/**
 * Applies every migration not yet recorded in schema_migrations, in one transaction under an
 * advisory lock, so several processes starting at once migrate exactly once. Each applied
 * migration's checksum is recorded with it, and checked at every start before anything is
 * applied: a released migration that changed is refused (ChangedMigrationError).
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
    // Databases migrated before checksums were recorded have the table without the column.
    await client.query("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text");
    const applied = await checkApplied(client, migrations);
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [migration.version, migration.name, migrationChecksum(migration)]);
      done.push(migration.version);
    }
    return done;
  });
}
