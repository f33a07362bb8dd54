import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalDriver, LocalPresence, matchMaker, Server, type Presence } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import type { Redis } from "ioredis";
import type { Config } from "./config.js";
import { colyseusLogger, createLogger, type Logger } from "./logger.js";
import { openDatabase, watchPoolHolds, type Database } from "./db/pool.js";
import { runMigrations } from "./db/migrate.js";
import { backfillNameKeys } from "./db/names.js";
import { resolveJwtSecret, TokenService } from "./auth/tokens.js";
import { RateLimits } from "./auth/rateLimiter.js";
import { PresenceEventBus, worldChannel } from "./events.js";
import { readWorldId } from "./db/worldIdentity.js";
import { ResyncingRedisPresence } from "./presence.js";
import { RedisConnections } from "./redis.js";
import { GameMetrics } from "./metrics.js";
import { systemClock, type ServiceContext } from "./services/context.js";
import { osSeeds } from "./services/actions.js";
import { createApp, type AppExtras } from "./http/app.js";
import type { ApiPipeline } from "./http/pipeline.js";
import { healthRoutes } from "./http/healthRoutes.js";
import { installCorsPolicy } from "./http/security.js";
import { monitorEventLoop, mountMetrics } from "./http/metricsRoute.js";
import { defineRooms, processForNewRoom } from "./rooms/index.js";
import { RoomSessions } from "./rooms/sessions.js";
import { SpreadPingTransport } from "./rooms/spreadPings.js";
import { installMatchmaking } from "./http/matchmaking.js";
import { TokenConcurrency } from "./http/tokenConcurrency.js";
import { startBackgroundWork, type BackgroundWork } from "./tick/index.js";
import { startStrikeScheduler, type StrikeScheduler } from "./tick/strikes.js";
import { startAiRounds, type AiRounds } from "./tick/aiRounds.js";
import { ensureAiCountries, playAiRound } from "./services/ai.js";
import { executeStrike } from "./services/combat.js";
import { startScheduledBackups, type ScheduledBackups } from "./db/backup.js";
import { PublicAddress } from "./publicAddress.js";

/** Idle keep-alive time of HTTP connections, milliseconds. */
const HTTP_KEEP_ALIVE_MS = 65_000;

/** A running game server process: HTTP API, WebSocket rooms and background work on one port. */
export interface GameServer {
  ctx: ServiceContext;
  /** the REST API's request pipeline (http/pipeline.ts): its registered catalogue entries */
  pipeline: ApiPipeline;
  gameServer: Server;
  httpServer: http.Server;
  database: Database;
  redis: Redis | undefined;
  /** the scheduled backups (BACKUP_INTERVAL_MINUTES), when on */
  backups: ScheduledBackups | undefined;
  /** the port actually bound (useful with port 0) */
  port: number;
  close(): Promise<void>;
}

/**
 * Builds and starts everything from a config: database (migrated), presence and driver
 * (Redis or local), services, Express app, Colyseus rooms, tick.
 */
