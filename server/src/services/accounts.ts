import type { LoginRequest, RegisterRequest, UserJson } from "@game/schema/api";
import { AUTH_MESSAGES } from "@game/schema/api";
import { startingCountry } from "@game/schema/rules";
import { withTransaction } from "../db/pool.js";
import { findCountryByUserId, insertCountry, type CountryRow } from "../db/countries.js";
import { countryChangedEvents } from "./actions.js";
import { findUserByEmail, findUserById, insertUser, touchLastLogin, type UserRow } from "../db/users.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../auth/passwords.js";
import type { TokenClaims } from "../auth/tokens.js";
import { conflict, isUniqueViolation, tooManyRequests, unauthorized } from "../errors.js";
import type { ServiceContext } from "./context.js";

/** Login throttling: failures per address, and per account from one address. */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  /** failed logins from one address, any account */
  perAddress: 30,
  /**
   * failed logins for one account from one address. Keyed by address too, so an attacker
   * elsewhere cannot lock the owner out of their own account.
   */
  perAccountAndAddress: 5,
} as const;

export function toUserJson(user: UserRow, country: CountryRow | undefined): UserJson {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    hasCountry: Boolean(country),
    countryId: country?.id ?? null,
    countryName: country?.name ?? null,
    government: country?.government_type ?? null,
    country: country ? { id: country.id, name: country.name, government: country.government_type } : null,
    createdAt: user.created_at.toISOString(),
    lastLogin: user.last_login?.toISOString() ?? null,
    isActive: true,
    tutorialCompleted: country?.tutorial_completed ?? false,
  };
}

/**
 * Creates the user and their country in one transaction. Starting resources and government
 * are the server's (the request's governmentType and startingResources are ignored).
 */
export async function registerAccount(ctx: ServiceContext, request: RegisterRequest) {
  const passwordHash = await hashPassword(request.password);
  const { user, country } = await withTransaction(ctx.db, async (client) => {
    try {
      const user = await insertUser(client, { email: request.email, username: request.username, passwordHash });
      const country = await insertCountry(client, user.id, request.countryName, startingCountry(), {
        protectedUntil: new Date(Date.now() + ctx.config.newPlayerProtectionHours * 3_600_000),
      });
      return { user, country };
    } catch (err) {
      if (isUniqueViolation(err, "users_email_key")) throw conflict(AUTH_MESSAGES.emailTaken, "auth/email_taken");
      if (isUniqueViolation(err, "users_username_key")) throw conflict(AUTH_MESSAGES.usernameTaken, "auth/username_taken");
      if (isUniqueViolation(err, "countries_name_key")) throw conflict(AUTH_MESSAGES.countryNameTaken, "country/name_taken");
      throw err;
    }
  });
  ctx.events.publishAll(countryChangedEvents(country, "registered"));
  const token = await ctx.tokens.issue(user.id);
  ctx.logger.info({ userId: user.id, countryId: country.id }, "account registered");
  return { token, user: toUserJson(user, country) };
}

export async function login(ctx: ServiceContext, request: LoginRequest, address: string) {
  const email = request.email.toLowerCase();
  const addressKey = `login:addr:${address}`;
  const accountKey = `login:acct:${email}:${address}`;
  const [addressFailures, accountFailures] = await Promise.all([ctx.limiter.count(addressKey), ctx.limiter.count(accountKey)]);
  if (addressFailures >= LOGIN_LIMITS.perAddress || accountFailures >= LOGIN_LIMITS.perAccountAndAddress) {
    throw tooManyRequests(AUTH_MESSAGES.tooManyAttempts, "auth/too_many_attempts");
  }
  const user = await findUserByEmail(ctx.db, email);
  // Verify against a dummy hash when the email is unknown so both paths take the same time.
  const valid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), request.password);
  if (!user || !valid) {
    await Promise.all([
      ctx.limiter.increment(addressKey, LOGIN_LIMITS.windowMs),
      ctx.limiter.increment(accountKey, LOGIN_LIMITS.windowMs),
    ]);
    throw unauthorized(AUTH_MESSAGES.invalidCredentials, "auth/invalid_credentials");
  }
  await ctx.limiter.reset(accountKey);
  await touchLastLogin(ctx.db, user.id);
  const fresh = (await findUserById(ctx.db, user.id))!;
  const country = await findCountryByUserId(ctx.db, user.id);
  const token = await ctx.tokens.issue(user.id);
  return { token, user: toUserJson(fresh, country) };
}

export async function logout(ctx: ServiceContext, claims: TokenClaims): Promise<void> {
  await ctx.tokens.revoke(claims);
}

/** Records that the player finished or skipped the tutorial, so it is not shown again. */
export async function completeTutorial(ctx: ServiceContext, userId: number): Promise<UserJson> {
  await ctx.db.query("UPDATE countries SET tutorial_completed = true WHERE user_id = $1", [userId]);
  return currentUser(ctx, userId);
}

export async function currentUser(ctx: ServiceContext, userId: number): Promise<UserJson> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized("Account no longer exists", "auth/no_account");
  return toUserJson(user, await findCountryByUserId(ctx.db, userId));
}
