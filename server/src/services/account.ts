import { ACCOUNT_MESSAGES, type AccountDeletedJson, type AccountExportJson, type AccountStatsJson, type ChangePasswordRequest, type DeleteAccountRequest } from "@game/schema/api";
import { findUserById, type UserRow } from "../db/users.js";
import { findCountryByUserId } from "../db/countries.js";
import type { Db, DbClient } from "../db/pool.js";
import { hashPassword, verifyPassword } from "../auth/passwords.js";
import type { TokenClaims } from "../auth/tokens.js";
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from "../errors.js";
import { runCountriesAction } from "./actions.js";
import { leaveAlliance } from "./alliances.js";
import type { ServiceContext } from "./context.js";

/**
 * Account security (issue 13, "Settings and account"): password change, data export and
 * account deletion. docs/architecture.md ("Account security") has the picture.
 */

/** Password re-entries (change, deletion) per user per 15 minutes: a stolen session cannot guess the password. */
/** Why a strike waiting to hit a country that deleted its account failed (the attacker reads it in its strike list). */
export const STRIKE_TARGET_DELETED = "The target country no longer exists";

const PASSWORD_CHECK_LIMIT = { name: "account:password", points: 5, durationSeconds: 15 * 60 };

async function requireUser(ctx: ServiceContext, userId: number): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized("Account no longer exists", "auth/no_account");
  return user;
}

/**
 * Checks a re-entered password against the account (400 when wrong, never 401: the session
 * itself is fine). The attempt is taken from the user's allowance before argon2 runs; a
 * correct password gives it back.
 */
async function checkPassword(ctx: ServiceContext, user: UserRow, password: string, wrong: string): Promise<void> {
  const limit = ctx.limiter.define(PASSWORD_CHECK_LIMIT);
  const key = String(user.id);
  const refused = await limit.tryTake(key);
  if (refused) throw tooManyRequests(ACCOUNT_MESSAGES.tooManyAttempts, "account/too_many_attempts", refused.retryAfterSeconds);
  if (!(await verifyPassword(user.password_hash, password))) throw badRequest(wrong, "account/wrong_password");
  await limit.give(key);
}

/**
 * POST /auth/change-password: the current password checked, the new one stored (argon2id),
 * and every other session of the user revoked and closed (rooms in every process); the
 * session that asked keeps working.
 */
export async function changePassword(ctx: ServiceContext, claims: TokenClaims, request: ChangePasswordRequest): Promise<{ message: string }> {
  const user = await requireUser(ctx, claims.userId);
  await checkPassword(ctx, user, request.currentPassword, ACCOUNT_MESSAGES.wrongPassword);
  if (request.newPassword === request.currentPassword) throw badRequest(ACCOUNT_MESSAGES.samePassword, "account/same_password");
  const hash = await hashPassword(request.newPassword);
  await ctx.db.query("UPDATE users SET password_hash = $2 WHERE id = $1", [user.id, hash]);
  await ctx.tokens.revokeUserTokens(user.id, { exceptJti: claims.jti });
  ctx.logger.info({ userId: user.id }, "password changed; other sessions revoked");
  return { message: ACCOUNT_MESSAGES.passwordChanged };
}

/** One section of the export: a table's rows about the player (skipped when the table does not exist). */
interface ExportSection {
  section: string;
  table: string;
  /** SQL condition on alias t, with $1 = user id and $2 = country id */
  where: string;
  order?: string;
  /** columns left out (secrets) */
  omit?: readonly string[];
}

