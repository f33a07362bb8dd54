import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render } from "@testing-library/react";
import { Encoder, Reflection, StateView, type Decoder } from "@colyseus/schema";
import { ChatChannelState, ChatMessageState, CountrySummaryState, OnlineUserState, RankingRow, WorldState } from "@game/schema/state";
import { WorldMessage, type ChatMessagePayload } from "@game/schema/messages";
import { REJOIN_MIN_MS, RoomConnection, shareEqual, type JoinRequest, type JoinedRoom } from "./roomConnection";
import { createWorldConnection, type WorldSnapshot } from "./worldRoom";
import { useRoomSlice } from "./hooks";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A joined room driven by the test: it raises the callbacks the SDK would. */
class TestRoom implements JoinedRoom {
  readonly sessionId: string = "session-a";
  readonly sent: [string, unknown][] = [];
  left = false;
  private readonly handlers = new Map<string, ((...args: any[]) => void)[]>();

  constructor(private readonly readState: () => unknown = () => null) {}

  get state(): unknown {
    return this.readState();
  }
  send(type: string, payload: unknown): void {
    this.sent.push([type, payload]);
  }
  async leave(): Promise<void> {
    this.left = true;
  }
  removeAllListeners(): void {
    this.handlers.clear();
  }
  private add(event: string, callback: (...args: any[]) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), callback]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const callback of this.handlers.get(event) ?? []) callback(...args);
  }
  onStateChange(callback: () => void): void {
    this.add("state", callback);
  }
  onDrop(callback: (code: number, reason?: string) => void): void {
    this.add("drop", callback);
  }
  onReconnect(callback: () => void): void {
    this.add("reconnect", callback);
  }
  onLeave(callback: (code: number, reason?: string) => void): void {
    this.add("leave", callback);
  }
  onError(callback: (code: number, message?: string) => void): void {
    this.add("error", callback);
  }
  onMessage(type: string, callback: (payload: unknown) => void): void {
    this.add(`message:${type}`, callback);
  }
}

/**
 * The world room over a real wire: the server's WorldState is encoded with @colyseus/schema
 * (full state, then patches, this session's private country through a StateView) and decoded
 * by reflection, as the SDK decodes it in the browser.
 */
class WireWorldRoom extends TestRoom {
  readonly server = new WorldState();
  private readonly encoder = new Encoder(this.server);
  private readonly view = new StateView();
  private decoder!: Decoder;

  constructor(build: (state: WorldState, view: StateView) => void) {
    super(() => this.decoder.state);
    build(this.server, this.view);
    const it = { offset: 0 };
    this.encoder.encodeAll(it);
    const bytes = this.encoder.encodeAllView(this.view, it.offset, it);
    this.encoder.discardChanges();
    this.decoder = Reflection.decode(Reflection.encode(this.encoder));
    this.decoder.decode(bytes);
  }

  /** Sends the server's pending changes as one patch and raises onStateChange. */
  patch(change: (state: WorldState) => void): void {
    change(this.server);
    const it = { offset: 0 };
    this.encoder.encode(it);
    const bytes = this.encoder.encodeView(this.view, it.offset, it);
    this.encoder.discardChanges();
    this.decoder.decode(bytes);
    this.emit("state");
  }
}

function worldRoom(): WireWorldRoom {
  return new WireWorldRoom((state, view) => {
    Object.assign(state.season, { name: "Season 1", active: "ACTIVE", startsAt: 1_000, endsAt: 9_000_000, nextTickAt: 1_200_000, turnIntervalMs: 1_200_000 });
    for (const [id, value] of [
      [1, 900],
      [2, 500],
    ]) {
      state.rankings.push(new RankingRow({ id: String(id), rank: id, countryId: id, countryName: `Land ${id}`, value, land: 100 }));
    }
    const general = new ChatChannelState({ id: "general", name: "General", accessLevel: "all" });
    general.messages.push(new ChatMessageState({ id: "10", channel: "general", senderId: 2, senderName: "bo", timestamp: 500, content: "hi" }));
    state.channels.set("general", general);
    state.channels.set("alliance", new ChatChannelState({ id: "alliance", name: "Alliance", accessLevel: "alliance" }));
    state.onlineUsers.set("2", new OnlineUserState({ id: "2", name: "bo", networth: 500 }));
    const mine = new CountrySummaryState({ countryId: 1, name: "Land 1", turns: 100, cash: 100_000 });
    const theirs = new CountrySummaryState({ countryId: 2, name: "Land 2", turns: 50, cash: 987_654 });
    state.countries.set("session-a", mine);
    state.countries.set("session-b", theirs);
    view.add(mine);
  });
}

