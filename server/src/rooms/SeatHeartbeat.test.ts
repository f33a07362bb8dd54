import "@colyseus/testing";
import { describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { WORLD_ROOM } from "@game/schema/messages";
import { registerPlayer } from "../test/harness.js";
import { joinWorldById, type WorldTestClient } from "../test/worldClients.js";
import { createRoomOnAnotherProcess, useTwoProcesses } from "../test/twoProcesses.js";
import { ROOM_PROCESS_HEARTBEAT_TTL_S } from "./sessions.js";

/**
 * Issue 28: after a kill -9 and restart, a user at the room-session cap was refused (429) for
 * about 60 s: the dead process's seats counted until they went stale. Seats now belong to the
 * process hosting the session, and a process whose heartbeat key expired holds none.
 */
const REDIS_DB = 3;
const JWT_SECRET = "heartbeat-secret-heartbeat-secret-0123456789";
const CAP = 1;

const two = useTwoProcesses({ redisDb: REDIS_DB, jwtSecret: JWT_SECRET, roomSessionsPerUser: CAP });
const { clients } = two;

/** Joins a new world room hosted by this test's process. */
async function joinHere(token: string): Promise<WorldTestClient> {
  const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
  const client = await joinWorldById(two.a.baseUrl, token, local.roomId);
  clients.push(client);
  return client;
}

describe("issue 28: the seats of a killed process are released by its missing heartbeat", () => {
  it("a user at the cap whose session's process was killed -9 joins again within the heartbeat's time-to-live", async () => {
    const player = await registerPlayer(two.a, "hb");
    // a shard here, then one the matchmaker places on the process with fewer rooms: the child
    const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    const remote = await createRoomOnAnotherProcess(WORLD_ROOM);
    expect(matchMaker.getLocalRoomById(remote.roomId)).toBeUndefined();
    clients.push(await joinWorldById(two.child.baseUrl, player.token, remote.roomId));
    await expect(joinWorldById(two.a.baseUrl, player.token, local.roomId)).rejects.toMatchObject({ code: 429 });

    two.child.process.kill("SIGKILL");
    await two.child.exited;
    const killedAt = Date.now();
    let joined: WorldTestClient | undefined;
    while (!joined && Date.now() - killedAt < 20_000) {
      joined = await joinHere(player.token).catch((err: { code?: number }) => {
        expect(err.code).toBe(429);
        return undefined;
      });
      if (!joined) await new Promise((r) => setTimeout(r, 250));
    }
    expect(joined, "a seat within 20 s").toBeDefined();
    // the seat was freed by the heartbeat's expiry (10 s), not by staleness (60 s)
    expect(Date.now() - killedAt).toBeLessThanOrEqual(ROOM_PROCESS_HEARTBEAT_TTL_S * 1000 + 1_000);
  });
});
