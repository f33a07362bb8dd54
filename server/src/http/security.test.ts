import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { clientCspDirectives, corsHeadersFor } from "./security.js";

/** A raw HTTP request (no automatic decompression): status, headers and the body bytes. */
function raw(baseUrl: string, method: string, urlPath: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(`${baseUrl}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const EVIL = "https://evil.example";
const FRIEND = "https://play.example";

describe("finding 6: CORS is an allow-list, same origin by default", () => {
  describe("by default (no CORS_ORIGINS)", () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer();
    });
    afterAll(() => t.close());

    it.each([
      ["GET", "/api/health"],
      ["POST", "/api/auth/login"],
      ["OPTIONS", "/api/auth/login"],
      ["OPTIONS", "/matchmake/joinOrCreate/world"],
      ["POST", "/matchmake/joinOrCreate/world"],
      ["GET", "/"],
    ])("%s %s from another origin carries no Access-Control-Allow-* header", async (method, urlPath) => {
      const headers: Record<string, string> = { origin: EVIL, "content-type": "application/json" };
      if (method === "OPTIONS") Object.assign(headers, { "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" });
      const res = await raw(t.baseUrl, method, urlPath, headers, method === "POST" ? "{}" : undefined);
      const cors = Object.keys(res.headers).filter((h) => h.startsWith("access-control-"));
      expect(cors).toEqual([]);
      expect(res.headers.vary).toMatch(/Origin/);
    });

    it("a same-origin call works as before", async () => {
      const p = await registerPlayer(t, "cors");
      const res = await raw(t.baseUrl, "GET", `/api/country/${p.countryId}`, { origin: t.baseUrl, authorization: `Bearer ${p.token}` });
      expect(res.status).toBe(200);
    });
  });

  describe("with CORS_ORIGINS", () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ corsOrigins: [FRIEND] });
    });
    afterAll(() => t.close());

    it("reflects an allowed origin with credentials, on the API and the matchmaker, and still refuses others", async () => {
      for (const urlPath of ["/api/auth/login", "/matchmake/joinOrCreate/world"]) {
        const preflight = await raw(t.baseUrl, "OPTIONS", urlPath, { origin: FRIEND, "access-control-request-method": "POST" });
        expect(preflight.status).toBe(204);
        expect(preflight.headers["access-control-allow-origin"]).toBe(FRIEND);
        expect(preflight.headers["access-control-allow-credentials"]).toBe("true");
        expect(preflight.headers["access-control-allow-headers"]).toMatch(/Authorization/);
        const other = await raw(t.baseUrl, "OPTIONS", urlPath, { origin: EVIL, "access-control-request-method": "POST" });
        expect(other.headers["access-control-allow-origin"]).toBeUndefined();
      }
      const login = await raw(t.baseUrl, "POST", "/api/auth/login", { origin: FRIEND, "content-type": "application/json" }, JSON.stringify({ email: "x@example.com", password: "secret123" }));
      expect(login.status).toBe(401);
      expect(login.headers["access-control-allow-origin"]).toBe(FRIEND);
    });
  });

  it("corsHeadersFor answers only for listed origins", () => {
    const allowed = new Set([FRIEND]);
    expect(corsHeadersFor(FRIEND, allowed)["Access-Control-Allow-Origin"]).toBe(FRIEND);
    expect(corsHeadersFor(`${FRIEND}.evil.example`, allowed)).toEqual({ Vary: "Origin" });
    expect(corsHeadersFor("null", allowed)).toEqual({ Vary: "Origin" });
    expect(corsHeadersFor(undefined, allowed)).toEqual({ Vary: "Origin" });
  });
});

/** A built client as Vite lays it out: index.html, hashed assets with hidden source maps, a root file. */
function fakeClient(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "game-client-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "index.html"), `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`);
  const script = `export const greeting = ${JSON.stringify("hello world ".repeat(5_000))};\n`;
  fs.writeFileSync(path.join(dir, "assets", "index-AbC123.js"), script);
  fs.writeFileSync(path.join(dir, "assets", "index-AbC123.js.map"), JSON.stringify({ version: 3, sources: ["secret/src/main.tsx"], mappings: "" }));
  fs.writeFileSync(path.join(dir, "assets", "index-AbC123.css"), "body{margin:0}".repeat(200));
  fs.writeFileSync(path.join(dir, "robots.txt"), "User-agent: *\n");
  return dir;
}

describe("findings 7 and 14: security headers, compression, caching and source maps of the built client", () => {
  let t: TestServer;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = fakeClient();
    t = await startTestServer({ clientDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it("finding 7: pages carry a strict CSP (no inline script or style), frame-ancestors 'none', nosniff and a referrer policy", async () => {
    for (const urlPath of ["/", "/some/view", "/assets/index-AbC123.js"]) {
      const res = await raw(t.baseUrl, "GET", urlPath);
      expect(res.status, urlPath).toBe(200);
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });

  it("finding 7: API answers carry a deny-all CSP, nosniff, DENY framing and no referrer", async () => {
    for (const urlPath of ["/api/health", "/api/no/such/route"]) {
      const res = await raw(t.baseUrl, "GET", urlPath);
      expect(res.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-powered-by"]).toBeUndefined();
    }
  });

  it("finding 14: hashed assets are compressed (brotli or gzip, as accepted) and cached a year as immutable", async () => {
    const original = fs.readFileSync(path.join(clientDir, "assets", "index-AbC123.js"));
    const br = await raw(t.baseUrl, "GET", "/assets/index-AbC123.js", { "accept-encoding": "br, gzip" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(br.body.length).toBeLessThan(original.length / 10);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);

    const gzip = await raw(t.baseUrl, "GET", "/assets/index-AbC123.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(original)).toBe(true);

    const plain = await raw(t.baseUrl, "GET", "/assets/index-AbC123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
  });

  it("finding 14: index.html and the app shell are revalidated on every load", async () => {
    for (const urlPath of ["/", "/rankings", "/robots.txt"]) {
      const res = await raw(t.baseUrl, "GET", urlPath, { "accept-encoding": "gzip" });
      expect(res.status, urlPath).toBe(200);
      expect(res.headers["cache-control"], urlPath).toBe("no-cache");
    }
  });

  it("finding 14: a missing asset is a 404, not the HTML shell", async () => {
    const res = await raw(t.baseUrl, "GET", "/assets/index-Gone99.js");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).not.toMatch(/html/);
  });

  it("finding 14: source maps are not served, and scripts do not point at them", async () => {
    expect((await raw(t.baseUrl, "GET", "/assets/index-AbC123.js.map")).status).toBe(404);
    const script = await raw(t.baseUrl, "GET", "/assets/index-AbC123.js");
    expect(script.headers.sourcemap).toBeUndefined();
    expect(script.body.toString()).not.toContain("sourceMappingURL");
  });

  it("finding 14: with SERVE_SOURCE_MAPS the maps are served and announced by header", async () => {
    const withMaps = await startTestServer({ clientDir, serveSourceMaps: true });
    try {
      const map = await raw(withMaps.baseUrl, "GET", "/assets/index-AbC123.js.map");
      expect(map.status).toBe(200);
      expect(JSON.parse(map.body.toString()).sources).toEqual(["secret/src/main.tsx"]);
      const script = await raw(withMaps.baseUrl, "GET", "/assets/index-AbC123.js");
      expect(script.headers.sourcemap).toBe("index-AbC123.js.map");
    } finally {
      await withMaps.close();
    }
  });

  it("the CSP allows configured extra connect sources and nothing else", () => {
    expect(clientCspDirectives(["wss://eu-2.game.example"])["connect-src"]).toEqual(["'self'", "wss://eu-2.game.example"]);
    expect(clientCspDirectives()["script-src"]).toEqual(["'self'"]);
  });
});
