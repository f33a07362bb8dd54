import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import pino from "pino";
import { defineRoute, envelope, ROUTES } from "@game/schema/routes";
import { loadConfig } from "../config.js";
import { GameMetrics } from "../metrics.js";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { ApiPipeline, isUtf8Json, MALFORMED_JSON, parseStrictJson } from "./pipeline.js";

/** A raw HTTP request: status, headers and the parsed JSON answer (or its text). */
function raw(baseUrl: string, method: string, urlPath: string, headers: Record<string, string> = {}, body?: string | Buffer, chunked = false) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request(`${baseUrl}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on("error", reject);
    if (chunked && body !== undefined) {
      const text = body.toString();
      req.write(text.slice(0, 5));
      req.end(text.slice(5));
    } else {
      req.end(body);
    }
  });
}

/** The headers every answer of the API carries (CORS, the API's security headers, the JSON type). */
const COMPARED_HEADERS = ["content-type", "content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-resource-policy", "access-control-allow-origin", "access-control-allow-credentials", "vary"];
const pick = (headers: http.IncomingHttpHeaders) => Object.fromEntries(COMPARED_HEADERS.map((h) => [h, headers[h]]));

const FRIEND = "https://play.example";

describe("the body as the pipeline reads it (express.json's strict mode)", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ['Application/JSON; charset="UTF-8"', true],
    ["application/json; charset=latin1", false],
    ["text/plain", false],
    ["application/vnd.api+json", false],
    [undefined, false],
  ])("content type %s is accepted: %s", (type, expected) => {
    expect(isUtf8Json(type)).toBe(expected);
  });

  it("parses objects and arrays, refuses other top-level values as express.json's strict mode does", () => {
    expect(parseStrictJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseStrictJson(" \n\t[1, 2]")).toEqual([1, 2]);
    expect(parseStrictJson('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(parseStrictJson("")).toEqual({});
    expect(parseStrictJson("123")).toBe(MALFORMED_JSON);
    expect(parseStrictJson('"text"')).toBe(MALFORMED_JSON);
    expect(parseStrictJson("{bad")).toBe(MALFORMED_JSON);
    expect(parseStrictJson("   ")).toBe(MALFORMED_JSON);
  });
});

describe("the request pipeline", () => {
  let t: TestServer;
  let player: Awaited<ReturnType<typeof registerPlayer>>;
  let other: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    t = await startTestServer({ corsOrigins: [FRIEND] });
    player = await registerPlayer(t, "pipe");
    other = await registerPlayer(t, "pipe");
  });
  afterAll(() => t.close());

  it("registers every catalogue entry, the hot routes among them", () => {
    expect(t.server.pipeline.entries).toEqual(expect.arrayContaining([...ROUTES]));
    expect(t.server.pipeline.hotLabels).toEqual(
      expect.arrayContaining(["POST /api/exploration/explore", "POST /api/buildings/construct", "POST /api/market/listings/:id/buy", "POST /api/attack/launch", "POST /api/spy/execute", "GET /api/country/:id"]),
    );
  });

  it("every hot POST route refuses bad requests with a 4xx envelope and the API's headers", async () => {
    const posts = t.server.pipeline.hotLabels.filter((label) => label.startsWith("POST ")).map((label) => label.slice("POST ".length).replace(/:\w+/g, "1"));
    expect(posts.length).toBeGreaterThan(5);
    const json = { "content-type": "application/json", origin: FRIEND };
    const cases: Array<[string, Record<string, string>, string | undefined, number]> = [
      ["an empty object with a token", { ...json, authorization: `Bearer ${player.token}` }, "{}", 400],
      ["no token", json, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 }), 401],
      ["a bad token", { ...json, authorization: "Bearer nonsense" }, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 }), 401],
      ["malformed JSON", json, "{bad", 400],
      ["a number at the top", json, "42", 400],
      ["no body at all", { origin: FRIEND, authorization: `Bearer ${player.token}` }, undefined, 400],
    ];
    for (const urlPath of posts) {
      for (const [what, headers, body, status] of cases) {
        const answer = await raw(t.baseUrl, "POST", urlPath, headers, body);
        expect({ what, urlPath, status: answer.status, success: answer.body.success }).toEqual({ what, urlPath, status, success: false });
        expect(typeof answer.body.error).toBe("string");
        expect(typeof answer.body.code).toBe("string");
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
        expect(answer.headers["access-control-allow-origin"]).toBe(FRIEND);
      }
      const theirs = await raw(
        t.baseUrl,
        "POST",
        urlPath,
        { ...json, authorization: `Bearer ${player.token}` },
        JSON.stringify({ countryId: other.countryId, turnsToSpend: 1, quantity: 1, buildingType: "residential", turnsToProcess: 1, orders: {} }),
      );
      expect(theirs.status).toBeGreaterThanOrEqual(400);
      expect(theirs.status).toBeLessThan(500);
    }
  });

  it("an exploration spends a turn; the answer has its length and every header", async () => {
    const before = (await t.api("GET", `/country/${player.countryId}`, undefined, player.token)).body.country.turns as number;
    const headers = { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${player.token}`, origin: FRIEND };
    const answer = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 }));
    expect(answer.status).toBe(200);
    expect(answer.body.turnsUsed).toBe(1);
    expect(answer.body.country.turns).toBe(before - 1);
    expect(Object.values(pick(answer.headers)).every((value) => value !== undefined)).toBe(true);
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(answer.body))));
  });

  it("the country read: the owner's view, the public view, a missing country and a word for an id", async () => {
    const auth = { authorization: `Bearer ${player.token}` };
    const own = await raw(t.baseUrl, "GET", `/api/country/${player.countryId}`, auth);
    expect(own.body.message).toBe("Own country");
    const theirs = await raw(t.baseUrl, "GET", `/api/countries/${other.countryId}`, auth);
    expect(theirs.body.message).toBe("Public view");
    expect(theirs.body.country.cash).toBeUndefined();
    const missing = await raw(t.baseUrl, "GET", "/api/country/999999", auth);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("country/not_found");
    const word = await raw(t.baseUrl, "GET", "/api/country/abc", auth);
    expect(word.status).toBe(400);
    expect(word.body.success).toBe(false);
  });

  it("reads a chunked body; refuses another type, another charset, a compressed body and a body over the limit", async () => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${player.token}` };
    const chunked = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 }), true);
    expect(chunked.status).toBe(200);
    const text = await raw(t.baseUrl, "POST", "/api/exploration/explore", { ...headers, "content-type": "text/plain" }, "{}");
    expect(text.status).toBe(415);
    const latin1 = await raw(t.baseUrl, "POST", "/api/exploration/explore", { ...headers, "content-type": "application/json; charset=latin1" }, "{}");
    expect(latin1.status).toBe(415);
    const gzip = await raw(t.baseUrl, "POST", "/api/exploration/explore", { ...headers, "content-encoding": "gzip" }, "{}");
    expect(gzip.status).toBe(415);
    const pad = "x".repeat(t.server.ctx.config.maxBodyBytes);
    const large = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, pad }));
    expect(large.status).toBe(413);
    expect(large.body.code).toBe("request/too_large");
    const largeChunked = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, pad }), true);
    expect(largeChunked.status).toBe(413);
  });

  it("an unknown route under /api answers 404 with the envelope", async () => {
    const answer = await raw(t.baseUrl, "GET", "/api/no/such/route", { authorization: `Bearer ${player.token}` });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ success: false, code: "request/unknown_route" });
  });

  it("counts its requests in the request metrics under the route's pattern", async () => {
    const count = () => t.server.ctx.metrics.httpRequests.get({ method: "POST", route: "/api/exploration/explore", status: "200" });
    const before = count();
    const res = await t.api("POST", "/exploration/explore", { countryId: player.countryId, turnsToSpend: 1 }, player.token);
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(count()).toBe(before + 1));
  });
});

describe("the answer check", () => {
  const entry = defineRoute({ method: "GET", path: "/probe", tag: "Test", summary: "probe", fallback: "Probe failed", auth: "none", response: envelope({ value: z.number() }) });

  async function serveProbe(answer: object, checkAnswers: boolean) {
    const config = loadConfig({ port: 0, maxBodyBytes: 1024 });
    const pipeline = new ApiPipeline({ config, logger: pino({ level: "silent" }), metrics: new GameMetrics(), tokens: undefined as never }, checkAnswers);
    pipeline.handle(entry, async () => answer as { value: number });
    const server = http.createServer((req, res) => {
      if (!pipeline.serve(req, res, {})) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      return await raw(`http://127.0.0.1:${port}`, "GET", "/api/probe");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("with checkAnswers, an answer its entry's schema refuses is a 500 naming the route", async () => {
    const wrong = await serveProbe({ value: "not a number" }, true);
    expect(wrong.status).toBe(500);
    expect(wrong.body.error).toContain("GET /probe: the answer does not match its catalogue schema");
    expect((await serveProbe({ value: 3 }, true)).body).toEqual({ success: true, value: 3 });
    expect((await serveProbe({ value: "not a number" }, false)).status).toBe(200);
  });
});
