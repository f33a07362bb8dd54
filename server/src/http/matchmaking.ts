import type http from "node:http";
import { createAuthContext, matchMaker, ServerError } from "@colyseus/core";
import { ALLIANCE_ROOM, WORLD_ROOM } from "@game/schema/messages";
import type { Logger } from "../logger.js";
import { corsHeadersFor } from "./security.js";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "../errors.js";
import { ROOM_PROCESS_HEARTBEAT_TTL_S } from "../roomSeats.js";
import { sendJson } from "./answers.js";
import { TOKEN_BUSY_RETRY_AFTER_SECONDS, type TokenConcurrency } from "./tokenConcurrency.js";
import type { ApiPipeline } from "./pipeline.js";

/** Largest matchmaking request body (join options are a few bytes). */
export const MATCHMAKE_MAX_BODY_BYTES = 16 * 1024;
/** A matchmaking request still unanswered after this (a store down, ms) answers 503. */
export const MATCHMAKE_TIMEOUT_MS = 8_000;

/**
 * Which matchmaker methods a client may call per room: world rooms are joined with
 * joinOrCreate (or joinById, which never creates; reconnect keeps a dropped seat), never
 * created on demand, so one token cannot open a room per request (issue 15, finding 4).
 */
const METHODS_BY_ROOM: Record<string, readonly string[]> = {
  [WORLD_ROOM]: ["joinOrCreate", "joinById", "reconnect"],
  // one room per alliance (filterBy allianceId): `create` opened a room per call, each with its
  // own periodic database work (four members opened 32 rooms of one alliance, issue 28)
  [ALLIANCE_ROOM]: ["joinOrCreate", "joinById", "reconnect"],
};
const DEFAULT_METHODS = ["joinOrCreate", "create", "join", "joinById", "reconnect"];

const ROUTE = /^\/matchmake\/([A-Za-z]+)\/([A-Za-z0-9_-]+)\/?$/;

/** A refusal in the API's envelope with its HTTP status. */
class MatchmakeRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Takes the matchmaking route (`POST /matchmake/:method/:roomName`) over from Colyseus'
 * router, which answers every failure with the matchmaker's own codes as HTTP statuses
 * (520 no handler, 522 invalid room, 523 unhandled, 524 expired) and a bare `{ code, error }`:
 *
 * - the method must be allowed for the room (world and alliance rooms: no `create`, 403);
 * - client mistakes answer 4xx: unknown method or room 404, malformed body 400, a seat or
 *   reconnection that expired 410, and the room's own refusals (401, 403, 429) as they are;
 * - the service being unavailable (Redis or Postgres down, no process to host a room,
 *   shutting down, no answer within MATCHMAKE_TIMEOUT_MS) answers 503;
 * - every failure uses the API envelope `{ success: false, error, code }` (the SDK reads
 *   `error`).
 *
 * With `api`, requests under /api go straight to it (DirectApi). Everything else (WebSocket
 * upgrades, the client, other CORS preflights) still goes to the listeners Colyseus installed.
 * Call after the game server listens (its routes are bound then).
 */
export function installMatchmaking(httpServer: http.Server, logger: Logger, api?: DirectApi): void {
  const others = httpServer.listeners("request") as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  httpServer.removeAllListeners("request");
  const allowedOrigins = new Set(api?.corsOrigins ?? []);
  httpServer.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (api && isApiPath(req.url ?? "")) {
      serveApi(api, allowedOrigins, req, res);
      return;
    }
    const match = req.method === "POST" ? ROUTE.exec((req.url ?? "").split("?")[0]!) : null;
    if (!match) {
      for (const listener of others) listener.call(httpServer, req, res);
      return;
    }
    void matchmake(req, res, match[1]!, match[2]!, logger, api?.redisUnavailable);
  });
}

/**
 * The REST API, handed to Express without Colyseus' listener in between. That listener runs on
 * every request: it builds a WHATWG Headers of the request's headers to answer CORS, and looks
 * the path up in its own router (which has no /api routes) before calling Express; on the action
 * path that was about 2% of the server's CPU. The CORS answer is the same policy
 * (installCorsPolicy): allow-listed origins reflected, preflights answered 204. The request
 * pipeline (`pipeline`, the catalogue's routes) is offered the request first.
 */
export interface DirectApi {
  app: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  pipeline?: ApiPipeline;
  corsOrigins: readonly string[];
  /** per-token admission of authenticated requests (absent: none) */
  concurrency?: TokenConcurrency;
  /** true while a Redis outage is in progress (RedisOutage.active): joins answer 503 at once */
  redisUnavailable?: () => boolean;
}

function isApiPath(url: string): boolean {
  return url.startsWith("/api/") || url === "/api" || url.startsWith("/api?");
}

function serveApi(api: DirectApi, allowedOrigins: ReadonlySet<string>, req: http.IncomingMessage, res: http.ServerResponse): void {
  const cors = corsHeadersFor(req.headers.origin, allowedOrigins);
  if (req.method === "OPTIONS") {
    res.writeHead(204, cors).end();
    return;
  }
  const token = req.headers.authorization;
  const serve = () => {
    if (api.pipeline?.serve(req, res, cors)) return;
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    api.app(req, res);
  };
  if (!api.concurrency || !token) {
    serve();
    return;
  }
  if (!api.concurrency.admit(token, res, serve)) {
    sendJson(res, 429, { success: false, error: "Too many requests at once with this session, wait for the ones in flight", code: "request/too_many_in_flight" }, { ...cors, "Retry-After": String(TOKEN_BUSY_RETRY_AFTER_SECONDS) });
  }
}

