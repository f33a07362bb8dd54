import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorldMessage } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld } from "../test/worldClients.js";
import { buildAlliance, foundAlliance } from "../test/alliances.js";
import { sendChatMessage } from "./chat.js";
import { allianceTopic, WORLD_TOPIC } from "../events.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe("sendChatMessage", () => {
  it("stamps the sender's alliance role and tag and publishes one event after persisting", async () => {
    const p = await registerPlayer(t, "svc");
    const alliance = await foundAlliance(t, p);
    const events: any[] = [];
    const off = t.server.ctx.events.subscribe(WORLD_TOPIC, (e) => e.type === "chatMessage" && events.push(e));
    const allianceEvents: any[] = [];
    const offAlliance = t.server.ctx.events.subscribe(allianceTopic(alliance.id), (e) => allianceEvents.push(e));
    const result = await sendChatMessage(t.server.ctx, p.user.id, { channel: "general", content: "hello" });
    expect(result).toMatchObject({ kind: "message", message: { senderRole: "owner", allianceTag: alliance.tag, content: "hello" } });
    await eventually(() => events.length === 1, "the chatMessage event");
    expect(events[0]).toMatchObject({ channelId: "general", message: { id: result.kind === "message" ? result.message.id : "" } });
    // An open channel's message is a world event only; the alliance's topic stays quiet.
    await new Promise((r) => setTimeout(r, 100));
    expect(allianceEvents).toEqual([]);
    off();
    offAlliance();
  });

  it("refuses input before touching the rate limit or the database", async () => {
    const p = await registerPlayer(t, "svcbad");
    for (let i = 0; i < 10; i++) {
      await expect(sendChatMessage(t.server.ctx, p.user.id, { channel: "general", content: "" })).rejects.toMatchObject({ status: 400, code: "chat/invalid" });
    }
    // Ten refusals later the user can still post: invalid input did not count.
    await expect(sendChatMessage(t.server.ctx, p.user.id, { channel: "general", content: "ok" })).resolves.toMatchObject({ kind: "message" });
  });
});

describe("leadership channel", () => {
  it("is listed to owners and managers only, and its messages reach only that alliance's leaders", async () => {
    const owner = await registerPlayer(t, "lead1");
    const manager = await registerPlayer(t, "lead2");
    const member = await registerPlayer(t, "lead3");
    const otherLeader = await registerPlayer(t, "lead4");
    const alliance = await buildAlliance(t, owner, [manager], [member]);
    await foundAlliance(t, otherLeader);

    const channels = async (p: typeof owner) => (await t.api("GET", `/chat/channels/${p.countryId}`, undefined, p.token)).body.data.map((c: any) => c.id);
    expect(await channels(owner)).toEqual(["general", "trade", "war", "alliance", "leadership"]);
    expect(await channels(manager)).toContain("leadership");
    expect(await channels(member)).not.toContain("leadership");

    const clients = await Promise.all([owner, manager, member, otherLeader].map((p) => joinWorld(t.baseUrl, p.token)));
    try {
      const [ownerC, managerC, memberC, otherC] = clients;
      ownerC!.room.send(WorldMessage.sendChat, { channel: "leadership", content: "promote someone" });
      const got = await eventually(() => managerC!.received.get(WorldMessage.chatMessage)?.[0], "the manager to get it");
      expect(got).toMatchObject({ channel: "leadership", content: "promote someone", senderRole: "owner", allianceTag: alliance.tag });
      await eventually(() => ownerC!.received.get(WorldMessage.chatMessage)?.length === 1, "the owner's own copy");
      await new Promise((r) => setTimeout(r, 300));
      expect(memberC!.received.get(WorldMessage.chatMessage)).toBeUndefined();
      expect(otherC!.received.get(WorldMessage.chatMessage)).toBeUndefined();

      memberC!.room.send(WorldMessage.sendChat, { channel: "leadership", content: "me too" });
      await eventually(() => memberC!.received.get(WorldMessage.error)?.[0]?.code === "chat/no_access", "the member refused");
      const history = await t.api("GET", "/chat/messages/leadership", undefined, manager.token);
      expect(history.body.data.map((m: any) => m.content)).toEqual(["promote someone"]);
      expect((await t.api("GET", "/chat/messages/leadership", undefined, otherLeader.token)).body.data).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.leave()));
    }
  });
});
