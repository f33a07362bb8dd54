import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as catalogue from "./index.js";
import { ROUTES, routes, routeUrl, type AnyRoute } from "./index.js";

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
});
