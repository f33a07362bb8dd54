import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { AUTH_MESSAGES } from "@game/schema/api";
import { LOGIN_LIMITS } from "../services/accounts.js";
import { newPlayer, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";

/** Redis database index of this file (flushed first: limiter keys outlive a run by 15 minutes). */
const REDIS_DB = 9;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

describe.each([
  ["in memory", undefined],
  ["on Redis", REDIS_DB],
] as const)("finding 1: login throttle reserves the attempt before verifying (%s)", (_store, redisDb) => {
  let t: TestServer;
  beforeAll(async () => {
    if (redisDb !== undefined) {
      const redis = new Redis(`${TEST_REDIS_URL}/${redisDb}`);
      await redis.flushdb();
      redis.disconnect();
    }
    t = await startTestServer({ redisDb });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("100 parallel wrong passwords evaluate at most the limit; the real password afterwards waits too", async () => {
    const p = await registerPlayer(t, "flood");
    const guesses = await Promise.all(Array.from({ length: 100 }, (_, i) => t.api("POST", "/auth/login", { email: p.body.email, password: `wrong-guess-${i}` })));
    const evaluated = guesses.filter((r) => r.status === 401);
    const throttled = guesses.filter((r) => r.status === 429);
    // each 401 is a password argon2 verified; the rest never reached it
    expect(evaluated.length).toBeGreaterThanOrEqual(1);
    expect(evaluated.length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccountAndAddress);
    expect(evaluated.length + throttled.length).toBe(100);
    expect(throttled[0]!.body).toMatchObject({ success: false, error: AUTH_MESSAGES.tooManyAttempts });

    const burst = await Promise.all(Array.from({ length: 10 }, () => t.api("POST", "/auth/login", { email: p.body.email, password: p.body.password })));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(burst.some((r) => r.body.token)).toBe(false);
  });

  it("throttles the account from this address only: another account still logs in", async () => {
    const other = await registerPlayer(t, "bystander");
    const res = await t.api("POST", "/auth/login", { email: other.body.email, password: other.body.password });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
  });

  it("counts failures only: more successful logins than the address limit all pass", async () => {
    const p = await registerPlayer(t, "regular");
    for (let i = 0; i < LOGIN_LIMITS.perAddress + 5; i++) {
      expect((await t.api("POST", "/auth/login", { email: p.body.email, password: p.body.password })).status, `login ${i + 1}`).toBe(200);
    }
  });
});

describe("finding 3: registration is throttled per address and checks cheap uniqueness before the hash", () => {
  const LIMIT = 5;
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimitRegisterPerHour: LIMIT });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("of 20 parallel registrations from one address exactly the limit succeed, the rest answer 429 and create nothing", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.api("POST", "/auth/register", newPlayer(`burst${i}x`))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(LIMIT);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(20 - LIMIT);
    expect(refused[0]!.body).toMatchObject({ success: false, error: AUTH_MESSAGES.tooManyRegistrations });
    const { rows } = await t.server.database.pool.query("SELECT count(*)::int AS n FROM users");
    expect(rows[0].n).toBe(LIMIT);
  });

  it("with the limit off (RATE_LIMIT_REGISTER_PER_HOUR=0) registrations are not counted", async () => {
    const open = await startTestServer({ rateLimitRegisterPerHour: 0 });
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => open.api("POST", "/auth/register", newPlayer(`open${i}x`))));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    } finally {
      await open.close();
    }
  });

  it("a taken email, username or country name answers 409 without hashing: far faster than a registration", async () => {
    const open = await startTestServer({ rateLimitRegisterPerHour: 0 });
    try {
      const first = await registerPlayer(open, "taken");
      const fresh: number[] = [];
      const taken: number[] = [];
      for (let i = 0; i < 5; i++) {
        fresh.push((await timed(() => open.api("POST", "/auth/register", newPlayer(`fresh${i}x`)))).ms);
        for (const patch of [{ email: first.body.email }, { username: first.body.username }, { countryName: first.body.countryName }]) {
          const { ms, value } = await timed(() => open.api("POST", "/auth/register", { ...newPlayer(`dup${i}x`), ...patch }));
          expect(value.status).toBe(409);
          taken.push(ms);
        }
      }
      // argon2id costs tens of milliseconds; the uniqueness check is one indexed query
      expect(median(taken)).toBeLessThan(median(fresh) / 3);
    } finally {
      await open.close();
    }
  });
});
