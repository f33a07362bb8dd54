import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { adminEndSeason, adminLog, adminStartSeason, adminStatus, listUsers, postAnnouncement, suspendUser, unsuspendUser, viewCountry } from "../services/admin.js";
import type { ApiPipeline } from "./pipeline.js";
import { listAiCountries, setAiPaused } from "../services/ai.js";

/**
 * /admin/*: every entry but /admin/me asks for an administrator (auth "admin"): the pipeline
 * authenticates, then checks the role (403 otherwise) before anything is parsed, read or
 * changed. No route grants the role.
 */
export function adminRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.adminMe, async (call) => ({ data: await adminStatus(ctx, call.claims!.userId) }));
  api.handle(routes.adminUsers, async (call) => ({ data: await listUsers(ctx, call.claims!.userId, call.query.search) }));
  api.handle(routes.adminLog, async (call) => ({ data: await adminLog(ctx, call.claims!.userId) }));
  api.handle(routes.adminCountry, async (call) => ({ data: await viewCountry(ctx, call.claims!.userId, call.params.id) }));
  api.handle(routes.suspendUser, async (call) => ({ data: await suspendUser(ctx, call.claims!.userId, call.params.id, call.body.reason) }));
  api.handle(routes.unsuspendUser, async (call) => ({ data: await unsuspendUser(ctx, call.claims!.userId, call.params.id) }));
  api.handle(routes.announce, async (call) => ({ data: await postAnnouncement(ctx, call.claims!.userId, call.body.message) }));
  api.handle(routes.endSeason, async (call) => ({ data: await adminEndSeason(ctx, call.claims!.userId, call.body.startNext, call.body.seasonId) }));
  api.handle(routes.startSeason, async (call) => ({ data: await adminStartSeason(ctx, call.claims!.userId) }));
  api.handle(routes.adminAi, async (call) => ({ data: await listAiCountries(ctx, call.claims!.userId) }));
  api.handle(routes.pauseAi, async (call) => ({ data: await setAiPaused(ctx, call.claims!.userId, call.params.id, call.body.paused) }));
}
