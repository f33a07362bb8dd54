import { createRequire } from "node:module";
import path from "node:path";
import express from "express";
import helmet from "helmet";
import { openApiDocument, routes, type AnyRoute } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { clientCspDirectives } from "./security.js";
import { Download, type ApiPipeline } from "./pipeline.js";

/** Where the reference page is served (outside /api: it is a page, not an API answer). */
export const API_REFERENCE_PATH = "/api-docs";

const DOCUMENT_INFO = {
  title: "Nation game REST API",
  version: "1",
  description:
    "Every REST call of the game, generated from the catalogue in @game/schema/routes. Answers are `{ success: true, ... }`; refusals `{ success: false, error, code }` with the status of the refusal. Signed-in calls send `Authorization: Bearer <token>` (POST /api/auth/login).",
};

/**
 * The OpenAPI document of the routes `pipeline` registered (each under its catalogue name), so
 * it describes exactly what this server answers.
 */
export function registeredApiDocument(pipeline: ApiPipeline): Record<string, unknown> {
  const registered = new Set<AnyRoute>(pipeline.entries);
  const named = Object.entries(routes as Record<string, AnyRoute>).filter(([, entry]) => registered.has(entry));
  const unnamed = pipeline.entries.filter((entry) => !named.some(([, e]) => e === entry)).map((entry, i) => [`unnamed${i}`, entry] as const);
  return openApiDocument(Object.fromEntries([...named, ...unnamed]), DOCUMENT_INFO);
}

/** GET /api/openapi.json: the document, generated once (the routes do not change while the server runs). */
export function openApiRoutes(_ctx: ServiceContext, api: ApiPipeline): void {
  let document: string | undefined;
  api.handle(routes.openApi, async () => {
    document ??= JSON.stringify(registeredApiDocument(api));
    return new Download("application/json; charset=utf-8", document);
  });
}

/** The page: swagger-ui-dist's stylesheet and bundle, served from this server (no CDN). */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${DOCUMENT_INFO.title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;
const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true });\n`;

/**
 * The human-readable reference page at /api-docs, on Express beside the client: swagger-ui
 * (a maintained viewer, the npm package swagger-ui-dist) reading /api/openapi.json. Its CSP is
 * the client's but allows inline style attributes, which the viewer sets on its elements.
 */
export function mountApiReference(app: express.Express): void {
  const dist = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...clientCspDirectives(), "style-src": ["'self'", "'unsafe-inline'"] } },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  app.get(API_REFERENCE_PATH, headers, (_req, res) => res.type("html").set("Cache-Control", "no-cache").send(PAGE));
  app.get(`${API_REFERENCE_PATH}/init.js`, headers, (_req, res) => res.type("js").set("Cache-Control", "no-cache").send(INIT));
  for (const file of ["swagger-ui.css", "swagger-ui-bundle.js"]) {
    app.get(`${API_REFERENCE_PATH}/${file}`, headers, (_req, res) => res.sendFile(path.join(dist, file), { maxAge: "1d" }));
  }
}
