import { Router, type Request } from "express";
import { adminAiPauseSchema, adminAnnouncementSchema, adminCountryIdParamsSchema, adminSeasonEndSchema, adminSuspendSchema, adminUserIdParamsSchema, adminUserSearchSchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { adminEndSeason, adminLog, adminStartSeason, adminStatus, listUsers, postAnnouncement, requireAdmin, suspendUser, unsuspendUser, viewCountry } from "../services/admin.js";
import { authenticate, parse, route } from "./handler.js";
import { listAiCountries, setAiPaused } from "../services/ai.js";

/**
 * /admin/*: every route authenticates, then the service checks the administrator role
 * (403 otherwise) before anything is read or changed. No route grants the role.
 */
export function adminRoutes(ctx: ServiceContext): Router {
  const router = Router();
  /** The caller's claims once they are known to be an administrator (403 before any parsing). */
  const authenticateAdmin = async (req: Request) => {
    const claims = await authenticate(ctx, req);
    await requireAdmin(ctx, claims.userId);
    return claims;
  };

  router.get(
    "/admin/me",
    route("Failed to get admin status", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await adminStatus(ctx, claims.userId) };
    }),
  );

  router.get(
    "/admin/users",
    route("Failed to get players", async (req) => {
      const claims = await authenticateAdmin(req);
      const { search } = parse(adminUserSearchSchema, req.query);
      return { data: await listUsers(ctx, claims.userId, search) };
    }),
  );

  router.get(
    "/admin/log",
    route("Failed to get the admin log", async (req) => {
      const claims = await authenticateAdmin(req);
      return { data: await adminLog(ctx, claims.userId) };
    }),
  );

  router.get(
    "/admin/countries/:id",
    route("Failed to get country data", async (req) => {
      const claims = await authenticateAdmin(req);
      const { id } = parse(adminCountryIdParamsSchema, req.params);
      return { data: await viewCountry(ctx, claims.userId, id) };
    }),
  );

  router.post(
    "/admin/users/:id/suspend",
    route("Suspension failed", async (req) => {
      const claims = await authenticateAdmin(req);
      const { id } = parse(adminUserIdParamsSchema, req.params);
      const { reason } = parse(adminSuspendSchema, req.body);
      return { data: await suspendUser(ctx, claims.userId, id, reason) };
    }),
  );

  router.post(
    "/admin/users/:id/unsuspend",
    route("Unsuspension failed", async (req) => {
      const claims = await authenticateAdmin(req);
      const { id } = parse(adminUserIdParamsSchema, req.params);
      return { data: await unsuspendUser(ctx, claims.userId, id) };
    }),
  );

  router.post(
    "/admin/announcements",
    route("Announcement failed", async (req) => {
      const claims = await authenticateAdmin(req);
      const { message } = parse(adminAnnouncementSchema, req.body);
      return { data: await postAnnouncement(ctx, claims.userId, message) };
    }),
  );

  router.post(
    "/admin/season/end",
    route("Ending the season failed", async (req) => {
      const claims = await authenticateAdmin(req);
      const { startNext, seasonId } = parse(adminSeasonEndSchema, req.body);
      return { data: await adminEndSeason(ctx, claims.userId, startNext, seasonId) };
    }),
  );

  router.post(
    "/admin/season/start",
    route("Starting a season failed", async (req) => {
      const claims = await authenticateAdmin(req);
      return { data: await adminStartSeason(ctx, claims.userId) };
    }),
  );

  router.get(
    "/admin/ai",
    route("Failed to get AI countries", async (req) => {
      const claims = await authenticateAdmin(req);
      return { data: await listAiCountries(ctx, claims.userId) };
    }),
  );

  router.post(
    "/admin/ai/:id/pause",
    route("Pausing the AI country failed", async (req) => {
      const claims = await authenticateAdmin(req);
      const { id } = parse(adminCountryIdParamsSchema, req.params);
      const { paused } = parse(adminAiPauseSchema, req.body);
      return { data: await setAiPaused(ctx, claims.userId, id, paused) };
    }),
  );

  return router;
}
