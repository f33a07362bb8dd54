import { Router } from "express";
import type { Redis } from "ioredis";
import type { Database } from "../db/pool.js";
import type { ServiceContext } from "../services/context.js";
import { route } from "./handler.js";

const startedAt = Date.now();

/** GET /health: 200 when the database answers (and Redis, when configured). */
export function healthRoutes(database: Database, redis: Redis | undefined) {
  return (_ctx: ServiceContext) => {
    const router = Router();
    router.get(
      "/health",
      route("Health check failed", async () => {
        await database.pool.query("SELECT 1");
        if (redis) await redis.ping();
        return {
          status: "ok",
          database: database.embedded ? "embedded" : "postgres",
          presence: redis ? "redis" : "local",
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        };
      }),
    );
    return router;
  };
}