/** Methods whose path names a room id (joinById, reconnect) rather than a room name. */
const BY_ROOM_ID = ["joinById", "reconnect"];

async function matchmake(req: http.IncomingMessage, res: http.ServerResponse, method: string, roomName: string, logger: Logger, redisUnavailable?: () => boolean): Promise<void> {
  const cors = { ...matchMaker.controller.DEFAULT_CORS_HEADERS, ...matchMaker.controller.getCorsHeaders(new Headers(req.headers as Record<string, string>)) };
  for (const [key, value] of Object.entries(cors)) res.setHeader(key, value as string);
  try {
    if (matchMaker.state === matchMaker.MatchMakerState.SHUTTING_DOWN) throw new MatchmakeRefusal(503, "The server is shutting down", "service/unavailable");
    // the matchmaker and the seats live on Redis: during an outage a join would wait for
    // MATCHMAKE_TIMEOUT_MS and fail anyway; it is refused at once (issue 28)
    if (redisUnavailable?.()) throw new MatchmakeRefusal(503, "Service temporarily unavailable, try again shortly", "service/unavailable");
    if (!DEFAULT_METHODS.includes(method)) throw new MatchmakeRefusal(404, `Unknown matchmaking method "${method}"`, "room/unknown_method");
    if (!BY_ROOM_ID.includes(method)) {
      if (!hasHandler(roomName)) throw new MatchmakeRefusal(404, `Unknown room "${roomName}"`, "room/unknown_room");
      const allowed = METHODS_BY_ROOM[roomName] ?? DEFAULT_METHODS;
      if (!allowed.includes(method)) throw new MatchmakeRefusal(403, `Rooms of "${roomName}" are joined with joinOrCreate`, "room/method_forbidden");
    }
    const options = await readOptions(req);
    const auth = createAuthContext({ headers: req.headers as Record<string, string>, remoteAddress: req.socket.remoteAddress, req: req as never });
    const reservation = await withTimeout(matchMaker.controller.invokeMethod(method, roomName, options, auth));
    send(res, 200, reservation);
  } catch (err) {
    const refusal = toRefusal(err);
    // during a Redis outage its one log line says it all (RedisOutage), not one per join
    if (refusal.status >= 500 && !redisUnavailable?.()) logger.warn({ err, method, roomName, status: refusal.status }, "matchmaking unavailable");
    const retryAfter = retryAfterSecondsOf(refusal.status);
    send(res, refusal.status, { success: false, error: refusal.message, code: refusal.code }, retryAfter === undefined ? {} : { "retry-after": String(retryAfter) });
  }
}

function hasHandler(roomName: string): boolean {
  try {
    return Boolean(matchMaker.getHandler(roomName));
  } catch {
    return false;
  }
}

/** Maps a matchmaker failure to what the client is told. */
export function toRefusal(err: unknown): MatchmakeRefusal {
  if (err instanceof MatchmakeRefusal) return err;
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code === "number" && code >= 400 && code < 500) return new MatchmakeRefusal(code, message, statusCode(code));
  switch (code) {
    case 520: // no handler: unknown room type
    case 521: // no room matches the criteria
    case 522: // no such room id
      return new MatchmakeRefusal(404, message.includes("locked") ? "Room is full or closed" : "Room not found", "room/not_found");
    case 524: // seat or reconnection expired
      return new MatchmakeRefusal(410, "Session expired: join again", "room/expired");
    default:
      break;
  }
  if (/reconnectionToken/.test(message)) return new MatchmakeRefusal(400, "reconnectionToken must be provided for reconnection", "room/invalid");
  return new MatchmakeRefusal(503, "Service temporarily unavailable, try again shortly", "service/unavailable");
}

function statusCode(status: number): string {
  if (status === 401) return "auth/unauthorized";
  if (status === 403) return "room/forbidden";
  if (status === 429) return "room/too_many_sessions";
  return "room/invalid";
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServerError(503, "matchmaking timed out")), MATCHMAKE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function readOptions(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MATCHMAKE_MAX_BODY_BYTES) throw new MatchmakeRefusal(413, "Request body too large", "request/too_large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MatchmakeRefusal(400, "Malformed request body", "request/invalid_json");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new MatchmakeRefusal(400, "Join options must be an object", "request/invalid");
  return parsed as Record<string, unknown>;
}

/**
 * Retry-After of a refused join, seconds: a 429 (the user's session cap) until the seats of a
 * dead process are freed (its heartbeat's time-to-live; a closed tab frees its seat at once),
 * a 503 as every other 503.
 */
function retryAfterSecondsOf(status: number): number | undefined {
  if (status === 429) return ROOM_PROCESS_HEARTBEAT_TTL_S;
  if (status === 503) return UNAVAILABLE_RETRY_AFTER_SECONDS;
  return undefined;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(json), "cache-control": "no-store" });
  res.end(json);
}
