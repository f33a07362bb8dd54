import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ALLIANCE_ROOM_CLOSE_NOT_MEMBER, AllianceMessage, WorldMessage } from "@game/schema/messages";
import { ALLIANCE_CHAT_RECENT_MESSAGES } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { joinAlliance, type AllianceTestClient } from "../test/allianceClients.js";
import { addMember, buildAlliance, foundAlliance, type TestPlayer } from "../test/alliances.js";
import { runCountriesAction } from "../services/actions.js";
import { raiseDefenseRequestForAttack } from "../services/defenseRequests.js";
import { allianceTopic } from "../events.js";

let t: TestServer;
const open: Array<AllianceTestClient | WorldTestClient> = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  const clients = open.splice(0);
  // every message every client received matched its room's catalogue entry
  expect(clients.flatMap((c) => c.schemaErrors)).toEqual([]);
  await Promise.all(clients.map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;

async function join(p: TestPlayer, allianceId: number): Promise<AllianceTestClient> {
  const c = await joinAlliance(t.baseUrl, p.token, allianceId);
  open.push(c);
  return c;
}

/** An owner, a manager and two members, each connected to the alliance room. */
async function team(prefix: string) {
  const [owner, manager, alice, bob, outsider] = await Promise.all(["o", "m", "a", "b", "x"].map((r) => registerPlayer(t, `${prefix}${r}`)));
  const alliance = await buildAlliance(t, owner!, [manager!], [alice!, bob!]);
  const clients = {
    owner: await join(owner!, alliance.id),
    manager: await join(manager!, alliance.id),
    alice: await join(alice!, alliance.id),
    bob: await join(bob!, alliance.id),
  };
  return { owner: owner!, manager: manager!, alice: alice!, bob: bob!, outsider: outsider!, alliance, clients };
}

const operationsOf = (c: AllianceTestClient) => Object.values(c.json().operations ?? {}) as any[];

describe("alliance room: members only", () => {
  it("refuses a non-member (403), a bad alliance id (400) and a bad token (401); admits members to one room", async () => {
    const [owner, other] = await Promise.all([registerPlayer(t, "ro"), registerPlayer(t, "rx")]);
    const alliance = await foundAlliance(t, owner);
    const otherAlliance = await foundAlliance(t, other);
    await expect(joinAlliance(t.baseUrl, other.token, alliance.id)).rejects.toMatchObject({ code: 403 });
    await expect(joinAlliance(t.baseUrl, owner.token, String(alliance.id))).rejects.toMatchObject({ code: 400 });
    await expect(joinAlliance(t.baseUrl, "not-a-token", alliance.id)).rejects.toMatchObject({ code: 401 });
    const mine = await join(owner, alliance.id);
    const theirs = await join(other, otherAlliance.id);
    expect(mine.room.roomId).not.toBe(theirs.room.roomId);
    expect(mine.json().header).toMatchObject({ id: alliance.id, tag: alliance.tag, memberCount: 1, maxMembers: 200 });
    expect(Object.keys(mine.json().members)).toEqual([String(owner.countryId)]);
    // A second member lands in the same room.
    const newcomer = await registerPlayer(t, "rn");
    await addMember(t, owner, newcomer);
    const second = await join(newcomer, alliance.id);
    expect(second.room.roomId).toBe(mine.room.roomId);
    await eventually(() => mine.json().header.memberCount === 2 && mine.json().members[String(newcomer.countryId)]?.isOnline, "the owner to see the newcomer online");
  });
});

describe("alliance room: operations live", () => {
  it("a leader plans an operation and every member sees it within a second; joins update readiness for everyone", async () => {
    const { owner, manager, alice, bob, outsider, clients } = await team("op");
    // Units to commit.
    await sql("UPDATE countries SET troops = 5000, jets = 300 WHERE id = ANY($1::bigint[])", [[alice.countryId, bob.countryId]]);
    const started = Date.now();
    clients.manager.room.send(AllianceMessage.planOperation, {
      name: "Dawn Strike",
      description: "all together",
      operationType: "reconnaissance",
      targetCountryId: outsider.countryId,
      scheduledFor: Date.now() + 3_600_000,
      requirements: { minParticipants: 2, maxParticipants: 4, minTotalForce: 8_000 },
    });
    const seen = await eventually(() => operationsOf(clients.alice).find((o) => o.name === "Dawn Strike"), "alice to see the operation");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen).toMatchObject({ operationType: "reconnaissance", targetName: outsider.body.countryName, initiatorName: manager.body.countryName, status: "planning", readiness: "Awaiting Requirements", minTotalForce: 8_000 });
    expect(seen.participants.map((p: any) => p.status)).toEqual(["invited", "invited", "invited", "invited"]);
    await eventually(() => clients.manager.received.get(AllianceMessage.done)?.[0]?.action === "planOperation", "the planner's done");

    const readiness = (c: AllianceTestClient) => operationsOf(c).find((o) => o.id === seen.id);
    clients.alice.room.send(AllianceMessage.respondOperation, { operationId: seen.id, response: "join", contribution: { troops: 5_000 } });
    for (const c of Object.values(clients)) await eventually(() => readiness(c)?.confirmedCount === 1, "one confirmed everywhere");
    expect(readiness(clients.owner)).toMatchObject({ readiness: "Awaiting Requirements", totalForce: 5_000, status: "planning" });

    clients.bob.room.send(AllianceMessage.respondOperation, { operationId: seen.id, response: "join", contribution: { troops: 2_700, jets: 300 } });
    for (const c of Object.values(clients)) await eventually(() => readiness(c)?.readiness === "Ready to Launch", "ready everywhere");
    expect(readiness(clients.manager)).toMatchObject({ status: "active", confirmedCount: 2, totalForce: 8_000 });
    expect(readiness(clients.owner).participants.find((p: any) => p.countryId === bob.countryId)).toMatchObject({ status: "confirmed", troops: 2_700, jets: 300, totalForce: 3_000 });

    // A member may not launch; the owner may, and everyone sees it complete with its outcome.
    clients.alice.room.send(AllianceMessage.launchOperation, { operationId: seen.id });
    await eventually(() => clients.alice.received.get(AllianceMessage.error)?.[0]?.code === "alliance/forbidden", "alice refused");
    clients.owner.room.send(AllianceMessage.launchOperation, { operationId: seen.id });
    for (const c of Object.values(clients)) await eventually(() => readiness(c)?.status === "completed", "completed everywhere");
    expect(readiness(clients.bob).outcomeLines.join(" ")).toContain(outsider.body.countryName);
    // A closed operation keeps its counts and outcome, not its participant list.
    expect(readiness(clients.bob)).toMatchObject({ confirmedCount: 2, totalForce: 8_000, participants: [] });
    // Rewards: the alliance's bonus points and each participant's military support.
    await eventually(() => clients.bob.json().header.bonusPoints === readiness(clients.bob).rewardBonusPoints, "the points in the header");
    expect(readiness(clients.bob).rewardBonusPoints).toBe(50 + 25 + 5);
    await eventually(() => clients.owner.json().members[String(bob.countryId)]?.militarySupport === 3_000, "bob's contribution");
    void owner;
  });

  it("refuses a second response to a defense request with the spec's text", async () => {
    const { alice, bob, clients } = await team("def");
    await sql("UPDATE countries SET troops = 3000, jets = 60 WHERE id = $1", [bob.countryId]);
    clients.alice.room.send(AllianceMessage.requestDefense, { urgency: "high", supportNeeded: { military: true, intelligence: true } });
    const request = await eventually(() => Object.values(clients.bob.json().defenseRequests)[0] as any, "bob to see the request");
    expect(request).toMatchObject({ requesterName: alice.body.countryName, urgency: "high", needMilitary: true, needIntelligence: true });
    clients.bob.room.send(AllianceMessage.respondDefense, { requestId: request.id, responseType: "military_support", commitment: { troops: 2_000, jets: 50 } });
    await eventually(() => (clients.alice.json().defenseRequests[String(request.id)].responses as any[]).length === 1, "alice to see the response");
    expect(clients.owner.json().defenseRequests[String(request.id)].responses[0]).toMatchObject({ responderId: bob.countryId, responseType: "military_support", troops: 2_000, jets: 50 });
    clients.bob.room.send(AllianceMessage.respondDefense, { requestId: request.id, responseType: "declined" });
    const error = await eventually(() => clients.bob.received.get(AllianceMessage.error)?.[0], "the refusal");
    expect(error).toEqual({ code: "defense/responded", message: "You have responded to this defense request" });
    // Units already committed cannot be committed again elsewhere.
    clients.manager.room.send(AllianceMessage.requestDefense, { supportNeeded: { military: true } });
    const second = await eventually(() => (Object.values(clients.bob.json().defenseRequests) as any[]).find((r) => r.id !== request.id), "the second request");
    clients.bob.room.send(AllianceMessage.respondDefense, { requestId: second.id, responseType: "military_support", commitment: { troops: 1_001 } });
    await eventually(() => clients.bob.received.get(AllianceMessage.error)?.[1]?.message === "Insufficient troops: have 1000, need 1001", "the second refusal");
  });

  it("an ally attacked raises a defense request and a live alert for every online member", async () => {
    const { alice, bob, outsider, clients } = await team("atk");
    const world = await joinWorld(t.baseUrl, (await registerPlayer(t, "atkw")).token);
    open.push(world);
    const bobWorld = await joinWorld(t.baseUrl, bob.token);
    open.push(bobWorld);
    // What military's attack transaction does after resolving the battle.
    await runCountriesAction(t.server.ctx, {
      name: "test.attack",
      actor: null,
      countryIds: [alice.countryId, outsider.countryId],
      async step(countries, tx) {
        await raiseDefenseRequestForAttack(tx, {
          defender: countries.get(alice.countryId)!.row,
          attacker: countries.get(outsider.countryId)!.row,
          attackType: "ground_assault",
          battleId: 4242,
          attackerWon: true,
          landLostPct: 12,
          powerRatioPct: 150,
        });
        // The same battle again raises nothing more.
        expect(
          await raiseDefenseRequestForAttack(tx, {
            defender: countries.get(alice.countryId)!.row,
            attacker: countries.get(outsider.countryId)!.row,
            attackType: "ground_assault",
            battleId: 4242,
            attackerWon: true,
            landLostPct: 12,
            powerRatioPct: 150,
          }),
        ).toBeNull();
        return { next: new Map(), result: null };
      },
    });
    for (const c of [clients.owner, clients.bob, clients.manager]) {
      const alert = await eventually(() => c.received.get(AllianceMessage.allyAttacked)?.[0], "the alert");
      expect(alert).toMatchObject({ countryName: alice.body.countryName, attackerName: outsider.body.countryName, attackType: "ground_assault", urgency: "critical" });
    }
    const request = await eventually(() => Object.values(clients.owner.json().defenseRequests)[0] as any, "the request");
    expect(request).toMatchObject({ attackerName: outsider.body.countryName, urgency: "critical", needMilitary: true });
    // The world room shows every other member a notice card.
    const card = await eventually(() => bobWorld.received.get(WorldMessage.notice)?.find((n: any) => n.kind === "ally_attacked"), "bob's notice");
    expect(card.body).toContain(alice.body.countryName);
    expect(world.received.get(WorldMessage.notice)).toBeUndefined();
    expect((await sql("SELECT count(*)::int AS n FROM alliance_defense_requests WHERE battle_ref = 'battle-4242'"))[0].n).toBe(1);
  });
});

