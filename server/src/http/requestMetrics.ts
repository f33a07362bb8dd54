import type http from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { GameMetrics } from "../metrics.js";

/** Route label for requests that matched no route (404s, static files): one series, not one per URL. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * The route pattern a request matched, e.g. `/api/country/:id`, never the raw URL, so the
 * number of label values stays bounded by the number of routes.
 *
 * Express keeps `req.route` after the handler ran, but `req.baseUrl` is unwound when an error
 * travels back out of the /api router to the app's error handler. Domain routers are mounted
 * on the /api router without a sub-path, so an empty base on an /api URL means "/api".
 */
export function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (!route || route.path === undefined) return UNMATCHED_ROUTE;
  const pattern = String(route.path);
  let base = req.baseUrl ?? "";
  if (base === "" && (req.originalUrl === "/api" || req.originalUrl.startsWith("/api/") || req.originalUrl.startsWith("/api?"))) base = "/api";
  return base + pattern;
}

/**
 * Records every HTTP request's duration and count by method, route pattern and status into
 * `http_request_duration_seconds` and `http_requests_total`, when its response has been sent.
 * Mount it first so the time includes body parsing and authentication.
 */
export function requestMetrics(metrics: GameMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    recordWhenFinished(metrics, req.method, () => routeLabel(req), res);
    next();
  };
}

/** Records the request's duration and count when `res` has been sent; `route` names its pattern then. */
export function recordWhenFinished(metrics: GameMetrics, method: string, route: () => string, res: http.ServerResponse): void {
  const startedAt = process.hrtime.bigint();
  res.once("finish", () => {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const labels = { method, route: route(), status: String(res.statusCode) };
    metrics.httpRequestDuration.observe(seconds, labels);
    metrics.httpRequests.inc(labels);
  });
}
