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

/**
 * A positive integer id in a JSON body: a JSON number, never a string, array or float
 * (`"3"`, `[3]` and `3.5` are refused with "Invalid id").
 */
export const idSchema = z.number({ error: "Invalid id" }).int("Invalid id").positive("Invalid id").max(Number.MAX_SAFE_INTEGER, "Invalid id");

/**
 * A positive integer id in a path or query parameter: ASCII digits only, then a number.
 * `"0x3"`, `" 3 "`, `"3.0"`, `"1e3"` and a repeated parameter (`?before=1&before=2`, an
 * array) are refused with "Invalid id", where a coercing schema would have read them as ids.
 * A number is taken as it is (a client validating the query it builds; Express never makes one).
 */
export const idParamSchema = z
  .union(
    [
      z
        .string()
        .regex(/^[0-9]{1,16}$/)
        .transform(Number),
      z.number(),
    ],
    { error: "Invalid id" },
  )
  .pipe(idSchema);

/**
 * A whole number in a query parameter: ASCII digits only (no sign, spaces, hex, exponent or
 * repeated parameter), then range-checked; a number as it is (a client validating the query
 * it builds). Absent: `defaultValue`.
 */
export function queryInteger(name: string, min: number, max: number, defaultValue: number) {
  const wholeNumber = `${name} must be a whole number`;
  return z
    .union(
      [
        z
          .string()
          .regex(/^[0-9]{1,9}$/)
          .transform(Number),
        z.number(),
      ],
      { error: wholeNumber },
    )
    .pipe(z.number().int(wholeNumber).min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
    .default(defaultValue);
}

/** Optional `limit` query parameter with a default and a ceiling. */
/**
 * ?playersOnly=true of the rankings: AI countries left out (issue 27). "false" (the default)
 * ranks everyone; anything else is a 400.
 */
export const playersOnlySchema = z.enum(["true", "false"], { error: "playersOnly must be true or false" }).default("false");

export function limitSchema(defaultLimit: number, maxLimit: number) {
  return queryInteger("limit", 1, maxLimit, defaultLimit);
}

export const offsetSchema = queryInteger("offset", 0, 1_000_000, 0);

/** Optional `page` query parameter (1-based), digits only. @default 1 */
export const pageSchema = queryInteger("page", 1, 10_000, 1);

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
