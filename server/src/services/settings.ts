import { mergeSettings, type GameSettings, type SettingsJson } from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { findSettings, saveSettings } from "../db/settings.js";
import { findUserById } from "../db/users.js";
import { notFound, tooManyRequests } from "../errors.js";

/** Saves per user per minute: a Save button, not a stream. */
const SETTINGS_SAVE_LIMIT = { name: "settings-save", points: 30, durationSeconds: 60 };

/** GET /settings: the stored document over the spec's defaults, with the account's email. */
export async function getSettings(ctx: ServiceContext, userId: number): Promise<SettingsJson> {
  const [user, stored] = await Promise.all([findUserById(ctx.db, userId), findSettings(ctx.db, userId)]);
  if (!user) throw notFound("Account no longer exists", "auth/no_user");
  return { settings: mergeSettings(stored?.settings), email: user.email, username: user.username, updatedAt: stored ? stored.updated_at.toISOString() : null };
}

/** PUT /settings: the validated document replaces the stored one. */
export async function updateSettings(ctx: ServiceContext, userId: number, settings: GameSettings): Promise<SettingsJson> {
  const refused = await ctx.limiter.define(SETTINGS_SAVE_LIMIT).tryTake(String(userId));
  if (refused) throw tooManyRequests("Too many saves, wait a minute", "settings/rate_limited", refused.retryAfterSeconds);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound("Account no longer exists", "auth/no_user");
  const updatedAt = await saveSettings(ctx.db, userId, settings);
  return { settings, email: user.email, username: user.username, updatedAt: updatedAt.toISOString() };
}
