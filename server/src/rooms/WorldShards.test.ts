import "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ColyseusTestServer } from "@colyseus/testing";
import { WorldMessage } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import type { WorldRoom } from "./WorldRoom.js";
import { announceCountryChange } from "../services/actions.js";

let t: TestServer;
let colyseus: ColyseusTestServer;
const clients: WorldTestClient[] = [];

beforeAll(async () => {
  // Two clients per shard, so three clients need two shards.
  t = await startTestServer({ worldShardSize: 2 });
  colyseus = new ColyseusTestServer(t.server.gameServer);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.leave()));
  await t?.close();
});

describe("world shards in one process", () => {
  it("joinOrCreate opens another shard when one is full, and every shard shows the same world", async () => {
    const players = [];
    for (const prefix of ["sh1", "sh2", "sh3"]) {
      const p = await registerPlayer(t, prefix);
      const client = await joinWorld(t.baseUrl, p.token);
      clients.push(client);
      await client.watch("chat", "online", "rankings");
      players.push({ ...p, client });
    }
    const [first, second, third] = players as [any, any, any];
    expect(first.client.room.roomId).toBe(second.client.room.roomId);
    expect(third.client.room.roomId).not.toBe(first.client.room.roomId);
    const shard = colyseus.getRoomById<WorldRoom>(first.client.room.roomId);
    expect(shard.maxClients).toBe(2);
    expect(shard.locked).toBe(true);

    // Chat crosses shards through the event.
    third.client.room.send(WorldMessage.sendChat, { channel: "general", content: "hello from shard two" });
    for (const p of players) await eventually(() => lastMessage(p.client)?.content === "hello from shard two", `${p.body.username} to see it`);
    for (const p of players) expect(p.client.channels()[0]!.messages.filter((m) => m.content === "hello from shard two")).toHaveLength(1);

    // A ranking change crosses shards too, and online users are the same everywhere.
    await t.server.database.pool.query("UPDATE countries SET networth = 77000000 WHERE id = $1", [first.countryId]);
    await announceCountryChange(t.server.ctx, first.countryId, "test");
    for (const p of players) {
      await eventually(() => p.client.rankings()[0]?.countryId === first.countryId, "the new leader");
      await eventually(() => Object.keys(p.client.online()).length === 3, "three online users");
    }
  });
});
