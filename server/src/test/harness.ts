import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { loadConfig, type Config } from "../config.js";
import { startGameServer, type GameServer } from "../server.js";

/** The Postgres every server test runs against (CI and developer machines: trust auth). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** The Redis tests that need one use; each such file takes its own database index. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A scratch database for one test file. */
export interface TestDatabase {
  url: string;
  /**
   * A pool on the database, ended by drop(). Its idle clients may be terminated by the drop
   * itself (57P01), which is expected; any other idle-client error fails loudly.
   */
  pool(max?: number): pg.Pool;
  drop(): Promise<void>;
}

/**
 * Creates an empty database for one test file and returns its URL and a drop function.
 * Separate databases let test files run in parallel without seeing each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `game_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  return {
    url: url.toString(),
    pool(max = 4) {
      const pool = new pg.Pool({ connectionString: url.toString(), max });
      pool.on("error", (err: Error & { code?: string }) => {
        if (err.code !== "57P01") throw err;
      });
      pools.push(pool);
      return pool;
    },
    async drop() {
      // A pool the test already ended rejects a second end(): nothing left to close then.
      await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestServer {
  server: GameServer;
  baseUrl: string;
  databaseUrl: string;
  /** JSON request to /api; returns status and parsed body. */
  api<T = any>(method: string, apiPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * Starts a real server on a random port against a fresh Postgres database (or a given one).
 * Pass `redisDb` to run with Redis presence, driver and tick queue on that database index,
 * `logger` to see what the server logs.
 */
export async function startTestServer(overrides: Partial<Config> & { redisDb?: number; databaseUrl?: string; logger?: pino.Logger } = {}): Promise<TestServer> {
  const { redisDb, logger, ...configOverrides } = overrides;
  const database = configOverrides.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = configOverrides.databaseUrl ?? database!.url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-test-"));
  const config = loadConfig({
    port: 0,
    dataDir,
    databaseUrl,
    redisUrl: redisDb === undefined ? undefined : `${TEST_REDIS_URL}/${redisDb}`,
    jwtSecret: "test-secret-test-secret-test-secret-0123456789",
    logLevel: "silent",
    clientDir: path.join(dataDir, "no-client"),
    tickEnabled: false,
    // Test files register many players from 127.0.0.1; the limit's own test turns it on.
    rateLimitRegisterPerHour: 0,
    // Every answer a test gets was checked against the catalogue entry the server registered.
    checkAnswers: true,
    // Tests check exact ranks and lists right after each write; the board's own tests
    // (db/rankBoard.test.ts) run it at the production age.
    rankingsMaxAgeMs: 0,
    ...configOverrides,
  });
  const server = await startGameServer(config, { logger: logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }) });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  return {
    server,
    baseUrl,
    databaseUrl,
    api: (method, apiPath, body, token) => apiRequest(baseUrl, method, apiPath, body, token),
    async close() {
      await server.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function apiRequest<T = any>(baseUrl: string, method: string, apiPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}/api${apiPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

let counter = 0;
/** A valid, unique registration body. */
export function newPlayer(prefix = "p") {
  counter += 1;
  const id = `${prefix}${process.pid % 1000}${counter}${crypto.randomBytes(2).toString("hex")}`;
  return {
    email: `${id}@example.com`,
    username: id.slice(0, 20),
    password: "secret123",
    countryName: `Land of ${id}`,
    governmentType: "monarchy",
    startingResources: {},
  };
}

/** Registers a player and returns token, user and the registration body. */
export async function registerPlayer(server: TestServer, prefix?: string) {
  const body = newPlayer(prefix);
  const res = await server.api("POST", "/auth/register", body);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, user: res.body.user, body, countryId: res.body.user.countryId as number };
}
