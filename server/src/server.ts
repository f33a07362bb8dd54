import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalDriver, LocalPresence, matchMaker, Server, type Presence } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { RedisDriver } from "@colyseus/redis-driver";
import { Redis } from "ioredis";
import type { Config } from "./config.js";
import { colyseusLogger, createLogger, type Logger } from "./logger.js";
import { openDatabase, type Database } from "./db/pool.js";
import { runMigrations } from "./db/migrate.js";
import { backfillNameKeys } from "./db/names.js";
import { resolveJwtSecret, TokenService } from "./auth/tokens.js";
import { RateLimits } from "./auth/rateLimiter.js";
import { PresenceEventBus, worldChannel } from "./events.js";
import { readWorldId } from "./db/worldIdentity.js";
import { ResyncingRedisPresence } from "./presence.js";
import { GameMetrics } from "./metrics.js";
import { systemClock, type ServiceContext } from "./services/context.js";
import { osSeeds } from "./services/actions.js";
import { createApp, type AppExtras } from "./http/app.js";
import type { ApiPipeline } from "./http/pipeline.js";
import { healthRoutes } from "./http/healthRoutes.js";
import { installCorsPolicy } from "./http/security.js";
import { monitorEventLoop, mountMetrics } from "./http/metricsRoute.js";
import { defineRooms } from "./rooms/index.js";
import { RoomSessions } from "./rooms/sessions.js";
import { installMatchmaking } from "./http/matchmaking.js";
import { startBackgroundWork, type BackgroundWork } from "./tick/index.js";
import { startStrikeScheduler, type StrikeScheduler } from "./tick/strikes.js";
import { startAiRounds, type AiRounds } from "./tick/aiRounds.js";
import { ensureAiCountries, playAiRound } from "./services/ai.js";
import { executeStrike } from "./services/combat.js";

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
  const applied = await runMigrations(database.pool);
  if (applied.length) logger.info({ applied }, "migrations applied");
  await backfillNameKeys(database.pool, logger);

  let redis: Redis | undefined;
  let presence: Presence;
  let driver;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
    presence = new ResyncingRedisPresence(config.redisUrl, logger);
    driver = new RedisDriver(config.redisUrl);
  } else {
    presence = new LocalPresence();
    driver = new LocalDriver();
  }

  const worldId = await readWorldId(database.pool);
  const events = new PresenceEventBus(presence, logger, worldId);
  const metrics = new GameMetrics();
  const ctx: ServiceContext = {
    config,
    db: database.pool,
    logger,
    tokens: new TokenService(resolveJwtSecret(config), database.pool, config.tokenTtlSeconds, { channel: presence, revokedTopic: worldChannel(worldId, "auth:revoked"), logger, metrics }),
    limiter: new RateLimits(redis),
    events,
    metrics,
    clock: systemClock,
    seeds: osSeeds,
  };

  const sessions = new RoomSessions(ctx, presence);

  // Rooms and clients of this process (matchMaker.stats.local is a live binding, read per scrape).
  ctx.metrics.addGauge("colyseus_rooms", "Rooms hosted by this process", () => matchMaker.stats.local.roomCount);
  ctx.metrics.addGauge("colyseus_connected_clients", "WebSocket clients connected to rooms of this process", () => matchMaker.stats.local.ccu);
  const stopEventLoopMonitor = monitorEventLoop(ctx.metrics);

  const { app, pipeline } = createApp(ctx, {
    ...options.extras,
    beforeApi: (app) => {
      mountMetrics(app, config, ctx.metrics);
      options.extras?.beforeApi?.(app);
    },
    routers: [healthRoutes(database, redis), ...(options.extras?.routers ?? [])],
  });
  const httpServer = http.createServer(app);
  // Node closes idle keep-alive sockets after 5 s, racing clients that reuse them (the load
  // tester saw ECONNRESET). Keep them longer than typical client and proxy idle time-outs.
  httpServer.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  httpServer.headersTimeout = HTTP_KEEP_ALIVE_MS + 1_000;
  const transport = new WebSocketTransport({ server: httpServer, pingInterval: 10_000, pingMaxRetries: 3 });
  const gameServer = new Server({
    transport,
    presence,
    driver,
    publicAddress: config.publicAddress,
    greet: false,
    gracefullyShutdown: false,
    logger: colyseusLogger(logger, () => ctx.metrics.roomMessagesRejected.inc({ reason: "frame/malformed" })),
  });
  defineRooms(gameServer, ctx);
  installCorsPolicy(config);
  let background: BackgroundWork;
  let strikes: StrikeScheduler | undefined;
  let ai: AiRounds | undefined;
  try {
    await listen(gameServer, httpServer, config.port);
    installMatchmaking(httpServer, logger, { app, pipeline, corsOrigins: config.corsOrigins });
    await events.ready();
    background = await startBackgroundWork(ctx, redis);
    // Planned strikes and scheduled attacks (TICK_ENABLED=false runs no background work at all).
    strikes = config.tickEnabled ? await startStrikeScheduler(ctx, redis, executeStrike) : undefined;
    // AI countries play on their own schedule (AI_COUNTRIES=0 or TICK_ENABLED=false: none).
    ai = config.tickEnabled ? await startAiRounds(ctx, redis, (c) => playAiRound(c), (c, target) => ensureAiCountries(c, target)) : undefined;
  } catch (err) {
    // A failed start (port in use, Redis or Postgres gone) leaves nothing running, so the
    // process can exit at once (main.ts) instead of hanging on open handles.
    stopEventLoopMonitor();
    sessions.stop();
    await gameServer.gracefullyShutdown(false).catch(() => undefined);
    httpServer.close();
    redis?.disconnect();
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
    port,
    close() {
      closed ??= (async () => {
        await strikes?.stop();
        await ai?.stop();
        // 1. stop accepting connections; `drained` resolves once every open one has ended
        const drained = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        const idleSweep = setInterval(() => httpServer.closeIdleConnections(), SHUTDOWN_IDLE_SWEEP_MS);
        httpServer.closeIdleConnections();
        // 2. no new ticks; 3. rooms tell their clients and run onLeave/onDispose (database still open)
        await background.stop();
        stopEventLoopMonitor();
        await gameServer.gracefullyShutdown(false).catch((err) => logger.warn({ err }, "colyseus shutdown"));
        sessions.stop();
        // 4. in-flight requests finish; whatever is still open after the grace period is cut
        const deadline = setTimeout(() => {
          logger.warn("connections still open after the shutdown grace period: closing them");
          httpServer.closeAllConnections();
          for (const socket of (transport as unknown as { wss: { clients: Set<{ terminate(): void }> } }).wss.clients) socket.terminate();
        }, SHUTDOWN_GRACE_MS);
        await drained;
        clearTimeout(deadline);
        clearInterval(idleSweep);
        // 5. then the stores
        ctx.tokens.stop();
        redis?.disconnect();
        await database.close();
      })();
      return closed;
    },
  };
}

/** How long in-flight requests and closing sockets get to finish on shutdown, ms. */
const SHUTDOWN_GRACE_MS = 5_000;
/** How often keep-alive connections that became idle are closed during shutdown, ms. */
const SHUTDOWN_IDLE_SWEEP_MS = 100;

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
