import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalDriver, LocalPresence, matchMaker, Server, type Presence } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { RedisPresence } from "@colyseus/redis-presence";
import { RedisDriver } from "@colyseus/redis-driver";
import { Redis } from "ioredis";
import type { Config } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { openDatabase, type Database } from "./db/pool.js";
import { runMigrations } from "./db/migrate.js";
import { resolveJwtSecret, TokenService } from "./auth/tokens.js";
import { MemoryRateLimiter, RedisRateLimiter } from "./auth/rateLimiter.js";
import { PresenceEventBus } from "./events.js";
import { GameMetrics } from "./metrics.js";
import type { ServiceContext } from "./services/context.js";
import { createApp, type AppExtras } from "./http/app.js";
import { healthRoutes } from "./http/healthRoutes.js";
import { monitorEventLoop, mountMetrics } from "./http/metricsRoute.js";
import { defineRooms } from "./rooms/index.js";
import { startBackgroundWork, type BackgroundWork } from "./tick/index.js";
import { startStrikeScheduler } from "./tick/strikes.js";
import { executeStrike } from "./services/combat.js";

/** Idle keep-alive time of HTTP connections, milliseconds. */
const HTTP_KEEP_ALIVE_MS = 65_000;

/** A running game server process: HTTP API, WebSocket rooms and background work on one port. */
export interface GameServer {
  ctx: ServiceContext;
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

  let redis: Redis | undefined;
  let presence: Presence;
  let driver;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
    presence = new RedisPresence(config.redisUrl);
    driver = new RedisDriver(config.redisUrl);
  } else {
    presence = new LocalPresence();
    driver = new LocalDriver();
  }

  const events = new PresenceEventBus(presence, logger);
  const ctx: ServiceContext = {
    config,
    db: database.pool,
    logger,
    tokens: new TokenService(resolveJwtSecret(config), database.pool, config.tokenTtlSeconds),
    limiter: redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter(),
    events,
    metrics: new GameMetrics(),
  };

  // Rooms and clients of this process (matchMaker.stats.local is a live binding, read per scrape).
  ctx.metrics.addGauge("colyseus_rooms", "Rooms hosted by this process", () => matchMaker.stats.local.roomCount);
  ctx.metrics.addGauge("colyseus_connected_clients", "WebSocket clients connected to rooms of this process", () => matchMaker.stats.local.ccu);
  const stopEventLoopMonitor = monitorEventLoop(ctx.metrics);

  const app = createApp(ctx, {
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
    logger: logger.child({ component: "colyseus" }),
  });
  defineRooms(gameServer, ctx);
  await gameServer.listen(config.port);
  await events.ready();
  const port = (httpServer.address() as AddressInfo).port;
  const background: BackgroundWork = await startBackgroundWork(ctx, redis);
  // Planned strikes and scheduled attacks (TICK_ENABLED=false runs no background work at all).
  const strikes = config.tickEnabled ? await startStrikeScheduler(ctx, redis, executeStrike) : undefined;
  logger.info({ port, embedded: database.embedded, redis: Boolean(redis) }, "game server listening");

  let closed: Promise<void> | undefined;
  return {
    ctx,
    gameServer,
    httpServer,
    database,
    redis,
    port,
    close() {
      closed ??= (async () => {
        await strikes?.stop();
        await background.stop();
        stopEventLoopMonitor();
        await gameServer.gracefullyShutdown(false).catch((err) => logger.warn({ err }, "colyseus shutdown"));
        httpServer.closeIdleConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        redis?.disconnect();
        await database.close();
      })();
      return closed;
    },
  };
}
