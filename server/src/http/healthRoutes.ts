import type { Redis } from "ioredis";
import { routes } from "@game/schema/routes";
import type { Database } from "../db/pool.js";
import type { ServiceContext } from "../services/context.js";
import { unavailable } from "../errors.js";
import type { ApiPipeline } from "./pipeline.js";

const startedAt = Date.now();

/**
 * GET /health: 200 when the database answers (and Redis, when configured); 503 with
 * Retry-After when one does not. `redis` is the request-path connection (no offline queue, a
 * command time-out: RedisConnections), so a Redis that refuses fails at once and one that
 * never answers within REDIS_COMMAND_TIMEOUT_MS: health fails fast instead of waiting for it.
 */
export function healthRoutes(database: Database, redis: Redis | undefined) {
  return (ctx: ServiceContext, api: ApiPipeline): void => {
    api.handle(routes.health, async () => {
      await database.pool.query("SELECT 1");
      if (redis) {
        try {
          await redis.ping();
        } catch (err) {
          if (!ctx.redisOutage?.noteFailure(err, "health")) throw err;
          throw unavailable("Redis is unavailable, try again shortly", "server/redis_unavailable");
        }
      }
      return {
        status: "ok" as const,
        database: database.embedded ? ("embedded" as const) : ("postgres" as const),
        presence: redis ? ("redis" as const) : ("local" as const),
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      };
    });
  };
}
