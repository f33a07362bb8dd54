import { routes } from "@game/schema/routes";
import { accountStats, changePassword, deleteAccount, exportAccount } from "../services/account.js";
import type { ServiceContext } from "../services/context.js";
import type { ApiPipeline } from "./pipeline.js";

/** /auth/change-password, /account/export, /account/stats, /account/delete (issue 13, account security). */
export function accountRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.changePassword, async (call) => changePassword(ctx, call.claims!, call.body));

  api.handle(routes.exportAccount, async (call) => {
    const result = await exportAccount(ctx, call.claims!.userId);
    call.setHeader("Content-Disposition", `attachment; filename="${result.filename}"`);
    call.setHeader("Cache-Control", "no-store");
    return result;
  });

  api.handle(routes.accountStats, async (call) => ({ stats: await accountStats(ctx, call.claims!.userId) }));
  api.handle(routes.deleteAccount, async (call) => deleteAccount(ctx, call.claims!, call.body));
}
