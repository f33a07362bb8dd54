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
  ["one process, local presence", () => {
    const shared = new LocalPresence();
    return [shared, shared] as const;
  }],
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
