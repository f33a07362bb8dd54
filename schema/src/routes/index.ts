import { z } from "zod";
import { defineRoute, type AnyRoute } from "./route.js";
import { authRoutes, countryRoutes } from "./country.js";
import { economyRoutes } from "./economy.js";
import { marketRoutes } from "./market.js";
import { militaryRoutes } from "./military.js";
import { espionageRoutes } from "./espionage.js";
import { allianceRoutes, diplomacyRoutes } from "./alliance.js";
import { accountRoutes, adminRoutes, chatRoutes, healthRoutes, newsRoutes, rankingRoutes, seasonRoutes } from "./world.js";

export * from "./route.js";
export * from "./economy.js";
export * from "./country.js";
export * from "./market.js";
export * from "./military.js";
export * from "./espionage.js";
export * from "./alliance.js";
export * from "./world.js";
export * from "./openapi.js";

/**
 * GET /openapi.json answers the document itself (no envelope): its top-level fields checked,
 * the paths and schemas as generated.
 */
const openApiDocumentSchema = z
  .object({
    openapi: z.literal("3.1.0"),
    info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.object({ schemas: z.record(z.string(), z.unknown()), securitySchemes: z.record(z.string(), z.unknown()) }),
  })
  .catchall(z.unknown());

/**
 * The REST catalogue: every call of the API by name (`routes.explore`). The server registers
 * one handler per entry (server/src/http/pipeline.ts), the client and the load tester call
 * entries (`api.call(routes.explore, body)`), /api/openapi.json is generated from it.
 */
export const routes = {
  ...authRoutes,
  ...countryRoutes,
  ...economyRoutes,
  ...marketRoutes,
  ...militaryRoutes,
  ...espionageRoutes,
  ...allianceRoutes,
  ...diplomacyRoutes,
  ...chatRoutes,
  ...seasonRoutes,
  ...rankingRoutes,
  ...newsRoutes,
  ...accountRoutes,
  ...adminRoutes,
  ...healthRoutes,
  openApi: defineRoute({
    method: "GET",
    path: "/openapi.json",
    tag: "Operations",
    summary: "This API described as OpenAPI 3.1 (the reference page /api-docs reads it)",
    fallback: "Failed to describe the API",
    auth: "none",
    response: openApiDocumentSchema,
    contentType: "application/json",
  }),
};

/** Every entry of the catalogue. */
export const ROUTES: readonly AnyRoute[] = Object.values(routes);
