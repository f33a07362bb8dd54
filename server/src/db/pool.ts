import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";

// Postgres bigint (int8) and numeric arrive as strings by default. Every bigint we store is a
// game quantity below 2^53, so parse int8 to a JS number; count(*) results come back as numbers.
pg.types.setTypeParser(20, (value) => Number(value));

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;

/**
 * A process-wide value per database, made on its first use (tests run servers on several
 * databases in one process, so a module-level value would mix them).
 */
export function perDatabase<T>(create: (db: Db) => T): (db: Db) => T {
  const values = new WeakMap<Db, T>();
  return (db) => {
    let value = values.get(db);
    if (value === undefined) values.set(db, (value = create(db)));
    return value;
  };
}

/** A database handle plus what it takes to close it. */
export interface Database {
  pool: Db;
  /** true when running on the embedded PGlite database */
  embedded: boolean;
  /** the embedded world's own dump (PGlite's dumpDataDir, gzipped tarball); absent on Postgres */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

/**
 * Opens the configured database: a pg Pool on DATABASE_URL, or an embedded PGlite served
 * over a loopback socket (pglite-socket) with a pool of one connection, because PGlite is a
 * single-connection engine.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.databaseUrl) {
    // A pool that cannot get a connection within 10 s (Postgres down or saturated) fails the
    // request (503) instead of queueing it forever.
    // A new connection is a new backend, so a new session: pg's named statements and the
    // grouped writes' PREPAREs are tracked per connection object and start empty with it.
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20, connectionTimeoutMillis: 10_000, idleTimeoutMillis: config.databaseIdleTimeoutMs });
    pool.on("error", (err) => logger.error({ err }, "idle postgres client error"));
    return { pool, embedded: false, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const dir = path.join(config.dataDir, "pglite");
  fs.mkdirSync(dir, { recursive: true });
  const engine = await PGlite.create(dir);
  // Two sockets, though the pool holds one connection: a connection the pool drops (idle, or
  // broken by an error) closes asynchronously, and its replacement must not be refused while
  // the old socket is still being detached. PGlite's queue keeps a transaction to the socket
  // that opened it, and rolls back what a closed socket left open.
  const socketServer = new PGLiteSocketServer({ db: engine, port: 0, host: "127.0.0.1", maxConnections: 2 });
  await socketServer.start();
  const address = socketServer.getServerConn();
  logger.info({ dir, address }, "embedded PGlite database started");
  // PGlite is one Postgres session whatever the sockets: what a closed connection prepared
  // (pg's named statements such as find_country, the grouped writes' PREPAREs) is still there
  // when the pool opens the next one, whose tracking starts empty. So every new connection
  // starts by discarding the session's state, and really is a new session
  // (docs/architecture.md, "Connections and sessions").
  const pool = new pg.Pool({
    connectionString: `postgres://postgres@${address}/postgres`,
    max: 1,
    idleTimeoutMillis: config.databaseIdleTimeoutMs,
    // pg-pool awaits onConnect (its _promiseTry) before handing the client out; @types/pg
    // still types it as returning void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: async (client) => {
      await client.query("DISCARD ALL");
    },
  });
  pool.on("error", (err) => logger.error({ err }, "idle embedded client error"));
  return {
    pool,
    embedded: true,
    dumpDataDir: () => engine.dumpDataDir("gzip"),
    async close() {
      await pool.end();
      await socketServer.stop();
      await engine.close();
    },
  };
}

/**
 * Counts the pool's check-outs and how long each connection stays checked out (issue 29: at
 * 2,000 playing clients the queue was in front of the pool while Postgres ran almost nothing,
 * docs/performance.md). Per game action or per request, these say how much of the pool a call
 * costs, whatever the machine's speed.
 */
export function watchPoolHolds(pool: Db, metrics: { dbPoolCheckouts: { inc(labels?: Record<string, string>, by?: number): void }; dbPoolHeldSeconds: { inc(labels?: Record<string, string>, by?: number): void } }): void {
  const since = new WeakMap<DbClient, number>();
  pool.on("acquire", (client) => {
    since.set(client, performance.now());
    metrics.dbPoolCheckouts.inc();
  });
  pool.on("release", (_err: Error | undefined, client: DbClient) => {
    const at = since.get(client);
    if (at === undefined) return;
    since.delete(client);
    metrics.dbPoolHeldSeconds.inc({}, (performance.now() - at) / 1000);
  });
}

/**
 * Runs `work` inside one transaction on one connection. The whole game action (read, lock,
 * check, write) happens inside; a thrown error rolls everything back.
 */
export async function withTransaction<T>(pool: Db, work: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
