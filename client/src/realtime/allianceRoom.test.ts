import { describe, expect, it } from "vitest";
import { Encoder, Reflection, StateView, type Decoder } from "@colyseus/schema";
import { AllianceChannelState, AllianceMemberState, AllianceState, ChatMessageState, LEADERSHIP_VIEW_TAG, OperationState } from "@game/schema/state";
import { ALLIANCE_ROOM, ALLIANCE_ROOM_CLOSE_NOT_MEMBER, AllianceMessage } from "@game/schema/messages";
import type { JoinRequest, JoinedRoom } from "./roomConnection";
import { createAllianceConnection, projectAllianceState } from "./allianceRoom";

/** A joined room the test drives: callbacks are raised as the SDK would raise them. */
class FakeRoom implements JoinedRoom {
  readonly sessionId = "s1";
  readonly sent: Array<[string, unknown]> = [];
  private readonly handlers = new Map<string, Array<(...args: any[]) => void>>();
  constructor(public state: unknown) {}
  send(type: string, payload: unknown) {
    this.sent.push([type, payload]);
  }
  async leave() {}
  removeAllListeners() {
    this.handlers.clear();
  }
  private on(event: string, cb: (...args: any[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), cb]);
  }
  emit(event: string, ...args: unknown[]) {
    for (const cb of this.handlers.get(event) ?? []) cb(...args);
  }
  onStateChange(cb: () => void) {
    this.on("state", cb);
  }
  onDrop(cb: (code: number, reason?: string) => void) {
    this.on("drop", cb);
  }
  onReconnect(cb: () => void) {
    this.on("reconnect", cb);
  }
  onLeave(cb: (code: number, reason?: string) => void) {
    this.on("leave", cb);
  }
  onError(cb: (code: number, message?: string) => void) {
    this.on("error", cb);
  }
  onMessage(type: string, cb: (payload: unknown) => void) {
    this.on(`message:${type}`, cb);
  }
}

/** The server's AllianceState as a client with (or without) the leadership tag decodes it. */
function decoded(leader: boolean): unknown {
  const state = new AllianceState();
  const encoder = new Encoder(state);
  state.header.assign({ id: 7, name: "Northern Pact", tag: "NP", memberCount: 2 });
  state.members.set("1", new AllianceMemberState({ countryId: 1, countryName: "Avalon", role: "owner" }));
  state.operations.set("3", new OperationState({ id: 3, name: "Dawn", readiness: "Awaiting Requirements" }));
  state.operations.set("5", new OperationState({ id: 5, name: "Dusk", readiness: "Ready to Launch" }));
  const general = new AllianceChannelState({ id: "general", name: "General", accessLevel: "all" });
  general.messages.push(new ChatMessageState({ id: "12", content: "second" }), new ChatMessageState({ id: "9", content: "first" }));
  state.channels.set("general", general);
  state.channels.set("military", new AllianceChannelState({ id: "military", name: "Military", accessLevel: "all" }));
  const secret = new AllianceChannelState({ id: "leadership", name: "Leadership", accessLevel: "manager", isPrivate: true });
  secret.messages.push(new ChatMessageState({ id: "20", content: "leaders only" }));
  state.leadership.channels.set("leadership", secret);
  state.leadership.pendingApplications = 2;
  const view = new StateView();
  if (leader) view.add(state, LEADERSHIP_VIEW_TAG);
  const it = { offset: 0 };
  encoder.encodeAll(it);
  const bytes = encoder.encodeAllView(view, it.offset, it);
  const decoder = Reflection.decode(Reflection.encode(encoder)) as Decoder;
  decoder.decode(bytes);
  return (decoder.state as unknown as { toJSON(): unknown }).toJSON();
}

describe("alliance room projection", () => {
  it("orders operations newest first and channels general, military, then the leaders' ones; messages by id", () => {
    const data = projectAllianceState(decoded(true));
    expect(data.header).toMatchObject({ id: 7, tag: "NP" });
    expect(data.operations!.map((o) => o.name)).toEqual(["Dusk", "Dawn"]);
    expect(data.channels!.map((c) => c.id)).toEqual(["general", "military", "leadership"]);
    expect(data.channels![0]!.messages.map((m) => m.content)).toEqual(["first", "second"]);
    expect(data.leadership).toEqual({ pendingApplications: 2, pendingInvitations: 0 });
  });

  it("a member's state has no leadership part: no private channels, no counters", () => {
    const data = projectAllianceState(decoded(false));
    expect(data.channels!.map((c) => c.id)).toEqual(["general", "military"]);
    expect(data.leadership).toBeNull();
    expect(JSON.stringify(data)).not.toContain("leaders only");
  });
});

describe("alliance connection", () => {
  it("joins with { allianceId } and, closed out as a non-member, forgets the alliance at once and stays out", async () => {
    const requests: JoinRequest[] = [];
    const room = new FakeRoom(decoded(false));
    const connection = createAllianceConnection(7, {
      endpoint: () => "http://game.test",
      join: async (request) => {
        requests.push(request);
        return room;
      },
    });
    const closed: string[] = [];
    connection.onClosedForGood((_code, reason) => closed.push(reason));
    connection.connect("token-1");
    await new Promise((r) => setTimeout(r, 0));
    expect(requests).toEqual([{ endpoint: "http://game.test", name: ALLIANCE_ROOM, options: { allianceId: 7 }, token: "token-1" }]);
    expect(connection.getSnapshot()).toMatchObject({ status: "connected", header: { name: "Northern Pact" } });

    room.emit(`message:${AllianceMessage.typingNotice}`, { channel: "general", countryId: 2, name: "Brigadoon" });
    expect(connection.getSnapshot().typing.map((t) => t.name)).toEqual(["Brigadoon"]);
    expect(connection.send(AllianceMessage.sendChat, { channel: "general", content: "hi" })).toBe(true);
    expect(room.sent).toEqual([[AllianceMessage.sendChat, { channel: "general", content: "hi" }]]);

    room.emit("leave", ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "You are no longer a member of this alliance");
    const after = connection.getSnapshot();
    expect(after).toMatchObject({ status: "error", statusMessage: "You are no longer a member of this alliance", header: null, members: [], channels: [], operations: [] });
    expect(closed).toEqual(["You are no longer a member of this alliance"]);
    // No re-join.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(requests).toHaveLength(1);
    expect(connection.send(AllianceMessage.sendChat, { channel: "general", content: "again" })).toBe(false);
  });

  it("an ordinary disconnect re-joins", async () => {
    let joins = 0;
    const connection = createAllianceConnection(7, { endpoint: () => "x", join: async () => (joins++, new FakeRoom(decoded(true))) });
    connection.connect("t");
    await new Promise((r) => setTimeout(r, 0));
    (connection as unknown as { room: FakeRoom }).room.emit("leave", 1006, "gone");
    expect(connection.getSnapshot().status).toBe("reconnecting");
    await new Promise((r) => setTimeout(r, 1_100));
    expect(joins).toBe(2);
    connection.disconnect();
  });
});
