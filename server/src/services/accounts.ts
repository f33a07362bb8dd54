import type { LoginRequest, RegisterRequest, UserJson } from "@game/schema/api";
import { AUTH_MESSAGES } from "@game/schema/api";
import { startingCountry } from "@game/schema/rules";
import { withTransaction, type DbClient } from "../db/pool.js";
import { findCountryByUserId, insertCountry, type CountryRow } from "../db/countries.js";
import { countryChangedEvents } from "./actions.js";
import { findUserByEmail, findUserById, insertUser, touchLastLogin, type UserRow } from "../db/users.js";
import { insertCountryNameKey, insertUsernameKey, NAME_KEY_CONSTRAINTS, takenRegistrationFields } from "../db/names.js";
import { dummyPasswordHash, hashPassword, verifyPassword } from "../auth/passwords.js";
import type { TokenClaims } from "../auth/tokens.js";
import { conflict, forbidden, isUniqueViolation, tooManyRequests, unauthorized } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { rankBoardOf } from "../db/rankBoard.js";

/** Login throttling: attempts per address, and per account from one address. */
export const LOGIN_LIMITS = {
  /** window of both limits, seconds */
  windowSeconds: 15 * 60,
  /** failed logins from one address, any account */
  perAddress: 30,
  /**
   * failed logins for one account from one address. Keyed by address too, so an attacker
   * elsewhere cannot lock the owner out of their own account.
   */
  perAccountAndAddress: 5,
} as const;

const LOGIN_ADDRESS_LIMIT = { name: "login:addr", points: LOGIN_LIMITS.perAddress, durationSeconds: LOGIN_LIMITS.windowSeconds };
const LOGIN_ACCOUNT_LIMIT = { name: "login:acct", points: LOGIN_LIMITS.perAccountAndAddress, durationSeconds: LOGIN_LIMITS.windowSeconds };
/** Registrations per address per hour: config RATE_LIMIT_REGISTER_PER_HOUR (0: unlimited). */
const registerLimit = (perHour: number) => ({ name: "register:addr", points: perHour, durationSeconds: 3600 });

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
 *
 * Cheap before expensive: the address's registration allowance is taken, then one indexed
 * query refuses a taken email, username or country name (409), and only then is the
 * password hashed (argon2id, ~50 ms of CPU). The unique indexes still decide races.
 */
export async function registerAccount(ctx: ServiceContext, request: RegisterRequest, address: string) {
  const perHour = ctx.config.rateLimitRegisterPerHour;
  const refused = perHour > 0 ? await ctx.limiter.define(registerLimit(perHour)).tryTake(address) : null;
  if (refused) {
    throw tooManyRequests(AUTH_MESSAGES.tooManyRegistrations, "auth/too_many_registrations", refused.retryAfterSeconds);
  }
  const taken = await takenRegistrationFields(ctx.db, request);
  if (taken.email) throw conflict(AUTH_MESSAGES.emailTaken, "auth/email_taken");
  if (taken.username) throw conflict(AUTH_MESSAGES.usernameTaken, "auth/username_taken");
  if (taken.countryName) throw conflict(AUTH_MESSAGES.countryNameTaken, "country/name_taken");

  const passwordHash = await hashPassword(request.password);
  const { user, country } = await withTransaction(ctx.db, async (client) => {
    try {
      return await insertAccount(ctx, client, { email: request.email, username: request.username, passwordHash, countryName: request.countryName });
    } catch (err) {
      if (isUniqueViolation(err, "users_email_key")) throw conflict(AUTH_MESSAGES.emailTaken, "auth/email_taken");
      if (isUniqueViolation(err, "users_username_key") || isUniqueViolation(err, NAME_KEY_CONSTRAINTS.username)) {
        throw conflict(AUTH_MESSAGES.usernameTaken, "auth/username_taken");
      }
      if (isUniqueViolation(err, "countries_name_key") || isUniqueViolation(err, NAME_KEY_CONSTRAINTS.country)) {
        throw conflict(AUTH_MESSAGES.countryNameTaken, "country/name_taken");
      }
      throw err;
    }
  });
  ctx.events.publishAll(countryChangedEvents(country, "registered"));
  rankBoardOf(ctx.db).forget(); // the new country is on this process's next target list
  const token = await ctx.tokens.issue(user.id);
  ctx.logger.info({ userId: user.id, countryId: country.id }, "account registered");
  return { token, user: toUserJson(user, country) };
}

/**
 * A user and its starting country with their name keys, inside the caller's transaction: what
 * a registration writes, and what an AI country's creation writes too. New-player protection
 * from the config; unique violations surface to the caller.
 */
export async function insertAccount(ctx: Pick<ServiceContext, "config" | "clock">, client: DbClient, account: { email: string; username: string; passwordHash: string; countryName: string }): Promise<{ user: UserRow; country: CountryRow }> {
  const user = await insertUser(client, { email: account.email, username: account.username, passwordHash: account.passwordHash });
  await insertUsernameKey(client, user.id, user.username);
  const country = await insertCountry(client, user.id, account.countryName, startingCountry(), {
    protectedUntil: new Date(ctx.clock.now() + ctx.config.newPlayerProtectionHours * 3_600_000),
  });
  await insertCountryNameKey(client, country.id, country.name);
  return { user, country };
}

/**
 * Logs in. The attempt is reserved before the password is verified: one point of the
 * address's and of the account-and-address's allowance each, taken atomically in the limiter,
 * so 100 parallel guesses evaluate at most `perAccountAndAddress` passwords and the rest
 * answer 429 without touching argon2. A success gives its points back (only failures count);
 * a refused attempt gives back the point it took from the other key.
 */
export async function login(ctx: ServiceContext, request: LoginRequest, address: string) {
  const email = request.email.toLowerCase();
  const byAddress = ctx.limiter.define(LOGIN_ADDRESS_LIMIT);
  const byAccount = ctx.limiter.define(LOGIN_ACCOUNT_LIMIT);
  const accountKey = `${email}:${address}`;
  const [byAddressRefused, byAccountRefused] = await Promise.all([byAddress.tryTake(address), byAccount.tryTake(accountKey)]);
  if (byAddressRefused || byAccountRefused) {
    await Promise.all([!byAddressRefused && byAddress.give(address), !byAccountRefused && byAccount.give(accountKey)]);
    const retryAfterSeconds = Math.max(byAddressRefused?.retryAfterSeconds ?? 0, byAccountRefused?.retryAfterSeconds ?? 0);
    throw tooManyRequests(AUTH_MESSAGES.tooManyAttempts, "auth/too_many_attempts", retryAfterSeconds);
  }
  const user = await findUserByEmail(ctx.db, email);
  // Verify against a dummy hash when the email is unknown so both paths take the same time.
  const valid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), request.password);
  if (!user || !valid) throw unauthorized(AUTH_MESSAGES.invalidCredentials, "auth/invalid_credentials");
  if ((user as { suspended_at?: Date | null }).suspended_at) throw forbidden("This account is suspended", "auth/suspended");
  await Promise.all([byAccount.clear(accountKey), byAddress.give(address)]);
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
