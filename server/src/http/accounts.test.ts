import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, base64url } from "jose";
import { computeNetworth, startingCountry, STARTING_RESOURCES } from "@game/schema/rules";
import { AUTH_MESSAGES } from "@game/schema/api";
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from "../auth/tokens.js";
import { newPlayer, registerPlayer, startTestServer, type TestServer } from "../test/harness.js";

const SECRET = new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789");

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe("registration, login and the own country", () => {
  it("register -> login -> /user/me -> /country/{id} shows the exact starting country", async () => {
    const body = newPlayer("flow");
    const reg = await t.api("POST", "/auth/register", body);
    expect(reg.status).toBe(201);
    expect(reg.body.success).toBe(true);
    expect(typeof reg.body.token).toBe("string");
    expect(reg.body.user).toMatchObject({ username: body.username, email: body.email, hasCountry: true, countryName: body.countryName, government: "monarchy" });

    const login = await t.api("POST", "/auth/login", { email: body.email, password: body.password });
    expect(login.status).toBe(200);
    const token = login.body.token as string;

    const me = await t.api("GET", "/user/me", undefined, token);
    expect(me.status).toBe(200);
    expect(me.body.user.country).toEqual({ id: reg.body.user.countryId, name: body.countryName, government: "monarchy" });
    expect(me.body.user.lastLogin).not.toBeNull();

    const country = await t.api("GET", `/country/${me.body.user.country.id}`, undefined, token);
    expect(country.status).toBe(200);
    const c = country.body.country;
    expect(c).toMatchObject({
      name: body.countryName,
      government_type: "monarchy",
      cash: "100000",
      food: "10000",
      oil: "100",
      land: "100",
      population: "1000",
      troops: "100",
      jets: "0",
      turrets: "100",
      tanks: "10",
      spies: "0",
      turns: 100,
      stored_turns: 0,
      has_used_free_government_change: false,
      government_change_count: 0,
      residential_areas: 0,
    });
    expect(Number(c.networth)).toBe(computeNetworth(startingCountry()));
    expect(Number(c.networth)).toBe(4812);
  });

  it("ignores startingResources and governmentType sent by the client", async () => {
    const body = { ...newPlayer("cheat"), governmentType: "republic", startingResources: { cash: 999_999_999, turns: 150 } };
    const reg = await t.api("POST", "/auth/register", body);
    expect(reg.status).toBe(201);
    const country = await t.api("GET", `/country/${reg.body.user.countryId}`, undefined, reg.body.token);
    expect(country.body.country.cash).toBe(String(STARTING_RESOURCES.cash));
    expect(country.body.country.turns).toBe(STARTING_RESOURCES.turns);
    expect(country.body.country.government_type).toBe("monarchy");
  });
});

