import type http from "node:http";
import querystring from "node:querystring";
import { API_ERROR_CODES, firstIssueMessage } from "@game/schema/api";
import type { AnyRoute, RouteResult } from "@game/schema/routes";
import type { z } from "zod";
import type { ServiceContext } from "../services/context.js";
import type { TokenClaims } from "../auth/tokens.js";
import { requireAdmin } from "../services/admin.js";
import { AppError, badRequest } from "../errors.js";
import { failureAnswer, malformedJson, sendJson, type FailureAnswer } from "./answers.js";
import { authenticate, routeError, type ApiCall } from "./handler.js";
import { recordWhenFinished, UNMATCHED_ROUTE } from "./requestMetrics.js";
import { API_SECURITY_HEADER_FIELDS } from "./security.js";

/**
 * The one request pipeline of the REST API (docs/architecture.md, "One request"). Every route
 * is a catalogue entry (@game/schema/routes) registered here with its handler; a request under
 * /api goes through the same steps whichever route it is:
 *
 * 1. match: method and path to the entry (fixed paths by one map look-up, then patterns);
 * 2. the API's security headers and CORS, and the request metrics under the entry's pattern;
 * 3. the body: JSON only (415), within the limit (413), strict (an object or array at the top,
 *    400 "Malformed JSON body"), read from the socket without a framework in between;
 * 4. authentication when the entry asks for it (401 before anything is parsed or read);
 * 5. parameters, query and body parsed with the entry's schemas (400, the first issue's message);
 * 6. the handler, which returns the entry's answer without its envelope;
 * 7. one answer: `{ success: true, ...result }` with the entry's status, or the failure path
 *    (answers.ts): the refusal's status and code, a 503 for a store away, a 500 with the entry's
 *    fallback message and a log line for anything else.
 *
 * It is the direct path of the action routes (Express cost the server thread more than the
 * action itself, docs/performance.md stop 24) generalised to every route; Express serves only
 * the built client and the operator's /api/metrics.
 */
