/**
 * Backups of both stores with each store's own tools (docs/reliability.md, "Backups"):
 *
 * - Postgres: `pg_dump --format=custom` (one consistent snapshot: pg_dump reads every table in
 *   one REPEATABLE READ transaction, so the file is the database as of the moment that
 *   transaction started; `--snapshot` pins it to a snapshot the caller exported), restored by
 *   `pg_restore` into an empty database.
 * - The embedded world (PGlite under DATA_DIR/pglite): PGlite's `dumpDataDir` (a tarball of
 *   the data directory taken between two statements: a crash-consistent copy that Postgres'
 *   recovery opens at the last commit before it), restored with PGlite's `loadDataDir` into an
 *   empty DATA_DIR. PGlite is one process's engine, so a running server backs its own world up
 *   (the scheduled backups below); `npm run backup` opens it only while the server is stopped.
 *   The world's generated JWT secret (DATA_DIR/jwt-secret) travels in the same file: a copy is
 *   put in the data directory before each dump and taken back out by the restore, so players
 *   signed in at the backup stay signed in on the restored world (issue 28).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Database } from "./pool.js";

/** What one backup or restore did. */
export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

/** The file name extensions of the two kinds of backup. */
export const POSTGRES_BACKUP_EXTENSION = ".pgdump";
export const EMBEDDED_BACKUP_EXTENSION = ".pglite.tar.gz";

function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", (err) => reject(new Error(`${command} could not be started (${err.message}): install the Postgres client tools`)));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`))));
  });
}

/**
 * `pg_dump --format=custom` of `databaseUrl` into `file` (written to `file.partial` first and
 * renamed, so a file with the final name is always a whole backup). `snapshot`: a snapshot
 * exported by `pg_export_snapshot()` in a transaction the caller keeps open, so the caller
 * knows exactly which moment the file holds.
 */
export async function backupPostgres(options: { databaseUrl: string; file: string; snapshot?: string }): Promise<BackupResult> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
  const partial = `${options.file}.partial`;
  const args = ["--format=custom", "--no-owner", "--no-privileges", `--file=${partial}`];
  if (options.snapshot) args.push(`--snapshot=${options.snapshot}`);
  args.push(`--dbname=${options.databaseUrl}`);
  try {
    await runTool("pg_dump", args);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  fs.renameSync(partial, options.file);
  return { file: options.file, bytes: fs.statSync(options.file).size, ms: performance.now() - started };
}

/** Whether the database at `databaseUrl` has no tables of its own (a restore's target must be empty). */
async function isEmptyDatabase(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')");
    return rows[0]!.n === 0;
  } finally {
    await client.end();
  }
}

/**
 * `pg_restore` of a `backupPostgres` file into the empty database at `databaseUrl` (create it
 * first: `createdb`). Refuses a database that already has tables rather than mixing two worlds.
 */
