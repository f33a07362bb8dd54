import "@colyseus/testing";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { RedisPresence } from "@colyseus/redis-presence";
import pino from "pino";
import { WorldMessage } from "@game/schema/messages";
import { registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import { countryTopic, PresenceEventBus, WORLD_TOPIC } from "../events.js";
import { readWorldId } from "../db/worldIdentity.js";
import { insertChatMessage } from "../db/chat.js";
import { toChatMessageEvent } from "../services/chat.js";

/**
 * Issue 29: a process whose connection to Redis dropped misses whatever the other processes
 * published meanwhile (Redis pub/sub keeps nothing for an absent subscriber). When its
 * subscriptions are live again it reads what its rooms show from Postgres, the source of truth,
 * and sends what its clients missed. The server here reaches Redis through a proxy the test
 * cuts; "another process" publishes straight to Redis while it is cut.
 */

const REDIS_DB = 4;

/** A TCP proxy to Redis that can drop every connection and refuse new ones until restored. */
async function redisProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((incoming) => {
    if (refusing) return void incoming.destroy();
    const outgoing = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [incoming, outgoing]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s)).on("error", () => undefined);
    }
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on("close", () => outgoing.destroy());
    outgoing.on("close", () => incoming.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}/${REDIS_DB}`,
    cut() {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let t: TestServer;
let proxy: Awaited<ReturnType<typeof redisProxy>>;
const open: WorldTestClient[] = [];
const direct = new RedisPresence(`${TEST_REDIS_URL}/${REDIS_DB}`);

beforeAll(async () => {
  proxy = await redisProxy(new URL(TEST_REDIS_URL));
  t = await startTestServer({ redisUrl: proxy.url });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.leave()));
  await t?.close();
  await proxy?.close();
  await (direct as unknown as { shutdown?: () => Promise<void> }).shutdown?.();
  (direct as unknown as { sub: Redis; pub: Redis }).sub.disconnect();
  (direct as unknown as { sub: Redis; pub: Redis }).pub.disconnect();
});

describe("a process that loses Redis for a while", () => {
  it("sends its clients, once it is back, the chat line and the numbers published while it was away", async () => {
    const p = await registerPlayer(t, "resync");
    const client = await joinWorld(t.baseUrl, p.token);
    open.push(client);
    await client.watch("chat");
    const worldId = await readWorldId(t.server.database.pool);
    const otherProcess = new PresenceEventBus(direct, pino({ level: "silent" }), worldId);

    proxy.cut();
    // While this process is away, another one writes a chat line and a country change and
    // publishes both: Redis delivers them to nobody here.
    const row = await insertChatMessage(t.server.database.pool, {
      channel: "general",
      allianceScope: 0,
      type: "message",
      senderUserId: p.user.id,
      senderCountryId: p.countryId,
      senderName: p.body.username,
      senderRole: "member",
      allianceTag: "",
      content: "said while you were away",
      mentions: [],
    });
    otherProcess.publish(WORLD_TOPIC, { type: "chatMessage", channelId: "general", message: toChatMessageEvent(row) });
    const { rows } = await t.server.database.pool.query<{ updated_at: Date }>("UPDATE countries SET cash = 4242424 WHERE id = $1 RETURNING updated_at", [p.countryId]);
    otherProcess.publish(countryTopic(p.countryId), {
      type: "countryChanged",
      countryId: p.countryId,
      reason: "elsewhere",
      numbers: { version: rows[0]!.updated_at.getTime(), name: p.body.countryName, turns: 100, storedTurns: 0, cash: 4242424, food: 10000, oil: 100, networth: 1, population: 1000, land: 100 },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(lastMessage(client)?.content).not.toBe("said while you were away");
    expect(client.own()?.cash).not.toBe(4242424);

    proxy.restore();
    await eventually(() => lastMessage(client)?.content === "said while you were away", "the missed chat line after the reconnection", 15_000);
    await eventually(() => client.own()?.cash === 4242424, "the missed numbers after the reconnection", 15_000);
    // once
    expect((client.received.get(WorldMessage.chatMessage) ?? []).filter((m: { id: string }) => m.id === String(row.id))).toHaveLength(1);
    expect(client.schemaErrors).toEqual([]);
  });
});
