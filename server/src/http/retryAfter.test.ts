import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WORLD_ROOM } from "@game/schema/messages";
import { LOGIN_LIMITS } from "../services/accounts.js";
import { newPlayer, registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { joinWorld, type WorldTestClient } from "../test/worldClients.js";

/** Issue 28: the login and registration throttles answered 429 without Retry-After (only the 503 path sent it). */
const REGISTRATIONS_PER_HOUR = 3;
const SESSION_CAP = 1;
let t: TestServer;
const open: WorldTestClient[] = [];
/** the players of the tests, registered first: they take the address's whole registration allowance */
let players: Awaited<ReturnType<typeof registerPlayer>>[];

beforeAll(async () => {
  t = await startTestServer({ rateLimitRegisterPerHour: REGISTRATIONS_PER_HOUR, roomSessionsPerUser: SESSION_CAP });
  players = [];
  for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) players.push(await registerPlayer(t, "ra"));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

/** A request whose answer's status, Retry-After and body are kept. */
async function call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${t.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

/** Repeats a call until it answers 429 (at most `limit` + 1 times) and returns that answer. */
async function until429(limit: number, attempt: (i: number) => Promise<{ status: number; retryAfter: string | null; body: any }>) {
  for (let i = 0; i <= limit; i++) {
    const answer = await attempt(i);
    if (answer.status === 429) return answer;
  }
  throw new Error(`no 429 after ${limit + 1} calls`);
}

/** Retry-After is a whole number of seconds, at least 1 and at most the limit's window. */
function expectRetryAfter(answer: { retryAfter: string | null }, windowSeconds: number): void {
  expect(answer.retryAfter).toMatch(/^\d+$/);
  const seconds = Number(answer.retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
}

describe("issue 28: every 429 carries Retry-After", () => {
  it("the login throttle", async () => {
    const p = players[0]!;
    const answer = await until429(LOGIN_LIMITS.perAccountAndAddress, () => call("POST", "/api/auth/login", { email: p.body.email, password: "wrong-password" }));
    expect(answer.body).toMatchObject({ success: false, code: "auth/too_many_attempts" });
    expectRetryAfter(answer, 15 * 60);
  });

  it("the registration throttle", async () => {
    const answer = await until429(REGISTRATIONS_PER_HOUR, () => call("POST", "/api/auth/register", newPlayer("rr")));
    expect(answer.body).toMatchObject({ success: false, code: "auth/too_many_registrations" });
    expectRetryAfter(answer, 3600);
  });

  it("the chat, password re-entry, settings and country options limits", async () => {
    const p = players[1]!;
    const chat = await until429(5, (i) => call("POST", "/api/chat/send", { channel: "general", content: `line ${i}` }, p.token));
    expectRetryAfter(chat, 10);
    const password = await until429(5, () => call("POST", "/api/auth/change-password", { currentPassword: "not-it-at-all", newPassword: "longenough1" }, p.token));
    expectRetryAfter(password, 3600);
    const settings = (await call("GET", "/api/settings", undefined, p.token)).body.data.settings;
    expectRetryAfter(await until429(30, () => call("PUT", "/api/settings", settings, p.token)), 60);
    const options = (await call("GET", "/api/manage/options", undefined, p.token)).body;
    const { success: _success, ...optionsBody } = options;
    expectRetryAfter(await until429(30, () => call("PUT", "/api/manage/options", optionsBody.options ?? optionsBody, p.token)), 60);
  });

  it("the room-session cap of the matchmaker", async () => {
    const p = players[2]!;
    open.push(await joinWorld(t.baseUrl, p.token));
    const refused = await call("POST", `/matchmake/joinOrCreate/${WORLD_ROOM}`, {}, p.token);
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 60);
  });
});
