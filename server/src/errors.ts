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
export const tooManyRequests = (message: string, code = "request/rate_limited") => new AppError(429, message, code);
export const unavailable = (message: string, code = "server/unavailable") => new AppError(503, message, code);

/** Postgres unique violation (23505) on the named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
