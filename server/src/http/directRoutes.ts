import type http from "node:http";
import type { Router } from "express";
import type { ServiceContext } from "../services/context.js";
import { failureAnswer, malformedJson, sendJson, type FailureAnswer } from "./answers.js";
import { route, routeError, type ApiHandler } from "./handler.js";
import { recordWhenFinished } from "./requestMetrics.js";
import { API_SECURITY_HEADER_FIELDS } from "./security.js";

/**
 * The action path's routes, answered without Express's per-request machinery.
 *
 * Express cost the game's one server thread more than the action itself: measured on an
 * exploration, 0.42 ms of server CPU through the app against 0.23 ms for the same handler
 * called from node:http; a one-route Express app still cost 0.35 ms (the request and response
 * prototypes it swaps in, its router and res.json), and the whole app's middleware and
 * sixteen routers the rest (docs/performance.md, stop 24).
 *
 * A direct route is declared once, on its domain's router (`post`, `get`): Express serves it
 * as before, and `serve` takes the request first when it is in the plain form the direct path
 * handles. Anything else (a query string, a chunked or compressed body, another charset, a
 * body over the limit, a parameter that is not a decimal id) is left to Express, which
 * answers it as it always did, so the two paths cannot disagree on an edge case: the direct
 * one never sees it. For what it takes, it does what the app's middleware does: the API's
 * security headers (CORS is set before, in installMatchmaking), the request metrics under the
 * route's pattern, the JSON body check (`express.json({ strict: true })`), the route's
 * handler, and the failure answers of the app's error handler (answers.ts). Its answers are
 * written with one writeHead (no setHeader per header).
 */
export class DirectRoutes {
  private readonly routes: DirectRoute[] = [];

  constructor(private readonly ctx: Pick<ServiceContext, "config" | "logger" | "metrics">) {}

  /** POST `path` (under /api) with a JSON body: mounted on `router` and served directly. */
  post(router: Router, path: string, fallback: string, handler: ApiHandler): void {
    router.post(path, route(fallback, (req) => handler(req)));
    this.routes.push(directRoute("POST", path, fallback, handler));
  }

  /** GET `path` (under /api): mounted on `router` and served directly. */
  get(router: Router, path: string, fallback: string, handler: ApiHandler): void {
    router.get(path, route(fallback, (req) => handler(req)));
    this.routes.push(directRoute("GET", path, fallback, handler));
  }

  /** The patterns served directly, as the request metrics name them ("POST /api/country/:id"). */
  get labels(): string[] {
    return this.routes.map((r) => `${r.method} ${r.label}`);
  }

  /**
   * Answers the request if it is a direct route's in the plain form; false leaves it to Express.
   * `headers` (CORS) go on the answer with the API's security headers, in one writeHead.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, headers: Readonly<Record<string, string>>): boolean {
    const url = req.url ?? "";
    for (const candidate of this.routes) {
      if (candidate.method !== req.method) continue;
      const match = candidate.pattern.exec(url);
      if (!match || !this.isPlain(req)) continue;
      const params: Record<string, string> = {};
      candidate.paramNames.forEach((name, i) => (params[name] = match[i + 1]!));
      recordWhenFinished(this.ctx.metrics, candidate.method, () => candidate.label, res);
      const answerHeaders: Record<string, string | number> = Object.assign({}, headers, API_SECURITY_HEADER_FIELDS);
      this.readBody(req, (body) => {
        if (body === MALFORMED_JSON) {
          this.answerFailure(req, res, malformedJson(), answerHeaders);
          return;
        }
        candidate.handler({ headers: req.headers, params, body }).then(
          (result) => sendJson(res, 200, { success: true, ...result }, answerHeaders),
          (err: unknown) => this.answerFailure(req, res, failureAnswer(routeError(candidate.fallback, err)), answerHeaders),
        );
      });
      return true;
    }
    return false;
  }

  /**
   * A request the direct path answers exactly as Express would: no body, or a JSON body in
   * UTF-8 of a declared length within the limit, neither chunked nor compressed.
   */
  private isPlain(req: http.IncomingMessage): boolean {
    const headers = req.headers;
    if (headers["transfer-encoding"] !== undefined) return false;
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && encoding.toLowerCase() !== "identity") return false;
    const length = headers["content-length"];
    if (length === undefined) return true;
    const bytes = Number(length);
    if (bytes === 0) return true;
    return req.method === "POST" && bytes <= this.ctx.config.maxBodyBytes && isUtf8Json(headers["content-type"]);
  }

  /** The body as express.json reads it: undefined without one, MALFORMED_JSON unless an object or array. */
  private readBody(req: http.IncomingMessage, then: (body: unknown) => void): void {
    if (Number(req.headers["content-length"] ?? 0) === 0) {
      req.resume();
      then(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // An aborted request errors and never ends: there is nobody to answer.
    req.once("error", () => undefined);
    req.once("end", () => then(parseStrictJson(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"))));
  }

  private answerFailure(req: http.IncomingMessage, res: http.ServerResponse, failure: FailureAnswer, headers: Record<string, string | number>): void {
    if (failure.log) this.ctx.logger[failure.log.level]({ err: failure.log.cause, method: req.method, path: req.url }, failure.log.message);
    if (failure.retryAfterSeconds !== undefined) headers["Retry-After"] = String(failure.retryAfterSeconds);
    sendJson(res, failure.status, failure.body, headers);
  }
}

interface DirectRoute {
  method: "GET" | "POST";
  /** the pattern under /api, as Express's route and the request metrics name it */
  label: string;
  /** the whole request URL: the path with each parameter a decimal id, no query string */
  pattern: RegExp;
  paramNames: string[];
  fallback: string;
  handler: ApiHandler;
}

function directRoute(method: DirectRoute["method"], path: string, fallback: string, handler: ApiHandler): DirectRoute {
  const paramNames: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      paramNames.push(segment.slice(1));
      return "(\\d{1,15})";
    })
    .join("/");
  return { method, label: `/api${path}`, pattern: new RegExp(`^/api${source}$`), paramNames, fallback, handler };
}

/** `application/json`, with no charset or UTF-8 (express.json decodes others; the direct path leaves them to it). */
export function isUtf8Json(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [mediaType, ...parameters] = contentType.split(";");
  if (mediaType!.trim().toLowerCase() !== "application/json") return false;
  for (const parameter of parameters) {
    const [name, value] = parameter.split("=");
    if (name!.trim().toLowerCase() === "charset" && value?.trim().replace(/^"|"$/g, "").toLowerCase() !== "utf-8") return false;
  }
  return true;
}

/** What parseStrictJson gives for a body express.json would refuse as malformed. */
export const MALFORMED_JSON = Symbol("malformed JSON");
/** Whitespace JSON allows before a value. */
const LEADING_SPACE = /^[ \t\n\r]*/;

/** JSON.parse in express.json's strict mode: an object or array at the top, a UTF-8 BOM ignored. */
export function parseStrictJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return {};
  const first = body[LEADING_SPACE.exec(body)![0].length];
  if (first !== "{" && first !== "[") return MALFORMED_JSON;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return MALFORMED_JSON;
  }
}