export async function startGameServer(config: Config, options: { logger?: Logger; extras?: AppExtras } = {}): Promise<GameServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  // A refused migration (db/migrate.ts, ChangedMigrationError) stops the start: nothing else opened yet.
  const applied = await runMigrations(database.pool).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  if (applied.length) logger.info({ applied }, "migrations applied");
  await backfillNameKeys(database.pool, logger);

  let connections: RedisConnections | undefined;
  let presence: Presence;
  let driver;
  if (config.redisUrl) {
    connections = new RedisConnections(config.redisUrl, logger);
    presence = new ResyncingRedisPresence(connections.presence, logger, connections.outage);
    driver = new RedisDriver(connections.driver);
  } else {
    presence = new LocalPresence();
    driver = new LocalDriver();
  }

  // BullMQ's connection, for the background work (the request path uses connections.requests)
  const redis: Redis | undefined = connections?.queue;
  const worldId = await readWorldId(database.pool);
  const events = new PresenceEventBus(presence, logger, worldId, connections?.outage);
  const metrics = new GameMetrics();
  const ctx: ServiceContext = {
    config,
    db: database.pool,
    logger,
    tokens: new TokenService(resolveJwtSecret(config), database.pool, config.tokenTtlSeconds, { channel: presence, revokedTopic: worldChannel(worldId, "auth:revoked"), logger, metrics, outage: connections?.outage }),
    limiter: new RateLimits(connections?.requests, connections?.outage),
    events,
    metrics,
    clock: systemClock,
    seeds: osSeeds,
    redisOutage: connections?.outage,
    publicAddress: new PublicAddress(config.publicAddress),
  };

  const sessions = new RoomSessions(ctx, presence, connections?.presence);

  // Rooms and clients of this process (matchMaker.stats.local is a live binding, read per scrape).
  ctx.metrics.addGauge("colyseus_rooms", "Rooms hosted by this process", () => matchMaker.stats.local.roomCount);
  ctx.metrics.addGauge("colyseus_connected_clients", "WebSocket clients connected to rooms of this process", () => matchMaker.stats.local.ccu);
  // The connection pool: requests waiting for a connection are time spent neither in Node nor in Postgres.
  ctx.metrics.addGauge("db_pool_connections", "Postgres connections the pool holds", () => database.pool.totalCount);
  ctx.metrics.addGauge("db_pool_idle_connections", "Postgres connections idle in the pool", () => database.pool.idleCount);
  ctx.metrics.addGauge("db_pool_waiting_requests", "Queries and transactions waiting for a pool connection", () => database.pool.waitingCount);
  watchPoolHolds(database.pool, ctx.metrics);
  const stopEventLoopMonitor = monitorEventLoop(ctx.metrics);

  const { app, pipeline } = createApp(ctx, {
    ...options.extras,
    beforeApi: (app) => {
      mountMetrics(app, config, ctx.metrics);
      options.extras?.beforeApi?.(app);
    },
    routers: [healthRoutes(database, connections?.requests), ...(options.extras?.routers ?? [])],
  });
  const httpServer = http.createServer(app);
  // Node closes idle keep-alive sockets after 5 s, racing clients that reuse them (the load
  // tester saw ECONNRESET). Keep them longer than typical client and proxy idle time-outs.
  httpServer.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  httpServer.headersTimeout = HTTP_KEEP_ALIVE_MS + 1_000;
  // The keep-alive pings every socket once per 10 s, spread over the interval (rooms/spreadPings.ts).
  const transport = new SpreadPingTransport({ server: httpServer, pingInterval: 10_000, pingMaxRetries: 3 });
  const gameServer = new Server({
    transport,
    presence,
    driver,
    publicAddress: ctx.publicAddress!.forColyseus,
    selectProcessIdToCreateRoom: processForNewRoom,
    greet: false,
    gracefullyShutdown: false,
    logger: colyseusLogger(logger, () => ctx.metrics.roomMessagesRejected.inc({ reason: "frame/malformed" })),
  });
  defineRooms(gameServer, ctx);
  installCorsPolicy(config);
  let background: BackgroundWork;
  let inFlight: InFlightRequests;
  let strikes: StrikeScheduler | undefined;
  let ai: AiRounds | undefined;
  let backups: ScheduledBackups | undefined;
  try {
    // Redis commands until the end of the start wait for a slow answer, within a bound (redis.ts REDIS_START_BOUND_MS)
    await listen(gameServer, httpServer, config.port);
    ctx.publicAddress!.bound((httpServer.address() as AddressInfo).port);
    installMatchmaking(httpServer, logger, { app, pipeline, corsOrigins: config.corsOrigins, concurrency: new TokenConcurrency(), redisUnavailable: () => connections?.outage.active ?? false });
    // after installMatchmaking, which replaces the request listeners it finds
    inFlight = new InFlightRequests(httpServer);
    await connections?.ready();
    await events.ready();
    background = await startBackgroundWork(ctx, redis);
    // Planned strikes and scheduled attacks (TICK_ENABLED=false runs no background work at all).
    strikes = config.tickEnabled ? await startStrikeScheduler(ctx, redis, executeStrike) : undefined;
    // AI countries play on their own schedule (AI_COUNTRIES=0 or TICK_ENABLED=false: none).
    ai = config.tickEnabled
      ? await startAiRounds(
          ctx,
          redis,
          (c) => playAiRound(c),
          (c, target) => ensureAiCountries(c, target),
        )
      : undefined;
    backups = startScheduledBackups(config, database, redis, logger);
    // the request path's Redis bounds from here on, before the server says it listens
    connections?.started();
  } catch (err) {
    // A failed start (port in use, Redis or Postgres gone) leaves nothing running, so the
    // process can exit at once (main.ts) instead of hanging on open handles.
    stopEventLoopMonitor();
    sessions.stop();
    await gameServer.gracefullyShutdown(false).catch(() => undefined);
    httpServer.close();
    connections?.disconnect();
    await database.close().catch(() => undefined);
    throw err;
  }
  const port = (httpServer.address() as AddressInfo).port;
  logger.info({ port, embedded: database.embedded, redis: Boolean(redis) }, "game server listening");

  let closed: Promise<void> | undefined;
  return {
    ctx,
    pipeline,
    gameServer,
    httpServer,
    database,
    redis,
    backups,
    port,
    close() {
      closed ??= (async () => {
        await backups?.stop();
        // 1. stop accepting connections; `drained` resolves once every open one has ended
        const drained = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        const idleSweep = setInterval(() => httpServer.closeIdleConnections(), SHUTDOWN_IDLE_SWEEP_MS);
        httpServer.closeIdleConnections();
        // 2. in-flight requests finish while presence is still up, so the events they publish
        //    go out (issue 28: presence used to be shut first, and 184 events were dropped);
        //    meanwhile no new ticks, strikes or AI rounds. The background work needs Redis (BullMQ):
        //    with Redis down its close never ends, so it gets SHUTDOWN_BACKGROUND_MS (a tick cut
        //    short rolls back, and the tick is idempotent: the next process applies it).
        await Promise.all([
          inFlight.idle(SHUTDOWN_GRACE_MS),
          within(SHUTDOWN_BACKGROUND_MS, Promise.all([strikes?.stop(), ai?.stop(), background.stop()]), () => logger.warn("background work still stopping after the shutdown bound: left behind")),
        ]);
        stopEventLoopMonitor();
        // 3. rooms tell their clients and run onLeave/onDispose (database still open); with Redis
        //    down the matchmaker's cleanup there waits on command time-outs, so it is bounded too
        await within(
          SHUTDOWN_ROOMS_MS,
          gameServer.gracefullyShutdown(false).catch((err) => logger.warn({ err }, "colyseus shutdown")),
          () => logger.warn("rooms still closing after the shutdown bound: their sockets are cut"),
        );
        sessions.stop();
        // 4. whatever is still open after the grace period is cut
        const deadline = setTimeout(() => {
          logger.warn("connections still open after the shutdown grace period: closing them");
          httpServer.closeAllConnections();
          for (const socket of transport.sockets) socket.terminate();
        }, SHUTDOWN_CUT_MS);
        await drained;
        clearTimeout(deadline);
        clearInterval(idleSweep);
        // 5. then the stores
        ctx.tokens.stop();
        connections?.disconnect();
        await database.close();
      })();
      return closed;
    },
  };
}

