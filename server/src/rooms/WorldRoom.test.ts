import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ColyseusTestServer } from "@colyseus/testing";
import { Client } from "@colyseus/sdk";
import { WORLD_ROOM, WorldMessage } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, lastMessage, type WorldTestClient } from "../test/worldClients.js";
import type { WorldRoom } from "./WorldRoom.js";
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
  await Promise.all(open.splice(0).map((c) => c.leave()));
  // A fresh rate window for every test (the chat limit is per user across rooms).
});
afterAll(async () => {
  await t?.close();
});

async function player(prefix: string) {
  const p = await registerPlayer(t, prefix);
  const client = await joinWorld(t.baseUrl, p.token);
  open.push(client);
  return { ...p, client, userId: p.user.id as number };
}

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

describe("world room: chat between two clients", () => {
  it("one client chats, the other receives it through the state, once, with the spec's fields", async () => {
    const a = await player("chata");
    const b = await player("chatb");
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
    const copies = a.client.json().channels.general.messages.filter((m: any) => m.id === seen.id);
    expect(copies).toHaveLength(1);
    // Persisted.
    const { rows } = await sql("SELECT content, mentions FROM chat_messages WHERE id = $1", [Number(seen.id)]);
    expect(rows[0]).toEqual({ content: seen.content, mentions: [b.body.username] });
  });

  it("a room created later starts with the recent messages from Postgres", async () => {
    const a = await player("histA");
    a.client.room.send(WorldMessage.sendChat, { channel: "trade", content: "selling 100 tanks" });
    await eventually(() => lastMessage(a.client, "trade")?.content === "selling 100 tanks", "the trade message");
    await a.client.leave();
    await eventually(() => t.server.gameServer && colyseus.getRoomById(a.client.room.roomId) === undefined, "the empty room to dispose");
    const b = await player("histB");
    expect(lastMessage(b.client, "trade")?.content).toBe("selling 100 tanks");
  });
});

