import { describe, expect, it } from "vitest";
import pino from "pino";
import { unpack } from "msgpackr";
import { Protocol } from "@colyseus/core";
import { decode } from "@colyseus/schema";
import { RANKINGS_DEFAULT_LIMIT, WORLD_MESSAGES, type RankingRowSnapshot } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { RecordingEventBus } from "../../tick/testSupport.js";
import { allianceTopic, countryTopic, type CountryNumbers, type OnlineUserEvent } from "../../events.js";
import type { ServiceContext } from "../../services/context.js";
import type { CountrySummary, RankingEntry, WorldMember } from "../../services/world.js";
import { OwnProjection } from "./OwnProjection.js";
import { PresenceFeed } from "./PresenceFeed.js";
import { RankingsFeed } from "./RankingsFeed.js";
import { AllianceChatFeed } from "./AllianceChatFeed.js";
import type { WorldFeeds } from "./WorldFeeds.js";
import type { WorldClient, WorldHost } from "./types.js";

/**
 * Projections and feeds without a network or a database: a host with a recording event bus,
 * plain client objects that keep what they are sent (decoded the way the SDK decodes it), and
 * events published by hand.
 */

/** A ROOM_DATA frame as the SDK reads it: [code][type][msgpack payload]. */
function decodeFrame(bytes: Uint8Array): { type: string; payload: unknown } {
  expect(bytes[0]).toBe(Protocol.ROOM_DATA);
  const it = { offset: 1 };
  const type = decode.string(bytes as Buffer, it);
  return { type, payload: bytes.byteLength > it.offset ? unpack(bytes.subarray(it.offset)) : undefined };
}

function makeHost() {
  const events = new RecordingEventBus();
  const ctx = { events, logger: pino({ level: "silent" }) } as unknown as ServiceContext;
  const clients = new Map<string, WorldClient>();
  const iterable = Object.assign([] as WorldClient[], { get: (id: string) => clients.get(id) });
  const host: WorldHost = {
    ctx,
    log: pino({ level: "silent" }),
    state: new WorldState(),
    roomId: "room",
    clients: iterable,
    subscribe: (topic, listener) => events.subscribe(topic, listener),
  };
  const join = (sessionId: string, m: WorldMember) => {
    const sent: Array<{ type: string; payload: any }> = [];
    const client = {
      sessionId,
      send: (type: string, payload: unknown) => sent.push({ type, payload }),
      enqueueRaw: (bytes: Uint8Array) => sent.push(decodeFrame(bytes) as { type: string; payload: any }),
      userData: undefined,
    } as unknown as WorldClient;
    client.userData = { userId: m.userId, countryId: m.countryId, allianceId: m.allianceId, allianceRole: m.allianceRole, ignored: new Set(), watching: new Set() };
    clients.set(sessionId, client);
    iterable.push(client);
    return { client, sent };
  };
  const presence = new PresenceFeed(ctx);
  const feeds = { presence, allianceChat: new AllianceChatFeed(ctx) } as unknown as WorldFeeds;
  return { host, ctx, events, join, feeds, presence };
}

const member = (userId: number, countryId: number, allianceId: number | null = null): WorldMember => ({
  userId,
  username: `u${userId}`,
  countryId,
  role: "member",
  allianceId,
  allianceRole: allianceId ? "member" : null,
  allianceName: "",
  allianceTag: "",
  government: "monarchy",
  networth: 1,
});

const numbers = (version: number, cash: number): CountryNumbers => ({
  version,
  name: "C",
  turns: 1,
  storedTurns: 0,
  cash,
  food: 0,
  oil: 0,
  networth: 10,
  population: 0,
  land: 0,
});

const summary = (countryId: number, version: number, cash: number): CountrySummary => ({
  ...numbers(version, cash),
  countryId,
  userId: 1,
  government: "monarchy",
  allianceId: null,
  allianceRole: null,
  ignoredUserIds: [],
});