/** Joins `connection` to `room` and waits for the join to settle. */
async function joined<C extends { connect(token: string): void }>(connection: C): Promise<C> {
  await act(async () => {
    connection.connect("token-1");
    await Promise.resolve();
  });
  return connection;
}

describe("the world room connection", () => {
  it("projects the decoded WorldState into plain slices, with only this session's own country", async () => {
    const room = worldRoom();
    const world = await joined(createWorldConnection({ endpoint: () => "ws://test", join: async () => room }));
    const s = world.getSnapshot();
    expect(s).toMatchObject({ status: "connected", sessionId: "session-a" });
    expect(s.season).toMatchObject({ name: "Season 1", active: "ACTIVE", nextTickAt: 1_200_000 });
    expect(s.rankings.map((r) => [r.countryId, r.value])).toEqual([
      [1, 900],
      [2, 500],
    ]);
    expect(s.channels.map((c) => c.id)).toEqual(["general", "alliance"]);
    expect(s.channels[0]!.messages).toMatchObject([{ id: "10", senderId: 2, content: "hi", mentions: [] }]);
    expect(s.onlineUsers).toMatchObject([{ id: "2", name: "bo" }]);
    expect(s.ownCountry).toMatchObject({ countryId: 1, cash: 100_000 });
    expect(JSON.stringify(s)).not.toContain("987654");
  });

  it("changes a slice's identity only when its data changes, so a component reading another slice does not re-render", async () => {
    const room = worldRoom();
    const world = await joined(createWorldConnection({ join: async () => room }));
    const renders = { season: 0, rankings: 0, channels: 0 };
    function Probe({ slice }: { slice: keyof typeof renders }) {
      renders[slice] += 1;
      const value = useRoomSlice(world, (s: WorldSnapshot) => s[slice]);
      return <span>{JSON.stringify(value).length}</span>;
    }
    render(
      <>
        <Probe slice="season" />
        <Probe slice="rankings" />
        <Probe slice="channels" />
      </>,
    );
    const counts = () => ({ ...renders });
    const start = counts();
    const before = world.getSnapshot();

    // a rankings patch: only the rankings reader renders; every other slice keeps its identity
    act(() => room.patch((state) => void (state.rankings[1]!.value = 950)));
    const afterRankings = world.getSnapshot();
    expect(afterRankings.rankings).not.toBe(before.rankings);
    expect(afterRankings.rankings[1]!.value).toBe(950);
    // the unchanged row keeps its identity too
    expect(afterRankings.rankings[0]).toBe(before.rankings[0]);
    for (const key of ["season", "channels", "onlineUsers", "ownCountry", "ownCountryAt", "commandOutputs", "errors"] as const) {
      expect(afterRankings[key], key).toBe(before[key]);
    }
    expect(counts()).toEqual({ ...start, rankings: start.rankings + 1 });

    // a season patch: only the season reader renders
    act(() => room.patch((state) => void (state.season.nextTickAt = 2_400_000)));
    expect(world.getSnapshot().rankings).toBe(afterRankings.rankings);
    expect(counts()).toEqual({ ...start, rankings: start.rankings + 1, season: start.season + 1 });

    // a private chat push: only the channels reader renders
    const push: ChatMessagePayload = { id: "11", channel: "alliance", type: "message", senderId: 3, senderName: "cy", senderRole: "member", allianceTag: "IRN", isOnline: true, timestamp: 600, isEdited: false, content: "plan", mentions: [] };
    act(() => room.emit(`message:${WorldMessage.chatMessage}`, push));
    expect(world.getSnapshot().channels[1]!.messages).toMatchObject([{ id: "11", content: "plan" }]);
    expect(counts()).toEqual({ rankings: start.rankings + 1, season: start.season + 1, channels: start.channels + 1 });

    // a patch that changes no data the client sees (another session's private country): nobody renders
    const quiet = world.getSnapshot();
    act(() => room.patch((state) => void (state.countries.get("session-b")!.cash = 1)));
    expect(world.getSnapshot()).toBe(quiet);
    expect(counts()).toEqual({ rankings: start.rankings + 1, season: start.season + 1, channels: start.channels + 1 });
  });

  it("stamps ownCountryAt only when the own country's numbers change", async () => {
    const room = worldRoom();
    const world = await joined(createWorldConnection({ join: async () => room }));
    const first = world.getSnapshot();
    expect(first.ownCountryAt).toBeGreaterThan(0);
    vi.useFakeTimers({ now: first.ownCountryAt + 5_000, toFake: ["Date"] });
    act(() => room.patch((state) => void (state.rankings[0]!.land = 120)));
    expect(world.getSnapshot().ownCountry).toBe(first.ownCountry);
    expect(world.getSnapshot().ownCountryAt).toBe(first.ownCountryAt);
    act(() => room.patch((state) => void (state.countries.get("session-a")!.turns = 99)));
    expect(world.getSnapshot().ownCountry).toMatchObject({ turns: 99 });
    expect(world.getSnapshot().ownCountryAt).toBe(first.ownCountryAt + 5_000);
  });

  it("sends typed chat lines only while connected, and keeps command outputs and refusals", async () => {
    const room = worldRoom();
    const world = createWorldConnection({ join: async () => room });
    expect(world.sendChat("general", "too early")).toBe(false);
    await joined(world);
    expect(world.sendChat("general", "hello")).toBe(true);
    expect(room.sent).toEqual([[WorldMessage.sendChat, { channel: "general", content: "hello" }]]);
    act(() => room.emit(`message:${WorldMessage.chatCommand}`, { command: "who", lines: ["1 player online"] }));
    act(() => room.emit(`message:${WorldMessage.error}`, { code: "chat/rate_limited", message: "Slow down" }));
    expect(world.getSnapshot().commandOutputs).toMatchObject([{ command: "who", lines: ["1 player online"] }]);
    expect(world.getSnapshot().errors).toMatchObject([{ code: "chat/rate_limited", message: "Slow down" }]);
    act(() => world.disconnect());
    expect(room.left).toBe(true);
    expect(world.getSnapshot()).toMatchObject({ status: "idle", rankings: [], channels: [], ownCountry: null, commandOutputs: [], errors: [] });
  });
});

