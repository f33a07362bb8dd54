import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ColyseusTestServer } from "@colyseus/testing";
import { Client } from "@colyseus/sdk";
import { WORLD_ROOM, WorldMessage, type WatchTopic } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import type { WorldRoom } from "./WorldRoom.js";
import { WorldFeeds } from "./world/WorldFeeds.js";
import { announceCountryChange } from "../services/actions.js";
import { countryTopic, WORLD_TOPIC } from "../events.js";

let t: TestServer;
let colyseus: ColyseusTestServer;
const open: WorldTestClient[] = [];

beforeAll(async () => {
  t = await startTestServer();
  colyseus = new ColyseusTestServer(t.server.gameServer);
});
afterEach(async () => {
  const clients = open.splice(0);
  // every message every client received matched its catalogue entry
  expect(clients.flatMap((c) => c.schemaErrors)).toEqual([]);
  await Promise.all(clients.map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

/** A registered player joined to the world, watching what `watching` says its screen shows. */
async function player(prefix: string, ...watching: WatchTopic[]) {
  const p = await registerPlayer(t, prefix);
  const client = await joinWorld(t.baseUrl, p.token);
  open.push(client);
  if (watching.length) await client.watch(...watching);
  return { ...p, client, userId: p.user.id as number };
}

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

describe("world room: chat between two clients", () => {
  it("one client chats, the other (watching the chat) receives it once, with the spec's fields", async () => {
    const a = await player("chata", "chat");
    const b = await player("chatb", "chat");
    expect(a.client.room.roomId).toBe(b.client.room.roomId);

    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "  hello @" + b.body.username + " and welcome  " });
    const seen = await eventually(() => lastMessage(b.client)?.senderName === a.body.username && lastMessage(b.client), "B to receive A's message");
    expect(seen).toMatchObject({
      channel: "general",
      type: "message",
      senderId: a.userId,
      senderName: a.body.username,
      senderRole: "member",
      allianceTag: "",
      content: `hello @${b.body.username} and welcome`,
      mentions: [b.body.username],
      isEdited: false,
    });
    expect(Math.abs(seen.timestamp - Date.now())).toBeLessThan(10_000);
    // Applied from the event only: exactly once in the sender's room too.
    await eventually(() => lastMessage(a.client)?.id === seen.id, "A to see its own message");
    await new Promise((r) => setTimeout(r, 200));
    const copies = (a.client.received.get(WorldMessage.chatMessage) ?? []).filter((m: any) => m.id === seen.id);
    expect(copies).toHaveLength(1);
    // Persisted.
    const { rows } = await sql("SELECT content, mentions FROM chat_messages WHERE id = $1", [Number(seen.id)]);
    expect(rows[0]).toEqual({ content: seen.content, mentions: [b.body.username] });
  });

  it("a room created later starts with the recent messages from Postgres", async () => {
    const a = await player("histA", "chat");
    a.client.room.send(WorldMessage.sendChat, { channel: "trade", content: "selling 100 tanks" });
    await eventually(() => lastMessage(a.client, "trade")?.content === "selling 100 tanks", "the trade message");
    await a.client.leave();
    await eventually(() => t.server.gameServer && colyseus.getRoomById(a.client.room.roomId) === undefined, "the empty room to dispose");
    const b = await player("histB", "chat");
    expect(lastMessage(b.client, "trade")?.content).toBe("selling 100 tanks");
  });

  it("a client that watches nothing receives no chat line, and starts to when its screen shows the chat", async () => {
    const a = await player("quietA");
    const b = await player("quietB", "chat");
    b.client.room.send(WorldMessage.sendChat, { channel: "general", content: "anyone?" });
    await eventually(() => lastMessage(b.client)?.content === "anyone?", "the sender's own line");
    await new Promise((r) => setTimeout(r, 300));
    expect(a.client.received.get(WorldMessage.chatMessage)).toBeUndefined();
    await a.client.watch("chat");
    expect(lastMessage(a.client)?.content).toBe("anyone?");
    await a.client.watch();
    b.client.room.send(WorldMessage.sendChat, { channel: "general", content: "bye" });
    await eventually(() => lastMessage(b.client)?.content === "bye", "the second line");
    await new Promise((r) => setTimeout(r, 300));
    expect(a.client.received.get(WorldMessage.chatMessage)).toBeUndefined();
  });
});

describe("world room: the own country summary is private", () => {
  it("a client receives its own numbers and never another player's", async () => {
    const a = await player("privA", "chat", "online", "rankings");
    const b = await player("privB", "chat", "online", "rankings");
    // Give A numbers nobody else has, then announce the change like a service does.
    await sql("UPDATE countries SET cash = 7654321, food = 24680 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "test");
    await eventually(() => a.client.own()?.cash === 7654321, "A's new cash");
    expect(a.client.own()).toMatchObject({ countryId: a.countryId, name: a.body.countryName, turns: 100, storedTurns: 0, food: 24680, oil: 100, population: 1000, land: 100 });

    await new Promise((r) => setTimeout(r, 1_300));
    // Everything B received on the wire: state and every message.
    const seenByB = JSON.stringify({ state: b.client.json(), messages: Object.fromEntries(b.client.received) });
    expect(seenByB).not.toContain("7654321");
    expect(seenByB).not.toContain("24680");
    expect(b.client.own()?.countryId).toBe(b.countryId);
    for (const own of b.client.received.get(WorldMessage.own) ?? []) expect(own.countryId ?? b.countryId).toBe(b.countryId);
    // The online list carries public numbers only.
    const aOnline = b.client.online()[String(a.userId)]!;
    expect(Object.keys(aOnline).sort()).toEqual(["allianceName", "allianceTag", "government", "id", "isOnline", "name", "networth", "role"]);
  });
});

describe("world room: live rankings and summaries", () => {
  it("an action (row written, countryChanged published) changes the actor's summary and the rankings", async () => {
    const a = await player("rankA", "rankings");
    const b = await player("rankB", "rankings");
    await sql("UPDATE countries SET land = land + 500, networth = networth + 1000000, turns = turns - 5 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "exploration");

    await eventually(() => a.client.own()?.turns === 95 && a.client.own()?.land === 600, "A's summary");
    for (const c of [a.client, b.client]) {
      const top = await eventually(() => {
        const row = c.rankings()[0];
        return row?.countryId === a.countryId && row;
      }, "A at rank 1");
      expect(top).toMatchObject({ rank: 1, id: String(a.countryId), countryName: a.body.countryName, playerName: a.body.username, governmentType: "monarchy", land: 600, isOnline: true });
      expect(top.value).toBeGreaterThan(1_000_000);
    }
    // B's summary is untouched.
    expect(b.client.own()!.turns).toBe(100);
  });

  it("exploring over REST (POST /api/turns/consume) updates the summary and the rankings", async () => {
    const a = await player("explA", "rankings");
    const probe = await t.api("POST", "/turns/consume", { countryId: a.countryId, quantity: 1, actionType: "exploration" }, a.token);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const country = (await t.api("GET", `/country/${a.countryId}`, undefined, a.token)).body.country;
    await eventually(() => a.client.own()?.turns === country.turns && a.client.own()?.land === Number(country.land), "the summary after exploring");
    await eventually(() => a.client.rankings().find((r) => r.countryId === a.countryId)?.land === Number(country.land), "the ranking row after exploring");
  });

  it("after a run of real actions, the own numbers a client holds equal the database's", async () => {
    const a = await player("convA");
    const act = (path: string, body: object) => t.api("POST", path, { countryId: a.countryId, ...body }, a.token);
    expect((await act("/exploration/explore", { turnsToSpend: 3 })).status).toBe(200);
    expect((await act("/buildings/construct", { buildingType: "farms", quantity: 1 })).status).toBe(200);
    expect((await act("/market/store/buy", { itemId: "troops", quantity: 10 })).status).toBe(200);
    expect((await act("/exploration/explore", { turnsToSpend: 1 })).status).toBe(200);
    const { rows } = await sql("SELECT name, turns, stored_turns, cash, food, oil, networth, population, land FROM countries WHERE id = $1", [a.countryId]);
    const db = rows[0];
    const expected = {
      name: db.name,
      turns: Number(db.turns),
      storedTurns: Number(db.stored_turns),
      cash: Number(db.cash),
      food: Number(db.food),
      oil: Number(db.oil),
      networth: Number(db.networth),
      population: Number(db.population),
      land: Number(db.land),
    };
    await eventually(() => JSON.stringify(a.client.own() && Object.fromEntries(Object.keys(expected).map((k) => [k, (a.client.own() as any)[k]]))) === JSON.stringify(expected), "the own numbers to equal the database's");
  });

  it("a tick updates every joined client's turns and the season clock", async () => {
    const a = await player("tickA");
    const b = await player("tickB");
    await sql("UPDATE countries SET turns = turns + 1 WHERE id = ANY($1::bigint[])", [[a.countryId, b.countryId]]);
    const nextTickAt = Date.now() + 1_200_000;
    t.server.ctx.events.publish(WORLD_TOPIC, { type: "tick", tickNumber: 4242, nextTickAt, turnIntervalMs: 1_200_000 });
    for (const c of [a.client, b.client]) {
      await eventually(() => c.own()?.turns === 101, "turns after the tick");
      // the state is patched once per WORLD_PATCH_INTERVAL_MS
      await eventually(() => c.json().season.tickNumber === 4242, "the season clock after the tick");
      expect(c.json().season).toMatchObject({ tickNumber: 4242, nextTickAt, turnIntervalMs: 1_200_000, name: "Season 1", active: "ACTIVE" });
    }
  });
});

describe("world room: bad messages are refused, the room stays up", () => {
  it("too long, wrong shape, unknown type and a flood each get an 'error'; the room keeps working", async () => {
    const a = await player("badA", "chat");
    const b = await player("badB", "chat");
    const errors = () => a.client.received.get(WorldMessage.error) ?? [];

    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "x".repeat(501) });
    await eventually(() => errors().length === 1, "the too-long refusal");
    expect(errors()[0]).toEqual({ code: "chat/invalid", message: "Message must be at most 500 characters" });

    a.client.room.send(WorldMessage.sendChat, 12345 as any);
    a.client.room.send(WorldMessage.sendChat, { channel: "general" } as any);
    a.client.room.send(WorldMessage.sendChat, { channel: "nowhere", content: "hi" });
    a.client.room.send("teleport" as any, { x: 1 });
    await eventually(() => errors().length === 5, "four more refusals");
    // The unknown type is answered at once, the chat refusals after their async checks.
    expect(
      errors()
        .slice(1)
        .map((e: any) => e.code)
        .sort(),
    ).toEqual(["chat/invalid", "chat/invalid", "chat/invalid", "message/unknown"]);

    // Flood: the chat limit (5 per 10 s) refuses the rest politely, without a disconnect.
    for (let i = 0; i < 8; i++) a.client.room.send(WorldMessage.sendChat, { channel: "general", content: `spam ${i}` });
    await eventually(() => errors().filter((e: any) => e.code === "chat/rate_limited").length === 3, `three rate-limit refusals, got ${JSON.stringify(errors())}`);
    await eventually(() => b.client.channels()[0]!.messages.filter((m) => m.content.startsWith("spam")).length === 5, "five accepted");

    // Still connected and served.
    b.client.room.send(WorldMessage.sendChat, { channel: "general", content: "still here?" });
    await eventually(() => lastMessage(a.client)?.content === "still here?", "A to receive B's message after the flood");
    expect(a.client.room.connection.isOpen).toBe(true);
    // A watch of something that is not a screen's topic is refused too.
    a.client.room.send(WorldMessage.watch, { topics: ["everything"] } as any);
    await eventually(() => errors().some((e: any) => e.code === "watch/invalid"), "the watch refusal");
    const room = colyseus.getRoomById<WorldRoom>(a.client.room.roomId);
    expect(room.clients.length).toBeGreaterThanOrEqual(2);
  });
});

describe("world room: commands and ignore", () => {
  it("/help, /time and /who are answered to the sender only", async () => {
    const a = await player("cmdA", "chat");
    const b = await player("cmdB", "chat");
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "/help" });
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "/time" });
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "/who" });
    const replies = await eventually(() => (a.client.received.get(WorldMessage.chatCommand)?.length === 3 ? a.client.received.get(WorldMessage.chatCommand) : undefined), "three replies");
    const reply = (command: string) => replies!.find((r: any) => r.command === command);
    // One client's messages are handled in the order sent, so the answers come back in that order.
    expect(replies!.map((r: any) => r.command)).toEqual(["help", "time", "who"]);
    expect(reply("help").lines.join("\n")).toContain("/ignore");
    expect(reply("time").lines[0]).toMatch(/^Server time: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(reply("time").lines[1]).toMatch(/^Next turn: \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in \d+ minutes?\)$/);
    expect(reply("who").lines.join("\n")).toContain(b.body.username);
    expect(b.client.received.get(WorldMessage.chatCommand)).toBeUndefined();
    expect(b.client.channels()[0]!.messages.some((m) => m.content.startsWith("/"))).toBe(false);
  });

  it("/ignore is persisted and lands in the ignorer's private summary", async () => {
    const a = await player("ignA");
    const b = await player("ignB");
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: `/ignore ${b.body.username}` });
    await eventually(() => a.client.own()?.ignoredUserIds?.includes(b.userId), "B in A's ignore list");
    expect(a.client.received.get(WorldMessage.chatCommand)![0]).toEqual({ command: "ignore", lines: [`You now ignore ${b.body.username}`] });
    const { rows } = await sql("SELECT ignored_user_id FROM chat_ignores WHERE user_id = $1", [a.userId]);
    expect(rows.map((r) => Number(r.ignored_user_id))).toEqual([b.userId]);
    expect(b.client.own()!.ignoredUserIds).toEqual([]);
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: "/ignore nobody-by-this-name" });
    await eventually(() => a.client.received.get(WorldMessage.error)?.[0]?.code === "chat/unknown_user", "unknown user refusal");
  });
});