export class ApiPipeline {
  private readonly fixed = new Map<string, Registered>();
  private readonly patterns: Registered[] = [];
  private readonly registered: Registered[] = [];

  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "logger" | "metrics" | "tokens">,
    /** check every answer against its entry's response schema (tests): a mismatch answers 500 and is logged */
    private readonly checkAnswers = false,
  ) {}

  /** Registers the handler of a catalogue entry (once per entry). */
  handle<E extends AnyRoute>(entry: E, handler: NoInfer<RouteHandler<E>>): void {
    const key = `${entry.method} ${entry.path}`;
    if (this.registered.some((r) => r.entry === entry || `${r.entry.method} ${r.entry.path}` === key)) throw new Error(`${key} registered twice`);
    const route = compile(entry, handler as RouteHandler<AnyRoute>);
    this.registered.push(route);
    if (route.paramNames.length === 0) this.fixed.set(`${entry.method} ${route.label}`, route);
    else this.patterns.push(route);
  }

  /** The entries registered, in order: what the OpenAPI document must describe. */
  get entries(): AnyRoute[] {
    return this.registered.map((r) => r.entry);
  }

  /** The patterns as the request metrics name them ("POST /api/country/:id"), hot routes only. */
  get hotLabels(): string[] {
    return this.registered.filter((r) => r.entry.hot).map((r) => `${r.entry.method} ${r.label}`);
  }

  /**
   * Answers a request under /api if an entry matches it; false leaves it to Express (the
   * operator's metrics). `headers` (CORS) go on the answer with the API's security headers.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, headers: Readonly<Record<string, string>>): boolean {
    const url = req.url ?? "";
    const queryAt = url.indexOf("?");
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const match = this.match(req.method ?? "GET", path);
    if (!match) return false;
    const { route, params } = match;
    recordWhenFinished(this.ctx.metrics, route.entry.method, () => route.label, res);
    const answer: Answer = { status: route.entry.status, headers: Object.assign({}, headers, API_SECURITY_HEADER_FIELDS) };
    const refusal = this.refuseBody(req);
    if (refusal) {
      req.resume();
      this.answerFailure(req, res, refusal, answer.headers);
      return true;
    }
    this.readBody(req, (body) => {
      if (body === BODY_TOO_LARGE) {
        this.answerFailure(req, res, failureAnswer(new AppError(413, "Request body too large", API_ERROR_CODES.tooLarge)), answer.headers);
        return;
      }
      if (body === MALFORMED_JSON) {
        this.answerFailure(req, res, malformedJson(), answer.headers);
        return;
      }
      this.run(route, req, params, queryAt < 0 ? "" : url.slice(queryAt + 1), body, answer).then(
        (result) => this.answerSuccess(res, route.entry, result, answer),
        (err: unknown) => this.answerFailure(req, res, failureAnswer(routeError(route.entry.fallback, err)), answer.headers),
      );
    });
    return true;
  }

  /** The unknown-route answer for a path under /api no entry matches (Express's /api 404 gives the same). */
  static unknownRoute(method: string, path: string): FailureAnswer {
    return failureAnswer(new AppError(404, `Unknown API route: ${method} ${path}`, API_ERROR_CODES.unknownRoute));
  }

  private match(method: string, path: string): { route: Registered; params: Record<string, string> } | undefined {
    const fixed = this.fixed.get(`${method} ${path}`);
    if (fixed) return { route: fixed, params: {} };
    for (const route of this.patterns) {
      if (route.entry.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        route.paramNames.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1]!)));
      } catch {
        continue; // a malformed escape is no parameter of ours
      }
      return { route, params };
    }
    return undefined;
  }

  /** Steps 4 to 6: authenticate, parse, run the handler. */
  private async run(route: Registered, req: http.IncomingMessage, rawParams: Record<string, string>, search: string, rawBody: unknown, answer: Answer): Promise<unknown> {
    const { entry } = route;
    const call: MutableCall = {
      headers: req.headers,
      ip: req.socket.remoteAddress ?? "unknown",
      params: rawParams,
      query: undefined,
      body: rawBody,
      claims: undefined,
      setStatus: (status) => (answer.status = status),
      setHeader: (name, value) => (answer.headers[name] = value),
    };
    if (entry.auth !== "none") call.claims = await authenticate(this.ctx as ServiceContext, call);
    if (entry.auth === "admin") await requireAdmin(this.ctx as ServiceContext, call.claims!.userId);
    if (entry.params) call.params = parsePart(entry.params, rawParams);
    const rawQuery = search ? querystring.parse(search) : {};
    call.query = entry.query ? parsePart(entry.query, rawQuery) : rawQuery;
    if (entry.body) call.body = parsePart(entry.body, rawBody);
    return route.handler(call as ApiCall<AnyRoute>);
  }

  private answerSuccess(res: http.ServerResponse, entry: AnyRoute, result: unknown, answer: Answer): void {
    if (result instanceof Download) {
      answer.headers["Content-Type"] = result.contentType;
      for (const [name, value] of Object.entries(result.headers)) answer.headers[name] = value;
      answer.headers["Content-Length"] = Buffer.byteLength(result.body);
      res.writeHead(answer.status, answer.headers);
      res.end(result.body);
      return;
    }
    const body = { success: true, ...(result as object) };
    if (this.checkAnswers) {
      const checked = entry.response.safeParse(JSON.parse(JSON.stringify(body)));
      if (!checked.success) {
        const message = `${entry.method} ${entry.path}: the answer does not match its catalogue schema: ${firstIssueMessage(checked.error)} at ${checked.error.issues[0]?.path.join(".")}`;
        this.ctx.logger.error({ issues: checked.error.issues }, message);
        sendJson(res, 500, { success: false, error: message, code: API_ERROR_CODES.server }, answer.headers);
        return;
      }
    }
    sendJson(res, answer.status, body, answer.headers);
  }

  private answerFailure(req: http.IncomingMessage, res: http.ServerResponse, failure: FailureAnswer, headers: Record<string, string | number>): void {
    if (failure.log) this.ctx.logger[failure.log.level]({ err: failure.log.cause, method: req.method, path: req.url }, failure.log.message);
    if (failure.retryAfterSeconds !== undefined) headers["Retry-After"] = String(failure.retryAfterSeconds);
    sendJson(res, failure.status, failure.body, headers);
  }

  /** Step 3's refusals known from the headers alone: not JSON (415), compressed (415), declared over the limit (413). */
  private refuseBody(req: http.IncomingMessage): FailureAnswer | undefined {
    const headers = req.headers;
    const length = headers["content-length"];
    const chunked = headers["transfer-encoding"] !== undefined;
    if (!chunked && (length === undefined || Number(length) === 0)) return undefined;
    if (!isUtf8Json(headers["content-type"])) {
      return failureAnswer(new AppError(415, "Content-Type must be application/json", API_ERROR_CODES.unsupportedMediaType));
    }
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && encoding.toLowerCase() !== "identity") {
      return failureAnswer(new AppError(415, "Compressed request bodies are not accepted", API_ERROR_CODES.unsupportedMediaType));
    }
    if (length !== undefined && Number(length) > this.ctx.config.maxBodyBytes) {
      return failureAnswer(new AppError(413, "Request body too large", API_ERROR_CODES.tooLarge));
    }
    return undefined;
  }

  /** The body: undefined without one, MALFORMED_JSON unless an object or array, BODY_TOO_LARGE past the limit. */
  private readBody(req: http.IncomingMessage, then: (body: unknown) => void): void {
    if (req.headers["transfer-encoding"] === undefined && Number(req.headers["content-length"] ?? 0) === 0) {
      req.resume();
      then(undefined);
      return;
    }
    const limit = this.ctx.config.maxBodyBytes;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      bytes += chunk.length;
      if (bytes > limit) {
        done = true;
        chunks.length = 0;
        then(BODY_TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    // An aborted request errors and never ends: there is nobody to answer.
    req.once("error", () => undefined);
    req.once("end", () => {
      if (done) return;
      done = true;
      if (bytes === 0) then(undefined);
      else then(parseStrictJson(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    });
  }
}

/** A handler of a catalogue entry: the parsed request in, the answer without its envelope out (or a download). */
export type RouteHandler<E extends AnyRoute> = (call: ApiCall<E>) => Promise<RouteResult<E> | Download>;

/** A success answer that is not JSON: a CSV export, a file to save. */
export class Download {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** Registers a domain's handlers on the pipeline. */
export type RouteGroup = (ctx: ServiceContext, api: ApiPipeline) => void;

interface Answer {
  status: number;
  headers: Record<string, string | number>;
}

interface MutableCall {
  headers: http.IncomingHttpHeaders;
  ip: string;
  params: unknown;
  query: unknown;
  body: unknown;
  claims: TokenClaims | undefined;
  setStatus(status: number): void;
  setHeader(name: string, value: string): void;
}

interface Registered {
  entry: AnyRoute;
  /** the pattern as the request metrics name it ("/api/country/:id") */
  label: string;
  pattern: RegExp;
  paramNames: string[];
  handler: (call: ApiCall<AnyRoute>) => Promise<unknown>;
}

function compile(entry: AnyRoute, handler: RouteHandler<AnyRoute>): Registered {
  const paramNames: string[] = [];
  const source = entry.path
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      paramNames.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { entry, label: `/api${entry.path}`, pattern: new RegExp(`^/api${source}$`), paramNames, handler };
}

/** A request part parsed with its schema; a missing one is `{}` (its defaults), a refusal 400 with the first issue. */
function parsePart<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/** `application/json`, with no charset or UTF-8. */
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

/** What parseStrictJson gives for a body that is not strict JSON. */
export const MALFORMED_JSON = Symbol("malformed JSON");
const BODY_TOO_LARGE = Symbol("body too large");
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

export { UNMATCHED_ROUTE };
