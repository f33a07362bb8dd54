import { matchMaker } from "@colyseus/core";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import type { Config } from "../config.js";

/**
 * Browser-facing security: which origins may call us (CORS) and the security headers of every
 * answer. Issue 15, findings 6 and 7; docs/reliability.md.
 */

/** Headers a cross-origin caller may send and methods it may use, for allow-listed origins. */
const CORS_ALLOWED_HEADERS = "Origin, X-Requested-With, Content-Type, Accept, Authorization";
const CORS_ALLOWED_METHODS = "GET,HEAD,PUT,PATCH,POST,DELETE";
/** How long a browser may cache a preflight answer, seconds. */
const CORS_MAX_AGE_SECONDS = 600;

/**
 * The CORS headers for a request's Origin: the full set for an allow-listed origin (reflected,
 * with credentials, `Vary: Origin`), only `Vary: Origin` for any other. Same-origin requests
 * need no CORS headers, so an empty allow list means same origin only.
 */
export function corsHeadersFor(origin: string | null | undefined, allowed: ReadonlySet<string>): Record<string, string> {
  if (!origin || !allowed.has(origin)) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
    "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
    Vary: "Origin",
  };
}

/**
 * Replaces Colyseus' CORS policy. @colyseus/core 0.18 answers CORS itself for every HTTP
 * request of the server, not only its matchmaking routes: router/index.mjs
 * (bindRouterToTransport) prepends a "request" listener that sets
 * `{ ...controller.DEFAULT_CORS_HEADERS, ...controller.getCorsHeaders(headers) }` on every
 * response and answers every OPTIONS with 204 and those headers; the defaults allow
 * credentials and getCorsHeaders reflects any Origin. So the policy is set where Colyseus
 * reads it: no defaults, and getCorsHeaders answering from the allow list.
 *
 * matchMaker.controller is a module singleton: one policy per process (the last server
 * started in a process sets it; production runs one server per process).
 */
export function installCorsPolicy(config: Pick<Config, "corsOrigins">): void {
  const allowed = new Set(config.corsOrigins);
  const controller = matchMaker.controller as { DEFAULT_CORS_HEADERS: Record<string, string>; getCorsHeaders(headers: Headers): Record<string, string> };
  controller.DEFAULT_CORS_HEADERS = {};
  controller.getCorsHeaders = (headers: Headers) => corsHeadersFor(headers.get("origin"), allowed);
}

/**
 * Content-Security-Policy of the built client, as strict as it passes: everything from our
 * own origin, no inline script or style, no plugins, never framed. `connect-src 'self'`
 * covers the REST API and same-origin WebSockets (CSP level 3).
 */
export function clientCspDirectives(extraConnectSources: readonly string[] = []): Record<string, string[]> {
  return {
    "default-src": ["'self'"],
    "base-uri": ["'self'"],
    "connect-src": ["'self'", ...extraConnectSources],
    "font-src": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "img-src": ["'self'", "data:"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "script-src": ["'self'"],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'"],
    "worker-src": ["'self'"],
  };
}

/**
 * helmet for the client's pages and assets: the strict CSP above, nosniff, no referrer to
 * other sites, never framed (frame-ancestors 'none' and X-Frame-Options DENY), HSTS (ignored
 * by browsers over plain http).
 */
export function clientSecurityHeaders(config: Pick<Config, "cspConnectSources">): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: clientCspDirectives(config.cspConnectSources) },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}

/**
 * The API's answers are JSON, never rendered: a minimal policy (nothing may load, never
 * framed), nosniff so no browser reads JSON as a script or page, and no referrer. Set from one
 * precomputed list: this runs on every API request, whose CPU budget is a fraction of a ms.
 */
const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
];

/** The same headers as one object, for an answer written with one writeHead (the direct path). */
export const API_SECURITY_HEADER_FIELDS: Readonly<Record<string, string>> = Object.fromEntries(API_SECURITY_HEADERS);

export function apiSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of API_SECURITY_HEADERS) res.setHeader(name, value);
  next();
}