describe("world room: alliance and leadership channels", () => {
  it("alliance messages reach that alliance's members only and never the shared state", async () => {
    const a = await player("allyA");
    const b = await player("allyB");
    const c = await player("allyC");
    const outsider = await player("allyX");
    await sql("UPDATE countries SET alliance_id = 901 WHERE id = ANY($1::bigint[])", [[a.countryId, b.countryId]]);
    await sql("UPDATE countries SET alliance_id = 902 WHERE id = $1", [c.countryId]);
    for (const [p, allianceId] of [
      [a, 901],
      [b, 901],
      [c, 902],
    ] as const) {
      t.server.ctx.events.publish(countryTopic(p.countryId), { type: "membershipChanged", countryId: p.countryId, allianceId, allianceRole: "member" });
    }
    await new Promise((r) => setTimeout(r, 600));

    a.client.room.send(WorldMessage.sendChat, { channel: "alliance", content: "attack at dawn" });
    const got = await eventually(() => b.client.received.get(WorldMessage.chatMessage)?.[0], "B to get the alliance message");
    expect(got).toMatchObject({ channel: "alliance", content: "attack at dawn", senderName: a.body.username });
    await new Promise((r) => setTimeout(r, 300));
    expect(c.client.received.get(WorldMessage.chatMessage)).toBeUndefined();
    expect(outsider.client.received.get(WorldMessage.chatMessage)).toBeUndefined();
    for (const p of [a, b, c, outsider]) expect(JSON.stringify(p.client.json())).not.toContain("attack at dawn");
    for (const p of [c, outsider]) expect(JSON.stringify(Object.fromEntries(p.client.received))).not.toContain("attack at dawn");

    outsider.client.room.send(WorldMessage.sendChat, { channel: "alliance", content: "let me in" });
    a.client.room.send(WorldMessage.sendChat, { channel: "leadership", content: "leaders only" });
    await eventually(() => outsider.client.received.get(WorldMessage.error)?.[0]?.code === "chat/no_access", "outsider refused");
    await eventually(() => a.client.received.get(WorldMessage.error)?.[0]?.code === "chat/no_access", "member refused from leadership");
  });
});

