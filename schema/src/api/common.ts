import { z } from "zod";

/**
 * The error envelope every failed call answers with: the message for people (the spec's where
 * it gives one) and the namespaced code of the rule or check that refused
 * ("exploration/insufficient_funds", "request/invalid"), for programs.
 */
export interface ApiFailure {
  success: false;
  error: string;
  code: string;
}

/**
 * Codes of the failures no game rule decides: the request itself is wrong, or the server is.
 * Rule rejections carry their rule's code instead (RuleRejection.code).
 */
export const API_ERROR_CODES = {
  /** a body, query or path parameter failed its zod schema (400) */
  invalidRequest: "request/invalid",
  /** the body is not valid JSON (400) */
  malformedJson: "request/malformed_json",
  /** the body could not be read for another reason (4xx) */
  invalidBody: "request/invalid_body",
  /** the body is larger than the server accepts (413) */
  tooLarge: "request/too_large",
  /** a body that is not application/json (415) */
  unsupportedMediaType: "request/unsupported_media_type",
  /** no route under /api matches (404) */
  unknownRoute: "request/unknown_route",
  /** a missing, malformed, expired or revoked token (401) */
  invalidToken: "auth/invalid_token",
  /** a broken invariant on the server (500) */
  server: "server/error",
} as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[keyof typeof API_ERROR_CODES];
export type ApiSuccess<T extends object = object> = { success: true } & T;

/** A positive integer id, from a path parameter (string) or a JSON number. */
export const idSchema = z.coerce
  .number({ error: "Invalid id" })
  .int("Invalid id")
  .positive("Invalid id")
  .max(Number.MAX_SAFE_INTEGER, "Invalid id");

/** Optional `limit` query parameter with a default and a ceiling. */
export function limitSchema(defaultLimit: number, maxLimit: number) {
  return z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(maxLimit, `limit must be at most ${maxLimit}`)
    .default(defaultLimit);
}

export const offsetSchema = z.coerce
  .number({ error: "offset must be a number" })
  .int("offset must be a whole number")
  .min(0, "offset must be at least 0")
  .max(1_000_000, "offset must be at most 1000000")
  .default(0);

/** The first human-readable message of a failed parse, for the `{ success: false, error }` body. */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  // Unrecognised keys and wrong types are reported with the field name so the caller can fix them.
  if (issue.code === "invalid_type" && issue.path.length > 0 && /expected/i.test(issue.message)) {
    return `${issue.path.join(".")}: ${issue.message}`;
  }
  return issue.message;
}