export async function restorePostgres(options: { databaseUrl: string; file: string; jobs?: number }): Promise<BackupResult> {
  const started = performance.now();
  if (!fs.existsSync(options.file)) throw new Error(`no backup at ${options.file}`);
  if (!(await isEmptyDatabase(options.databaseUrl))) throw new Error("the target database is not empty: restore into a new database (createdb), then point DATABASE_URL at it");
  await runTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--jobs=${options.jobs ?? 2}`, `--dbname=${options.databaseUrl}`, options.file]);
  return { file: options.file, bytes: fs.statSync(options.file).size, ms: performance.now() - started };
}

/** Something with PGlite's dump (the engine, or the running server's embedded database). */
export interface DumpsDataDir {
  dumpDataDir(compression?: "auto" | "gzip" | "none"): Promise<Blob>;
}

/** PGlite's own dump of an embedded world into `file` (a gzipped tarball of its data directory). */
export async function backupEmbeddedEngine(engine: DumpsDataDir, file: string): Promise<BackupResult> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const blob = await engine.dumpDataDir("gzip");
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(partial, file);
  return { file, bytes: fs.statSync(file).size, ms: performance.now() - started };
}

/** Where the embedded world lives under a DATA_DIR (db/pool.ts opens the same folder). */
export function embeddedDir(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

/** The generated JWT secret of a DATA_DIR (auth/tokens.ts resolveJwtSecret makes it). */
export function jwtSecretFile(dataDir: string): string {
  return path.join(dataDir, "jwt-secret");
}

/**
 * The copy of the JWT secret inside the embedded world's data directory, so PGlite's dump
 * carries it (Postgres ignores a file it does not know at the top of its data directory).
 */
export const SECRET_IN_WORLD = "game-jwt-secret";

/**
 * Puts DATA_DIR's generated JWT secret in the world's data directory before a dump (nothing
 * when there is none: a server with JWT_SECRET set signs with that, and its operator keeps it).
 * Decision (docs/reliability.md, "Backups"): the secret goes in the backup rather than the
 * restore asking for it, because a restore without it signs every player out, and the backup
 * already holds what the secret protects (accounts, password hashes): a backup file is as
 * secret as the world itself.
 */
export function carrySecretIntoWorld(dataDir: string): boolean {
  const source = jwtSecretFile(dataDir);
  if (!fs.existsSync(source)) return false;
  const copy = path.join(embeddedDir(dataDir), SECRET_IN_WORLD);
  fs.copyFileSync(source, copy);
  fs.chmodSync(copy, 0o600);
  return true;
}

/** What a restore did with the JWT secret the backup carried. */
export type RestoredSecret = "restored" | "same" | "replaced" | "none";

/**
 * Takes the JWT secret a restored world carried out to DATA_DIR/jwt-secret: written when there
 * is none, kept when equal; a different one (the DATA_DIR of another world) is kept beside as
 * `jwt-secret.before-restore` and replaced, since the restored world's tokens were signed with
 * the backup's. "none": a backup made before the secret travelled, or of a JWT_SECRET world.
 */
function takeSecretFromWorld(dataDir: string): RestoredSecret {
  const carried = path.join(embeddedDir(dataDir), SECRET_IN_WORLD);
  if (!fs.existsSync(carried)) return "none";
  const secret = fs.readFileSync(carried);
  fs.chmodSync(carried, 0o600);
  const target = jwtSecretFile(dataDir);
  let outcome: RestoredSecret = "restored";
  if (fs.existsSync(target)) {
    if (fs.readFileSync(target).equals(secret)) return "same";
    fs.renameSync(target, `${target}.before-restore`);
    outcome = "replaced";
  }
  fs.writeFileSync(target, secret, { mode: 0o600, flag: "wx" });
  return outcome;
}

/** Backs up the embedded world of a stopped server (PGlite cannot be opened by two processes). */
export async function backupEmbeddedDataDir(dataDir: string, file: string): Promise<BackupResult> {
  const dir = embeddedDir(dataDir);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) throw new Error(`no embedded world in ${dir}`);
  carrySecretIntoWorld(dataDir);
  const { PGlite } = await import("@electric-sql/pglite");
  const engine = await PGlite.create(dir);
  try {
    return await backupEmbeddedEngine(engine, file);
  } finally {
    await engine.close();
  }
}

/**
 * Restores a `backupEmbedded*` file as the embedded world of `dataDir`, which must hold none
 * yet (move the old `pglite` folder away first). Opens it once, so Postgres' recovery has run
 * and a failed restore is known now, not at the server's start. The JWT secret the backup
 * carried becomes DATA_DIR's (`secret` says what was done).
 */
export async function restoreEmbedded(options: { dataDir: string; file: string }): Promise<BackupResult & { secret: RestoredSecret }> {
  const started = performance.now();
  if (!fs.existsSync(options.file)) throw new Error(`no backup at ${options.file}`);
  const dir = embeddedDir(options.dataDir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${dir} already holds a world: move it away (or use another DATA_DIR) before restoring`);
  fs.mkdirSync(dir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const engine = await PGlite.create(dir, { loadDataDir: new Blob([fs.readFileSync(options.file)]) });
  try {
    await engine.query("SELECT 1");
  } finally {
    await engine.close();
  }
  const secret = takeSecretFromWorld(options.dataDir);
  return { file: options.file, bytes: fs.statSync(options.file).size, ms: performance.now() - started, secret };
}

