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

export const DOCUMENT_INFO = {
  title: "Nation game REST API",
  version: "1",
  description:
    "Every REST call of the game, generated from the catalogue in @game/schema/routes. Answers are `{ success: true, ... }` (the answer column names their top-level fields; /api/openapi.json describes every field); refusals `{ success: false, error, code }` with the status of the refusal. Signed-in calls send `Authorization: Bearer <token>` (POST /api/auth/login).",
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
// Tags start folded: about 140 operations rendered at once take seconds on a busy machine.
const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true, docExpansion: "none" });\n`;

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

type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security?: unknown[];
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
  responses: Record<string, { content?: Record<string, { schema?: AnswerSchema }> }>;
  "x-refusal-codes": string[];
  "x-fallback-message": string;
  "x-hot": boolean;
  description?: string;
};

type AnswerSchema = { properties?: Record<string, unknown>; allOf?: AnswerSchema[]; anyOf?: AnswerSchema[]; oneOf?: AnswerSchema[]; $ref?: string };

/** The top-level fields of a success answer (besides `success`), from its schema's object, union or intersection parts. */
function answerFields(schema: AnswerSchema | undefined, components: Record<string, AnswerSchema>): string[] {
  if (!schema) return [];
  if (schema.$ref) return answerFields(components[schema.$ref.replace("#/components/schemas/", "")], components);
  const own = Object.keys(schema.properties ?? {}).filter((name) => name !== "success");
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((part) => answerFields(part, components));
  return [...new Set([...own, ...parts])];
}

/**
 * docs/api.md: the OpenAPI document as a page to read in the repository, one table per tag
 * (npm run docs:api writes it; a test fails when it is stale).
 */
export function renderApiMarkdown(document: Record<string, unknown>): string {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const components = ((document.components as { schemas?: Record<string, AnswerSchema> } | undefined)?.schemas ?? {}) as Record<string, AnswerSchema>;
  const byTag = new Map<string, Array<{ method: string; path: string; op: Operation }>>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method: method.toUpperCase(), path, op });
    }
  }
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const lines = [
    "# REST API",
    "",
    "Generated from the catalogue (`schema/src/routes`) by `npm run docs:api`; do not edit by hand.",
    `The same description is served as OpenAPI 3.1 at \`/api/openapi.json\` and as a reference page at \`${API_REFERENCE_PATH}\`.`,
    "",
    String((document.info as { description?: string }).description ?? ""),
    "",
    "Auth: `none` (anyone), `bearer` (a signed-in player), `admin` (an administrator). Hot routes are on the measured action path (docs/performance.md).",
    "",
  ];
  for (const [tag, operations] of [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## ${tag}`, "", "| call | name | what | auth | path and query | body | success | answer | refusal codes |", "|---|---|---|---|---|---|---|---|---|");
    for (const { method, path, op } of operations) {
      const auth = op.security ? (op.description?.startsWith("Administrators") ? "admin" : "bearer") : "none";
      const params = op.parameters.map((p) => `${p.in === "query" ? "?" : ""}${p.name}${p.required || p.in === "path" ? "" : " (optional)"}`).join(", ");
      const body = op.requestBody ? Object.keys(op.requestBody.content["application/json"].schema.properties ?? {}).join(", ") || "JSON" : "";
      const status = Object.keys(op.responses).find((code) => code !== "default") ?? "200";
      const content = op.responses[status]?.content ?? {};
      const answer = content["application/json"] ? answerFields(content["application/json"].schema, components).join(", ") : Object.keys(content).join(", ");
      const refusals = op["x-refusal-codes"].filter((code) => !code.startsWith("request/") && !code.startsWith("server/") && code !== "auth/invalid_token");
      lines.push(`| \`${method} ${path}\`${op["x-hot"] ? " (hot)" : ""} | ${op.operationId} | ${cell(op.summary)} | ${auth} | ${cell(params)} | ${cell(body)} | ${status} | ${cell(answer)} | ${refusals.map((c) => `\`${c}\``).join(" ")} |`);
    }
    lines.push("");
  }
  lines.push(
    "Every route can also answer the shared refusals: `request/invalid` (400, a parameter, query or body its schema refuses), `request/malformed_json` (400), `request/too_large` (413), `request/unsupported_media_type` (415), `auth/invalid_token` (401, signed-in routes), `server/unavailable` (503, a store away; Retry-After) and `server/error` (500, the call's fallback message).",
    "",
  );
  return lines.join("\n");
}

/** The catalogue's document as the server describes it (every catalogue entry is registered: see openapi.test.ts). */
export function catalogueApiDocument(): Record<string, unknown> {
  return openApiDocument(routes as Record<string, AnyRoute>, DOCUMENT_INFO);
}
