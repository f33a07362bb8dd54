import { Router } from "express";
import { loginRequestSchema, registerRequestSchema } from "@game/schema/api";
import { completeTutorial, currentUser, login, logout, registerAccount } from "../services/accounts.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, parse, route } from "./handler.js";

/** /auth/register, /auth/login, /auth/logout, /user/me */
export function authRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post(
    "/auth/register",
    route("Registration failed", async (req, res) => {
      const result = await registerAccount(ctx, parse(registerRequestSchema, req.body), req.ip ?? "unknown");
      res.status(201);
      return result;
    }),
  );

  router.post(
    "/auth/login",
    route("Login failed", async (req) => login(ctx, parse(loginRequestSchema, req.body), req.ip ?? "unknown")),
  );

  router.post(
    "/auth/logout",
    route("Logout failed", async (req) => {
      await logout(ctx, await authenticate(ctx, req));
      return { message: "Logged out" };
    }),
  );

  router.get(
    "/user/me",
    route("Failed to get user data", async (req) => {
      const claims = await authenticate(ctx, req);
      return { user: await currentUser(ctx, claims.userId) };
    }),
  );

  router.post(
    "/user/tutorial-complete",
    route("Failed to complete the tutorial", async (req) => {
      const claims = await authenticate(ctx, req);
      return { user: await completeTutorial(ctx, claims.userId) };
    }),
  );

  return router;
}
