import { API_ERROR_CODES } from "@game/schema/api";

/**
 * A rule rejection or a client mistake: answered as `{ success: false, error: message, code }`
 * with `status`. Anything else thrown is a broken invariant: logged and answered 500 with the
 * route's fallback message.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    message: string,
    /** namespaced code, e.g. "auth/invalid_credentials" */
    readonly code: string = "error",
    /** seconds until trying again may succeed: sent as Retry-After (every 429 and 503 has one) */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, code: string = API_ERROR_CODES.invalidRequest) => new AppError(400, message, code);
export const unauthorized = (message = "Authentication required", code = "auth/unauthorized") => new AppError(401, message, code);
export const forbidden = (message = "You can only act on your own country", code = "auth/forbidden") => new AppError(403, message, code);
export const notFound = (message: string, code = "request/not_found") => new AppError(404, message, code);
export const conflict = (message: string, code = "request/conflict") => new AppError(409, message, code);
/** A 429: every one says when to try again (Retry-After, seconds). */
export const tooManyRequests = (message: string, code: string, retryAfterSeconds: number) => new AppError(429, message, code, retryAfterSeconds);
export const unavailable = (message: string, code = "server/unavailable", retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS) => new AppError(503, message, code, retryAfterSeconds);

/** Retry-After of a 503 (a store unavailable), seconds: a restarted store is usually back within it. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** Socket-level error codes of a store that cannot be reached. */
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** Postgres SQLSTATEs of a server going away or not accepting connections (class 08, 57P0x). */
const UNAVAILABLE_SQLSTATES = /^(08\d{3}|57P0[1-4]|53300)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection is closed|the database system is (starting up|shutting down|in recovery)|Reached the max retries per request limit|Command timed out|Stream isn't writeable|Redis connection is not ready/i;

/**
 * Whether an error says a store (Postgres, Redis) is unreachable rather than that our code is
 * wrong: answered 503 "try again shortly" instead of 500 (issue 15 drills: a restarted
 * Postgres or Redis gives 503s with the envelope, never a 500).
 */
export function isUnavailableError(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && (UNAVAILABLE_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** Postgres unique violation (23505) on the named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
