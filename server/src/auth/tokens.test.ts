import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { SignJWT } from "jose";
import { apiRequest, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { freePort, spawnServer, waitUntilListening, type ChildServer } from "../test/childServer.js";
import { TOKEN_AUDIENCE, TOKEN_CACHE_MS, TOKEN_ISSUER } from "./tokens.js";

/** This file's Redis database (flushed first); its pub/sub carries the revocation events. */
const REDIS_DB = 10;
const JWT_SECRET = "tokens-secret-tokens-secret-tokens-0123456789";
/** Poll step when waiting for a refusal, ms. */
const POLL_MS = 25;
/** Allowance for one poll's round trip on a busy machine, ms. */
const SLACK_MS = 250;

async function signFor(userId: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(`forged-${userId}`)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** Polls GET /user/me with `token` on `baseUrl` until it answers 401; the ms that took. */
async function msUntilRefused(baseUrl: string, token: string, limitMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    const res = await apiRequest(baseUrl, "GET", "/user/me", undefined, token);
    if (res.status === 401) return performance.now() - start;
    expect(res.status).toBe(200);
    if (performance.now() - start > limitMs) throw new Error(`still accepted after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

let a: TestServer;
let b: ChildServer;

beforeAll(async () => {
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
  a = await startTestServer({ redisDb: REDIS_DB, jwtSecret: JWT_SECRET });
  b = spawnServer({ DATABASE_URL: a.databaseUrl, REDIS_URL: `${TEST_REDIS_URL}/${REDIS_DB}`, JWT_SECRET }, await freePort());
  await waitUntilListening(b);
});

afterAll(async () => {
  await b?.kill();
  await a?.close();
});

describe("finding 8: authentication checks that the user still exists", () => {
  it("a validly signed token of a user that never existed reads nothing", async () => {
    const token = await signFor(987_654);
    for (const path of ["/countries", "/rankings/networth", "/chat/online-users", "/user/me"]) {
      expect(await a.api("GET", path, undefined, token), path).toMatchObject({ status: 401, body: { success: false, error: "Account no longer exists" } });
    }
  });

  it(`a deleted user's token is refused within ${TOKEN_CACHE_MS} ms, at once where the deletion is announced`, async () => {
    const p = await registerPlayer(a, "gone");
    expect((await a.api("GET", "/countries", undefined, p.token)).status).toBe(200);
    expect((await apiRequest(b.baseUrl, "GET", "/countries", undefined, p.token)).status).toBe(200);
    await a.server.database.pool.query("DELETE FROM users WHERE id = $1", [p.user.id]);
    // no announcement: each process notices when its cached verdict expires
    expect(await msUntilRefused(b.baseUrl, p.token, TOKEN_CACHE_MS + 500)).toBeLessThanOrEqual(TOKEN_CACHE_MS + SLACK_MS);

    const q = await registerPlayer(a, "gone2");
    expect((await apiRequest(b.baseUrl, "GET", "/countries", undefined, q.token)).status).toBe(200);
    await a.server.database.pool.query("DELETE FROM users WHERE id = $1", [q.user.id]);
    await a.server.ctx.tokens.forgetUser(q.user.id); // what account deletion will call
    await new Promise((r) => setTimeout(r, 100));
    expect((await apiRequest(b.baseUrl, "GET", "/countries", undefined, q.token)).status).toBe(401);
  });
});

describe("auth fast path: a revoked token is refused everywhere within a second", () => {
  it("logout on one process is refused by the other at once (revocation event), not only when its cache expires", async () => {
    // Only an attempt that finishes inside B's cache window proves the event did it; a machine
    // too busy for that gets another attempt.
    for (let attempt = 1; ; attempt++) {
      const p = await registerPlayer(a, `rev${attempt}x`);
      // B verifies the token now: a fresh verdict it would otherwise keep for TOKEN_CACHE_MS
      expect((await apiRequest(b.baseUrl, "GET", "/user/me", undefined, p.token)).status).toBe(200);
      const verifiedAt = performance.now();
      expect((await a.api("POST", "/auth/logout", undefined, p.token)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      const refused = await apiRequest(b.baseUrl, "GET", "/user/me", undefined, p.token);
      if (performance.now() - verifiedAt >= TOKEN_CACHE_MS && attempt < 3) continue;
      expect(performance.now() - verifiedAt).toBeLessThan(TOKEN_CACHE_MS);
      expect(refused).toMatchObject({ status: 401, body: { success: false, error: "Token revoked" } });
      expect((await a.api("GET", "/user/me", undefined, p.token)).status).toBe(401);
      return;
    }
  });

  it("a revocation whose event never arrives still takes effect within a second", async () => {
    const p = await registerPlayer(a, "lost");
    expect((await apiRequest(b.baseUrl, "GET", "/user/me", undefined, p.token)).status).toBe(200);
    const { jti, exp } = JSON.parse(Buffer.from(p.token.split(".")[1]!, "base64url").toString());
    // written straight to Postgres: no process hears about it
    await a.server.database.pool.query("INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, to_timestamp($2))", [jti, exp]);
    expect(await msUntilRefused(b.baseUrl, p.token, TOKEN_CACHE_MS + 500)).toBeLessThanOrEqual(TOKEN_CACHE_MS + SLACK_MS);
  });

  it("a stale verdict is asked of Postgres again, without a second signature check, and an expired token is still refused", async () => {
    const p = await registerPlayer(a, "stale");
    const tokens = a.server.ctx.tokens;
    const { exp, jti } = JSON.parse(Buffer.from(p.token.split(".")[1]!, "base64url").toString());
    const now = Date.now();
    await expect(tokens.verify(p.token, now)).resolves.toMatchObject({ userId: p.user.id, countryId: p.countryId });
    // past the cache window: asked again (the signature's claims reused) and still valid
    await expect(tokens.verify(p.token, now + TOKEN_CACHE_MS + 1)).resolves.toMatchObject({ countryId: p.countryId });
    // past the token's own expiry: refused, though its signature was checked before
    await expect(tokens.verify(p.token, exp * 1000 + 1)).rejects.toThrow("Token expired");
    // a revocation written behind every process's back is seen at the next ask
    await a.server.database.pool.query("INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, to_timestamp($2))", [jti, exp]);
    await expect(tokens.verify(p.token, Date.now() + 2 * TOKEN_CACHE_MS)).rejects.toThrow("Token revoked");
  });

  it("a token used many times at once is looked up in Postgres once per cache window", async () => {
    const p = await registerPlayer(a, "hot");
    const pool = a.server.database.pool;
    let queries = 0;
    const count = () => queries++;
    pool.on("acquire", count);
    const start = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => a.api("GET", `/country/${p.countryId}`, undefined, p.token)));
    const windows = Math.ceil((performance.now() - start) / TOKEN_CACHE_MS);
    pool.removeListener("acquire", count);
    expect(answers.every((r) => r.status === 200 && r.body.country.id === p.countryId)).toBe(true);
    // one query per read of the country, plus one token lookup per cache window
    expect(queries).toBeGreaterThanOrEqual(200);
    expect(queries).toBeLessThanOrEqual(200 + windows);
  });
});
