import type http from "node:http";
import { API_ERROR_CODES, type ApiFailure } from "@game/schema/api";
import { AppError, isUnavailableError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../errors.js";
import { InvalidTokenError } from "../auth/tokens.js";
import { RouteFailure } from "./handler.js";

/**
 * How a failed request is answered, whichever path served it (Express's error handler or the
 * direct path): the status, the `{ success: false, error, code }` envelope, and for a failure
 * that is ours rather than the client's, what to log.
 */
export interface FailureAnswer {
  status: number;
  body: ApiFailure;
  /** Retry-After, seconds: a store is unavailable, the client may try again shortly */
  retryAfterSeconds?: number;
  log?: { level: "warn" | "error"; cause: unknown; message: string };
}

const answer = (status: number, error: string, code: string): FailureAnswer => ({ status, body: { success: false, error, code } });

/** The answer to a route's failure (routeError), a token's refusal or a body the parser refused. */
export function failureAnswer(err: unknown): FailureAnswer {
  if (err instanceof AppError) return { ...answer(err.status, err.message, err.code), retryAfterSeconds: err.retryAfterSeconds };
  if (err instanceof InvalidTokenError) return answer(401, err.message, API_ERROR_CODES.invalidToken);
  // body-parser's errors carry a status and a type.
  const bodyError = err as { type?: string; status?: number } | undefined;
  if (bodyError?.type === "entity.too.large") return answer(413, "Request body too large", API_ERROR_CODES.tooLarge);
  if (bodyError?.type === "entity.parse.failed") return malformedJson();
  if (typeof bodyError?.status === "number" && bodyError.status >= 400 && bodyError.status < 500) return answer(bodyError.status, "Invalid request body", API_ERROR_CODES.invalidBody);
  const fallback = err instanceof RouteFailure ? err.fallback : "Internal server error";
  const cause = err instanceof RouteFailure ? err.cause : err;
  if (isUnavailableError(cause)) {
    return {
      ...answer(503, "Service temporarily unavailable, try again shortly", "server/unavailable"),
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
      log: { level: "warn", cause, message: "request failed: a store is unavailable" },
    };
  }
  return { ...answer(500, fallback, API_ERROR_CODES.server), log: { level: "error", cause, message: "request failed" } };
}

/** A body that is not JSON, or (strict, as express.json) whose top level is not an object or array. */
export function malformedJson(): FailureAnswer {
  return answer(400, "Malformed JSON body", API_ERROR_CODES.malformedJson);
}

/**
 * A JSON answer as Express's res.json sends it: the same Content-Type, and its Content-Length.
 * `headers` are the answer's others, written with them in one writeHead (the object is the
 * answer's own: the two are added to it).
 */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const json = JSON.stringify(body);
  headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = Buffer.byteLength(json);
  res.writeHead(status, headers);
  res.end(json);
}
