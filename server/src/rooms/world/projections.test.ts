import { describe, expect, it } from "vitest";
import pino from "pino";
import { RANKINGS_DEFAULT_LIMIT } from "@game/schema/messages";
import { RankingRow, WorldState } from "@game/schema/state";
import { RecordingEventBus } from "../../tick/testSupport.js";
import { allianceTopic, countryTopic, type CountryNumbers } from "../../events.js";
import type { ServiceContext } from "../../services/context.js";
import type { CountrySummary, WorldMember } from "../../services/world.js";
import { ChatProjection } from "./ChatProjection.js";
import { PresenceProjection } from "./PresenceProjection.js";
import { RankingsProjection } from "./RankingsProjection.js";
import { SummaryProjection } from "./SummaryProjection.js";
import type { WorldClient, WorldHost } from "./types.js";

/**
 * Projections without a network or a database: a host with a recording event bus, plain
 * client objects, and events published by hand.
 */
function makeHost() {
  const events = new RecordingEventBus();
  const clients = new Map<string, WorldClient>();
  const iterable = Object.assign([] as WorldClient[], { get: (id: string) => clients.get(id) });
  const host: WorldHost = {
    ctx: { events, logger: pino({ level: "silent" }) } as unknown as ServiceContext,
    log: pino({ level: "silent" }),
    state: new WorldState(),
    roomId: "room",
    clients: iterable,
    subscribe: (topic, listener) => events.subscribe(topic, listener),
  };
  const join = (sessionId: string, member: WorldMember) => {
    const sent: unknown[] = [];
    const client = { sessionId, send: (...args: unknown[]) => sent.push(args), userData: undefined } as unknown as WorldClient;
    client.userData = { userId: member.userId, countryId: member.countryId, allianceId: member.allianceId, allianceRole: member.allianceRole, ignored: new Set() };
    clients.set(sessionId, client);
    iterable.push(client);
    return { client, sent };
  };
  return { host, events, join };
}

const member = (userId: number, countryId: number, allianceId: number | null = null): WorldMember => ({
  userId, username: `u${userId}`, countryId, role: "member", allianceId, allianceRole: allianceId ? "member" : null,
  allianceName: "", allianceTag: "", government: "monarchy", networth: 1,
});

const numbers = (version: number, cash: number): CountryNumbers => ({
  version, name: "C", turns: 1, storedTurns: 0, cash, food: 0, oil: 0, networth: 10, population: 0, land: 0,
});

const summary = (countryId: number, version: number, cash: number): CountrySummary => ({
  ...numbers(version, cash), countryId, userId: 1, government: "monarchy", allianceId: null, allianceRole: null, ignoredUserIds: [],
});

describe("SummaryProjection", () => {
  it("applies a country's numbers to that country's sessions only, and never older numbers over newer", async () => {
    const { host, events, join } = makeHost();
    const presence = new PresenceProjection(host);
    const summaries = new SummaryProjection(host, new ChatProjection(host, presence), presence);
    const a = join("sa", member(1, 10));
    const b = join("sb", member(2, 20));
    await summaries.watch(10);
    summaries.addClient(a.client, member(1, 10), summary(10, 100, 500));
    await summaries.watch(20);
    summaries.addClient(b.client, member(2, 20), summary(20, 100, 700));

    events.publish(countryTopic(10), { type: "countryChanged", countryId: 10, reason: "test", numbers: numbers(200, 999) });
    expect(host.state.countries.get("sa")!.cash).toBe(999);
    expect(host.state.countries.get("sb")!.cash).toBe(700);
    // A slow read finishing late (version 150) does not overwrite the newer numbers.
    events.publish(countryTopic(10), { type: "countryChanged", countryId: 10, reason: "late", numbers: numbers(150, 1) });
    expect(host.state.countries.get("sa")!.cash).toBe(999);

    summaries.removeClient(a.client);
    expect(host.state.countries.has("sa")).toBe(false);
    expect(events.subscriberCount(countryTopic(10))).toBe(0);
    expect(events.subscriberCount(countryTopic(20))).toBe(1);
  });

  it("a membership change moves the client's alliance subscription", async () => {
    const { host, events, join } = makeHost();
    const presence = new PresenceProjection(host);
    const chat = new ChatProjection(host, presence);
    const summaries = new SummaryProjection(host, chat, presence);
    const a = join("sa", member(1, 10, 7));
    await summaries.watch(10);
    for (const p of [chat, summaries]) p.addClient(a.client, member(1, 10, 7), summary(10, 1, 1));
    expect(events.subscriberCount(allianceTopic(7))).toBe(1);
    events.publish(countryTopic(10), { type: "membershipChanged", countryId: 10, allianceId: 8, allianceRole: "manager" });
    expect(a.client.userData!.allianceId).toBe(8);
    expect(a.client.userData!.allianceRole).toBe("manager");
    expect(events.subscriberCount(allianceTopic(7))).toBe(0);
    expect(events.subscriberCount(allianceTopic(8))).toBe(1);
  });
});

describe("ChatProjection", () => {
  it("sends an alliance message to that alliance's members only, never into the shared state", () => {
    const { host, events, join } = makeHost();
    const chat = new ChatProjection(host, new PresenceProjection(host));
    const inside = join("in", member(1, 10, 5));
    const outside = join("out", member(2, 20, 6));
    chat.addClient(inside.client);
    chat.addClient(outside.client);
    const message = { id: "9", channel: "alliance", type: "message", senderId: 3, senderName: "s", senderRole: "member", allianceTag: "", timestamp: 1, content: "secret", mentions: [] };
    events.publish(allianceTopic(5), { type: "allianceChatMessage", allianceId: 5, channelId: "alliance", message });
    expect(inside.sent).toHaveLength(1);
    expect(outside.sent).toHaveLength(0);
    expect(JSON.stringify(host.state.toJSON())).not.toContain("secret");
    chat.removeClient(inside.client);
    expect(events.subscriberCount(allianceTopic(5))).toBe(0);
  });
});

describe("RankingsProjection", () => {
  it("reloads only for a change that can move the list", () => {
    const { host } = makeHost();
    const rankings = new RankingsProjection(host, new PresenceProjection(host));
    const country = (countryId: number, networth: number) => ({ countryId, name: "x", networth, land: 1, government: "monarchy" });
    // A list that is not full: anything can enter.
    expect(rankings.mayChangeRankings(country(1, 1))).toBe(true);
    for (let i = 0; i < RANKINGS_DEFAULT_LIMIT; i++) host.state.rankings.push(new RankingRow({ countryId: 1000 + i, value: 10_000 - i }));
    const last = 10_000 - (RANKINGS_DEFAULT_LIMIT - 1);
    expect(rankings.mayChangeRankings(country(5, last - 1))).toBe(false);
    expect(rankings.mayChangeRankings(country(5, last))).toBe(true);
    // A listed country moving down may leave the list.
    expect(rankings.mayChangeRankings(country(1000, 1))).toBe(true);
    rankings.dispose();
  });
});