describe("registration validation", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["bad email", { email: "not-an-email" }, AUTH_MESSAGES.invalidEmail],
    ["missing email", { email: undefined }, AUTH_MESSAGES.invalidEmail],
    ["short username", { username: "ab" }, AUTH_MESSAGES.usernameTooShort],
    ["long username", { username: "a".repeat(21) }, AUTH_MESSAGES.usernameTooLong],
    ["short password", { password: "12345" }, AUTH_MESSAGES.passwordTooShort],
    ["short country name after trim", { countryName: "  ab  " }, AUTH_MESSAGES.countryNameTooShort],
    ["long country name", { countryName: "x".repeat(51) }, AUTH_MESSAGES.countryNameTooLong],
    ["country name wrong type", { countryName: 12345 }, AUTH_MESSAGES.countryNameTooShort],
  ];
  it.each(cases)("%s -> 400 with the spec's message", async (_name, patch, message) => {
    const res = await t.api("POST", "/auth/register", { ...newPlayer("v"), ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message, code: "request/invalid" });
  });

  it("accepts a 20-character username and a 50-character country name (the limits are inclusive)", async () => {
    const base = newPlayer("lim");
    const res = await t.api("POST", "/auth/register", { ...base, username: `u${base.username}`.padEnd(20, "x").slice(0, 20), countryName: `C${base.countryName}`.padEnd(50, "y").slice(0, 50) });
    expect(res.status).toBe(201);
  });

  it("trims the country name before storing it", async () => {
    const base = newPlayer("trim");
    const res = await t.api("POST", "/auth/register", { ...base, countryName: `   ${base.countryName}   ` });
    expect(res.status).toBe(201);
    expect(res.body.user.countryName).toBe(base.countryName);
  });

  it("refuses duplicate email, username and country name with 409, case-insensitively", async () => {
    const first = await registerPlayer(t, "dup");
    const emailDup = await t.api("POST", "/auth/register", { ...newPlayer("d1"), email: first.body.email.toUpperCase() });
    expect(emailDup).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.emailTaken } });
    const userDup = await t.api("POST", "/auth/register", { ...newPlayer("d2"), username: first.body.username.toUpperCase() });
    expect(userDup).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.usernameTaken } });
    const nameDup = await t.api("POST", "/auth/register", { ...newPlayer("d3"), countryName: ` ${first.body.countryName.toLowerCase()} ` });
    expect(nameDup).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.countryNameTaken } });
  });

  it("50 parallel registrations with the same country name create exactly one country", async () => {
    const name = `Contested ${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => t.api("POST", "/auth/register", { ...newPlayer(`race${i}x`), countryName: name })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const { rows } = await t.server.database.pool.query("SELECT count(*)::int AS n FROM countries WHERE lower(name) = lower($1)", [name]);
    expect(rows[0].n).toBe(1);
    // The losing users were rolled back with their country: no orphan accounts.
    const orphans = await t.server.database.pool.query("SELECT count(*)::int AS n FROM users u WHERE NOT EXISTS (SELECT 1 FROM countries c WHERE c.user_id = u.id)");
    expect(orphans.rows[0].n).toBe(0);
  });
});

describe("login validation and throttling", () => {
  it("answers the spec's messages for a bad email and a short password", async () => {
    expect(await t.api("POST", "/auth/login", { email: "nope", password: "secret123" })).toMatchObject({ status: 400, body: { error: AUTH_MESSAGES.invalidEmail } });
    expect(await t.api("POST", "/auth/login", { email: "a@b.co", password: "123" })).toMatchObject({ status: 400, body: { error: AUTH_MESSAGES.passwordTooShort } });
  });

  it("refuses a wrong password and an unknown email alike with 401", async () => {
    const p = await registerPlayer(t, "wrongpw");
    const wrong = await t.api("POST", "/auth/login", { email: p.body.email, password: "wrong-password" });
    const unknown = await t.api("POST", "/auth/login", { email: "nobody-here@example.com", password: "whatever1" });
    expect(wrong).toMatchObject({ status: 401, body: { success: false, error: AUTH_MESSAGES.invalidCredentials } });
    expect(unknown).toMatchObject({ status: 401, body: { success: false, error: AUTH_MESSAGES.invalidCredentials } });
  });

  it("throttles repeated failures for an account from one address with 429, then even the right password waits", async () => {
    const p = await registerPlayer(t, "brute");
    for (let i = 0; i < 5; i++) {
      expect((await t.api("POST", "/auth/login", { email: p.body.email, password: `bad-guess-${i}` })).status).toBe(401);
    }
    const blocked = await t.api("POST", "/auth/login", { email: p.body.email, password: p.body.password });
    expect(blocked).toMatchObject({ status: 429, body: { success: false, error: AUTH_MESSAGES.tooManyAttempts } });
  });
});

describe("tokens", () => {
  async function sign(claims: { sub?: string; iss?: string; aud?: string; exp?: number | string; jti?: string }, secret = SECRET) {
    let jwt = new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuedAt();
    if (claims.sub !== undefined) jwt = jwt.setSubject(claims.sub);
    if (claims.iss !== undefined) jwt = jwt.setIssuer(claims.iss);
    if (claims.aud !== undefined) jwt = jwt.setAudience(claims.aud);
    if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
    if (claims.jti !== undefined) jwt = jwt.setJti(claims.jti);
    return jwt.sign(secret);
  }

  it("gets 401 for a missing, tampered, expired, alg-none, wrong-audience, wrong-issuer, no-exp or revoked token", async () => {
    const p = await registerPlayer(t, "tok");
    const valid = p.token;
    const [header, payload, signature] = valid.split(".");
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
    const tamperedPayload = base64url.encode(JSON.stringify({ ...claims, sub: String(Number(claims.sub) + 1) }));
    const none = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
    const base = { sub: claims.sub, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, jti: "j-1" };
    const badTokens: Record<string, string | undefined> = {
      missing: undefined,
      garbage: "not.a.token",
      tampered: `${header}.${tamperedPayload}.${signature}`,
      "alg none": none,
      expired: await sign({ ...base, exp: Math.floor(Date.now() / 1000) - 60 }),
      "wrong audience": await sign({ ...base, aud: "someone-else", exp: "1h" }),
      "wrong issuer": await sign({ ...base, iss: "someone-else", exp: "1h" }),
      "no exp": await sign(base),
      "other secret": await sign({ ...base, exp: "1h" }, new TextEncoder().encode("another-secret-another-secret-0123456789")),
    };
    expect((await t.api("GET", "/user/me", undefined, valid)).status).toBe(200);
    for (const [name, token] of Object.entries(badTokens)) {
      const res = await t.api("GET", "/user/me", undefined, token);
      expect(res.status, name).toBe(401);
      expect(res.body.success, name).toBe(false);
    }

    const logout = await t.api("POST", "/auth/logout", undefined, valid);
    expect(logout.status).toBe(200);
    const revoked = await t.api("GET", "/user/me", undefined, valid);
    expect(revoked).toMatchObject({ status: 401, body: { success: false, error: "Token revoked" } });
    expect((await t.api("GET", `/country/${p.countryId}`, undefined, valid)).status).toBe(401);
  });
});

describe("privacy of another player's country", () => {
  const PRIVATE_FIELDS = ["cash", "food", "oil", "population", "troops", "jets", "turrets", "tanks", "spies", "missiles", "turns", "stored_turns", "research_points", "farms", "unit_allocation"];

  it("a second user cannot read private fields of the first user's country through any route", async () => {
    const first = await registerPlayer(t, "owner");
    const second = await registerPlayer(t, "snoop");
    const views = [
      (await t.api("GET", `/country/${first.countryId}`, undefined, second.token)).body.country,
      (await t.api("GET", `/countries/${first.countryId}`, undefined, second.token)).body.country,
      ...(await t.api("GET", "/countries?limit=500", undefined, second.token)).body.countries,
      ...(await t.api("GET", "/countries/ai", undefined, second.token)).body.countries,
    ];
    const firstViews = views.filter((v: any) => v.id === first.countryId);
    expect(firstViews.length).toBe(3);
    for (const view of firstViews) {
      for (const field of PRIVATE_FIELDS) expect(view, field).not.toHaveProperty(field);
      expect(view.name).toBe(first.body.countryName);
    }
    // The owner still sees everything.
    const own = (await t.api("GET", `/country/${first.countryId}`, undefined, first.token)).body.country;
    for (const field of PRIVATE_FIELDS) expect(own).toHaveProperty(field);
  });
});

describe("the error envelope", () => {
  it("answers JSON 404 for unknown /api routes and for a missing country", async () => {
    const p = await registerPlayer(t, "env");
    expect(await t.api("GET", "/no/such/route")).toMatchObject({ status: 404, body: { success: false } });
    expect(await t.api("GET", "/country/999999999", undefined, p.token)).toMatchObject({ status: 404, body: { success: false, error: "Country not found" } });
    expect(await t.api("GET", "/country/abc", undefined, p.token)).toMatchObject({ status: 400, body: { success: false, error: "Invalid id" } });
  });

  it("answers malformed JSON 400, a non-JSON body 415 and an oversized body 413", async () => {
    const malformed = await fetch(`${t.baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{bad json" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ success: false, error: "Malformed JSON body", code: "request/malformed_json" });
    const text = await fetch(`${t.baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(text.status).toBe(415);
    expect((await text.json()).success).toBe(false);
    const huge = await fetch(`${t.baseUrl}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x".repeat(200_000) }) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).success).toBe(false);
  });

  it("answers a JSON array or null body 400, not 500", async () => {
    for (const body of ["[]", "null", "42", '"text"']) {
      const res = await fetch(`${t.baseUrl}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(res.status, body).toBe(400);
    }
  });

  it("GET /health answers 200 with success", async () => {
    const res = await t.api("GET", "/health");
    expect(res).toMatchObject({ status: 200, body: { success: true, status: "ok", database: "postgres" } });
  });
});

describe("tutorial completion", () => {
  it("is false after registration and kept once completed", async () => {
    const p = await registerPlayer(t, "tut");
    expect(p.user.tutorialCompleted).toBe(false);
    const done = await t.api("POST", "/user/tutorial-complete", undefined, p.token);
    expect(done).toMatchObject({ status: 200, body: { success: true, user: { tutorialCompleted: true } } });
    expect((await t.api("GET", "/user/me", undefined, p.token)).body.user.tutorialCompleted).toBe(true);
    expect((await t.api("POST", "/user/tutorial-complete")).status).toBe(401);
  });
});