describe("OwnProjection", () => {
  it("sends a country's new numbers to that country's sessions only, only what changed, and never older numbers over newer", async () => {
    const { host, events, join, feeds } = makeHost();
    const own = new OwnProjection(host, feeds);
    const a = join("sa", member(1, 10));
    const a2 = join("sa2", member(1, 10));
    const b = join("sb", member(2, 20));
    for (const [c, id, cash] of [
      [a, 10, 500],
      [a2, 10, 500],
      [b, 20, 700],
    ] as const) {
      await own.watch(id);
      own.addClient(c.client, member(id === 10 ? 1 : 2, id), summary(id, 100, cash));
    }
    for (const c of [a, a2, b]) expect(c.sent).toHaveLength(1);
    expect(a.sent[0]).toMatchObject({ type: "own", payload: { countryId: 10, cash: 500, turns: 1, unreadNews: 0, ignoredUserIds: [] } });
    expect(WORLD_MESSAGES.server.own.payload.safeParse(a.sent[0]!.payload).success).toBe(true);

    events.publish(countryTopic(10), { type: "countryChanged", countryId: 10, reason: "test", numbers: numbers(200, 999) });
    for (const c of [a, a2]) expect(c.sent.at(-1)).toEqual({ type: "own", payload: { cash: 999 } });
    expect(b.sent).toHaveLength(1);
    // A slow read finishing late (version 150) does not overwrite the newer numbers.
    events.publish(countryTopic(10), { type: "countryChanged", countryId: 10, reason: "late", numbers: numbers(150, 1) });
    // The same numbers again send nothing.
    events.publish(countryTopic(10), { type: "countryChanged", countryId: 10, reason: "again", numbers: numbers(201, 999) });
    expect(a.sent).toHaveLength(2);

    own.removeClient(a.client);
    own.removeClient(a2.client);
    expect(events.subscriberCount(countryTopic(10))).toBe(0);
    expect(events.subscriberCount(countryTopic(20))).toBe(1);
    own.dispose();
  });

  it("coalesces unread counts: a burst of changes is one message per client", async () => {
    const { host, join, feeds } = makeHost();
    const own = new OwnProjection(host, feeds);
    const a = join("sa", member(1, 10));
    await own.watch(10);
    own.addClient(a.client, member(1, 10), summary(10, 1, 1));
    for (let i = 1; i <= 5; i++) own.setUnread("sa", i);
    expect(a.sent).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.sent.slice(1)).toEqual([{ type: "own", payload: { unreadNews: 5, unreadNewsSeq: 0 } }]);
    own.dispose();
  });

  it("a membership change moves the client's alliance channels", async () => {
    const { host, events, join, feeds } = makeHost();
    const own = new OwnProjection(host, feeds);
    const a = join("sa", member(1, 10, 7));
    await own.watch(10);
    own.addClient(a.client, member(1, 10, 7), summary(10, 1, 1));
    feeds.allianceChat.add(a.client, 7);
    expect(events.subscriberCount(allianceTopic(7))).toBe(1);
    events.publish(countryTopic(10), { type: "membershipChanged", countryId: 10, allianceId: 8, allianceRole: "manager" });
    expect(a.client.userData!.allianceId).toBe(8);
    expect(a.client.userData!.allianceRole).toBe("manager");
    expect(events.subscriberCount(allianceTopic(7))).toBe(0);
    expect(events.subscriberCount(allianceTopic(8))).toBe(1);
    own.dispose();
  });
});

describe("AllianceChatFeed", () => {
  it("sends an alliance line to that alliance's members only, and not to one who ignores the sender", () => {
    const { events, join, feeds } = makeHost();
    const inside = join("in", member(1, 10, 5));
    const ignoring = join("ign", member(4, 40, 5));
    const outside = join("out", member(2, 20, 6));
    ignoring.client.userData!.ignored.add(3);
    for (const c of [inside, ignoring, outside]) feeds.allianceChat.add(c.client, c.client.userData!.allianceId);
    const message = { id: "9", channel: "alliance", type: "message", senderId: 3, senderName: "s", senderRole: "member", allianceTag: "", timestamp: 1, content: "secret", mentions: [] };
    events.publish(allianceTopic(5), { type: "allianceChatMessage", allianceId: 5, channelId: "alliance", message });
    expect(inside.sent).toEqual([{ type: "chatMessage", payload: { ...message, isOnline: true, isEdited: false } }]);
    expect(ignoring.sent).toHaveLength(0);
    expect(outside.sent).toHaveLength(0);
    feeds.allianceChat.remove(inside.client, 5);
    feeds.allianceChat.remove(ignoring.client, 5);
    expect(events.subscriberCount(allianceTopic(5))).toBe(0);
  });
});

