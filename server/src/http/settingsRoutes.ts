import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { getSettings, updateSettings } from "../services/settings.js";
import type { ApiPipeline } from "./pipeline.js";

/** GET /settings, PUT /settings: the caller's own settings only (no id in the path). */
export function settingsRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.settings, async (call) => ({ data: await getSettings(ctx, call.claims!.userId) }));
  api.handle(routes.saveSettings, async (call) => ({ data: await updateSettings(ctx, call.claims!.userId, call.body) }));
}
