import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { SignJWT } from "jose";
import { apiRequest, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { CHILD_HOOK_TIMEOUT_MS, spawnServer, waitUntilListening, type ChildServer } from "../test/childServer.js";
import { TOKEN_AUDIENCE, TOKEN_CACHE_MS, TOKEN_ISSUER } from "./tokens.js";
import { REQUESTS_ACTIVE_PER_TOKEN, REQUESTS_WAITING_PER_TOKEN } from "../http/tokenConcurrency.js";

/** This file's Redis database (flushed first); its pub/sub carries the revocation events. */
const REDIS_DB = 10;
const JWT_SECRET = "tokens-secret-tokens-secret-tokens-0123456789";
/** Poll step when waiting for a refusal, ms. */
const POLL_MS = 25;

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

/**
 * Polls GET /user/me with `token` on `baseUrl` until it answers 401, and returns when the last
 * request answered 200 was SENT, in ms after the call. A server accepts a request only while
 * its verdict on the token is fresh, and it judges a request after it was sent, so a token
 * revoked (or deleted) before the call and accepted by a request sent at t had a verdict still
 * fresh at t. The time until the 401 arrives would add the machine's round trips: under load
 * (the helpers' idle CPU group, load 25 on 2 cores) a refusal due at 1,000 ms arrived at 1,387
 * (issue 29, the cluster loop), a bound on the machine, not on the server.
 */
async function lastAcceptedMs(baseUrl: string, token: string): Promise<number> {
  const start = performance.now();
  let lastAccepted = 0;
  for (;;) {
    const sentAt = performance.now() - start;
    const res = await apiRequest(baseUrl, "GET", "/user/me", undefined, token);
    if (res.status === 401) return lastAccepted;
    expect(res.status).toBe(200);
    lastAccepted = sentAt;
    if (sentAt > 10 * TOKEN_CACHE_MS) throw new Error(`still accepted ${Math.round(sentAt)} ms after`);
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
  b = spawnServer({ DATABASE_URL: a.databaseUrl, REDIS_URL: `${TEST_REDIS_URL}/${REDIS_DB}`, JWT_SECRET });
  await waitUntilListening(b);
}, CHILD_HOOK_TIMEOUT_MS);

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
    expect(await lastAcceptedMs(b.baseUrl, p.token)).toBeLessThanOrEqual(TOKEN_CACHE_MS);

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
    expect(await lastAcceptedMs(b.baseUrl, p.token)).toBeLessThanOrEqual(TOKEN_CACHE_MS);
  });

  it("a verdict past the cache window still answers without Postgres while nothing is revoked, and an expired token is refused", async () => {
    const p = await registerPlayer(a, "stale");
    const tokens = a.server.ctx.tokens;
    const lookups = a.server.ctx.metrics.authTokenLookups;
    const { exp } = JSON.parse(Buffer.from(p.token.split(".")[1]!, "base64url").toString());
    await expect(tokens.verify(p.token)).resolves.toMatchObject({ userId: p.user.id, countryId: p.countryId });
    const before = lookups.get();
    await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS + 300));
    // the authentication epoch has not moved: the verdict still answers, no query
    await expect(tokens.verify(p.token)).resolves.toMatchObject({ countryId: p.countryId });
    expect(lookups.get()).toBe(before);
    // past the token's own expiry: refused, whatever the cache holds
    await expect(tokens.verify(p.token, exp * 1000 + 1)).rejects.toThrow("Token expired");
  });

  it("when the epoch cannot be read, verdicts are asked again after the cache window, and revocations still hold", async () => {
    const p = await registerPlayer(a, "noepoch");
    const tokens = a.server.ctx.tokens;
    const lookups = a.server.ctx.metrics.authTokenLookups;
    const pool = a.server.database.pool;
    await expect(tokens.verify(p.token)).resolves.toMatchObject({ countryId: p.countryId });
    await pool.query("ALTER TABLE auth_epoch RENAME TO auth_epoch_away");
    try {
      await new Promise((r) => setTimeout(r, TOKEN_CACHE_MS + 300));
      const before = lookups.get();
      await expect(tokens.verify(p.token)).resolves.toMatchObject({ countryId: p.countryId });
      expect(lookups.get()).toBe(before + 1);
      const { jti, exp } = JSON.parse(Buffer.from(p.token.split(".")[1]!, "base64url").toString());
      // no trigger now moves anything: only the age of the verdict refuses the token
      await pool.query("ALTER TABLE revoked_tokens DISABLE TRIGGER revoked_tokens_auth_epoch");
      await pool.query("INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, to_timestamp($2))", [jti, exp]);
      await pool.query("ALTER TABLE revoked_tokens ENABLE TRIGGER revoked_tokens_auth_epoch");
      expect(await lastAcceptedMs(a.baseUrl, p.token)).toBeLessThanOrEqual(TOKEN_CACHE_MS);
    } finally {
      await pool.query("ALTER TABLE auth_epoch_away RENAME TO auth_epoch");
    }
  });

  it("a token used many times at once is looked up in Postgres once", async () => {
    const p = await registerPlayer(a, "hot");
    const lookups = a.server.ctx.metrics.authTokenLookups;
    const before = lookups.get();
    // As many as one token may have in flight and queued (tokenConcurrency.ts): 200 passed that
    // whenever the server answered slower than they arrived (a loaded machine), and the rest
    // were rightly answered 429, failing this test for a reason it does not test.
    const many = REQUESTS_ACTIVE_PER_TOKEN + REQUESTS_WAITING_PER_TOKEN;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: many }, () => a.api("GET", `/country/${p.countryId}`, undefined, p.token)));
    const took = Date.now() - started;
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(answers.every((r) => r.body.country.id === p.countryId)).toBe(true);
    // the registration's token was never verified here before: one lookup, shared by all of
    // them, once per cache window the burst took (served 6 at a time, a loaded machine takes
    // longer than one window, and a verdict older than the window is asked again, by design)
    expect(lookups.get() - before).toBeGreaterThanOrEqual(1);
    expect(lookups.get() - before).toBeLessThanOrEqual(1 + Math.floor(took / TOKEN_CACHE_MS));
  });
});
