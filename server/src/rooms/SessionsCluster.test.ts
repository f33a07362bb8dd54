import "@colyseus/testing";
import { describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { SESSION_CLOSE_SIGNED_OUT, WORLD_ROOM } from "@game/schema/messages";
import { apiRequest, registerPlayer } from "../test/harness.js";
import { eventually, joinWorld, joinWorldById, type WorldTestClient } from "../test/worldClients.js";
import { createRoomOnAnotherProcess, useTwoProcesses } from "../test/twoProcesses.js";

/**
 * Findings 2 and 4 across two server processes on one Redis and one Postgres: a logout on one
 * process closes the token's session hosted by the other; the per-user session cap counts
 * sessions on both.
 */

const REDIS_DB = 14;
const JWT_SECRET = "sessions-secret-sessions-secret-0123456789ab";
const CAP = 2;

const two = useTwoProcesses({ redisDb: REDIS_DB, jwtSecret: JWT_SECRET, roomSessionsPerUser: CAP });
const { clients } = two;

function track(c: WorldTestClient): WorldTestClient & { leftWith: () => number | undefined } {
  clients.push(c);
  let code: number | undefined;
  c.room.onLeave((closeCode: number) => (code = closeCode));
  return Object.assign(c, { leftWith: () => code });
}

describe("finding 2 and finding 4 across two processes (Redis)", () => {
  it("finding 2: a logout on process one closes the token's session on process two with 4401, and it cannot reconnect", async () => {
    const player = await registerPlayer(two.a, "xlo");
    // A shard here, then one the matchmaker places on the process with fewer rooms: the child.
    // (An empty room disposes itself within a second: join each at once.)
    const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    const here = track(await joinWorldById(two.a.baseUrl, player.token, local.roomId));
    const remote = await createRoomOnAnotherProcess(WORLD_ROOM);
    expect(matchMaker.getLocalRoomById(remote.roomId)).toBeUndefined();
    const there = track(await joinWorldById(two.child.baseUrl, player.token, remote.roomId));
    const reconnectionToken = there.room.reconnectionToken;

    const out = await apiRequest(two.a.baseUrl, "POST", "/auth/logout", undefined, player.token);
    expect(out.status).toBe(200);
    await eventually(() => here.leftWith() === SESSION_CLOSE_SIGNED_OUT && there.leftWith() === SESSION_CLOSE_SIGNED_OUT, "both processes to close the sessions");
    const { Client } = await import("@colyseus/sdk");
    await expect(new Client(two.child.baseUrl).reconnect(reconnectionToken)).rejects.toBeDefined();
    await expect(joinWorld(two.child.baseUrl, player.token)).rejects.toMatchObject({ code: 401 });
  });

  it("finding 4: the per-user session cap counts sessions on both processes and frees a seat when one leaves", async () => {
    const player = await registerPlayer(two.a, "xcap");
    const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    const first = track(await joinWorldById(two.a.baseUrl, player.token, local.roomId));
    const remote = await createRoomOnAnotherProcess(WORLD_ROOM);
    expect(matchMaker.getLocalRoomById(remote.roomId)).toBeUndefined();
    const second = track(await joinWorldById(two.child.baseUrl, player.token, remote.roomId));
    await expect(joinWorld(two.a.baseUrl, player.token)).rejects.toMatchObject({ code: 429 });
    await expect(joinWorld(two.child.baseUrl, player.token)).rejects.toMatchObject({ code: 429 });
    await second.leave();
    await eventually(async () => {
      try {
        track(await joinWorld(two.child.baseUrl, player.token));
        return true;
      } catch {
        return false;
      }
    }, "a seat to free up");
    expect(first.leftWith()).toBeUndefined();
  });
});
