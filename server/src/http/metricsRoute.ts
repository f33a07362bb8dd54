import crypto from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Express, NextFunction, Request, Response } from "express";
import type { Config } from "../config.js";
import type { GameMetrics } from "../metrics.js";
import { requestMetrics } from "./requestMetrics.js";

/** Path of the Prometheus endpoint, outside /api so API clients never see it. */
export const METRICS_PATH = "/metrics";

/** Prometheus text exposition format 0.0.4. */
const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Whether GET /metrics answers at all: public (loopback load tests) or behind an operator token. */
export function metricsEnabled(config: Pick<Config, "metricsPublic" | "metricsToken">): boolean {
  return config.metricsPublic || Boolean(config.metricsToken);
}

/** Constant-time comparison of the presented bearer token with the operator's. */
function tokenMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = crypto.createHash("sha256").update(match[1]!.trim()).digest();
  const wanted = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(given, wanted);
}

/**
 * GET /metrics. Disabled (404, as if absent) unless `metricsPublic` or `metricsToken` is set;
 * with only a token, the request must carry `Authorization: Bearer <token>` (401 otherwise).
 */
export function metricsHandler(config: Pick<Config, "metricsPublic" | "metricsToken">, metrics: GameMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!metricsEnabled(config)) {
      res.status(404).type("text").send("Not found");
      return;
    }
    if (!config.metricsPublic && !tokenMatches(req.headers.authorization, config.metricsToken!)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text").send("Unauthorized");
      return;
    }
    metrics.render().then((text) => res.status(200).set("Content-Type", PROMETHEUS_CONTENT_TYPE).set("Cache-Control", "no-store").send(text), next);
  };
}

/**
 * Mounts request timing (first, so it covers body parsing and auth) and GET /metrics on the
 * app. Pass as (or call from) `AppExtras.beforeApi`.
 */
export function mountMetrics(app: Express, config: Config, metrics: GameMetrics): void {
  app.use(requestMetrics(metrics));
  app.get(METRICS_PATH, metricsHandler(config, metrics));
}

/** Window over which the event-loop delay gauges are computed, ms. */
const EVENT_LOOP_WINDOW_MS = 5_000;

/**
 * Event-loop delay gauges (p50, p99, max over the last completed ~5 s window, seconds; the
 * window in progress until one has completed): the first sign that one process is saturated,
 * before latency histograms show it. Returns a stop function.
 */
export function monitorEventLoop(metrics: GameMetrics): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last: { p50: number; p99: number; max: number } | undefined;
  // nanoseconds -> seconds; an empty histogram reports 0
  const read = () => (histogram.count > 0 ? { p50: histogram.percentile(50) / 1e9, p99: histogram.percentile(99) / 1e9, max: histogram.max / 1e9 } : { p50: 0, p99: 0, max: 0 });
  const timer = setInterval(() => {
    last = read();
    histogram.reset();
  }, EVENT_LOOP_WINDOW_MS);
  timer.unref();
  const current = () => last ?? read();
  metrics.addGauge("nodejs_eventloop_delay_p50_seconds", "Event-loop delay median over the last 5 s window", () => current().p50);
  metrics.addGauge("nodejs_eventloop_delay_p99_seconds", "Event-loop delay p99 over the last 5 s window", () => current().p99);
  metrics.addGauge("nodejs_eventloop_delay_max_seconds", "Event-loop delay max over the last 5 s window", () => current().max);
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
