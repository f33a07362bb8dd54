import "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { matchMaker } from "@colyseus/core";
import { ALLIANCE_ROOM, ALLIANCE_ROOM_CLOSE_NOT_MEMBER, AllianceMessage, WORLD_ROOM } from "@game/schema/messages";
import { apiRequest, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { CHILD_HOOK_TIMEOUT_MS, spawnServer, stopGracefully, waitUntilListening, type ChildServer } from "../test/childServer.js";
import { eventually } from "../test/worldClients.js";
import { joinAlliance, type AllianceTestClient } from "../test/allianceClients.js";
import { buildAlliance } from "../test/alliances.js";
import { untilAnotherProcessHasFewerRooms } from "../test/twoProcesses.js";
import { processForNewRoom } from "./index.js";

/**
 * Two server processes on one Redis and one Postgres, as in WorldCluster.test.ts: the second
 * is the real entry point in a child process. joinOrCreate with filterBy finds an alliance's
 * one room from either process; and even two rooms of one alliance (a race the matchmaker
 * could lose) show the same state, because both are fed only by Postgres and the alliance's
 * events over Redis.
 */

const REDIS_DB = 12;
const JWT_SECRET = "alliance-cluster-secret-alliance-cluster-0123456789";

let a: TestServer;
let child: ChildServer | undefined;
let childUrl: string;
const clients: AllianceTestClient[] = [];

beforeAll(async () => {
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
  // both listen on port 0 and advertise the port they bound (server/src/publicAddress.ts)
  a = await startTestServer({ redisDb: REDIS_DB, publicAddress: "127.0.0.1:0", jwtSecret: JWT_SECRET });
  child = spawnServer({ PUBLIC_ADDRESS: "127.0.0.1:0", DATABASE_URL: a.databaseUrl, REDIS_URL: `${TEST_REDIS_URL}/${REDIS_DB}`, JWT_SECRET });
  await waitUntilListening(child);
  childUrl = child.baseUrl;
}, CHILD_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.leave()));
  if (child) await stopGracefully(child);
  await a?.close();
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
});

async function join(baseUrl: string, token: string, allianceId: number, roomId?: string) {
  const c = await joinAlliance(baseUrl, token, allianceId, roomId);
  clients.push(c);
  return c;
}

const operationNames = (c: AllianceTestClient) =>
  Object.values(c.json().operations ?? {})
    .map((o: any) => `${o.name}:${o.readiness}:${o.confirmedCount}`)
    .sort();

describe("alliance rooms on two processes, one Redis, one Postgres", () => {
  it("joinOrCreate from either process finds the alliance's one room; two rooms of one alliance still show the same state", async () => {
    const [owner, manager, member, target] = await Promise.all(["co", "cm", "ce", "ct"].map((p) => registerPlayer(a, p)));
    const alliance = await buildAlliance(a, owner!, [manager!], [member!]);

    // A join through the child creates the alliance's room there (alliance rooms are created by
    // the process that handles the join, rooms/index.ts processForNewRoom); a join through this
    // process finds that room.
    const viaB = await join(childUrl, member!.token, alliance.id);
    expect(matchMaker.getLocalRoomById(viaB.room.roomId)).toBeUndefined();
    const onA = await join(a.baseUrl, owner!.token, alliance.id);
    expect(onA.room.roomId).toBe(viaB.room.roomId);

    // A second room of the same alliance (what a lost creation race would leave), made here by
    // the server (clients may not create alliance rooms); the manager joins it through the
    // child, which sends the client here: the two rooms live on the two processes.
    const created = await matchMaker.handleCreateRoom(ALLIANCE_ROOM, { allianceId: alliance.id });
    const second = await join(childUrl, manager!.token, alliance.id, created.roomId);
    expect(second.room.roomId).not.toBe(onA.room.roomId);
    expect(matchMaker.getLocalRoomById(second.room.roomId)).toBeDefined();

    // An operation planned over REST on process two, joined in the room on process one.
    await a.server.database.pool.query("UPDATE countries SET troops = 9000 WHERE id = $1", [member!.countryId]);
    const planned = await apiRequest(
      childUrl,
      "POST",
      "/alliance/operations",
      { name: "Twin Strike", operationType: "reconnaissance", targetCountryId: target!.countryId, scheduledFor: Date.now() + 60_000, requirements: { minParticipants: 1, maxParticipants: 3, minTotalForce: 9000 } },
      manager!.token,
    );
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    viaB.room.send(AllianceMessage.respondOperation, { operationId: planned.body.operationId, response: "join", contribution: { troops: 9000 } });
    for (const c of [onA, viaB, second]) await eventually(() => operationNames(c).includes("Twin Strike:Ready to Launch:1"), "every room to show the ready operation");

    // Chat in one room shows in the other, leadership only to leaders.
    onA.room.send(AllianceMessage.sendChat, { channel: "leadership", content: "only for leaders" });
    await eventually(() => second.json().leadership?.channels?.leadership?.messages?.some((m: any) => m.content === "only for leaders"), "the manager on process two");
    expect(JSON.stringify(viaB.json())).not.toContain("only for leaders");

    // Same members, header and operations everywhere.
    const view = (c: AllianceTestClient) => ({ header: c.json().header, members: Object.keys(c.json().members).sort(), operations: operationNames(c) });
    await eventually(() => JSON.stringify(view(onA)) === JSON.stringify(view(second)), "the two rooms to agree");

    // A kick over REST on process two closes the manager's connection to the second room, on process one.
    const kicked = await apiRequest(childUrl, "POST", "/alliance/kick", { countryId: manager!.countryId }, owner!.token);
    expect(kicked.status).toBe(200);
    await eventually(() => second.leftWith() === ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "the kicked manager's connection to the other room to close", 2_000);
  });

  it("a new alliance room is created by the process that handles the join, even when another process has fewer rooms", async () => {
    const founder = await registerPlayer(a, "cf");
    const alliance = await buildAlliance(a, founder, [], []);
    // this process holds more rooms than the child (which holds the first test's room): two
    // world shards here, and the counts the matchmaker reads say so, so the placement of world
    // shards picks the child
    await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    await untilAnotherProcessHasFewerRooms();
    expect(await processForNewRoom(WORLD_ROOM, {})).not.toBe(matchMaker.processId);

    const joined = await join(a.baseUrl, founder.token, alliance.id);
    expect(matchMaker.getLocalRoomById(joined.room.roomId)).toBeDefined();
  });
});