describe("PresenceFeed", () => {
  const user = (i: number, networth = 1_000 + i): OnlineUserEvent => ({ userId: i, countryId: 100 + i, name: `p${i}`, role: "member", allianceId: i % 2 ? 3 : null, allianceName: "", allianceTag: "", government: "monarchy", networth });

  it("a join marks the list and the counts; the flush sends what moved once, and nothing when nothing moved", () => {
    const { presence } = makeHost();
    presence.apply([user(1), user(2)]);
    presence.flush();
    presence.onWorldEvent({ type: "userOnline", user: user(3) });
    presence.onWorldEvent({ type: "userOffline", userId: 2 });
    const out = presence.flush();
    expect(decodeFrame(out.users!).payload).toEqual({ full: false, users: [expect.objectContaining({ id: "3", name: "p3" })], removed: ["2"], total: 2 });
    expect(out.counts).toEqual({ all: 2, alliance: 2, leadership: 0 });
    expect(presence.flush()).toEqual({});
    expect(decodeFrame(presence.fullMessage()).payload).toMatchObject({ full: true, total: 2, users: [expect.objectContaining({ id: "1" }), expect.objectContaining({ id: "3" })] });
  });
});

describe("RankingsFeed", () => {
  const entry = (i: number, value: number): RankingEntry => ({
    id: String(i),
    rank: i,
    countryId: i,
    countryName: `C${i}`,
    playerName: "",
    isAi: false,
    governmentType: "monarchy",
    allianceName: "",
    allianceTag: "",
    value,
    land: 1,
    change: 0,
    trend: "same",
    lastActive: 0,
    isOnline: false,
    userId: null,
  });

  it("reloads only for a change that can move the list, and sends only the rows that differ by position", async () => {
    const { ctx, presence } = makeHost();
    let top: RankingEntry[] = [];
    let reads = 0;
    const rankings = new RankingsFeed(ctx, presence, async () => {
      reads += 1;
      return top;
    });
    const country = (countryId: number, networth: number) => ({ countryId, name: "x", networth, land: 1, government: "monarchy" });
    expect(rankings.mayChangeRankings(country(1, 1))).toBe(true);
    top = Array.from({ length: RANKINGS_DEFAULT_LIMIT }, (_, i) => entry(1000 + i, 10_000 - i));
    await rankings.load();
    const last = 10_000 - (RANKINGS_DEFAULT_LIMIT - 1);
    expect(rankings.mayChangeRankings(country(5, last - 1))).toBe(false);
    expect(rankings.mayChangeRankings(country(5, last))).toBe(true);
    expect(rankings.mayChangeRankings(country(1000, 1))).toBe(true);
    const full = decodeFrame(rankings.fullMessage()).payload as { length: number; rows: Array<{ at: number; row: RankingRowSnapshot }> };
    expect(full.length).toBe(RANKINGS_DEFAULT_LIMIT);
    expect(full.rows).toHaveLength(RANKINGS_DEFAULT_LIMIT);

    // Nothing stale: the flush reads nothing and sends nothing.
    const readsBefore = reads;
    expect(await rankings.flush()).toBeUndefined();
    expect(reads).toBe(readsBefore);
    // A change below the list: still nothing.
    rankings.onWorldEvent({ type: "countryRanked", country: country(5, last - 1), reason: "test" });
    expect(await rankings.flush()).toBeUndefined();
    // Country 1050 climbs to second: only the positions 1 to 50 change.
    const climber = top[50]!;
    top = [top[0]!, { ...climber, value: 9_999 }, ...top.slice(1, 50), ...top.slice(51)];
    rankings.onWorldEvent({ type: "countryRanked", country: country(climber.countryId, 9_999), reason: "test" });
    const delta = decodeFrame((await rankings.flush())!).payload as { length: number; rows: Array<{ at: number }> };
    expect(delta.length).toBe(RANKINGS_DEFAULT_LIMIT);
    expect(delta.rows.map((r) => r.at)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(rankings.current()[1]!.countryId).toBe(climber.countryId);
  });
});