/** `backup-20261127T083000Z` plus the store's extension. */
export function backupFileName(at: Date, embedded: boolean): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `backup-${stamp}${embedded ? EMBEDDED_BACKUP_EXTENSION : POSTGRES_BACKUP_EXTENSION}`;
}

/** Deletes the oldest backups in `dir` beyond the newest `keep` (only files this module named). */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return [];
  const ours = fs
    .readdirSync(dir)
    .filter((name) => /^backup-\d{8}T\d{6}Z/.test(name) && (name.endsWith(POSTGRES_BACKUP_EXTENSION) || name.endsWith(EMBEDDED_BACKUP_EXTENSION)))
    .sort();
  const removed = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return removed;
}

/** How long the interval's Redis key may take to answer, and how long stop() waits for a backup in progress (ms). */
const REDIS_SLOT_TIMEOUT_MS = 2_000;
const STOP_WAIT_MS = 2_000;

/** The running scheduled backups; stop() waits a moment for one in progress. */
export interface ScheduledBackups {
  /** takes one backup now (what each interval does); resolves with its file, or undefined when another process took this interval */
  runOnce(): Promise<string | undefined>;
  stop(): Promise<void>;
}

/**
 * Every `backupIntervalMinutes`, a backup of this process's database into `backupDir`, then
 * the oldest beyond `backupKeep` deleted. With Redis, the processes of one deployment share
 * the interval: the first to take a Redis key named after the interval does it.
 */
export function startScheduledBackups(config: Config, database: Database, redis: Redis | undefined, logger: Logger): ScheduledBackups | undefined {
  if (config.backupIntervalMinutes <= 0) return undefined;
  const intervalMs = config.backupIntervalMinutes * 60_000;
  let running: Promise<string | undefined> | undefined;
  const runOnce = async (): Promise<string | undefined> => {
    const now = new Date();
    if (redis) {
      // A Redis that does not answer skips this interval rather than holding the backup (and a shutdown) forever.
      const slot = Math.floor(now.getTime() / intervalMs);
      const taken = await Promise.race([redis.set(`backup:slot:${slot}`, String(process.pid), "PX", intervalMs, "NX"), new Promise<"timeout">((resolve) => setTimeout(resolve, REDIS_SLOT_TIMEOUT_MS, "timeout").unref())]);
      if (taken === "timeout") throw new Error("Redis did not answer: this interval's backup is skipped");
      if (taken !== "OK") return undefined;
    }
    const file = path.join(config.backupDir, backupFileName(now, database.embedded));
    if (database.dumpDataDir) carrySecretIntoWorld(config.dataDir);
    const result = database.dumpDataDir ? await backupEmbeddedEngine({ dumpDataDir: () => database.dumpDataDir!() }, file) : await backupPostgres({ databaseUrl: config.databaseUrl!, file });
    const removed = pruneBackups(config.backupDir, config.backupKeep);
    logger.info({ file, bytes: result.bytes, ms: Math.round(result.ms), removed }, "scheduled backup written");
    return file;
  };
  const tick = () => {
    if (running) return;
    running = runOnce()
      .catch((err) => {
        logger.error({ err }, "scheduled backup failed");
        return undefined;
      })
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  logger.info({ everyMinutes: config.backupIntervalMinutes, dir: config.backupDir, keep: config.backupKeep }, "scheduled backups on");
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      // A backup in progress gets a moment to finish; a shutdown does not wait for a long dump
      // (its `.partial` file is left, never taken for a backup).
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    },
  };
}
