import "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { matchMaker } from "@colyseus/core";
import { WORLD_ROOM, WorldMessage } from "@game/schema/messages";
import { apiRequest, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { CHILD_HOOK_TIMEOUT_MS, spawnServer, stopGracefully, waitUntilListening, type ChildServer } from "../test/childServer.js";
import { createRoomOnAnotherProcess } from "../test/twoProcesses.js";
import { eventually, joinWorldById, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import { announceCountryChange } from "../services/actions.js";

/**
 * Two server processes on one Redis and one Postgres. Colyseus's matchMaker is a module
 * singleton, so the second server cannot live in this test process: it is the real entry
 * point (server/src/main.ts) in a child process. Each process gets its own port and
 * publicAddress so a seat reservation sends the client to the process hosting its room.
 */

const REDIS_DB = 5;
const JWT_SECRET = "cluster-secret-cluster-secret-cluster-0123456789";

let a: TestServer;
let child: ChildServer | undefined;
let childUrl: string;
const clients: WorldTestClient[] = [];

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

describe("two server processes, one Redis, one Postgres", () => {
  // No retry. The chat line that used to go missing about once in three full-suite runs was
  // another test file's: Redis pub/sub channels are shared by every database index, so a
  // concurrent test's chat line with the same id reached this world and the real one was
  // dropped as its duplicate. Channels are now named after the world (migration 021;
  // events.test.ts, "event topics of two worlds on one Redis").
  it("a client on each process (two shards) sees the other's chat message and ranking change", async () => {
    const p1 = await registerPlayer(a, "clu1");
    const p2 = await registerPlayer(a, "clu2");

    // Shard one on this process, created here; the client joins it by id.
    const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    const c1 = await joinWorldById(a.baseUrl, p1.token, local.roomId);
    clients.push(c1);
    await c1.watch("chat", "online", "rankings");
    // Shard two: creating one (server-side: clients may not create world rooms, finding 4)
    // puts it on the process with fewer rooms, which is the other process.
    const remote = await createRoomOnAnotherProcess(WORLD_ROOM);
    const c2 = await joinWorldById(childUrl, p2.token, remote.roomId);
    clients.push(c2);
    await c2.watch("chat", "online", "rankings");
    expect(c2.room.roomId).not.toBe(c1.room.roomId);
    expect(matchMaker.getLocalRoomById(c1.room.roomId)).toBeDefined();
    expect(matchMaker.getLocalRoomById(c2.room.roomId)).toBeUndefined();

    // Both processes listen before anyone speaks: this process's topic subscriptions are
    // confirmed by Redis, and each client sees the other online (an event that crossed both ways).
    await a.server.ctx.events.ready();
    await eventually(() => c1.online()[String(p2.user.id)] && c2.online()[String(p1.user.id)], "each to see the other online before chatting", 20_000);

    // Chat both ways.
    c2.room.send(WorldMessage.sendChat, { channel: "general", content: "hello from process two" });
    await eventually(() => lastMessage(c1)?.content === "hello from process two", "process one's client to see it").catch((err) => {
      throw new Error(
        `${err.message}; c1 general: ${JSON.stringify(c1.channels()[0]?.messages.map((m) => m.content))}; c2 general: ${JSON.stringify(c2.channels()[0]?.messages.map((m) => m.content))}; c2 received: ${JSON.stringify(Object.fromEntries([...c2.received].map(([k, v]) => [k, v.slice(-3)])))}`,
      );
    });
    c1.room.send(WorldMessage.sendChat, { channel: "general", content: "hello from process one" });
    await eventually(() => lastMessage(c2)?.content === "hello from process one", "process two's client to see it");
    for (const c of [c1, c2]) {
      await eventually(() => c.channels()[0]!.messages.length === 2, "both messages on each process");
      expect(c.channels()[0]!.messages.map((m) => m.content)).toEqual(["hello from process two", "hello from process one"]);
    }

    // Presence crosses processes.
    await eventually(() => c1.online()[String(p2.user.id)] && c2.online()[String(p1.user.id)], "each to see the other online");

    // An action over REST on process two changes the ranking seen on process one.
    const explored = await apiRequest(childUrl, "POST", "/turns/consume", { countryId: p2.countryId, quantity: 5, actionType: "exploration" }, p2.token);
    expect(explored.status, JSON.stringify(explored.body)).toBe(200);
    const { rows } = await a.server.database.pool.query("SELECT land, networth FROM countries WHERE id = $1", [p2.countryId]);
    await eventually(() => c1.rankings().find((r) => r.countryId === p2.countryId)?.land === Number(rows[0].land), "process one to see p2's new land");
    await eventually(() => c2.own()?.land === Number(rows[0].land), "p2's own summary on process two");

    // And a change made on process one reaches the client on process two.
    await a.server.database.pool.query("UPDATE countries SET networth = 88000000 WHERE id = $1", [p1.countryId]);
    await announceCountryChange(a.server.ctx, p1.countryId, "test");
    await eventually(() => c2.rankings()[0]?.countryId === p1.countryId, "process two to see the new leader");
    expect([...c1.schemaErrors, ...c2.schemaErrors]).toEqual([]);
  });
});
