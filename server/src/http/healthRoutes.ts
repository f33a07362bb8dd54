import type { Redis } from "ioredis";
import { routes } from "@game/schema/routes";
import type { Database } from "../db/pool.js";
import type { ServiceContext } from "../services/context.js";
import type { ApiPipeline } from "./pipeline.js";

const startedAt = Date.now();

/** GET /health: 200 when the database answers (and Redis, when configured). */
export function healthRoutes(database: Database, redis: Redis | undefined) {
  return (_ctx: ServiceContext, api: ApiPipeline): void => {
    api.handle(routes.health, async () => {
      await database.pool.query("SELECT 1");
      if (redis) await redis.ping();
      return {
        status: "ok" as const,
        database: database.embedded ? ("embedded" as const) : ("postgres" as const),
        presence: redis ? ("redis" as const) : ("local" as const),
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      };
    });
  };
}