describe("the generic room connection (reused by another room kind)", () => {
  interface AllianceData {
    members: string[];
  }
  interface AllianceClientMessages {
    ready: { operationId: number };
  }
  interface AllianceServerMessages {
    defenseRequested: { countryId: number };
  }
  const alliance = (join: (request: JoinRequest) => Promise<JoinedRoom>) =>
    new RoomConnection<AllianceData, AllianceClientMessages, AllianceServerMessages>(
      { name: "alliance", options: { allianceId: 7 }, initial: { members: [] }, project: (state) => ({ members: (state as { members: string[] }).members }) },
      { endpoint: () => "ws://test", join },
    );

  it("joins with its name, options and the token, projects its own state, and dispatches typed messages", async () => {
    const requests: JoinRequest[] = [];
    const room = new TestRoom(() => ({ members: ["ann", "bo"] }));
    const connection = await joined(
      alliance(async (request) => {
        requests.push(request);
        return room;
      }),
    );
    expect(requests).toEqual([{ endpoint: "ws://test", name: "alliance", options: { allianceId: 7 }, token: "token-1" }]);
    expect(connection.getSnapshot()).toMatchObject({ status: "connected", members: ["ann", "bo"] });
    const heard: number[] = [];
    const stop = connection.on("defenseRequested", (payload) => heard.push(payload.countryId));
    room.emit("message:defenseRequested", { countryId: 4 });
    stop();
    room.emit("message:defenseRequested", { countryId: 5 });
    expect(heard).toEqual([4]);
    expect(connection.send("ready", { operationId: 3 })).toBe(true);
    expect(room.sent).toEqual([["ready", { operationId: 3 }]]);
  });

  it("re-joins with back-off after failed joins and after the SDK gives the seat up", async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const rooms: TestRoom[] = [];
    const connection = alliance(async () => {
      attempts += 1;
      if (attempts <= 2) throw new Error("server restarting");
      const room = new TestRoom(() => ({ members: [`m${attempts}`] }));
      rooms.push(room);
      return room;
    });
    await act(async () => connection.connect("token-1"));
    expect(connection.getSnapshot()).toMatchObject({ status: "reconnecting", statusMessage: "server restarting" });
    await act(async () => void (await vi.advanceTimersByTimeAsync(REJOIN_MIN_MS - 1)));
    expect(attempts).toBe(1);
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    expect(attempts).toBe(2);
    // the delay doubles
    await act(async () => void (await vi.advanceTimersByTimeAsync(2 * REJOIN_MIN_MS)));
    expect(attempts).toBe(3);
    expect(connection.getSnapshot()).toMatchObject({ status: "connected", members: ["m3"] });

    // a drop is the SDK's to recover; a leave after it gave up re-joins from the shortest delay again
    act(() => rooms[0]!.emit("drop", 1006, "Connection lost"));
    expect(connection.getSnapshot().status).toBe("reconnecting");
    act(() => rooms[0]!.emit("leave", 4000, ""));
    await act(async () => void (await vi.advanceTimersByTimeAsync(REJOIN_MIN_MS)));
    expect(attempts).toBe(4);
    expect(connection.getSnapshot()).toMatchObject({ status: "connected", members: ["m4"] });
  });
});

