import { z } from "zod";
import { sharedRefusals, type AnyRoute } from "./route.js";

/**
 * The OpenAPI 3.1 description of the REST catalogue, generated from its entries: each entry's
 * parameters, query, body and answer as JSON Schema (zod's own z.toJSONSchema, draft 2020-12,
 * which OpenAPI 3.1 uses as is), its refusal codes and whether it is signed in. Every answer is
 * described field by field from its entry's response schema.
 * Served at /api/openapi.json; docs/api.md is written from it (npm run docs:api).
 */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonSchema = Record<string, unknown>;

/** The failure envelope every refusal answers. */
const failureSchema: JsonSchema = {
  type: "object",
  required: ["success", "error", "code"],
  properties: { success: { const: false }, error: { type: "string" }, code: { type: "string" } },
};

/** Named schemas (zod's `.meta({ id })`, e.g. OwnCountry) the document shares under components. */
let sharedSchemas: Record<string, JsonSchema> = {};

/** A zod schema as JSON Schema; its named parts moved to components.schemas and referred to there. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline", cycles: "ref" }) as JsonSchema;
  delete generated.$schema;
  const defs = (generated.$defs ?? {}) as Record<string, JsonSchema>;
  delete generated.$defs;
  const pointToComponents = (value: JsonSchema) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries(defs)) sharedSchemas[name] ??= pointToComponents(def);
  return pointToComponents(generated);
}

/** `/country/:id` as OpenAPI writes it: `/country/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** A path or query schema's fields as OpenAPI parameters. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, "input");
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === "path" || required.has(name), schema: property }));
}

/** The operation id of an entry: its catalogue name. */
function operation(name: string, entry: AnyRoute): JsonSchema {
  const refusals = [...new Set([...entry.refusals, ...sharedRefusals(entry)])];
  const success = entry.contentType === "application/json" ? { "application/json": { schema: jsonSchema(entry.response, "output") } } : { [entry.contentType]: { schema: { type: "string" } } };
  const op: JsonSchema = {
    operationId: name,
    summary: entry.summary,
    tags: [entry.tag],
    parameters: [...parameters(entry.params, "path"), ...parameters(entry.query, "query")],
    responses: {
      [String(entry.status)]: { description: entry.summary, content: success },
      default: {
        description: `A refusal: { success: false, error, code }. Codes: ${refusals.join(", ")}. Without the server's message the call's fallback is "${entry.fallback}".`,
        content: { "application/json": { schema: failureSchema } },
      },
    },
    "x-refusal-codes": refusals,
    "x-fallback-message": entry.fallback,
    "x-hot": entry.hot,
  };
  if (entry.body) op.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(entry.body, "input") } } };
  if (entry.auth !== "none") op.security = [{ bearer: [] }];
  if (entry.auth === "admin") op.description = "Administrators only: 403 for anyone else.";
  return op;
}

/** The document for `entries` (by catalogue name). */
export function openApiDocument(entries: Readonly<Record<string, AnyRoute>>, info: OpenApiInfo): JsonSchema {
  sharedSchemas = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const path = `/api${openApiPath(entry.path)}`;
    (paths[path] ??= {})[entry.method.toLowerCase()] = operation(name, entry);
  }
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/" }],
    paths,
    components: { schemas: sharedSchemas, securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    tags: [...new Set(Object.values(entries).map((entry) => entry.tag))].map((name) => ({ name })),
  };
}
