import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { isUtf8Json, MALFORMED_JSON, parseStrictJson } from "./directRoutes.js";

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

/** The headers both paths must answer alike (CORS, the API's security headers, the JSON type). */
const COMPARED_HEADERS = [
  "content-type",
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "cross-origin-resource-policy",
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "vary",
];
const pick = (headers: http.IncomingHttpHeaders) => Object.fromEntries(COMPARED_HEADERS.map((h) => [h, headers[h]]));

const FRIEND = "https://play.example";

describe("the body as express.json reads it", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ['Application/JSON; charset="UTF-8"', true],
    ["application/json; charset=latin1", false],
    ["text/plain", false],
    ["application/vnd.api+json", false],
    [undefined, false],
  ])("content type %s is taken directly: %s", (type, expected) => {
    expect(isUtf8Json(type)).toBe(expected);
  });

  it("parses objects and arrays, refuses other top-level values as express.json's strict mode does", () => {
    expect(parseStrictJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseStrictJson(' \n\t[1, 2]')).toEqual([1, 2]);
    expect(parseStrictJson('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(parseStrictJson("")).toEqual({});
    expect(parseStrictJson("123")).toBe(MALFORMED_JSON);
    expect(parseStrictJson('"text"')).toBe(MALFORMED_JSON);
    expect(parseStrictJson("{bad")).toBe(MALFORMED_JSON);
    expect(parseStrictJson("   ")).toBe(MALFORMED_JSON);
  });
});

