import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { startGameServer } from "../server.js";
import { apiRequest, createTestDatabase, newPlayer, TEST_REDIS_URL } from "../test/harness.js";
import { insertCountries } from "../tick/testSupport.js";
import { runMigrations } from "./migrate.js";
import { openDatabase } from "./pool.js";
import { backupEmbeddedDataDir, backupFileName, backupPostgres, pruneBackups, restoreEmbedded, restorePostgres, startScheduledBackups } from "./backup.js";

/**
 * Backups of both stores (issue 28): the embedded world through PGlite's own dump, Postgres
 * through pg_dump and pg_restore (the backup drill, bench/backupDrill.ts, does it under load),
 * the scheduled backups' retention and their one-process-per-interval rule with Redis.
 */
const logger = pino({ level: "silent" });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "game-backup-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("backups", () => {
  it("the embedded world's scheduled backup restores into an empty DATA_DIR as it was at the backup", async () => {
    const dataDir = path.join(scratch, "world");
    const backupDir = path.join(scratch, "world-backups");
    const config = (dir: string) =>
      loadConfig({
        port: 0,
        dataDir: dir,
        databaseUrl: undefined,
        redisUrl: undefined,
        jwtSecret: undefined,
        logLevel: "silent",
        clientDir: path.join(dir, "none"),
        aiCountries: 0,
        tickEnabled: false,
        backupIntervalMinutes: 60,
        backupDir,
        backupKeep: 3,
      });
    const player = newPlayer("bk");
    let server = await startGameServer(config(dataDir), { logger });
    let base = `http://127.0.0.1:${server.port}`;
    const registered = await apiRequest(base, "POST", "/auth/register", player);
    expect(registered.status).toBe(201);
    const countryId = registered.body.user.countryId;
    const explore = () => apiRequest(base, "POST", "/turns/consume", { countryId, quantity: 1, actionType: "exploration" }, registered.body.token);
    expect((await explore()).status).toBe(200);
    const atBackup = (await server.database.pool.query("SELECT turns, land FROM countries WHERE id = $1", [countryId])).rows[0];
    const file = await server.backups!.runOnce();
    expect(file).toMatch(/backup-\d{8}T\d{6}Z\.pglite\.tar\.gz$/);
    // The world moves on after the backup; the restore must not show it.
    expect((await explore()).status).toBe(200);
    await server.close();

    const restoredDir = path.join(scratch, "restored");
    expect((await restoreEmbedded({ dataDir: restoredDir, file: file! })).secret).toBe("restored");
    await expect(restoreEmbedded({ dataDir: restoredDir, file: file! })).rejects.toThrow(/already holds a world/);
    server = await startGameServer(config(restoredDir), { logger });
    base = `http://127.0.0.1:${server.port}`;
    try {
      // Issue 28: the JWT secret travels in the backup, so a player signed in at the backup
      // is still signed in on the restored world (before, a fresh DATA_DIR made a new secret: 401).
      const stillSignedIn = await apiRequest(base, "GET", "/user/me", undefined, registered.body.token);
      expect(stillSignedIn.status).toBe(200);
      expect(fs.statSync(path.join(restoredDir, "jwt-secret")).mode & 0o777).toBe(0o600);
      const login = await apiRequest(base, "POST", "/auth/login", { email: player.email, password: player.password });
      expect(login.status).toBe(200);
      const country = await apiRequest(base, "GET", `/countries/${countryId}`, undefined, login.body.token);
      expect(country.status).toBe(200);
      const shown = (await server.database.pool.query("SELECT turns, land FROM countries WHERE id = $1", [countryId])).rows[0];
      expect(shown).toEqual(atBackup);
    } finally {
      await server.close();
    }

    // `npm run backup` of the stopped world carries the secret too; a restore into a DATA_DIR
    // holding another world's secret replaces it and keeps the old one beside it.
    const cliFile = path.join(scratch, "cli", backupFileName(new Date(), true));
    await backupEmbeddedDataDir(dataDir, cliFile);
    const otherDir = path.join(scratch, "other-secret");
    fs.mkdirSync(otherDir, { recursive: true });
    fs.writeFileSync(path.join(otherDir, "jwt-secret"), "another world's secret");
    expect((await restoreEmbedded({ dataDir: otherDir, file: cliFile })).secret).toBe("replaced");
    expect(fs.readFileSync(path.join(otherDir, "jwt-secret"), "utf8")).toBe(fs.readFileSync(path.join(dataDir, "jwt-secret"), "utf8"));
    expect(fs.readFileSync(path.join(otherDir, "jwt-secret.before-restore"), "utf8")).toBe("another world's secret");
  }, 180_000);

  it("pg_restore refuses a database that already holds tables, and a restored copy equals the original", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    try {
      const pool = source.pool(1);
      await runMigrations(pool);
      const ids = await insertCountries(pool, 3, 77, 5, "backed-up");
      const original = (await pool.query("SELECT to_jsonb(c)::text AS row FROM countries c ORDER BY id")).rows;
      const file = path.join(scratch, "pg", backupFileName(new Date(), false));
      const dump = await backupPostgres({ databaseUrl: source.url, file });
      expect(dump.bytes).toBeGreaterThan(0);
      expect(fs.existsSync(`${file}.partial`)).toBe(false);
      await restorePostgres({ databaseUrl: target.url, file });
      const restored = target.pool(1);
      expect(ids).toHaveLength(3);
      expect((await restored.query("SELECT to_jsonb(c)::text AS row FROM countries c ORDER BY id")).rows).toEqual(original);
      await expect(restorePostgres({ databaseUrl: source.url, file })).rejects.toThrow(/not empty/);
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 120_000);

  it("scheduled backups: one process per interval with Redis, and only the newest BACKUP_KEEP are kept", async () => {
    const database = await createTestDatabase();
    const redis = new Redis(`${TEST_REDIS_URL}/8`);
    const backupDir = path.join(scratch, "scheduled");
    try {
      await redis.flushdb();
      const config = loadConfig({ databaseUrl: database.url, logLevel: "silent", backupIntervalMinutes: 60, backupDir, backupKeep: 2 });
      const opened = await openDatabase(config, logger);
      await runMigrations(opened.pool);
      const first = startScheduledBackups(config, opened, redis, logger)!;
      const second = startScheduledBackups(config, opened, redis, logger)!;
      const taken = await first.runOnce();
      expect(taken).toMatch(/\.pgdump$/);
      // The other process of the deployment finds this interval taken.
      expect(await second.runOnce()).toBeUndefined();
      await first.stop();
      await second.stop();
      await opened.close();
      // Retention: older backups beyond BACKUP_KEEP go, other files stay.
      for (const name of ["backup-20260101T000000Z.pgdump", "backup-20260102T000000Z.pgdump", "notes.txt"]) fs.writeFileSync(path.join(backupDir, name), "x");
      expect(pruneBackups(backupDir, 2)).toEqual(["backup-20260101T000000Z.pgdump"]);
      expect(fs.readdirSync(backupDir).sort()).toEqual(["backup-20260102T000000Z.pgdump", path.basename(taken!), "notes.txt"].sort());
      expect(startScheduledBackups({ ...config, backupIntervalMinutes: 0 }, opened, redis, logger)).toBeUndefined();
    } finally {
      await redis.flushdb();
      redis.disconnect();
      await database.drop();
    }
  }, 120_000);
});