describe("world room: the own country summary is private", () => {
  it("a client sees its own summary and never another's", async () => {
    const a = await player("privA");
    const b = await player("privB");
    // Give A numbers nobody else has, then announce the change like a service does.
    await sql("UPDATE countries SET cash = 7654321, food = 24680 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "test");
    await eventually(() => a.client.own()?.cash === 7654321, "A's new cash");

    expect(a.client.own()).toMatchObject({ countryId: a.countryId, name: a.body.countryName, turns: 100, storedTurns: 0, food: 24680, oil: 100, population: 1000, land: 100 });
    expect(Object.keys(a.client.json().countries)).toEqual([a.client.room.sessionId]);

    await new Promise((r) => setTimeout(r, 300));
    const seenByB = b.client.json();
    expect(Object.keys(seenByB.countries)).toEqual([b.client.room.sessionId]);
    expect(seenByB.countries[a.client.room.sessionId]).toBeUndefined();
    const text = JSON.stringify(seenByB);
    expect(text).not.toContain("7654321");
    expect(text).not.toContain("24680");
    // The online list and rankings carry public numbers only.
    const aOnline = seenByB.onlineUsers[String(a.userId)];
    expect(Object.keys(aOnline).sort()).toEqual(["allianceName", "allianceTag", "government", "id", "isOnline", "name", "networth", "role"]);
  });
});

describe("world room: live rankings and summaries", () => {
  it("an action (row written, countryChanged published) changes the actor's summary and the rankings", async () => {
    const a = await player("rankA");
    const b = await player("rankB");
    await sql("UPDATE countries SET land = land + 500, networth = networth + 1000000, turns = turns - 5 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "exploration");

    await eventually(() => a.client.own()?.turns === 95 && a.client.own()?.land === 600, "A's summary");
    for (const c of [a.client, b.client]) {
      const top = await eventually(() => {
        const row = c.json().rankings[0];
        return row?.countryId === a.countryId && row;
      }, "A at rank 1");
      expect(top).toMatchObject({ rank: 1, id: String(a.countryId), countryName: a.body.countryName, playerName: a.body.username, governmentType: "monarchy", land: 600, isOnline: true });
      expect(top.value).toBeGreaterThan(1_000_000);
    }
    // B's summary is untouched.
    expect(b.client.own().turns).toBe(100);
  });

  it("exploring over REST (POST /api/turns/consume) updates the summary and the rankings", async () => {
    const a = await player("explA");
    const probe = await t.api("POST", "/turns/consume", { countryId: a.countryId, quantity: 1, actionType: "exploration" }, a.token);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const country = (await t.api("GET", `/country/${a.countryId}`, undefined, a.token)).body.country;
    await eventually(() => a.client.own()?.turns === country.turns && a.client.own()?.land === Number(country.land), "the summary after exploring");
    await eventually(() => a.client.json().rankings.find((r: any) => r.countryId === a.countryId)?.land === Number(country.land), "the ranking row after exploring");
  });

  it("a tick updates every joined client's turns and the season clock", async () => {
    const a = await player("tickA");
    const b = await player("tickB");
    await sql("UPDATE countries SET turns = turns + 1 WHERE id = ANY($1::bigint[])", [[a.countryId, b.countryId]]);
    const nextTickAt = Date.now() + 1_200_000;
    t.server.ctx.events.publish(WORLD_TOPIC, { type: "tick", tickNumber: 4242, nextTickAt, turnIntervalMs: 1_200_000 });
    for (const c of [a.client, b.client]) {
      await eventually(() => c.own()?.turns === 101, "turns after the tick");
      expect(c.json().season).toMatchObject({ tickNumber: 4242, nextTickAt, turnIntervalMs: 1_200_000, name: "Season 1", active: "ACTIVE" });
    }
  });
});

describe("world room: bad messages are refused, the room stays up", () => {
  it("too long, wrong shape, unknown type and a flood each get an 'error'; the room keeps working", async () => {
    const a = await player("badA");
    const b = await player("badB");
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
    expect(errors().slice(1).map((e: any) => e.code).sort()).toEqual(["chat/invalid", "chat/invalid", "chat/invalid", "message/unknown"]);

    // Flood: the chat limit (5 per 10 s) refuses the rest politely, without a disconnect.
    for (let i = 0; i < 8; i++) a.client.room.send(WorldMessage.sendChat, { channel: "general", content: `spam ${i}` });
    await eventually(() => errors().filter((e: any) => e.code === "chat/rate_limited").length === 3, `three rate-limit refusals, got ${JSON.stringify(errors())}`);
    await eventually(() => b.client.json().channels.general.messages.filter((m: any) => m.content.startsWith("spam")).length === 5, "five accepted");

    // Still connected and served.
    b.client.room.send(WorldMessage.sendChat, { channel: "general", content: "still here?" });
    await eventually(() => lastMessage(a.client)?.content === "still here?", "A to receive B's message after the flood");
    expect(a.client.room.connection.isOpen).toBe(true);
    const room = colyseus.getRoomById<WorldRoom>(a.client.room.roomId);
    expect(room.clients.length).toBeGreaterThanOrEqual(2);
  });
});

describe("world room: commands and ignore", () => {
  it("/help, /time and /who are answered to the sender only", async () => {
    const a = await player("cmdA");
    const b = await player("cmdB");
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
    expect(b.client.json().channels.general.messages.some((m: any) => m.content.startsWith("/"))).toBe(false);
  });

  it("/ignore is persisted and lands in the ignorer's private summary", async () => {
    const a = await player("ignA");
    const b = await player("ignB");
    a.client.room.send(WorldMessage.sendChat, { channel: "general", content: `/ignore ${b.body.username}` });
    await eventually(() => a.client.own()?.ignoredUserIds?.includes(b.userId), "B in A's ignore list");
    expect(a.client.received.get(WorldMessage.chatCommand)![0]).toEqual({ command: "ignore", lines: [`You now ignore ${b.body.username}`] });
    const { rows } = await sql("SELECT ignored_user_id FROM chat_ignores WHERE user_id = $1", [a.userId]);
    expect(rows.map((r) => Number(r.ignored_user_id))).toEqual([b.userId]);
    expect(b.client.own().ignoredUserIds).toEqual([]);
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
    for (const [p, allianceId] of [[a, 901], [b, 901], [c, 902]] as const) {
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

    outsider.client.room.send(WorldMessage.sendChat, { channel: "alliance", content: "let me in" });
    a.client.room.send(WorldMessage.sendChat, { channel: "leadership", content: "leaders only" });
    await eventually(() => outsider.client.received.get(WorldMessage.error)?.[0]?.code === "chat/no_access", "outsider refused");
    await eventually(() => a.client.received.get(WorldMessage.error)?.[0]?.code === "chat/no_access", "member refused from leadership");
  });
});

describe("world room: large states", () => {
  it("a state larger than the default encoder buffer reaches a joining client intact (colyseus full-state buffer bug)", async () => {
    const a = await player("bigA");
    // Fill the state past the library's 16 KB default: 500 online users, 150 long messages.
    for (let i = 0; i < 500; i++) {
      t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOnline", user: { userId: 20_000_000 + i, countryId: 20_000_000 + i, name: `bulk-user-${i}`, role: "member", allianceId: null, allianceName: "", allianceTag: "", government: "monarchy", networth: 5_000_000 + i } });
    }
    for (const channel of ["general", "trade", "war"]) {
      for (let i = 0; i < 50; i++) {
        const id = String(900_000_000 + i + (channel === "trade" ? 1000 : channel === "war" ? 2000 : 0));
        t.server.ctx.events.publish(WORLD_TOPIC, {
          type: "chatMessage", channelId: channel,
          message: { id, channel, type: "message", senderId: 1, senderName: "bulk", senderRole: "member", allianceTag: "", timestamp: Date.now(), content: "\u{1F600}".repeat(500), mentions: [] },
        });
      }
    }
    await eventually(() => a.client.json().channels.war.messages.length === 50 && Object.keys(a.client.json().onlineUsers).length === 500, "the big state");
    const unhandled: unknown[] = [];
    const onError = (err: unknown) => unhandled.push(err);
    process.on("uncaughtException", onError);
    try {
      const b = await player("bigB");
      expect(b.client.own()?.countryId).toBe(b.countryId);
      expect(b.client.json().channels.war.messages).toHaveLength(50);
      expect(b.client.json().season.name).toBe("Season 1");
      expect(Object.keys(b.client.json().countries)).toEqual([b.client.room.sessionId]);
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(unhandled).toEqual([]);
    for (let i = 0; i < 500; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 20_000_000 + i });
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
  it("online users appear on join and leave on leave", async () => {
    const a = await player("onA");
    const b = await player("onB");
    await eventually(() => a.client.json().onlineUsers[String(b.userId)]?.name === b.body.username, "B online for A");
    expect(a.client.json().channels.general.userCount).toBeGreaterThanOrEqual(2);
    await b.client.leave();
    await eventually(() => a.client.json().onlineUsers[String(b.userId)] === undefined, "B offline for A");
  });

  it("lists at most 500 online users, the richest, but counts them all", async () => {
    const a = await player("capA");
    const fake = (i: number) => ({ userId: 10_000_000 + i, countryId: 10_000_000 + i, name: `ghost${i}`, role: "member", allianceId: null, allianceName: "", allianceTag: "", government: "monarchy", networth: 1_000_000 + i });
    for (let i = 0; i < 520; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOnline", user: fake(i) });
    await eventually(() => a.client.json().channels.general.userCount >= 521, "every user counted");
    const listed = a.client.json().onlineUsers;
    expect(Object.keys(listed)).toHaveLength(500);
    // The poorest ghosts (and the real players, poorer still) are the ones left out.
    expect(listed[String(10_000_000 + 519)]).toBeDefined();
    expect(listed[String(10_000_000)]).toBeUndefined();
    // When a listed user leaves, the richest unlisted one takes the place.
    t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 10_000_000 + 519 });
    await eventually(() => a.client.json().onlineUsers[String(10_000_000 + 19)], "ghost19 listed");
    for (let i = 0; i < 520; i++) t.server.ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: 10_000_000 + i });
    await eventually(() => a.client.json().onlineUsers[String(a.userId)], "the real player listed again");
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
    // Cut the socket without a leave message: the server sees an abnormal close.
    (a.client.room.connection as any).transport.ws.terminate?.() ?? (a.client.room.connection as any).transport.ws.close(4999);
    await reconnected;
    expect(a.client.room.sessionId).toBe(sessionId);
    const room = colyseus.getRoomById<WorldRoom>(a.client.room.roomId);
    expect(room.state.countries.get(sessionId)?.countryId).toBe(a.countryId);
    await sql("UPDATE countries SET cash = 3141592 WHERE id = $1", [a.countryId]);
    await announceCountryChange(t.server.ctx, a.countryId, "test");
    await eventually(() => a.client.own()?.cash === 3141592, "updates after reconnecting");
  });
});
