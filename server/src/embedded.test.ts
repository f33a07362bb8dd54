import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { startGameServer } from "./server.js";
import { openDatabase } from "./db/pool.js";
import { ChangedMigrationError, migrationChecksum, runMigrations } from "./db/migrate.js";
import { MIGRATIONS } from "./db/migrations/index.js";
import { playEveryKindOfRequest } from "./test/everyKindOfRequest.js";
import { apiRequest, newPlayer } from "./test/harness.js";
import { eventually } from "./test/worldClients.js";

/**
 * The embedded default: no DATABASE_URL and no REDIS_URL. The server runs PGlite in-process
 * with its data under DATA_DIR and local presence; a restart keeps every account.
 */
describe("embedded default (PGlite, local presence)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-embedded-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const start = () => startGameServer(loadConfig({ port: 0, dataDir, databaseUrl: undefined, redisUrl: undefined, jwtSecret: undefined, logLevel: "silent", clientDir: path.join(dataDir, "none") }), { logger: pino({ level: "silent" }) });

  it("registers, restarts and logs in again with the data kept", async () => {
    const player = newPlayer("embedded");
    let server = await start();
    expect(server.database.embedded).toBe(true);
    expect(server.redis).toBeUndefined();
    let base = `http://127.0.0.1:${server.port}`;
    const health = await apiRequest(base, "GET", "/health");
    expect(health.body).toMatchObject({ success: true, database: "embedded", presence: "local" });
    const registered = await apiRequest(base, "POST", "/auth/register", player);
    expect(registered.status).toBe(201);
    const countryId = registered.body.user.countryId;
    const firstToken = registered.body.token;
    await server.close();

    // The generated JWT secret is kept under DATA_DIR too, so the old token still verifies.
    expect(fs.existsSync(path.join(dataDir, "jwt-secret"))).toBe(true);
    server = await start();
    try {
      base = `http://127.0.0.1:${server.port}`;
      const login = await apiRequest(base, "POST", "/auth/login", { email: player.email, password: player.password });
      expect(login.status).toBe(200);
      expect(login.body.user.countryId).toBe(countryId);
      const country = await apiRequest(base, "GET", `/country/${countryId}`, undefined, login.body.token);
      expect(country.body.country).toMatchObject({ name: player.countryName, cash: "100000", turns: 100 });
      expect((await apiRequest(base, "GET", "/user/me", undefined, firstToken)).status).toBe(200);
      // A fresh embedded world has AI countries to play against (AI_COUNTRIES, 8 here), kept at
      // that number across the restart rather than doubled.
      const ai = await apiRequest(base, "GET", "/countries/ai?limit=50", undefined, login.body.token);
      expect(ai.status).toBe(200);
      expect(ai.body.total).toBe(8);
    } finally {
      await server.close();
    }
  });

  it("plays actions on PGlite's one connection: the first locked, the next optimistic and grouped, in parallel too", async () => {
    const server = await start();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const registered = await apiRequest(base, "POST", "/auth/register", newPlayer("embeddedActs"));
      const { countryId } = registered.body.user;
      const token = registered.body.token;
      const explore = () => apiRequest(base, "POST", "/exploration/explore", { countryId, turnsToSpend: 1 }, token);
      const paths = server.ctx.metrics.gameActionPaths;
      const optimisticBefore = paths.get({ path: "optimistic" });
      expect((await explore()).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 8 }, explore));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      expect(paths.get({ path: "optimistic" })).toBeGreaterThan(optimisticBefore);
      const country = await apiRequest(base, "GET", `/country/${countryId}`, undefined, token);
      expect(country.body.country.turns).toBe(100 - 9);
      // each exploration's turn result written once, whichever path it took
      const history = await apiRequest(base, "GET", "/turns/history?limit=100", undefined, token);
      expect(history.body.data).toHaveLength(9);
    } finally {
      await server.close();
    }
  });
});

/**
 * Issue 25: the pool closed PGlite's one connection after 10 s idle, and the next connection's
 * named statements collided with the ones the old connection had prepared in PGlite's one
 * session ("prepared statement find_country already exists"): every signed-in request then
 * answered 500 until a restart. Here the pool's idle time-out is 50 ms and every request waits
 * past it, so each one meets a connection opened anew.
 */
describe("embedded default left idle past the pool's idle time-out", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-embedded-idle-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("answers every kind of request after every idle period", async () => {
    const server = await startGameServer(
      loadConfig({ port: 0, dataDir, databaseUrl: undefined, redisUrl: undefined, jwtSecret: undefined, logLevel: "silent", clientDir: path.join(dataDir, "none"), databaseIdleTimeoutMs: 50, aiCountries: 0, newPlayerProtectionHours: 0 }),
      { logger: pino({ level: "silent" }) },
    );
    try {
      const pool = server.database.pool;
      let reconnects = 0;
      pool.on("connect", () => (reconnects += 1));
      await playEveryKindOfRequest(`http://127.0.0.1:${server.port}`, async () => {
        await eventually(() => pool.totalCount === 0, "the pool's idle connection closed", 5_000);
      });
      // every step above found the pool empty and opened a connection
      expect(reconnects).toBeGreaterThanOrEqual(9);
    } finally {
      await server.close();
    }
  });
});

/** Migration checksums on the embedded database: recorded, checked, and a changed one refused at start. */
describe("embedded default with a released migration changed", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-embedded-migrations-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ port: 0, dataDir, databaseUrl: undefined, redisUrl: undefined, jwtSecret: undefined, logLevel: "silent", clientDir: path.join(dataDir, "none"), aiCountries: 0 });
  const logger = pino({ level: "silent" });

  it("records each checksum, refuses an edited migration, and the server does not start on one", async () => {
    const database = await openDatabase(config, logger);
    try {
      await runMigrations(database.pool);
      const { rows } = await database.pool.query<{ version: number; checksum: string }>("SELECT version, checksum FROM schema_migrations ORDER BY version");
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })));
      const edited = MIGRATIONS.map((m) => (m.version === 7 ? { ...m, sql: `${m.sql}\nCREATE TABLE edited_after_release (id int);` } : m));
      await expect(runMigrations(database.pool, edited)).rejects.toBeInstanceOf(ChangedMigrationError);
      expect((await database.pool.query("SELECT to_regclass('edited_after_release') AS t")).rows[0]).toEqual({ t: null });
      // as if the file of migration 7 had changed since this database applied it
      await database.pool.query("UPDATE schema_migrations SET checksum = $1 WHERE version = 7", ["f".repeat(64)]);
    } finally {
      await database.close();
    }
    await expect(startGameServer(config, { logger })).rejects.toThrow(
      /^Refusing to start: .*7 \(platform, server\/src\/db\/migrations\/007_platform\.ts: applied with sha256 ffffffffffff, now [0-9a-f]{12}\)\. A released migration is never edited/,
    );
  });
});
