import { Router } from "express";
import { changePasswordRequestSchema, deleteAccountRequestSchema } from "@game/schema/api";
import { accountStats, changePassword, deleteAccount, exportAccount } from "../services/account.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, parse, route } from "./handler.js";

/** /auth/change-password, /account/export, /account/stats, /account/delete (issue 13, account security). */
export function accountRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post(
    "/auth/change-password",
    route("Failed to change password", async (req) => {
      const claims = await authenticate(ctx, req);
      return changePassword(ctx, claims, parse(changePasswordRequestSchema, req.body));
    }),
  );

  router.get(
    "/account/export",
    route("Failed to export account data", async (req, res) => {
      const claims = await authenticate(ctx, req);
      const result = await exportAccount(ctx, claims.userId);
      res.setHeader("Content-Disposition", `attachment; filename="${result.filename}"`);
      res.setHeader("Cache-Control", "no-store");
      return result;
    }),
  );

  router.get(
    "/account/stats",
    route("Failed to load account statistics", async (req) => {
      const claims = await authenticate(ctx, req);
      return { stats: await accountStats(ctx, claims.userId) };
    }),
  );

  router.post(
    "/account/delete",
    route("Failed to delete account", async (req) => {
      const claims = await authenticate(ctx, req);
      return deleteAccount(ctx, claims, parse(deleteAccountRequestSchema, req.body));
    }),
  );

  return router;
}
