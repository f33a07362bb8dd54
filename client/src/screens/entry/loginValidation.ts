import type { loginRequestSchema } from "@game/schema/api";

type LoginSchema = typeof loginRequestSchema;
let loading: Promise<LoginSchema> | null = null;

/**
 * The login form's validator, the same zod schema the server parses with, loaded on the first
 * keystroke or submit rather than with the page: zod and the request schemas are most of a
 * sign-in page's JavaScript otherwise (issue 30, "Fast first load").
 */
export function loadLoginSchema(): Promise<LoginSchema> {
  loading ??= import("../../zodConfig").then(() => import("@game/schema/api")).then((m) => m.loginRequestSchema);
  return loading;
}