const EXPORT_SECTIONS: readonly ExportSection[] = [
  { section: "settings", table: "user_settings", where: "t.user_id = $1" },
  { section: "country", table: "countries", where: "t.user_id = $1" },
  { section: "countryOptions", table: "country_options", where: "t.country_id = $2" },
  { section: "militarySettings", table: "military_settings", where: "t.country_id = $2" },
  { section: "espionageSettings", table: "espionage_settings", where: "t.country_id = $2" },
  { section: "battleReports", table: "battles", where: "t.attacker_id = $2 OR t.defender_id = $2", order: "t.id" },
  { section: "strikes", table: "strikes", where: "t.attacker_id = $2 OR t.target_id = $2", order: "t.id" },
  { section: "wars", table: "war_declarations", where: "t.declarer_id = $2 OR t.target_id = $2", order: "t.id" },
  { section: "spyReports", table: "spy_reports", where: "t.owner_id = $2", order: "t.id" },
  { section: "turnResults", table: "turn_results", where: "t.country_id = $2", order: "t.id" },
  { section: "marketListings", table: "market_listings", where: "t.seller_id = $2", order: "t.id" },
  { section: "standingOrders", table: "standing_orders", where: "t.buyer_id = $2", order: "t.id" },
  { section: "trades", table: "market_trades", where: "t.buyer_id = $2 OR t.seller_id = $2", order: "t.id" },
  { section: "chatMessages", table: "chat_messages", where: "t.sender_user_id = $1", order: "t.id" },
  { section: "chatIgnores", table: "chat_ignores", where: "t.user_id = $1" },
  { section: "newsRead", table: "news_reads", where: "t.user_id = $1", order: "t.news_id" },
  { section: "newsReadAllBefore", table: "news_read_marks", where: "t.user_id = $1" },
  { section: "allianceMembership", table: "alliance_members", where: "t.country_id = $2" },
  { section: "allianceApplications", table: "alliance_applications", where: "t.applicant_country_id = $2", order: "t.id" },
  { section: "allianceInvitations", table: "alliance_invitations", where: "t.target_country_id = $2", order: "t.id" },
  { section: "achievements", table: "achievements", where: "t.country_id = $2" },
];

/**
 * GET /account/export: everything the game holds about the player, built by the server: the
 * account (never the password hash or token state), settings, country, reports, trades,
 * messages, news read state and alliance membership. One REPEATABLE READ snapshot.
 */