describe("world room: a full world", () => {
  it("a joining client watching everything gets the snapshots of a full world intact: 500 listed of 520 online, 150 long lines", async () => {
    const a = await player("bigA", "chat", "online");
    for (let i = 0; i < 520; i++) {
      t.server.ctx.events.publish(WORLD_TOPIC, {
        type: "userOnline",
        user: { userId: 20_000_000 + i, countryId: 20_000_000 + i, name: `bulk-user-${i}`, role: "member", allianceId: null, allianceName: "", allianceTag: "", government: "monarchy", networth: 5_000_000 + i },
      });
    }
    for (const channel of ["general", "trade", "war"]) {
      for (let i = 0; i < 50; i++) {
        const id = String(900_000_000 + i + (channel === "trade" ? 1000 : channel === "war" ? 2000 : 0));
        t.server.ctx.events.publish(WORLD_TOPIC, {
          type: "chatMessage",
          channelId: channel,
          message: { id, channel, type: "message", senderId: 1, senderName: "bulk", senderRole: "member", allianceTag: "", timestamp: Date.now(), content: "\u{1F600}".repeat(500), mentions: [] },
        });
      }
    }
    await eventually(() => a.client.channels().find((c) => c.id === "war")!.messages.length === 50 && Object.keys(a.client.online()).length === 500, "the full world at A");
    const b = await player("bigB", "chat", "online");
    expect(b.client.own()?.countryId).toBe(b.countryId);
    expect(b.client.channels().find((c) => c.id === "war")!.messages).toHaveLength(50);
    expect(Object.keys(b.client.online())).toHaveLength(500);
    expect(b.client.json().season.name).toBe("Season 1");
    for (let i = 0; i < 520; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 20_000_000 + i });
  });
});

