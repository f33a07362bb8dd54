import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { ROUTES, openApiPath } from "@game/schema/routes";
import { startTestServer, type TestServer } from "../test/harness.js";
import fs from "node:fs";
import { API_REFERENCE_PATH, catalogueApiDocument, registeredApiDocument, renderApiMarkdown } from "./apiDocs.js";

describe("GET /api/openapi.json", () => {
  let t: TestServer;
  let document: { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };

  beforeAll(async () => {
    t = await startTestServer();
    const res = await fetch(`${t.baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    document = (await res.json()) as typeof document;
  });
  afterAll(() => t.close());

  it("validates as OpenAPI 3.1", async () => {
    expect(document.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every route the server registered, and the server registered the whole catalogue", () => {
    const registered = t.server.pipeline.entries;
    expect(registered.length).toBeGreaterThan(140);
    const missing = registered.filter((entry) => !document.paths[`/api${openApiPath(entry.path)}`]?.[entry.method.toLowerCase()]).map((e) => `${e.method} ${e.path}`);
    expect(missing).toEqual([]);
    const described = Object.values(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(described).toBe(registered.length);
    expect(ROUTES.filter((entry) => !registered.includes(entry)).map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  it("the explore operation carries its body schema, its refusal codes and the bearer requirement", () => {
    const explore = document.paths["/api/exploration/explore"]!.post as unknown as Record<string, any>;
    expect(explore.operationId).toBe("explore");
    expect(explore.requestBody.content["application/json"].schema.properties).toHaveProperty("turnsToSpend");
    expect(explore["x-refusal-codes"]).toEqual(expect.arrayContaining(["exploration/insufficient_funds", "auth/invalid_token"]));
    expect(explore.security).toEqual([{ bearer: [] }]);
    const country = document.paths["/api/country/{id}"]!.get as unknown as Record<string, any>;
    expect(JSON.stringify(country.responses["200"])).toContain("#/components/schemas/OwnCountry");
    const components = (document as unknown as { components: { schemas: Record<string, { properties: object }> } }).components.schemas;
    expect(components.OwnCountry!.properties).toHaveProperty("protection_status");
    expect(components.OwnCountry!.properties).toHaveProperty("cash");
    expect(components.PublicCountry!.properties).not.toHaveProperty("cash");
  });

  it("docs/api.md is the document as written by npm run docs:api (run it after changing the catalogue)", () => {
    expect(catalogueApiDocument()).toEqual(registeredApiDocument(t.server.pipeline));
    expect(fs.readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8")).toBe(renderApiMarkdown(catalogueApiDocument()));
  });

  it("serves the reference page and its viewer from the game itself", async () => {
    const page = await fetch(`${t.baseUrl}${API_REFERENCE_PATH}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`${API_REFERENCE_PATH}/swagger-ui-bundle.js`);
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${t.baseUrl}${API_REFERENCE_PATH}/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});
