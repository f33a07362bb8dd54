import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase } from "../test/harness.js";
import { runMigrations } from "./migrate.js";
import { MIGRATIONS } from "./migrations/index.js";

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
});
