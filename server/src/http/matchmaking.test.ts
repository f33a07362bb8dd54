import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ALLIANCE_ROOM, WORLD_ROOM } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { toRefusal } from "./matchmaking.js";
import { foundAlliance } from "../test/alliances.js";

let t: TestServer;
const open: WorldTestClient[] = [];
const CAP = 3;

beforeAll(async () => {
  t = await startTestServer({ roomSessionsPerUser: CAP });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

async function matchmake(path: string, body: unknown, token?: string, raw = false): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${t.baseUrl}/matchmake/${path}`, { method: "POST", headers, body: raw ? (body as string) : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

describe("finding 4: clients may only joinOrCreate world rooms, sessions per user are capped, matchmaker errors are 4xx", () => {
  it("refuses create of a world room (403) and creates nothing; joinOrCreate works", async () => {
    const p = await registerPlayer(t, "mm");
    const before = t.server.gameServer ? (await import("@colyseus/core")).matchMaker.stats.local.roomCount : 0;
    const created = await matchmake(`create/${WORLD_ROOM}`, {}, p.token);
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ success: false, error: `Rooms of "${WORLD_ROOM}" are joined with joinOrCreate`, code: "room/method_forbidden" });
    expect((await import("@colyseus/core")).matchMaker.stats.local.roomCount).toBe(before);
    await expect(joinWorld(t.baseUrl, p.token, "create")).rejects.toMatchObject({ code: 403 });
    const joined = await matchmake(`joinOrCreate/${WORLD_ROOM}`, {}, p.token);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ name: WORLD_ROOM, sessionId: expect.any(String), roomId: expect.any(String) });
  });

  it("issue 28: refuses create of an alliance room (403), even to a member, and creates nothing; joinOrCreate joins the one room", async () => {
    const { matchMaker } = await import("@colyseus/core");
    const owner = await registerPlayer(t, "ma");
    const alliance = await foundAlliance(t, owner);
    const allianceRooms = async () => (await matchMaker.query({ name: ALLIANCE_ROOM })).length;
    const before = await allianceRooms();
    for (let i = 0; i < 3; i++) {
      const created = await matchmake(`create/${ALLIANCE_ROOM}`, { allianceId: alliance.id }, owner.token);
      expect(created.status).toBe(403);
      expect(created.body).toEqual({ success: false, error: `Rooms of "${ALLIANCE_ROOM}" are joined with joinOrCreate`, code: "room/method_forbidden" });
    }
    expect(await allianceRooms()).toBe(before);
    const joined = await matchmake(`joinOrCreate/${ALLIANCE_ROOM}`, { allianceId: alliance.id }, owner.token);
    expect(joined.status).toBe(200);
    expect(await allianceRooms()).toBe(before + 1);
  });

  it("answers client mistakes with 4xx in the envelope, never 52x", async () => {
    const p = await registerPlayer(t, "mx");
    const cases: [string, unknown, number, boolean?][] = [
      [`bogus/${WORLD_ROOM}`, {}, 404],
      [`joinOrCreate/no_such_room`, {}, 404],
      [`join/no_such_room`, {}, 404],
      [`joinById/AbCdEf123`, {}, 404],
      [`reconnect/AbCdEf123`, { reconnectionToken: "x:y" }, 404],
      [`joinOrCreate/${WORLD_ROOM}`, "{not json", 400, true],
      [`joinOrCreate/${WORLD_ROOM}`, "[1,2]", 400, true],
      [`joinOrCreate/${ALLIANCE_ROOM}`, { allianceId: "x" }, 400],
      [`joinOrCreate/${ALLIANCE_ROOM}`, { allianceId: 999999 }, 403],
    ];
    for (const [path, body, status, raw] of cases) {
      const res = await matchmake(path, body, p.token, raw);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String), code: expect.any(String) });
    }
    expect((await matchmake(`joinOrCreate/${WORLD_ROOM}`, {})).status).toBe(401);
    expect((await matchmake(`joinOrCreate/${WORLD_ROOM}`, {}, "not.a.token")).status).toBe(401);
    const big = await matchmake(`joinOrCreate/${WORLD_ROOM}`, { pad: "x".repeat(20_000) }, p.token);
    expect(big.status).toBe(413);
  });

  it("caps room sessions per user at ROOM_SESSIONS_PER_USER (429) and frees a seat when one leaves", async () => {
    const p = await registerPlayer(t, "mc");
    const other = await registerPlayer(t, "mo");
    for (let i = 0; i < CAP; i += 1) open.push(await joinWorld(t.baseUrl, p.token));
    const refused = await matchmake(`joinOrCreate/${WORLD_ROOM}`, {}, p.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/Too many open sessions/);
    // 20 parallel attempts beyond the cap get no seat either.
    const burst = await Promise.all(Array.from({ length: 20 }, () => matchmake(`joinOrCreate/${WORLD_ROOM}`, {}, p.token)));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(429));
    // Someone else is not affected.
    open.push(await joinWorld(t.baseUrl, other.token));
    await open.shift()!.leave();
    await new Promise((r) => setTimeout(r, 100));
    open.push(await joinWorld(t.baseUrl, p.token));
  });

  it("maps unavailability to 503 and never passes a 52x through", () => {
    expect(toRefusal(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })).status).toBe(503);
    expect(toRefusal(Object.assign(new Error("no processId available to create room world"), { code: 523 })).status).toBe(503);
    expect(toRefusal(Object.assign(new Error("process x is not available."), { code: undefined })).status).toBe(503);
    expect(toRefusal(Object.assign(new Error('room "x" not found'), { code: 522 })).status).toBe(404);
    expect(toRefusal(Object.assign(new Error("reconnection token invalid or expired."), { code: 524 })).status).toBe(410);
    expect(toRefusal(Object.assign(new Error("nope"), { code: 429 })).status).toBe(429);
  });
});
