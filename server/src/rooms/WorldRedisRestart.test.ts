import "@colyseus/testing";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorldMessage } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { freePort } from "../test/childServer.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";

/**
 * Issue 29, "a room that misses an event recovers it from Postgres": the Redis server itself
 * stops and starts again (a real redis-server of this file's own, on a free port, no
 * persistence: it comes back empty). While it is down every publish fails, so the events of
 * what players did meanwhile reach no process at all, this one included; when the server's
 * subscriptions are live again its rooms read what they show from Postgres and send it.
 * WorldResync.test.ts covers the other case: one process cut off while the others publish.
 */

function startRedis(port: number): ChildProcess {
  return spawn(process.env.REDIS_SERVER_BIN ?? "redis-server", ["--port", String(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"], { stdio: "ignore" });
}

async function untilConnectable(port: number): Promise<void> {
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return;
    if (i > 400) throw new Error(`redis-server on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopped(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

let port: number;
let redis: ChildProcess | undefined;
let t: TestServer;
const open: WorldTestClient[] = [];

beforeAll(async () => {
  port = await freePort();
  redis = startRedis(port);
  await untilConnectable(port);
  t = await startTestServer({ redisUrl: `redis://127.0.0.1:${port}/0` });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.leave()));
  await t?.close();
  await stopped(redis);
});

describe("a process whose Redis server restarts", () => {
  it("sends its clients, once Redis is back, the chat line and the numbers of actions taken while it was down", async () => {
    const talker = await registerPlayer(t, "rsta");
    const listener = await registerPlayer(t, "rstb");
    const client = await joinWorld(t.baseUrl, listener.token);
    open.push(client);
    await client.watch("chat");
    await t.server.ctx.events.ready();

    await stopped(redis);
    // Redis is down: the chat line and the exploration are stored in Postgres, their events
    // go nowhere (a publish to a Redis that refuses connections fails).
    const chat = await t.api("POST", "/chat/send", { channel: "general", content: "said while Redis was down" }, talker.token);
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    const explored = await t.api("POST", "/turns/consume", { countryId: listener.countryId, quantity: 5, actionType: "exploration" }, listener.token);
    expect(explored.status, JSON.stringify(explored.body)).toBe(200);
    const { rows } = await t.server.database.pool.query<{ land: string }>("SELECT land FROM countries WHERE id = $1", [listener.countryId]);
    const land = Number(rows[0]!.land);
    await new Promise((r) => setTimeout(r, 500));
    expect(lastMessage(client)?.content).not.toBe("said while Redis was down");
    expect(client.own()?.land).not.toBe(land);

    redis = startRedis(port);
    await untilConnectable(port);
    await eventually(() => lastMessage(client)?.content === "said while Redis was down", "the chat line said while Redis was down", 20_000);
    await eventually(() => client.own()?.land === land, "the land explored while Redis was down", 20_000);
    // once, not once per resubscription
    expect((client.received.get(WorldMessage.chatMessage) ?? []).filter((m: { content: string }) => m.content === "said while Redis was down")).toHaveLength(1);
    expect(client.schemaErrors).toEqual([]);
  });
});
