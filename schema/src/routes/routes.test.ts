import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as catalogue from "./index.js";
import { ROUTES, routes, routeUrl, type AnyRoute } from "./index.js";
import { COUNTRY_FIELDS } from "../api/index.js";

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; allOf?: JsonSchema[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; additionalProperties?: JsonSchema | boolean };

/** Every property name an answer's JSON Schema describes, at any depth. */
function propertyNames(schema: JsonSchema | boolean | undefined, into = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== "object") return into;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    into.add(name);
    propertyNames(property, into);
  }
  for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) propertyNames(part, into);
  propertyNames(schema.items, into);
  propertyNames(schema.additionalProperties, into);
  return into;
}

const answerSchema = (entry: AnyRoute) => z.toJSONSchema(entry.response, { io: "output", unrepresentable: "any", reused: "inline" }) as JsonSchema;

describe("the REST catalogue", () => {
  it("names every entry once: no group's name hides another's, no method and path twice", () => {
    const groups = Object.entries(catalogue).filter(([name]) => name.endsWith("Routes")) as Array<[string, Record<string, AnyRoute>]>;
    const names = groups.flatMap(([, group]) => Object.keys(group));
    // the two entries index.ts adds itself (the OpenAPI document) are in no group
    expect(names.length + 1).toBe(Object.keys(routes).length);
    expect(new Set(names).size).toBe(names.length);
    const keys = ROUTES.map((entry) => `${entry.method} ${entry.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every path parameter has a schema field, and every params field is in the path", () => {
    for (const entry of ROUTES) {
      const inPath = [...entry.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const inSchema = entry.params instanceof z.ZodObject ? Object.keys(entry.params.shape) : [];
      expect({ route: `${entry.method} ${entry.path}`, params: inSchema.sort() }).toEqual({ route: `${entry.method} ${entry.path}`, params: inPath.sort() });
    }
  });

  it("a body only where the method carries one, and a signed-in caller wherever a country or alliance is acted on", () => {
    for (const entry of ROUTES) {
      if (entry.method === "GET") expect(entry.body, `${entry.path}`).toBeUndefined();
      if (entry.auth === "none") expect(["/auth/register", "/auth/login", "/health", "/openapi.json"]).toContain(entry.path);
    }
  });

  it("builds URLs from parameters and the query, leaving out what is not set", () => {
    expect(routeUrl(routes.buyListing, { params: { id: 12 } })).toBe("/market/listings/12/buy");
    expect(routeUrl(routes.news, { query: { category: "war", type: undefined, page: 2 } })).toBe("/news?category=war&page=2");
    expect(() => routeUrl(routes.country, {})).toThrow("parameter id missing");
  });

  it("describes every JSON answer field by field: no entry answers an unchecked object", () => {
    const unchecked = Object.entries(routes)
      .filter(([, entry]) => entry.contentType === "application/json")
      .filter(([, entry]) => [...propertyNames(answerSchema(entry))].filter((name) => name !== "success").length === 0)
      .map(([name]) => name);
    expect(unchecked).toEqual([]);
  });

  it("no answer of a public view describes another country's private numbers", () => {
    const privateColumns: readonly string[] = COUNTRY_FIELDS.filter((field) => field.view !== "public").map((field) => field.key);
    const publicViews = [
      routes.countries,
      routes.aiCountries,
      routes.allianceList,
      routes.alliance,
      routes.allianceRankings,
      routes.networthRankings,
      routes.landRankings,
      routes.militaryRankings,
      routes.populationRankings,
      routes.marketListings,
      routes.orderBook,
      routes.onlineUsers,
      routes.seasonScores,
      routes.partnerCandidates,
    ];
    for (const entry of publicViews) {
      const shown = [...propertyNames(answerSchema(entry))].filter((name) => privateColumns.includes(name));
      expect({ route: entry.path, shown }).toEqual({ route: entry.path, shown: [] });
    }
  });
});