describe("alliance room: membership changes at once", () => {
  it("a kicked member's connection is closed in the same second and cannot come back", async () => {
    const { owner, bob, alliance, clients } = await team("kick");
    clients.owner.room.send(AllianceMessage.sendChat, { channel: "general", content: "before" });
    await eventually(() => clients.bob.json().channels.general.messages.some((m: any) => m.content === "before"), "bob reads general");
    const started = Date.now();
    const kicked = await t.api("POST", "/alliance/kick", { countryId: bob.countryId }, owner.token);
    expect(kicked.status).toBe(200);
    await eventually(() => clients.bob.leftWith() === ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "bob's connection to close");
    expect(Date.now() - started).toBeLessThan(1_000);
    // The others see him gone, and he can no longer join.
    await eventually(() => !clients.alice.json().members[String(bob.countryId)], "alice to see bob gone");
    await expect(joinAlliance(t.baseUrl, bob.token, alliance.id)).rejects.toMatchObject({ code: 403 });
  });

  it("a demoted manager's view loses the leadership channels in the same second; a promotion brings them", async () => {
    const { owner, manager, alice, clients } = await team("view");
    clients.owner.room.send(AllianceMessage.sendChat, { channel: "leadership", content: "leaders only" });
    await eventually(() => clients.manager.json().leadership?.channels?.leadership?.messages?.some((m: any) => m.content === "leaders only"), "the manager reads leadership");
    expect(JSON.stringify(clients.alice.json())).not.toContain("leaders only");
    // A member cannot post there.
    clients.alice.room.send(AllianceMessage.sendChat, { channel: "leadership", content: "let me in" });
    await eventually(() => clients.alice.received.get(AllianceMessage.error)?.[0]?.code === "chat/no_access", "alice refused");

    const started = Date.now();
    expect((await t.api("POST", "/alliance/demote", { countryId: manager.countryId }, owner.token)).status).toBe(200);
    await eventually(() => !JSON.stringify(clients.manager.json()).includes("leaders only"), "the leadership part to leave the demoted view");
    expect(Date.now() - started).toBeLessThan(1_000);
    clients.owner.room.send(AllianceMessage.sendChat, { channel: "intelligence", content: "after the demotion" });
    await eventually(() => clients.owner.json().leadership.channels.intelligence.messages.some((m: any) => m.content === "after the demotion"), "the owner's copy");
    await new Promise((r) => setTimeout(r, 200));
    expect(JSON.stringify(clients.manager.json())).not.toContain("after the demotion");
    expect(clients.manager.json().members[String(manager.countryId)].role).toBe("member");

    expect((await t.api("POST", "/alliance/promote", { countryId: alice.countryId }, owner.token)).status).toBe(200);
    await eventually(() => clients.alice.json().leadership?.channels?.intelligence?.messages?.some((m: any) => m.content === "after the demotion"), "alice promoted, reading intelligence");
  });

  it("general and leadership are the global chat's alliance and leadership channels", async () => {
    const { owner, alice, clients } = await team("chat");
    const aliceWorld = await joinWorld(t.baseUrl, alice.token);
    open.push(aliceWorld);
    aliceWorld.room.send(WorldMessage.sendChat, { channel: "alliance", content: "from the world room" });
    await eventually(() => clients.owner.json().channels.general.messages.some((m: any) => m.content === "from the world room"), "the alliance room to show it");
    clients.owner.room.send(AllianceMessage.sendChat, { channel: "general", content: "from the alliance room" });
    await eventually(() => aliceWorld.received.get(WorldMessage.chatMessage)?.some((m: any) => m.content === "from the alliance room"), "the world room to push it");
    // Military is the alliance room's own.
    clients.alice.room.send(AllianceMessage.sendChat, { channel: "military", content: "troops ready" });
    await eventually(() => clients.owner.json().channels.military.messages.some((m: any) => m.content === "troops ready" && m.senderRole === "member"), "military");
    await new Promise((r) => setTimeout(r, 200));
    expect(aliceWorld.received.get(WorldMessage.chatMessage)?.some((m: any) => m.content === "troops ready")).toBeFalsy();
    // Typing reaches the others who can read the channel.
    clients.alice.room.send(AllianceMessage.typing, { channel: "general" });
    const typing = await eventually(() => clients.owner.received.get(AllianceMessage.typingNotice)?.[0], "the typing notice");
    expect(typing).toEqual({ channel: "general", countryId: alice.countryId, name: alice.body.countryName });
    void owner;
  });

  it("a state larger than the encoder's default buffer reaches a joining leader intact (colyseus full-state buffer bug)", async () => {
    const { owner, manager, alliance, clients } = await team("big");
    // 4 channels x ALLIANCE_CHAT_RECENT_MESSAGES lines of 500 four-byte characters: far past 16 KB.
    for (const channelId of ["alliance", "alliance_military", "alliance_intelligence", "leadership"]) {
      for (let i = 0; i < ALLIANCE_CHAT_RECENT_MESSAGES; i++) {
        const message = {
          id: String(800_000_000 + i + channelId.length * 1000),
          channel: channelId,
          type: "message",
          senderId: owner.user.id,
          senderName: "bulk",
          senderRole: "owner",
          allianceTag: "",
          timestamp: Date.now(),
          content: "\u{1F600}".repeat(500),
          mentions: [],
        };
        t.server.ctx.events.publish(allianceTopic(alliance.id), { type: "allianceChatMessage", allianceId: alliance.id, channelId, message });
      }
    }
    await eventually(() => clients.owner.json().leadership?.channels?.leadership?.messages?.length === ALLIANCE_CHAT_RECENT_MESSAGES, "the full state at the owner");
    const unhandled: unknown[] = [];
    const onError = (err: unknown) => unhandled.push(err);
    process.on("uncaughtException", onError);
    try {
      await clients.manager.leave();
      const again = await join(manager, alliance.id);
      await eventually(() => again.json().leadership?.channels?.leadership?.messages?.length === ALLIANCE_CHAT_RECENT_MESSAGES, "the manager's full state after joining again");
      // every line whole: a corrupt full state decodes with the lines' fields missing
      const state = again.json();
      for (const channel of [state.channels.general, state.channels.military, state.leadership.channels.intelligence, state.leadership.channels.leadership]) {
        expect(channel.messages).toHaveLength(ALLIANCE_CHAT_RECENT_MESSAGES);
        for (const m of channel.messages) expect(m.content).toBe("\u{1F600}".repeat(500));
      }
      expect(again.json().header.id).toBe(alliance.id);
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(unhandled).toEqual([]);
  });

  it("a disbanded alliance closes its room", async () => {
    const owner = await registerPlayer(t, "dis");
    const alliance = await foundAlliance(t, owner);
    const client = await join(owner, alliance.id);
    expect((await t.api("POST", "/alliance/leave", {}, owner.token)).body.disbanded).toBe(true);
    await eventually(() => client.leftWith() === ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "the room to close");
  });
});