/**
 * Shutdown bounds, ms. main.ts exits 1 if close() takes longer than 9 s, so the worst case
 * (Redis down: every bound reached) stays under it: max(grace, background) + rooms + cut = 7.5 s.
 */
/** How long in-flight requests get to finish on shutdown (their events are published meanwhile). */
const SHUTDOWN_GRACE_MS = 5_000;
/** How long stopping the tick, strikes and AI rounds (BullMQ on Redis) may take, alongside the grace. */
const SHUTDOWN_BACKGROUND_MS = 3_000;
/** How long the rooms' shutdown (Colyseus: clients told, rooms disposed, matchmaker cleaned) may take. */
const SHUTDOWN_ROOMS_MS = 2_000;
/** How long sockets still open after that get before they are cut. */
const SHUTDOWN_CUT_MS = 500;
/** How often keep-alive connections that became idle are closed during shutdown, ms. */
const SHUTDOWN_IDLE_SWEEP_MS = 100;

/** Waits for `work`, at most `ms`; when the bound is reached, calls `onLate` and returns (the work goes on). */
async function within(ms: number, work: Promise<unknown>, onLate: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  const outcome = await Promise.race([work.then(() => "done" as const), late]);
  clearTimeout(timer);
  if (outcome === "late") onLate();
}

/** Counts the HTTP requests being answered (not WebSocket upgrades), so a shutdown can wait for them. */
class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  constructor(httpServer: http.Server) {
    httpServer.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
      this.count += 1;
      res.once("close", () => {
        this.count -= 1;
        if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  /** Resolves once no request is being answered, or after `limitMs`. */
  async idle(limitMs: number): Promise<void> {
    if (this.count === 0) return;
    await within(limitMs, new Promise<void>((resolve) => this.waiters.push(resolve)), () => undefined);
  }
}

/**
 * Colyseus' listen() resolves on "listening" and never settles when the port cannot be bound
 * (EADDRINUSE): it attaches its error handler only after listening. Race it with the HTTP
 * server's first "error" so a failed bind rejects at once.
 */
async function listen(gameServer: Server, httpServer: http.Server, port: number): Promise<void> {
  let onError!: (err: Error) => void;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    httpServer.once("error", onError);
  });
  try {
    await Promise.race([gameServer.listen(port), failed]);
  } finally {
    httpServer.removeListener("error", onError);
  }
}
