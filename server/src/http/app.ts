import fs from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type Response } from "express";
import { API_ERROR_CODES, type ApiFailure } from "@game/schema/api";
import compression from "compression";
import type { Config } from "../config.js";
import type { ServiceContext } from "../services/context.js";
import { failureAnswer } from "./answers.js";
import { ApiPipeline } from "./pipeline.js";
import { authRoutes } from "./authRoutes.js";
import { countryRoutes } from "./countryRoutes.js";
import { economyRoutes } from "./economyRoutes.js";
import { chatRoutes } from "./chatRoutes.js";
import { seasonRoutes } from "./seasonRoutes.js";
import { rankingRoutes } from "./rankingRoutes.js";
import { allianceRoutes } from "./allianceRoutes.js";
import { diplomacyRoutes } from "./diplomacyRoutes.js";
import { accountRoutes } from "./accountRoutes.js";
import { settingsRoutes } from "./settingsRoutes.js";
import { adminRoutes } from "./adminRoutes.js";
import { militaryRoutes } from "./militaryRoutes.js";
import { newsRoutes } from "./newsRoutes.js";
import { apiSecurityHeaders, clientSecurityHeaders } from "./security.js";
import { marketRoutes } from "./marketRoutes.js";
import { espionageRoutes } from "./espionageRoutes.js";
import { manageRoutes } from "./manageRoutes.js";
import { mountApiReference, openApiRoutes } from "./apiDocs.js";

/**
 * A domain's routes under /api: each registers its catalogue entries' handlers on the request
 * pipeline (pipeline.ts). Each domain adds its factory to API_ROUTERS.
 */
export type RouterFactory = (ctx: ServiceContext, api: ApiPipeline) => void;

export const API_ROUTERS: RouterFactory[] = [
  authRoutes,
  countryRoutes,
  economyRoutes,
  chatRoutes,
  seasonRoutes,
  rankingRoutes,
  newsRoutes,
  marketRoutes,
  militaryRoutes,
  allianceRoutes,
  diplomacyRoutes,
  espionageRoutes,
  accountRoutes,
  manageRoutes,
  settingsRoutes,
  adminRoutes,
  openApiRoutes,
];

/** Extra routers and middleware wired by main (health, metrics) before the /api 404. */
export interface AppExtras {
  routers?: RouterFactory[];
  beforeApi?: (app: express.Express) => void;
}

/**
 * The Express app: JSON-only API under /api with the `{ success, ... }` envelope, then the
 * built client (if present) for every other path. `pipeline` answers the catalogue's routes
 * without Express (installMatchmaking hands it every request under /api first).
 */
export function createApp(ctx: ServiceContext, extras: AppExtras = {}): { app: express.Express; pipeline: ApiPipeline } {
  const pipeline = new ApiPipeline(ctx, ctx.config.checkAnswers);
  const app = express();
  app.disable("x-powered-by");
  // No ETag hashing of every JSON answer (CPU on every request; no client revalidates API
  // answers). Static files keep the ETags serve-static gives them.
  app.set("etag", false);
  // Behind a proxy the operator sets trust proxy themselves; by default req.ip is the socket address.
  app.use(apiSecurityHeaders);
  extras.beforeApi?.(app);

  for (const factory of [...API_ROUTERS, ...(extras.routers ?? [])]) factory(ctx, pipeline);
  // What reaches Express under /api matched no catalogue entry (the pipeline answers those first).
  const api = express.Router();
  api.use((req, res) => {
    fail(res, 404, `Unknown API route: ${req.method} ${req.path}`, API_ERROR_CODES.unknownRoute);
  });
  app.use("/api", api);
  mountApiReference(app);

  serveClient(app, ctx.config);
  app.use(errorHandler(ctx));
  return { app, pipeline };
}

/** Vite's output folder of content-hashed files: a changed file gets a new name. */
const HASHED_ASSETS = "assets";
/** Text files worth compressing are larger than this (bytes). */
const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * The built client: compressed (brotli or gzip, as the browser accepts), content-hashed
 * assets cached for a year as immutable, everything else (index.html, the SPA shell for every
 * other GET) revalidated on every load, source maps not served unless SERVE_SOURCE_MAPS, and
 * helmet's strict CSP on all of it.
 */
function serveClient(app: express.Express, config: Config): void {
  const clientDir = config.clientDir;
  const index = path.join(clientDir, "index.html");
  if (!fs.existsSync(index)) {
    // An explicit root route also keeps Colyseus from answering "/" with its banner.
    app.get("/", (_req, res) => res.type("text").send("API running. Build the client (npm run build) to play in the browser."));
    return;
  }
  const pageHeaders = [clientSecurityHeaders(config), compression({ threshold: COMPRESS_THRESHOLD_BYTES })];
  const sendIndex = (_req: Request, res: Response) => res.sendFile(index, { cacheControl: false, headers: { "Cache-Control": "no-cache" } });
  const notFound = (_req: Request, res: Response) => res.status(404).type("text").send("Not found");
  const sourceMapHeader = (res: Response, file: string) => {
    if (config.serveSourceMaps && file.endsWith(".js") && fs.existsSync(`${file}.map`)) res.setHeader("SourceMap", `${path.basename(file)}.map`);
  };

  app.get("/", ...pageHeaders, sendIndex);
  // Vite builds hidden source maps (no sourceMappingURL comment); they stay private unless configured.
  if (!config.serveSourceMaps) app.get(/\.map$/, notFound);
  app.use(
    `/${HASHED_ASSETS}`,
    ...pageHeaders,
    express.static(path.join(clientDir, HASHED_ASSETS), { index: false, immutable: true, maxAge: "365d", setHeaders: sourceMapHeader }),
    notFound, // a missing script is a 404, not the HTML shell
  );
  const revalidate = (res: Response, file: string) => {
    res.setHeader("Cache-Control", "no-cache");
    sourceMapHeader(res, file);
  };
  app.use(...pageHeaders, express.static(clientDir, { index: false, cacheControl: false, setHeaders: revalidate }));
  // The client switches views internally; every other GET gets the shell.
  app.get(/^(?!\/api\/).*/, ...pageHeaders, sendIndex);
}

/** Answers the failure envelope: the message for people and the code for programs. */
function fail(res: Response, status: number, error: string, code: string): void {
  const body: ApiFailure = { success: false, error, code };
  res.status(status).json(body);
}

function errorHandler(ctx: ServiceContext) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return;
    const failure = failureAnswer(err);
    if (failure.log) ctx.logger[failure.log.level]({ err: failure.log.cause, method: req.method, path: req.path }, failure.log.message);
    if (failure.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(failure.retryAfterSeconds));
    res.status(failure.status).json(failure.body);
  };
}
