import { Router } from "express";
import { settingsUpdateSchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { getSettings, updateSettings } from "../services/settings.js";
import { authenticate, parse, route } from "./handler.js";

/** GET /settings, PUT /settings: the caller's own settings only (no id in the path). */
export function settingsRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/settings",
    route("Failed to get settings", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await getSettings(ctx, claims.userId) };
    }),
  );

  router.put(
    "/settings",
    route("Settings save failed", async (req) => {
      const claims = await authenticate(ctx, req);
      const settings = parse(settingsUpdateSchema, req.body);
      return { data: await updateSettings(ctx, claims.userId, settings) };
    }),
  );

  return router;
}
