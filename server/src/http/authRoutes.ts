import { routes } from "@game/schema/routes";
import { completeTutorial, currentUser, login, logout, registerAccount } from "../services/accounts.js";
import type { ServiceContext } from "../services/context.js";
import type { ApiPipeline } from "./pipeline.js";

/** /auth/register, /auth/login, /auth/logout, /user/me, /user/tutorial-complete */
export function authRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.register, async (call) => registerAccount(ctx, call.body, call.ip));
  api.handle(routes.login, async (call) => login(ctx, call.body, call.ip));
  api.handle(routes.logout, async (call) => {
    await logout(ctx, call.claims!);
    return { message: "Logged out" };
  });
  api.handle(routes.me, async (call) => ({ user: await currentUser(ctx, call.claims!.userId) }));
  api.handle(routes.tutorialComplete, async (call) => ({ user: await completeTutorial(ctx, call.claims!.userId) }));
}
