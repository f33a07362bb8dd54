/**
 * The end-to-end harness: the built server as a black box. Each startServer() creates a fresh
 * Postgres database, starts `node server/dist/main.js` as a child process on a free port with
 * the built client, waits for GET /api/health, and puts a small TCP proxy in front of it so a
 * test can cut every browser connection at once (a network drop). stop() ends the process,
 * drops the database and removes the data folder.
 *
 * Nothing here imports server code (a lint rule forbids it): tests talk to the server the way
 * a browser or an operator does, over HTTP, WebSocket and SQL.
 *
 * Needs: `npm run build` (server/dist and client/dist), Postgres at TEST_POSTGRES_URL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { Browser } from "playwright-core";
import type { AuthResponse, RegisterRequest } from "@game/schema/api";
import { launchChromium } from "./browser";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (client/e2e/../..). */
export const REPO_ROOT = path.resolve(here, "../..");
/** The built client the server serves. */
export const CLIENT_DIST = path.join(REPO_ROOT, "client/dist");
/** The built server's entry point. */
export const SERVER_MAIN = path.join(REPO_ROOT, "server/dist/main.js");
/** The Postgres the harness creates its databases on (trust auth on CI and developer machines). */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** How long the server may take to answer /api/health (ms). */
const START_TIMEOUT_MS = 60_000;
/** How long stop() waits for a graceful exit before SIGKILL (ms). */
const STOP_TIMEOUT_MS = 10_000;
/** Lines of server output kept for error messages. */
const LOG_LINES_KEPT = 200;

/** A REST answer: the status and the parsed JSON body (the text when not JSON). */
export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** A registered player: the token, the user as the server answered it, and what was sent. */
export interface Player {
  token: string;
  user: AuthResponse["user"];
  countryId: number;
  body: RegisterRequest;
}