export async function exportAccount(ctx: ServiceContext, userId: number, now = new Date(ctx.clock.now())): Promise<AccountExportJson> {
  const client = await ctx.db.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const user = await findUserById(client, userId);
    if (!user) throw unauthorized("Account no longer exists", "auth/no_account");
    const country = await findCountryByUserId(client, userId);
    const countryId = country?.id ?? 0;
    const existing = await existingTables(
      client,
      EXPORT_SECTIONS.map((s) => s.table),
    );
    const sections: Record<string, unknown> = {};
    for (const s of EXPORT_SECTIONS) {
      if (!existing.has(s.table)) continue;
      const { rows } = await client.query<{ rows: unknown[] }>(
        `SELECT coalesce(jsonb_agg(to_jsonb(t)${s.order ? ` ORDER BY ${s.order}` : ""}), '[]'::jsonb) AS rows FROM ${s.table} t WHERE (${s.where}) AND $1::bigint IS NOT NULL AND $2::bigint IS NOT NULL`,
        [userId, countryId],
      );
      sections[s.section] = rows[0]!.rows;
    }
    const { rows: alliance } = await client
      .query(`SELECT a.id, a.name, a.tag, m.role, m.joined_at FROM alliance_members m JOIN alliances a ON a.id = m.alliance_id WHERE m.country_id = $1`, [countryId])
      .catch(() => ({ rows: [] as unknown[] }));
    await client.query("COMMIT");
    const date = now.toISOString().slice(0, 10);
    return {
      filename: `nation-game-export-${user.username.replace(/[^A-Za-z0-9_-]/g, "_")}-${date}.json`,
      export: {
        format: "nation-game-account-export",
        version: 1,
        exportedAt: now.toISOString(),
        account: { id: user.id, email: user.email, username: user.username, createdAt: user.created_at.toISOString(), lastLogin: user.last_login?.toISOString() ?? null },
        alliance: alliance[0] ?? null,
        ...sections,
        // a single row, not a list
        country: (sections.country as unknown[] | undefined)?.[0] ?? null,
        settings: (sections.settings as unknown[] | undefined)?.[0] ?? null,
      },
    };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function existingTables(db: Db | DbClient, tables: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>("SELECT t AS name FROM unnest($1::text[]) t WHERE to_regclass(t) IS NOT NULL", [tables]);
  return new Set(rows.map((r) => r.name));
}

/** GET /account/stats: the Account screen's statistics, from the database. */
export async function accountStats(ctx: ServiceContext, userId: number, now = new Date(ctx.clock.now())): Promise<AccountStatsJson> {
  const user = await requireUser(ctx, userId);
  const country = await findCountryByUserId(ctx.db, userId);
  const countryId = country?.id ?? 0;
  const { rows } = await ctx.db.query<{
    fought: number;
    won: number;
    trades: number;
    volume: string;
    chat: number;
    news: number;
    wars: number;
  }>(
    `SELECT
       (SELECT count(*)::int FROM battles WHERE attacker_id = $2 OR defender_id = $2) AS fought,
       (SELECT count(*)::int FROM battles WHERE (attacker_id = $2 AND outcome = 'attacker_victory') OR (defender_id = $2 AND outcome = 'defender_victory')) AS won,
       (SELECT count(*)::int FROM market_trades WHERE buyer_id = $2 OR seller_id = $2) AS trades,
       (SELECT coalesce(sum(total), 0)::text FROM market_trades WHERE buyer_id = $2 OR seller_id = $2) AS volume,
       (SELECT count(*)::int FROM chat_messages WHERE sender_user_id = $1) AS chat,
       (SELECT count(*)::int FROM news_reads WHERE user_id = $1) AS news,
       (SELECT count(*)::int FROM war_declarations WHERE declarer_id = $2 OR target_id = $2) AS wars`,
    [userId, countryId],
  );
  const r = rows[0]!;
  const { rows: alliance } = await ctx.db.query<{ id: number; name: string; tag: string; role: string }>(
    "SELECT a.id::int AS id, a.name, a.tag, m.role FROM alliance_members m JOIN alliances a ON a.id = m.alliance_id WHERE m.country_id = $1",
    [countryId],
  );
  return {
    memberSince: user.created_at.toISOString(),
    lastLogin: user.last_login?.toISOString() ?? null,
    accountAgeDays: Math.max(0, Math.floor((now.getTime() - user.created_at.getTime()) / 86_400_000)),
    country: country ? { id: country.id, name: country.name, land: Number(country.land), networth: Number(country.networth), createdAt: country.created_at.toISOString() } : null,
    battles: { fought: r.fought, won: r.won, lost: r.fought - r.won },
    trades: { count: r.trades, volume: Number(r.volume) },
    chatMessages: r.chat,
    newsRead: r.news,
    wars: r.wars,
    alliance: alliance[0] ?? null,
  };
}

/**
 * POST /account/delete: the typed confirmation (schema) and the password re-entered; then the
 * account and country leave the world:
 *
 * 1. the alliance is left with the owner rule (leaveAlliance: the owner's seat passes to the
 *    next member, or the last member's leaving disbands it);
 * 2. in one transaction with the country locked: open and expired-unreturned listings and
 *    live standing orders are cancelled, their escrow (goods, budget) belonging to the
 *    country, so it leaves the world with the country: the audit's documented sink is the
 *    country's holdings plus its escrow, nothing else moves; trades keep the
 *    counterparty's history under the names they carry, with this side's id cleared (the
 *    country's own store trades go); wars and strikes likewise (migration 024: running wars
 *    end, strikes still waiting to hit the country fail); then the user row is deleted,
 *    which removes the country and everything keyed to them (ON DELETE CASCADE), freeing
 *    the email, username and country name;
 * 3. after commit every token of the user is refused in every process and their room
 *    sessions close (TokenService.forgetUser).
 */
export async function deleteAccount(ctx: ServiceContext, claims: TokenClaims, request: DeleteAccountRequest): Promise<AccountDeletedJson> {
  const user = await requireUser(ctx, claims.userId);
  await checkPassword(ctx, user, request.password, ACCOUNT_MESSAGES.deleteWrongPassword);
  let country = await findCountryByUserId(ctx.db, user.id);
  let allianceLeft = false;
  let allianceDisbanded = false;
  if (country?.alliance_id) {
    const left = await leaveAlliance(ctx, user.id);
    allianceLeft = true;
    allianceDisbanded = left.disbanded;
    country = await findCountryByUserId(ctx.db, user.id);
  }
  let listingsCancelled = 0;
  let ordersCancelled = 0;
  try {
    if (country) {
      const { result } = await runCountriesAction(ctx, {
        name: "account_delete",
        actor: { userId: user.id, countryId: country.id },
        countryIds: [country.id],
        async step(_countries, tx) {
          const id = country!.id;
          const listings = await tx.client.query("UPDATE market_listings SET status = 'cancelled', quantity = 0, held_quantity = 0, closed_at = $2 WHERE seller_id = $1 AND (status = 'open' OR held_quantity > 0) RETURNING id", [id, tx.now]);
          const orders = await tx.client.query("UPDATE standing_orders SET status = 'cancelled', held_cash = 0, closed_at = $2 WHERE buyer_id = $1 AND (status IN ('pending', 'active', 'partial') OR held_cash > 0) RETURNING id", [
            id,
            tx.now,
          ]);
          await tx.client.query("UPDATE market_trades SET listing_id = NULL WHERE listing_id IN (SELECT id FROM market_listings WHERE seller_id = $1)", [id]);
          await tx.client.query("UPDATE market_trades SET order_id = NULL WHERE order_id IN (SELECT id FROM standing_orders WHERE buyer_id = $1)", [id]);
          await tx.client.query("DELETE FROM market_trades WHERE (buyer_id = $1 AND seller_id IS NULL) OR (seller_id = $1 AND buyer_id IS NULL)", [id]);
          await tx.client.query("UPDATE market_trades SET buyer_id = NULL WHERE buyer_id = $1", [id]);
          await tx.client.query("UPDATE market_trades SET seller_id = NULL WHERE seller_id = $1", [id]);
          await tx.client.query("UPDATE standing_orders SET renewed_from = NULL WHERE renewed_from IN (SELECT id FROM standing_orders WHERE buyer_id = $1)", [id]);
          // Wars and strikes keep the other side's history (migration 024): the rows carry this
          // country's name, its id is cleared by the delete; a running war ends now (its
          // declarer would otherwise pay for, and count, a war on nobody), and a strike still
          // waiting to hit this country fails.
          await tx.client.query(
            `UPDATE war_declarations SET
               declarer_former_name = CASE WHEN declarer_id = $1 THEN $2 ELSE declarer_former_name END,
               target_former_name = CASE WHEN target_id = $1 THEN $2 ELSE target_former_name END,
               end_reason = CASE WHEN ended_at IS NULL THEN 'country_deleted' ELSE end_reason END,
               ended_at = coalesce(ended_at, $3)
             WHERE declarer_id = $1 OR target_id = $1`,
            [id, country!.name, tx.now],
          );
          await tx.client.query(
            `UPDATE strikes SET target_former_name = $2,
               state = CASE WHEN state = 'pending' THEN 'failed' ELSE state END,
               failure = CASE WHEN state = 'pending' THEN $4 ELSE failure END,
               finished_at = CASE WHEN state = 'pending' THEN $3 ELSE finished_at END
             WHERE target_id = $1`,
            [id, country!.name, tx.now, STRIKE_TARGET_DELETED],
          );
          await tx.client.query("DELETE FROM market_listings WHERE seller_id = $1", [id]);
          await tx.client.query("DELETE FROM standing_orders WHERE buyer_id = $1", [id]);
          await tx.client.query("DELETE FROM users WHERE id = $1", [user.id]);
          return { next: new Map(), result: { listings: listings.rowCount ?? 0, orders: orders.rowCount ?? 0 } };
        },
      });
      listingsCancelled = result.listings;
      ordersCancelled = result.orders;
    } else {
      await ctx.db.query("DELETE FROM users WHERE id = $1", [user.id]);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A table added later that keeps a country without ON DELETE: refuse cleanly, keep everything.
    if ((err as { code?: string }).code === "23503") {
      ctx.logger.error({ err, userId: user.id }, "account deletion blocked by a reference");
      throw conflict("Your account cannot be deleted right now. Please try again later.", "account/delete_blocked");
    }
    throw err;
  }
  await ctx.tokens.forgetUser(user.id);
  ctx.logger.info({ userId: user.id, countryId: country?.id ?? null, listingsCancelled, ordersCancelled, allianceLeft, allianceDisbanded }, "account deleted");
  return { message: ACCOUNT_MESSAGES.accountDeleted, listingsCancelled, ordersCancelled, allianceLeft, allianceDisbanded };
}
