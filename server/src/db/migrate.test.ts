import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import pino from "pino";
import { loadConfig } from "../config.js";
import { startGameServer } from "../server.js";
import { createTestDatabase } from "../test/harness.js";
import { ChangedMigrationError, migrationChecksum, runMigrations } from "./migrate.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

/** The migrations as a later release would have them with migration `version` edited, plus a new one. */
function withEditedMigration(version: number): Migration[] {
  return [...MIGRATIONS.map((m) => (m.version === version ? { ...m, sql: `${m.sql}\nCREATE TABLE edited_after_release (id int);` } : m)), { version: 999, name: "next", sql: "CREATE TABLE next_release_table (id int);" }];
}

describe("migrations", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = db.pool(4);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it("apply every version in order on an empty database, exactly once even when run concurrently", async () => {
    const runs = await Promise.all([runMigrations(pool), runMigrations(pool), runMigrations(pool)]);
    const applied = runs.flat().sort((a, b) => a - b);
    expect(applied).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    const { rows } = await pool.query("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => r.version)).toEqual(applied);
    expect(await runMigrations(pool)).toEqual([]);
  });

  it("leave the countries table with fillfactor 70 for HOT tick updates", async () => {
    const { rows } = await pool.query("SELECT reloptions FROM pg_class WHERE relname = 'countries'");
    expect(rows[0].reloptions).toContain("fillfactor=70");
  });

  it("have unique, increasing version numbers", () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });

  it("record each applied migration's checksum (SHA-256 of its SQL)", async () => {
    const { rows } = await pool.query<{ version: number; checksum: string }>("SELECT version, checksum FROM schema_migrations ORDER BY version");
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })));
  });

  it("refuse a released migration that changed, naming it, and apply nothing of that run", async () => {
    const run = runMigrations(pool, withEditedMigration(12));
    await expect(run).rejects.toBeInstanceOf(ChangedMigrationError);
    await expect(run).rejects.toThrow(
      /^Refusing to start: a migration this database applied has changed since: 12 \(alliances, server\/src\/db\/migrations\/012_alliances\.ts: applied with sha256 [0-9a-f]{12}, now [0-9a-f]{12}\)\. A released migration is never edited/,
    );
    const { rows } = await pool.query("SELECT to_regclass('next_release_table') AS next, (SELECT max(version) FROM schema_migrations) AS latest");
    expect(rows[0]).toEqual({ next: null, latest: Math.max(...MIGRATIONS.map((m) => m.version)) });
  });

  it("refuse to start the server on a database whose recorded migration differs from the code's", async () => {
    await pool.query("UPDATE schema_migrations SET checksum = $1 WHERE version = 3", ["0".repeat(64)]);
    try {
      const start = startGameServer(loadConfig({ port: 0, databaseUrl: db.url, redisUrl: undefined, logLevel: "silent", clientDir: path.join(os.tmpdir(), "no-client") }), { logger: pino({ level: "silent" }) });
      await expect(start).rejects.toThrow(/^Refusing to start: .*3 \(world, server\/src\/db\/migrations\/003_world\.ts: applied with sha256 000000000000, now [0-9a-f]{12}\)/);
    } finally {
      await pool.query("UPDATE schema_migrations SET checksum = $1 WHERE version = 3", [migrationChecksum(MIGRATIONS.find((m) => m.version === 3)!)]);
    }
  });

  it("give a database migrated before checksums the code's checksums, then hold it to them", async () => {
    await pool.query("ALTER TABLE schema_migrations DROP COLUMN checksum");
    expect(await runMigrations(pool)).toEqual([]);
    const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM schema_migrations WHERE checksum IS NULL");
    expect(rows[0]!.n).toBe(0);
    await expect(runMigrations(pool, withEditedMigration(1))).rejects.toBeInstanceOf(ChangedMigrationError);
  });
});
