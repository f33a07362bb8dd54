import path from "node:path";
import { AI_ACTIONS_PER_SESSION, AI_SESSIONS_PER_DAY, DEFAULT_NEW_PLAYER_PROTECTION_HOURS, SEASON_DEFAULT_LENGTH_DAYS } from "@game/schema/rules";

/**
 * Typed configuration. This module is the only reader of `process.env`; every key has a
 * default so `npm start` works on a fresh machine with nothing installed.
 */
export interface Config {
  /**
   * HTTP + WebSocket port; 0: one the system picks, logged on "game server listening" (tests
   * start servers so, and read the port from that line: a port found free beforehand can be
   * taken by another process before the server binds it). @default 3000
   */
  port: number;
  /** Postgres connection string. Absent: embedded PGlite with data under `dataDir`. */
  databaseUrl: string | undefined;
  /** Folder for the embedded database and the generated JWT secret. @default "./data" */
  dataDir: string;
  /**
   * Milliseconds a database connection may sit idle in the pool before it is closed (pg's
   * `idleTimeoutMillis`), on Postgres and on the embedded database alike; 0 keeps idle
   * connections open. Every new connection starts a clean session (docs/architecture.md,
   * "Connections and sessions"). @default 10000
   */
  databaseIdleTimeoutMs: number;
  /** Redis connection string. Absent: in-process presence, driver and tick timer. */
  redisUrl: string | undefined;
  /** HS256 secret for access tokens. Absent: generated once and kept under `dataDir`. */
  jwtSecret: string | undefined;
  /** Access token lifetime in seconds. @default 86400 (one day) */
  tokenTtlSeconds: number;
  /** Milliseconds between turn ticks. @default 1200000 (20 minutes) */
  turnIntervalMs: number;
  /**
   * Address other processes reach this one at (Colyseus publicAddress). One ending in `:0`
   * (`127.0.0.1:0`) stands for the port this process bound: with PORT=0, the one the system
   * picked. @default unset
   */
  publicAddress: string | undefined;
  /** pino level: fatal, error, warn, info, debug, trace, silent. @default "info" */
  logLevel: string;
  /** Folder with the built client to serve at /. @default "../client/dist" beside the server package */
  clientDir: string;
  /** Operator token for GET /metrics; absent with metricsPublic false: metrics disabled. */
  metricsToken: string | undefined;
  /** Serve /metrics without a token (loopback load tests). @default false */
  metricsPublic: boolean;
  /** Whether background work runs in this process: the turn tick and the planned and scheduled strikes. @default true */
  tickEnabled: boolean;
  /** Largest JSON body accepted, bytes. @default 102400 */
  maxBodyBytes: number;
  /**
   * Check every REST answer against its catalogue entry's response schema before it is sent; a
   * mismatch answers 500 and is logged (tests and e2e runs: CHECK_ANSWERS=true). @default false
   */
  checkAnswers: boolean;
  /**
   * Clients per world room shard; joinOrCreate opens another shard when one is full.
   * docs/performance.md ("Real-time world") has the measurements behind it. @default 500
   */
  worldShardSize: number;
  /**
   * Hours a new country is protected from attacks and war declarations (it may attack; doing
   * so ends its protection). 0 turns protection off. @default 72
   */
  newPlayerProtectionHours: number;
  /**
   * Registrations accepted from one address per hour; 0 turns the limit off (load tests on
   * loopback register thousands of countries). @default 10
   */
  rateLimitRegisterPerHour: number;
  /**
   * Origins other than the server's own that browsers may call the API and matchmaker from
   * with credentials (comma-separated, e.g. "https://play.example.com"). Empty: same origin
   * only, no CORS headers at all. @default []
   */
  corsOrigins: string[];
  /**
   * AI countries kept in the world (created or retired to reach it). @default 8 on the embedded
   * default (a world to play against on a fresh machine), 0 with DATABASE_URL (operators and
   * tests opt in)
   */
  aiCountries: number;
  /** Milliseconds between AI rounds. @default 60000 */
  aiIntervalMs: number;
  /**
   * How old the world's rankings that ranks, target-list pages and the alliance list are read
   * from may be, ms (db/rankBoard.ts, the alliance ladder in services/alliances.ts): one read
   * of each per process per this long. 0 reads them for every request (exact; the functional
   * tests run so). @default 1000
   */
  rankingsMaxAgeMs: number;
  /** Most actions all AI countries take in one round: their cost stays bounded whatever their number. @default 200 */
  aiActionsPerRound: number;
  /** Most actions one AI country takes in one round (one sitting). @default 8 (AI_ACTIONS_PER_SESSION, as the simulator) */
  aiActionsPerCountry: number;
  /**
   * Times a day each AI country sits down to play (issue 27: a person's cadence, not every
   * round): a round plays only AI countries whose last session began at least a day / this
   * many ago. 0: every round, as before (demos). @default 4 (AI_SESSIONS_PER_DAY, the
   * season simulator's default, so the simulated seasons judge the AI players meet)
   */
  aiSessionsPerDay: number;
  /** Serve the client's source maps (`*.map`) and point browsers at them. @default false */
  serveSourceMaps: boolean;
  /**
   * Extra sources the client may connect to besides its own origin (CSP connect-src,
   * comma-separated), e.g. "wss://eu-2.game.example" when browsers reach other processes'
   * public addresses directly. @default []
   */
  cspConnectSources: string[];
  /**
   * Room sessions (world and alliance, every tab and process) one user may hold at once; a
   * join beyond it answers 429. 0 turns the cap off. @default 8
   */
  roomSessionsPerUser: number;
  /**
   * Length of a season in days (decimals allowed, e.g. 0.001 for a test's season of about 86
   * seconds). A new season, started by the tick at the end of the last one or by an
   * administrator, lasts this long. @default 90
   */
  seasonLengthDays: number;
  /**
   * Emails whose accounts are administrators (comma-separated, case-insensitive), granted at
   * start and at login; `npm run admin -- grant <email>` grants it in the database. @default []
   */
  adminEmails: string[];
  /**
   * Minutes between scheduled backups of the database (pg_dump, or PGlite's own dump of the
   * embedded world) into `backupDir`; 0 turns them off. With Redis, one process per interval
   * takes it. docs/reliability.md, "Backups". @default 0
   */
  backupIntervalMinutes: number;
  /** Folder the scheduled backups are written to. @default "<dataDir>/backups" */
  backupDir: string;
  /** Scheduled backups kept in `backupDir` (the oldest beyond it are deleted). @default 7 */
  backupKeep: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** A TCP port to listen on: 0 (the system picks one) to 65535. */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(value) || value > 65_535) throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return value;
}

function countFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be 0 or a positive integer, got "${raw}"`);
  return value;
}

/** Comma-separated origins, each a scheme, host and optional port ("https://a.example:8443"). */
function originsFromEnv(name: string): string[] {
  const raw = optional(name);
  if (!raw) return [];
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = new URL(entry);
      if (url.origin === "null" || url.pathname !== "/" || url.search || url.hash) throw new Error(`${name}: "${entry}" is not an origin (scheme://host[:port])`);
      return url.origin;
    });
}

function positiveNumberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function optional(name: string): string | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? undefined : raw;
}

/** Reads the environment once. Tests build a Config directly with `loadConfig(overrides)`. */
export function loadConfig(overrides: Partial<Config> = {}): Config {
  const defaultClientDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../client/dist");
  const config: Omit<Config, "aiCountries"> & Partial<Pick<Config, "aiCountries">> = {
    port: portFromEnv("PORT", 3000),
    databaseUrl: optional("DATABASE_URL"),
    dataDir: path.resolve(optional("DATA_DIR") ?? "./data"),
    databaseIdleTimeoutMs: countFromEnv("DATABASE_IDLE_TIMEOUT_MS", 10_000),
    redisUrl: optional("REDIS_URL"),
    jwtSecret: optional("JWT_SECRET"),
    tokenTtlSeconds: intFromEnv("TOKEN_TTL_SECONDS", 86_400),
    turnIntervalMs: intFromEnv("TURN_INTERVAL_MS", 1_200_000),
    publicAddress: optional("PUBLIC_ADDRESS"),
    logLevel: optional("LOG_LEVEL") ?? "info",
    clientDir: optional("CLIENT_DIR") ?? defaultClientDir,
    metricsToken: optional("METRICS_TOKEN"),
    metricsPublic: optional("METRICS_PUBLIC") === "true",
    tickEnabled: optional("TICK_ENABLED") !== "false",
    maxBodyBytes: intFromEnv("MAX_BODY_BYTES", 102_400),
    checkAnswers: optional("CHECK_ANSWERS") === "true",
    worldShardSize: intFromEnv("WORLD_SHARD_SIZE", 500),
    newPlayerProtectionHours: countFromEnv("NEW_PLAYER_PROTECTION_HOURS", DEFAULT_NEW_PLAYER_PROTECTION_HOURS),
    rateLimitRegisterPerHour: countFromEnv("RATE_LIMIT_REGISTER_PER_HOUR", 10),
    corsOrigins: originsFromEnv("CORS_ORIGINS"),
    serveSourceMaps: optional("SERVE_SOURCE_MAPS") === "true",
    aiIntervalMs: intFromEnv("AI_INTERVAL_MS", 60_000),
    rankingsMaxAgeMs: countFromEnv("RANKINGS_MAX_AGE_MS", 1_000),
    aiActionsPerRound: countFromEnv("AI_ACTIONS_PER_ROUND", 200),
    aiActionsPerCountry: countFromEnv("AI_ACTIONS_PER_COUNTRY", AI_ACTIONS_PER_SESSION),
    aiSessionsPerDay: countFromEnv("AI_SESSIONS_PER_DAY", AI_SESSIONS_PER_DAY),
    cspConnectSources: (optional("CSP_CONNECT_SOURCES") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    roomSessionsPerUser: countFromEnv("ROOM_SESSIONS_PER_USER", 8),
    seasonLengthDays: positiveNumberFromEnv("SEASON_LENGTH_DAYS", SEASON_DEFAULT_LENGTH_DAYS),
    adminEmails: (optional("ADMIN_EMAILS") ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    backupIntervalMinutes: countFromEnv("BACKUP_INTERVAL_MINUTES", 0),
    backupDir: path.resolve(optional("BACKUP_DIR") ?? path.join(optional("DATA_DIR") ?? "./data", "backups")),
    backupKeep: intFromEnv("BACKUP_KEEP", 7),
    ...overrides,
  };
  // AI countries: a few on the embedded default (someone trying the game alone), none with a
  // real database unless asked (operators and tests opt in).
  return { ...config, aiCountries: overrides.aiCountries ?? countFromEnv("AI_COUNTRIES", config.databaseUrl ? 0 : 8) };
}
