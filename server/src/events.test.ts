import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import pino from "pino";
import { LocalPresence, type Presence } from "@colyseus/core";
import { RedisPresence } from "@colyseus/redis-presence";
import { TEST_REDIS_URL } from "./test/harness.js";
import { allianceTopic, countryTopic, PresenceEventBus, WORLD_TOPIC, type AllianceEvent, type GameEvent } from "./events.js";

const logger = pino({ level: "silent" });
const message = { id: "1", channel: "alliance", type: "message", senderId: 1, senderName: "a", senderRole: "member", allianceTag: "", timestamp: 0, content: "hi", mentions: [] };
const allianceChat = (allianceId: number): AllianceEvent => ({ type: "allianceChatMessage", allianceId, channelId: "alliance", message });

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const presences: Presence[] = [];
afterAll(async () => {
  for (const p of presences) await (p as { shutdown?: () => unknown }).shutdown?.();
});

describe.each([
  [
    "one process, local presence",
    () => {
      const shared = new LocalPresence();
      return [shared, shared] as const;
    },
  ],
  ["two processes on one Redis", () => [new RedisPresence(`${TEST_REDIS_URL}/14`), new RedisPresence(`${TEST_REDIS_URL}/14`)] as const],
])("event topics: %s", (_name, makePresences) => {
  it("an event on alliance:{id} reaches only that alliance's subscribers", async () => {
    const [pa, pb] = makePresences();
    presences.push(pa, pb);
    const busA = new PresenceEventBus(pa, logger);
    const busB = new PresenceEventBus(pb, logger);
    // Ids unique per run: Redis pub/sub channels are shared by everything on this Redis.
    const base = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    const got = { ally1onB: [] as GameEvent[], ally2onB: [] as GameEvent[], worldOnB: [] as GameEvent[], countryOnA: [] as GameEvent[] };
    busB.subscribe(allianceTopic(base + 1), (e) => got.ally1onB.push(e));
    busB.subscribe(allianceTopic(base + 2), (e) => got.ally2onB.push(e));
    busB.subscribe(WORLD_TOPIC, (e) => got.worldOnB.push(e));
    busA.subscribe(countryTopic(base + 1), (e) => got.countryOnA.push(e));
    await Promise.all([busA.ready(), busB.ready()]);

    busA.publish(allianceTopic(base + 1), allianceChat(base + 1));
    await until(() => got.ally1onB.length === 1, "alliance 1's subscriber");
    // A later event on another topic arrives after it; by then nothing else arrived anywhere.
    busA.publish(allianceTopic(base + 2), allianceChat(base + 2));
    await until(() => got.ally2onB.length === 1, "alliance 2's subscriber");
    expect(got.ally1onB).toEqual([allianceChat(base + 1)]);
    expect(got.ally2onB).toEqual([allianceChat(base + 2)]);
    expect(got.countryOnA).toEqual([]);
    expect(got.worldOnB.filter((e) => e.type === "allianceChatMessage")).toEqual([]);
  });

  it("the last listener leaving a topic unsubscribes it; a later subscriber gets later events only", async () => {
    const [pa, pb] = makePresences();
    presences.push(pa, pb);
    const publisher = new PresenceEventBus(pa, logger);
    const bus = new PresenceEventBus(pb, logger);
    const id = 3_000_000 + Math.floor(Math.random() * 1_000_000);
    const first: GameEvent[] = [];
    const second: GameEvent[] = [];
    const off1 = bus.subscribe(allianceTopic(id), (e) => first.push(e));
    const off2 = bus.subscribe(allianceTopic(id), (e) => second.push(e));
    await bus.ready();
    expect(bus.subscribedTopics()).toContain(`alliance:${id}`);
    publisher.publish(allianceTopic(id), allianceChat(id));
    await until(() => first.length === 1 && second.length === 1, "both listeners");
    off1();
    expect(bus.subscribedTopics()).toContain(`alliance:${id}`);
    off2();
    expect(bus.subscribedTopics()).not.toContain(`alliance:${id}`);
    const third: GameEvent[] = [];
    bus.subscribe(allianceTopic(id), (e) => third.push(e));
    await bus.ready();
    publisher.publish(allianceTopic(id), allianceChat(id));
    await until(() => third.length === 1, "the new listener");
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
  });
});

/**
 * Issue 29: Redis pub/sub channels are one namespace per Redis server, whatever the logical
 * database. Before the world id named the channels, servers of two worlds on one Redis (test
 * files on different database indexes, running at once) heard each other's `world` events: a
 * foreign chat line with the same id as a real one made the real one look like a duplicate,
 * and WorldCluster.test.ts lost it about once in three full-suite runs.
 */
describe("event topics of two worlds on one Redis", () => {
  it("a world's events reach its own processes only", async () => {
    const [a1, a2, b] = [new RedisPresence(`${TEST_REDIS_URL}/14`), new RedisPresence(`${TEST_REDIS_URL}/14`), new RedisPresence(`${TEST_REDIS_URL}/13`)];
    presences.push(a1, a2, b);
    const worldA = crypto.randomUUID();
    const worldB = crypto.randomUUID();
    const publisherA = new PresenceEventBus(a1, logger, worldA);
    const otherProcessOfA = new PresenceEventBus(a2, logger, worldA);
    const processOfB = new PresenceEventBus(b, logger, worldB);
    const heardByA: GameEvent[] = [];
    const heardByB: GameEvent[] = [];
    otherProcessOfA.subscribe(WORLD_TOPIC, (e) => heardByA.push(e));
    processOfB.subscribe(WORLD_TOPIC, (e) => heardByB.push(e));
    await Promise.all([otherProcessOfA.ready(), processOfB.ready()]);

    const chat = { type: "chatMessage" as const, channelId: "general", message: { ...message, channel: "general" } };
    publisherA.publish(WORLD_TOPIC, chat);
    await until(() => heardByA.length === 1, "A's other process to hear A's event");
    // Redis delivered A's event to every subscriber of its channel at once; B's connection
    // hears in order, so had it been one of them, A's event would arrive before B's own.
    const mark = { type: "seasonChanged" as const };
    new PresenceEventBus(b, logger, worldB).publish(WORLD_TOPIC, mark);
    await until(() => heardByB.length >= 1, "B's own event");
    expect(heardByA).toEqual([chat]);
    expect(heardByB).toEqual([mark]);
  });
});