describe("shareEqual", () => {
  it("returns the previous value when deep-equal, and shares unchanged parts otherwise", () => {
    const previous = { a: [{ x: 1 }, { x: 2 }], b: { c: "d" } };
    expect(shareEqual(previous, { a: [{ x: 1 }, { x: 2 }], b: { c: "d" } })).toBe(previous);
    const next = shareEqual(previous, { a: [{ x: 1 }, { x: 3 }], b: { c: "d" } });
    expect(next).not.toBe(previous);
    expect(next.b).toBe(previous.b);
    expect(next.a[0]).toBe(previous.a[0]);
    expect(next.a[1]).toEqual({ x: 3 });
    expect(shareEqual([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(shareEqual<Record<string, number>>({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
  });
});

describe("finding 10: the JWT never appears in the WebSocket URL", () => {
  it("the SDK client joinWithSdk builds sends the token as a header, and its socket URL carries no token", async () => {
    const { Client } = await import("@colyseus/sdk");
    const { sdkAuthOptions } = await import("./roomConnection");
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const client = new Client("https://game.example", sdkAuthOptions(token));
    const internals = client as unknown as {
      http: { options: { headers: Record<string, string> }; authToken?: string };
      buildEndpoint(reservation: object, options: object): string;
    };
    expect(internals.http.options.headers.authorization).toBe(`Bearer ${token}`);
    expect(internals.http.authToken ?? undefined).toBeUndefined();
    const url = internals.buildEndpoint({ name: "world", sessionId: "s1", roomId: "r1", processId: "p1" }, { sessionId: "s1" });
    expect(url).toBe("wss://game.example/p1/r1?sessionId=s1");
    expect(url).not.toContain(token);
    expect(url).not.toContain("_authToken");
    // The SDK's own way would have leaked it: the reason for the header.
    const leaky = new Client("https://game.example");
    leaky.auth.token = token;
    expect((leaky as unknown as typeof internals).buildEndpoint({ name: "world", sessionId: "s1", roomId: "r1", processId: "p1" }, {})).toContain(token);
  });
});
