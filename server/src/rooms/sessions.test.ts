import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@colyseus/sdk";
import { SESSION_CLOSE_SIGNED_OUT, WorldMessage } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import { joinAlliance, type AllianceTestClient } from "../test/allianceClients.js";
import { foundAlliance } from "../test/alliances.js";
import { roomSessionsOf } from "./sessions.js";

let t: TestServer;
const open: Array<WorldTestClient | AllianceTestClient> = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

/** A world client that records how it left. */
async function world(token: string): Promise<WorldTestClient & { leftWith: () => number | undefined }> {
  const c = await joinWorld(t.baseUrl, token);
  open.push(c);
  let code: number | undefined;
  c.room.onLeave((closeCode: number) => (code = closeCode));
  return Object.assign(c, { leftWith: () => code });
}

async function login(email: string, password = "secret123"): Promise<string> {
  const res = await t.api("POST", "/auth/login", { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

describe("finding 2: logout closes every room session of that token and refuses reconnection", () => {
  it("logout closes the token's world and alliance sessions with 4401 at once; the user's other token keeps its session", async () => {
    const player = await registerPlayer(t, "lo");
    const listener = await registerPlayer(t, "ll");
    const alliance = await foundAlliance(t, player);
    const otherToken = await login(player.body.email);

    const tabOne = await world(player.token);
    const tabTwo = await world(player.token);
    const allianceRoom = await joinAlliance(t.baseUrl, player.token, alliance.id);
    open.push(allianceRoom);
    const otherDevice = await world(otherToken);
    const other = await world(listener.token);
    await other.watch("chat");
    expect(roomSessionsOf(t.server.ctx)!.countOf(player.user.id)).toBe(4);
    const reconnectionToken = tabOne.room.reconnectionToken;

    expect((await t.api("POST", "/auth/logout", undefined, player.token)).status).toBe(200);
    await eventually(() => tabOne.leftWith() !== undefined && tabTwo.leftWith() !== undefined && allianceRoom.leftWith() !== undefined, "the token's sessions to close");
    expect([tabOne.leftWith(), tabTwo.leftWith(), allianceRoom.leftWith()]).toEqual([SESSION_CLOSE_SIGNED_OUT, SESSION_CLOSE_SIGNED_OUT, SESSION_CLOSE_SIGNED_OUT]);
    await eventually(() => roomSessionsOf(t.server.ctx)!.countOf(player.user.id) === 1, "only the other token's session to remain");
    expect(otherDevice.leftWith()).toBeUndefined();

    // Its chat no longer reaches anyone; the other token's still does.
    tabOne.room.send(WorldMessage.sendChat, { channel: "general", content: "after logout" });
    otherDevice.room.send(WorldMessage.sendChat, { channel: "general", content: "still signed in" });
    await eventually(() => lastMessage(other)?.content === "still signed in", "the other device's message");
    expect(other.channels()[0]!.messages.map((m) => m.content)).not.toContain("after logout");

    // The reconnection token no longer gets a seat, and the token cannot join again.
    const sdk = new Client(t.baseUrl);
    await expect(sdk.reconnect(reconnectionToken, WorldState)).rejects.toMatchObject({ code: expect.any(Number) });
    await expect(joinWorld(t.baseUrl, player.token)).rejects.toMatchObject({ code: 401 });
  });

  it("a dropped session whose token is revoked while it is away cannot reconnect", async () => {
    const player = await registerPlayer(t, "ld");
    const c = await world(player.token);
    const reconnectionToken = c.room.reconnectionToken;
    // Drop the socket without leaving: the server keeps the seat for the reconnection window.
    (c.room as unknown as { connection: { close(code?: number): void } }).connection.close(3000);
    await eventually(() => roomSessionsOf(t.server.ctx)!.countOf(player.user.id) === 1, "the kept seat");
    expect((await t.api("POST", "/auth/logout", undefined, player.token)).status).toBe(200);
    await eventually(() => roomSessionsOf(t.server.ctx)!.countOf(player.user.id) === 0, "the kept seat to be released");
    await expect(new Client(t.baseUrl).reconnect(reconnectionToken, WorldState)).rejects.toBeDefined();
  });

  it("revokeUserTokens closes every session of the user but the kept token's, and Postgres refuses those tokens", async () => {
    const player = await registerPlayer(t, "lr");
    const keep = await login(player.body.email);
    const gone = await world(player.token);
    const kept = await world(keep);
    const keptClaims = await t.server.ctx.tokens.verify(keep);

    await t.server.ctx.tokens.revokeUserTokens(player.user.id, { exceptJti: keptClaims.jti });
    await eventually(() => gone.leftWith() === SESSION_CLOSE_SIGNED_OUT, "the other token's session to close");
    expect(kept.leftWith()).toBeUndefined();
    expect((await t.api("GET", "/user/me", undefined, player.token)).status).toBe(401);
    expect((await t.api("GET", "/user/me", undefined, keep)).status).toBe(200);
    // A token issued after the revocation works.
    const fresh = await login(player.body.email);
    expect((await t.api("GET", "/user/me", undefined, fresh)).status).toBe(200);
    const again = await world(fresh);
    expect(again.leftWith()).toBeUndefined();
  });
});