export interface E2EServer {
  /** What the browser opens: the server behind the harness's proxy, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** The server itself, without the proxy (REST calls of the test). */
  serverUrl: string;
  /** The test's own database. */
  databaseUrl: string;
  /** JSON request to /api on the server. */
  api<T = any>(method: string, apiPath: string, body?: unknown, token?: string): Promise<ApiAnswer<T>>;
  /** Registers a new player over REST (201 or it throws). */
  registerPlayer(prefix?: string): Promise<Player>;
  /** Runs SQL on the test's database, for tests that set up state (rows of the result). */
  sql<R extends pg.QueryResultRow = any>(query: string, params?: unknown[]): Promise<R[]>;
  /**
   * Cuts every open browser connection abruptly (TCP reset on both sides), as a network drop
   * would; new connections are accepted at once. Returns how many connections were cut.
   */
  dropConnections(): number;
  /** The server's recent output (stdout and stderr), for failure messages. */
  logs(): string;
  /** Stops the server, drops the database, removes the data folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Creates an empty database; returns its URL and a drop function. */
async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `game_e2e_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A TCP proxy from a free port to `target`, which can reset every connection it carries. */
async function startProxy(target: number): Promise<{ port: number; dropAll(): number; close(): Promise<void> }> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const proxy = net.createServer((incoming) => {
    const outgoing = net.connect(target, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [incoming, outgoing];
    pairs.add(pair);
    incoming.pipe(outgoing);
    outgoing.pipe(incoming);
    const end = () => {
      pairs.delete(pair);
      incoming.destroy();
      outgoing.destroy();
    };
    incoming.on("error", end).on("close", end);
    outgoing.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once("error", reject);
    proxy.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (proxy.address() as net.AddressInfo).port,
    dropAll() {
      const cut = pairs.size;
      for (const [incoming, outgoing] of [...pairs]) {
        incoming.resetAndDestroy();
        outgoing.resetAndDestroy();
      }
      pairs.clear();
      return cut;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [incoming, outgoing] of pairs) {
          incoming.destroy();
          outgoing.destroy();
        }
        proxy.close(() => resolve());
      }),
  };
}

/** JSON request to `${serverUrl}/api${apiPath}`. */
export async function apiRequest<T = any>(serverUrl: string, method: string, apiPath: string, body?: unknown, token?: string): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${serverUrl}/api${apiPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed as T };
}

let playerCounter = 0;
/** A valid registration body with unique email, username and country name. */
export function newPlayer(prefix = "p"): RegisterRequest {
  playerCounter += 1;
  const id = `${prefix}${process.pid % 1000}${playerCounter}${crypto.randomBytes(2).toString("hex")}`;
  return { email: `${id}@example.com`, username: id.slice(0, 20), password: "secret123", countryName: `Land of ${id}` };
}

/** Registers a player on `server` (see E2EServer.registerPlayer). */
export function registerPlayer(server: Pick<E2EServer, "registerPlayer">, prefix?: string): Promise<Player> {
  return server.registerPlayer(prefix);
}

/** Runs the server process once; resolves when it is healthy, rejects (with its output) if it exits or hangs. */
async function launch(env: NodeJS.ProcessEnv, serverUrl: string, log: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--enable-source-maps", SERVER_MAIN], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const echo = process.env.E2E_SERVER_LOG === "1";
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) if (line) log.push(line);
    log.splice(0, Math.max(0, log.length - LOG_LINES_KEPT));
    if (echo) process.stderr.write(chunk);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const exit = await Promise.race([exited, new Promise<"poll">((resolve) => setTimeout(() => resolve("poll"), 100))]);
    if (exit !== "poll") throw new Error(`server exited with code ${exit} before it was healthy:\n${log.join("\n")}`);
    try {
      const health = await fetch(`${serverUrl}/api/health`);
      if (health.ok) return child;
    } catch {
      // not listening yet
    }
  }
  child.kill("SIGKILL");
  throw new Error(`server not healthy after ${START_TIMEOUT_MS} ms:\n${log.join("\n")}`);
}

/**
 * Starts the built server on a fresh database. `envOverrides` are laid over the harness's
 * environment (PORT, DATABASE_URL, JWT_SECRET, CLIENT_DIR, LOG_LEVEL=warn, DATA_DIR,
 * TICK_ENABLED=false, no REDIS_URL); an undefined value removes a key.
 */
export async function startServer(envOverrides: Record<string, string | undefined> = {}): Promise<E2EServer> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`Build the server first (npm run build): ${SERVER_MAIN} is missing`);
  if (!fs.existsSync(path.join(CLIENT_DIST, "index.html"))) throw new Error(`Build the client first (npm run build): ${CLIENT_DIST} has no index.html`);
  const database = await createDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-e2e-"));
  const log: string[] = [];
  let child: ChildProcess | undefined;
  let serverUrl = "";
  try {
    // A free port can be taken between the probe and the listen: try a few.
    for (let attempt = 1; !child; attempt++) {
      const port = await freePort();
      serverUrl = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        REDIS_URL: undefined,
        PORT: String(port),
        DATABASE_URL: database.url,
        JWT_SECRET: crypto.randomBytes(32).toString("hex"),
        CLIENT_DIR: CLIENT_DIST,
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
        // no turn tick: a test's turn counts do not move under it
        TICK_ENABLED: "false",
        // tests register many players from one address
        RATE_LIMIT_REGISTER_PER_HOUR: "0",
        // every answer the browser gets was checked against its catalogue entry (a mismatch is a 500)
        CHECK_ANSWERS: "true",
        ...envOverrides,
      };
      for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
      try {
        child = await launch(env, serverUrl, log);
      } catch (err) {
        if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
      }
    }
  } catch (err) {
    await database.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const proxy = await startProxy(Number(new URL(serverUrl).port));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The drop at stop() terminates idle clients (57P01): expected; anything else is loud.
  pool.on("error", (err: Error & { code?: string }) => {
    if (err.code !== "57P01") throw err;
  });
  const running = child!;
  let stopped: Promise<void> | undefined;

  const server: E2EServer = {
    baseUrl: `http://127.0.0.1:${proxy.port}`,
    serverUrl,
    databaseUrl: database.url,
    api: (method, apiPath, body, token) => apiRequest(serverUrl, method, apiPath, body, token),
    async registerPlayer(prefix) {
      const body = newPlayer(prefix);
      const res = await apiRequest<AuthResponse>(serverUrl, "POST", "/auth/register", body);
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { token: res.body.token, user: res.body.user, countryId: res.body.user.countryId!, body };
    },
    async sql(query, params) {
      return (await pool.query(query, params)).rows;
    },
    dropConnections: () => proxy.dropAll(),
    logs: () => log.join("\n"),
    stop() {
      stopped ??= (async () => {
        await proxy.close();
        if (running.exitCode === null && running.signalCode === null) {
          const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
          running.kill("SIGTERM");
          const timer = setTimeout(() => running.kill("SIGKILL"), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        await pool.end().catch(() => undefined);
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
  return server;
}

/** The server and the browser of an e2e file, set once its beforeAll ran. */
export interface ServerAndBrowser {
  server: E2EServer;
  browser: Browser;
}

/**
 * One game server (startServer with `envOverrides`) and one Chromium shared by every test of an
 * e2e file: started in its beforeAll, closed in its afterAll (also after a failed start). Call it
 * at the top of the file and read `.server` and `.browser` inside the tests.
 */
export function serverAndBrowser(envOverrides: Record<string, string | undefined> = {}): ServerAndBrowser {
  const started: Partial<ServerAndBrowser> = {};
  beforeAll(async () => {
    started.server = await startServer(envOverrides);
    started.browser = await launchChromium();
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  return {
    get server() {
      if (!started.server) throw new Error("the e2e server is not started: read it inside a test");
      return started.server;
    },
    get browser() {
      if (!started.browser) throw new Error("the browser is not started: read it inside a test");
      return started.browser;
    },
  };
}
