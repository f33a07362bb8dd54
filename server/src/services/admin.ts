import type { AdminLogEntryJson, AdminUserJson, OwnCountryJson } from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { findAdminUser, isAdministrator, logAdminAction, recentAdminLog, searchUsers, setSuspended, type AdminUserRow } from "../db/admin.js";
import { findCountryById, findCountryByUserId, toOwnCountryJson } from "../db/countries.js";
import { insertChatMessage } from "../db/chat.js";
import { findUserById } from "../db/users.js";
import { findActiveSeasonId } from "../db/seasons.js";
import { WORLD_TOPIC } from "../events.js";
import { conflict, forbidden, notFound } from "../errors.js";
import { toChatMessageEvent } from "./chat.js";
import { endSeason, startSeason } from "./seasonLifecycle.js";
import { publishNews } from "./news.js";

/**
 * Administration (docs/rules.md, "Administration"). The role comes from the users row
 * (`npm run admin -- grant <email>`) or ADMIN_EMAILS, never from a request; every action
 * here checks it first and is written to admin_log.
 */

/** 403 unless the user is an administrator (and not suspended). */
export async function requireAdmin(ctx: ServiceContext, userId: number): Promise<void> {
  if (!(await isAdministrator(ctx.db, userId, ctx.config.adminEmails))) throw forbidden("Administrators only", "admin/forbidden");
}

export async function adminStatus(ctx: ServiceContext, userId: number): Promise<{ isAdmin: boolean }> {
  return { isAdmin: await isAdministrator(ctx.db, userId, ctx.config.adminEmails) };
}

function toAdminUserJson(row: AdminUserRow): AdminUserJson {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    isAdmin: row.is_admin,
    suspendedAt: row.suspended_at?.toISOString() ?? null,
    countryId: row.country_id,
    countryName: row.country_name,
    createdAt: row.created_at.toISOString(),
    lastLogin: row.last_login?.toISOString() ?? null,
  };
}

export async function listUsers(ctx: ServiceContext, adminId: number, search: string): Promise<AdminUserJson[]> {
  await requireAdmin(ctx, adminId);
  return (await searchUsers(ctx.db, search, 50)).map(toAdminUserJson);
}

export async function adminLog(ctx: ServiceContext, adminId: number): Promise<AdminLogEntryJson[]> {
  await requireAdmin(ctx, adminId);
  return (await recentAdminLog(ctx.db, 50)).map((row) => ({
    id: row.id,
    adminUsername: row.admin_username ?? "(deleted)",
    action: row.action,
    targetUsername: row.target_username,
    details: row.details,
    createdAt: row.created_at.toISOString(),
  }));
}

/** Suspends a player: their tokens are refused from now on (every process), actions with them. */
export async function suspendUser(ctx: ServiceContext, adminId: number, userId: number, reason: string): Promise<AdminUserJson> {
  await requireAdmin(ctx, adminId);
  if (userId === adminId) throw conflict("You cannot suspend yourself", "admin/self");
  const user = await findAdminUser(ctx.db, userId);
  if (!user) throw notFound("Player not found", "admin/no_user");
  if (!(await setSuspended(ctx.db, userId, true))) throw conflict("The player is suspended already", "admin/already_suspended");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "suspend", targetUserId: userId, details: { reason } });
  await ctx.tokens.forgetUser(userId);
  return toAdminUserJson((await findAdminUser(ctx.db, userId))!);
}

export async function unsuspendUser(ctx: ServiceContext, adminId: number, userId: number): Promise<AdminUserJson> {
  await requireAdmin(ctx, adminId);
  const user = await findAdminUser(ctx.db, userId);
  if (!user) throw notFound("Player not found", "admin/no_user");
  if (!(await setSuspended(ctx.db, userId, false))) throw conflict("The player is not suspended", "admin/not_suspended");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "unsuspend", targetUserId: userId });
  await ctx.tokens.forgetUser(userId);
  return toAdminUserJson((await findAdminUser(ctx.db, userId))!);
}

/** Every number of a player's country, as its owner sees it (logged: it is a privacy matter). */
export async function viewCountry(ctx: ServiceContext, adminId: number, countryId: number): Promise<{ country: OwnCountryJson; user: AdminUserJson | null }> {
  await requireAdmin(ctx, adminId);
  const country = await findCountryById(ctx.db, countryId);
  if (!country) throw notFound("Country not found", "admin/no_country");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "view_country", targetUserId: country.user_id, details: { countryId } });
  const user = country.user_id ? await findAdminUser(ctx.db, country.user_id) : undefined;
  return { country: toOwnCountryJson(country), user: user ? toAdminUserJson(user) : null };
}

/** Posts an announcement to the general channel of global chat (type announcement, role admin) and the news. */
export async function postAnnouncement(ctx: ServiceContext, adminId: number, message: string): Promise<{ id: string }> {
  await requireAdmin(ctx, adminId);
  const [admin, adminCountry] = await Promise.all([findUserById(ctx.db, adminId), findCountryByUserId(ctx.db, adminId)]);
  const row = await insertChatMessage(ctx.db, {
    channel: "general",
    allianceScope: 0,
    type: "announcement",
    senderUserId: adminId,
    // an administrator without a country posts without one (the column is nullable)
    senderCountryId: adminCountry?.id ?? (null as unknown as number),
    senderName: admin?.username ?? "Administrator",
    senderRole: "admin",
    allianceTag: "",
    content: message,
    mentions: [],
  });
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "announcement", details: { message, chatMessageId: row.id } });
  ctx.events.publish(WORLD_TOPIC, { type: "chatMessage", channelId: "general", message: toChatMessageEvent(row) });
  await publishNews(ctx, { kind: "system_announcement", params: { title: "Announcement", message, priority: "high" } });
  return { id: String(row.id) };
}

/**
 * Ends a season by its id: `seasonId`, or the season active when the request arrives. The id
 * makes the request idempotent: a repeat, or a parallel request that lost the race, finds that
 * season ended and answers 409 instead of ending the season the first one started (three
 * parallel requests used to end three seasons and reset the world three times).
 */
export async function adminEndSeason(ctx: ServiceContext, adminId: number, startNext: boolean, seasonId?: number): Promise<{ ended: string; started: string | null }> {
  await requireAdmin(ctx, adminId);
  const target = seasonId ?? (await findActiveSeasonId(ctx.db));
  if (target === undefined) throw conflict("No season is running", "season/none_active");
  const change = await endSeason(ctx, { now: ctx.clock.now(), startNext, onlyIfDue: false, seasonId: target });
  if (!change.ended) throw conflict("That season has ended already", "season/already_ended");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "end_season", details: { season: change.ended.name, archived: change.archived, started: change.started?.name ?? null } });
  return { ended: change.ended.name, started: change.started?.name ?? null };
}

export async function adminStartSeason(ctx: ServiceContext, adminId: number): Promise<{ started: string }> {
  await requireAdmin(ctx, adminId);
  const started = await startSeason(ctx, ctx.clock.now());
  if (!started) throw conflict("A season is running already; end it first", "season/already_active");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: "start_season", details: { season: started.name } });
  return { started: started.name };
}