describe("direct routes answer as Express does", () => {
  let t: TestServer;
  let player: Awaited<ReturnType<typeof registerPlayer>>;
  let other: Awaited<ReturnType<typeof registerPlayer>>;

  beforeAll(async () => {
    t = await startTestServer({ corsOrigins: [FRIEND] });
    player = await registerPlayer(t, "direct");
    other = await registerPlayer(t, "direct");
  });
  afterAll(() => t.close());

  /** The same request twice: as sent (the direct path), and with a query string (Express's, which the direct path leaves alone). */
  async function bothPaths(method: string, urlPath: string, headers: Record<string, string>, body?: string) {
    const serve = vi.spyOn(t.server.direct, "serve");
    try {
      const direct = await raw(t.baseUrl, method, urlPath, headers, body);
      const viaExpress = await raw(t.baseUrl, method, `${urlPath}?via=express`, headers, body);
      expect({ urlPath, served: serve.mock.results.map((r) => r.value) }).toEqual({ urlPath, served: [true, false] });
      return { direct, viaExpress };
    } finally {
      serve.mockRestore();
    }
  }

  it("serves the turn-spending actions, purchases, attacks, spy operations and the country read", () => {
    expect(t.server.direct.labels).toEqual(expect.arrayContaining([
        "POST /api/exploration/explore",
        "POST /api/buildings/construct",
        "POST /api/market/listings/:id/buy",
        "POST /api/attack/launch",
        "POST /api/spy/execute",
        "GET /api/country/:id",
      ]),);
  });

  it("every direct POST route refuses the same bad requests with the same status, envelope and headers", async () => {
    // a parameter's place takes a real id
    const posts = t.server.direct.labels.filter((label) => label.startsWith("POST ")).map((label) => label.slice("POST ".length).replace(/:\w+/g, "1"));
    expect(posts.length).toBeGreaterThan(5);
    const json = { "content-type": "application/json", origin: FRIEND };
    const cases: Array<[string, Record<string, string>, string | undefined]> = [
      ["an empty object with a token", { ...json, authorization: `Bearer ${player.token}` }, "{}"],
      ["another player's country", { ...json, authorization: `Bearer ${player.token}` }, JSON.stringify({ countryId: other.countryId, turnsToSpend: 1, quantity: 1, buildingType: "residential", turnsToProcess: 1, orders: {} })],
      ["no token", json, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 })],
      ["a bad token", { ...json, authorization: "Bearer nonsense" }, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 })],
      ["malformed JSON", json, "{bad"],
      ["a number at the top", json, "42"],
      ["no body at all", { origin: FRIEND, authorization: `Bearer ${player.token}` }, undefined],
    ];
    for (const urlPath of posts) {
      for (const [what, headers, body] of cases) {
        const { direct, viaExpress } = await bothPaths("POST", urlPath, headers, body);
        expect({ what, urlPath, status: direct.status, body: direct.body }).toEqual({ what, urlPath, status: viaExpress.status, body: viaExpress.body });
        expect(direct.status).toBeGreaterThanOrEqual(400);
        expect(direct.status).toBeLessThan(500);
        expect(pick(direct.headers)).toEqual(pick(viaExpress.headers));
      }
    }
  });

  it("an exploration spends a turn on either path, with the same answer's shape", async () => {
    const before = (await t.api("GET", `/country/${player.countryId}`, undefined, player.token)).body.country.turns as number;
    const body = JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 });
    const headers = { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${player.token}`, origin: FRIEND };
    const { direct, viaExpress } = await bothPaths("POST", "/api/exploration/explore", headers, body);
    expect(direct.status).toBe(200);
    expect(viaExpress.status).toBe(200);
    expect(Object.keys(direct.body).sort()).toEqual(Object.keys(viaExpress.body).sort());
    expect(direct.body.turnsUsed).toBe(1);
    expect(direct.body.country.turns).toBe(before - 1);
    expect(viaExpress.body.country.turns).toBe(before - 2);
    expect(pick(direct.headers)).toEqual(pick(viaExpress.headers));
    expect(direct.headers["access-control-allow-origin"]).toBe(FRIEND);
    expect(direct.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(direct.body))));
  });

  it("the country read: the owner's view, the public view, and a non-numeric id left to Express", async () => {
    const auth = { authorization: `Bearer ${player.token}` };
    const own = await bothPaths("GET", `/api/country/${player.countryId}`, auth);
    expect(own.direct.body.message).toBe("Own country");
    expect(own.direct.body).toEqual(own.viaExpress.body);
    const theirs = await bothPaths("GET", `/api/countries/${other.countryId}`, auth);
    expect(theirs.direct.body.message).toBe("Public view");
    expect(theirs.direct.body.country.cash).toBeUndefined();
    expect(theirs.direct.body).toEqual(theirs.viaExpress.body);
    const missing = await bothPaths("GET", "/api/country/999999", auth);
    expect(missing.direct.status).toBe(404);
    expect(missing.direct.body).toEqual(missing.viaExpress.body);
    const word = await raw(t.baseUrl, "GET", "/api/country/abc", auth);
    expect(word.status).toBe(400);
    expect(word.body.success).toBe(false);
  });

  it("leaves what it does not handle to Express: a chunked body, another type, a body over the limit", async () => {
    const serve = vi.spyOn(t.server.direct, "serve");
    try {
      const headers = { "content-type": "application/json", authorization: `Bearer ${player.token}` };
      const chunked = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, turnsToSpend: 1 }), true);
      expect(chunked.status).toBe(200);
      const text = await raw(t.baseUrl, "POST", "/api/exploration/explore", { ...headers, "content-type": "text/plain" }, "{}");
      expect(text.status).toBe(415);
      const latin1 = await raw(t.baseUrl, "POST", "/api/exploration/explore", { ...headers, "content-type": "application/json; charset=latin1" }, "{}");
      expect(latin1.status).toBeGreaterThanOrEqual(400);
      const large = await raw(t.baseUrl, "POST", "/api/exploration/explore", headers, JSON.stringify({ countryId: player.countryId, pad: "x".repeat(t.server.ctx.config.maxBodyBytes) }));
      expect(large.status).toBe(413);
      expect(large.body.code).toBe("request/too_large");
      expect(serve.mock.results.map((r) => r.value)).toEqual([false, false, false, false]);
    } finally {
      serve.mockRestore();
    }
  });

  it("counts its requests in the request metrics under the route's pattern", async () => {
    const count = () => {
      return t.server.ctx.metrics.httpRequests.get({ method: "POST", route: "/api/exploration/explore", status: "200" });
    };
    const before = count();
    const res = await t.api("POST", "/exploration/explore", { countryId: player.countryId, turnsToSpend: 1 }, player.token);
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(count()).toBe(before + 1));
  });
});