describe("world room: notices", () => {
  it("a notice on country:{id} reaches that player's clients only", async () => {
    const a = await player("noteA");
    const b = await player("noteB");
    const notice = { id: "battle-1", kind: "attacked", severity: "danger" as const, title: "Under attack", body: "X attacked you", at: Date.now(), view: "military" };
    t.server.ctx.events.publish(countryTopic(a.countryId), { type: "notice", countryId: a.countryId, notice });
    const got = await eventually(() => a.client.received.get(WorldMessage.notice)?.[0], "A's notice");
    expect(got).toEqual(notice);
    await new Promise((r) => setTimeout(r, 200));
    expect(b.client.received.get(WorldMessage.notice)).toBeUndefined();
  });
});

describe("world room: presence, auth, reconnection", () => {
  it("online users appear on join and leave on leave, for a client watching who is online", async () => {
    const a = await player("onA", "chat", "online");
    const b = await player("onB");
    await eventually(() => a.client.online()[String(b.userId)]?.name === b.body.username, "B online for A");
    await eventually(() => a.client.channels()[0]!.userCount >= 2, "the general channel's count");
    await b.client.leave();
    await eventually(() => a.client.online()[String(b.userId)] === undefined, "B offline for A");
  });

  it("a join and a leave wake no client that does not watch who is online: no message, no patch", async () => {
    const a = await player("wakeA");
    // a room's first patch carries what it loaded at creation; count from after it
    await new Promise((r) => setTimeout(r, 1_200));
    let patches = 0;
    const changes: string[] = [];
    a.client.room.onStateChange((state: any) => {
      patches += 1;
      changes.push(JSON.stringify(state.toJSON()).slice(0, 300));
    });
    const before = [...a.client.received.values()].reduce((n, list) => n + list.length, 0);
    const b = await player("wakeB");
    await b.client.leave();
    // longer than a patch and a feed interval
    await new Promise((r) => setTimeout(r, 2_500));
    expect([...a.client.received.values()].reduce((n, list) => n + list.length, 0)).toBe(before);
    expect(changes).toEqual([]);
    expect(patches).toBe(0);
  });

  it("lists at most 500 online users, the richest, but counts them all", async () => {
    const a = await player("capA", "chat", "online");
    const fake = (i: number) => ({ userId: 10_000_000 + i, countryId: 10_000_000 + i, name: `ghost${i}`, role: "member", allianceId: null, allianceName: "", allianceTag: "", government: "monarchy", networth: 1_000_000 + i });
    for (let i = 0; i < 520; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOnline", user: fake(i) });
    await eventually(() => a.client.channels()[0]!.userCount >= 521, "every user counted");
    const listed = a.client.online();
    expect(Object.keys(listed)).toHaveLength(500);
    // The poorest ghosts (and the real players, poorer still) are the ones left out.
    expect(listed[String(10_000_000 + 519)]).toBeDefined();
    expect(listed[String(10_000_000)]).toBeUndefined();
    // When a listed user leaves, the richest unlisted one takes the place.
    t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 10_000_000 + 519 });
    await eventually(() => a.client.online()[String(10_000_000 + 19)], "ghost19 listed");
    for (let i = 0; i < 520; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 10_000_000 + i });
    await eventually(() => a.client.online()[String(a.userId)], "the real player listed again");
  });

  it("refuses a bad token with 401 and a user without a country with 403", async () => {
    const sdk = new Client(t.baseUrl);
    sdk.auth.token = "not.a.token";
    await expect(sdk.joinOrCreate(WORLD_ROOM, {}, WorldState)).rejects.toMatchObject({ code: 401 });
    const p = await registerPlayer(t, "nocountry");
    await sql("DELETE FROM countries WHERE id = $1", [p.countryId]);
    const sdk2 = new Client(t.baseUrl);
    sdk2.auth.token = p.token;
    await expect(sdk2.joinOrCreate(WORLD_ROOM, {}, WorldState)).rejects.toMatchObject({ code: 403 });
  });

  it("a dropped client gets its seat back with the same session and summary", async () => {
    const a = await player("dropA");
    const sessionId = a.client.room.sessionId;
    a.client.room.reconnection.minUptime = 0;
    const reconnected = new Promise<void>((resolve) => a.client.room.onReconnect(() => resolve()));
    const metrics = t.server.ctx.metrics;
    const dropsBefore = metrics.roomDrops.get({ room: "world", code: "1006" });
    const reconnectsBefore = metrics.roomReconnects.get({ room: "world" });
    // Cut the socket without a leave message: the server sees an abnormal close.
    (a.client.room.connection as any).transport.ws.terminate?.() ?? (a.client.room.connection as any).transport.ws.close(4999);
    await reconnected;
    expect(a.client.room.sessionId).toBe(sessionId);
    // the soak counts drops and their causes from these (docs/reliability.md)
    expect(metrics.roomDrops.get({ room: "world", code: "1006" })).toBe(dropsBefore + 1);
    expect(metrics.roomReconnects.get({ room: "world" })).toBe(reconnectsBefore + 1);
    await sql("UPDATE countries SET cash = 3141592 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "test");
    await eventually(() => a.client.own()?.cash === 3141592, "updates after reconnecting");
  });

  it("after a reconnection the feeds the client watches reach it again, and its leave releases it from them", async () => {
    // Colyseus gives a client that got its seat back a new client object; the old one, which
    // the process's feeds held, sends nothing any more (issue 29: a cluster run's client lost
    // everything after a socket drop)
    const a = await player("feedA", "chat");
    const b = await player("feedB");
    const feeds = WorldFeeds.of(t.server.ctx);
    const watchersBefore = feeds.watcherCount("chat");
    a.client.room.reconnection.minUptime = 0;
    const reconnected = new Promise<void>((resolve) => a.client.room.onReconnect(() => resolve()));
    (a.client.room.connection as any).transport.ws.terminate?.() ?? (a.client.room.connection as any).transport.ws.close(4999);
    await reconnected;
    b.client.room.send(WorldMessage.sendChat, { channel: "general", content: "said after your reconnection" });
    await eventually(() => lastMessage(a.client)?.content === "said after your reconnection", "the chat line after the reconnection");
    expect(feeds.watcherCount("chat")).toBe(watchersBefore);
    await a.client.leave();
    await eventually(() => feeds.watcherCount("chat") === watchersBefore - 1, "the client released from the chat feed");
  });
});
