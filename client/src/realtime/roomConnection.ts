/**
 * A generic typed connection to one Colyseus room, for every room the client joins (the world
 * room today, the alliance room next). A room is described by a RoomDefinition: its name, its
 * join options (`{ allianceId }`), the data it starts with and a projection from the room's
 * state to that data. The connection joins with the player's token, re-joins with back-off,
 * keeps a plain snapshot for useSyncExternalStore, sends typed messages and dispatches typed
 * server messages to listeners.
 *
 * Slices keep their identity: every update shares each unchanged part with the previous
 * snapshot (shareEqual), so a component reading one slice does not re-render when another
 * slice is patched.
 */
import { rejoinDelay } from "@game/schema/messages/constants";

export type ConnectionStatus = "idle" | "connecting" | "connected" | "reconnecting" | "error";

/** The connection's own part of every room snapshot. */
export interface ConnectionState {
  status: ConnectionStatus;
  /** last connection problem, shown next to the status */
  statusMessage: string;
  /** this client's session in the room ("" until joined) */
  sessionId: string;
}

/** What components read: the connection state and the room's projected data. */
export type RoomSnapshot<Data extends object> = ConnectionState & Data;

/** A joined room as the connection drives it; joinWithSdk adapts the SDK's Room to it. */
export interface JoinedRoom {
  readonly sessionId: string;
  /** the decoded state (a schema instance); read through toJSON() */
  readonly state: unknown;
  send(type: string, payload: unknown): void;
  leave(consented: boolean): Promise<unknown>;
  removeAllListeners(): void;
  onStateChange(callback: () => void): void;
  /** the socket dropped; the SDK is trying to get the seat back */
  onDrop(callback: (code: number, reason?: string) => void): void;
  onReconnect(callback: () => void): void;
  /** left for good (or the SDK gave up reconnecting) */
  onLeave(callback: (code: number, reason?: string) => void): void;
  onError(callback: (code: number, message?: string) => void): void;
  onMessage(type: string, callback: (payload: unknown) => void): void;
}

/** What a join needs: where, which room, with which options and token. */
export interface JoinRequest {
  endpoint: string;
  name: string;
  options: Record<string, unknown>;
  token: string;
}
export type JoinRoom = (request: JoinRequest) => Promise<JoinedRoom>;

/** Describes one kind of room to the connection. */
export interface RoomDefinition<Data extends object> {
  /** the name the room is registered under, e.g. WORLD_ROOM */
  name: string;
  /** join options, e.g. `{ allianceId }` for the alliance room @default {} */
  options?: Record<string, unknown>;
  /** the status message when a join fails without saying why @default "Could not reach the game server" */
  unreachable?: string;
  /**
   * Close codes with which the server ends a connection for good (the alliance room's "no
   * longer a member"): the connection forgets the room's data at once, does not re-join, and
   * reports status "error" with the server's reason. @default []
   */
  finalCloseCodes?: readonly number[];
  /**
   * Shape checks of the room's messages, by name: a message whose check refuses it is dropped
   * before any listener sees it (the client does not trust the shapes it receives; the world
   * room's are realtime/worldChecks.ts). A message without a check reaches its listeners as sent.
   */
  accept?: Readonly<Record<string, (payload: unknown) => boolean>>;
  /** the data before the first state arrives, and again after disconnect() */
  initial: Data;
  /**
   * Projects the room's state (its plain `toJSON()`) to data slices. Called on every patch;
   * return fresh objects freely, unchanged parts keep the previous identity anyway.
   */
  project(state: unknown, context: { sessionId: string; previous: Data }): Partial<Data>;
}

export interface RoomConnectionOptions {
  /** where Colyseus lives @default colyseusEndpoint() */
  endpoint?: () => string;
  /** how to join @default joinWithSdk */
  join?: JoinRoom;
  /** the re-join back-off's jitter, in [0, 1) @default Math.random */
  random?: () => number;
}

/**
 * Re-join back-off after the SDK's own reconnection gave up, a process closed the room (4001,
 * a rolling restart) or a join failed: `rejoinDelay` (schema), 125-250 ms first, doubling with
 * jitter to 8 s, the load tester's bots' too. It was a fixed 1 s first: every socket of a
 * stopped process came back to the surviving one in the same millisecond (issue 28).
 */
export { REJOIN_MAX_MS, REJOIN_MIN_MS } from "@game/schema/messages/constants";

/**
 * Where Colyseus lives: the page's own origin in production (the server serves the client),
 * /colyseus behind Vite's proxy in development (see vite.config.ts).
 */
export function colyseusEndpoint(): string {
  const origin = typeof location !== "undefined" ? location.origin : "http://localhost:3000";
  return import.meta.env.DEV ? `${origin}/colyseus` : origin;
}

/**
 * The SDK options that authenticate a join: the token goes in the matchmaking request's
 * Authorization header only. `client.auth.token` would also append it to the WebSocket URL
 * (`?_authToken=`), where access logs keep it (issue 15, finding 10); the server
 * authenticates at matchmaking, and the socket carries only the single-use seat reservation.
 */
export function sdkAuthOptions(token: string): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}` } };
}

/** Joins through the Colyseus SDK, which loads on the first join, not with the entry screen. */
export const joinWithSdk: JoinRoom = async ({ endpoint, name, options, token }) => {
  const { Client } = await import("@colyseus/sdk");
  const client = new Client(endpoint, sdkAuthOptions(token));
  const room = await client.joinOrCreate(name, options);
  // Broadcasts no screen listens to (a news ticker, ...) are accepted quietly.
  room.onMessage("*", () => undefined);
  // A reload or a navigation away leaves for good at once: without it the server would keep
  // the seat for a reconnection that never comes, and a few quick reloads would reach the
  // per-user session cap (ROOM_SESSIONS_PER_USER).
  const leaveOnPageHide = () => {
    if (room.connection?.isOpen) void room.leave(true).catch(() => undefined);
  };
  if (typeof window !== "undefined") {
    window.addEventListener("pagehide", leaveOnPageHide, { once: true });
    room.onLeave(() => window.removeEventListener("pagehide", leaveOnPageHide));
  }
  return {
    get sessionId() {
      return room.sessionId;
    },
    get state() {
      return room.state;
    },
    send: (type, payload) => room.send(type, payload),
    // A socket the server is already closing (a logout elsewhere closes every session of the
    // token) takes no LEAVE frame: the browser would log 'WebSocket is already in CLOSING state'.
    leave: (consented) => (room.connection?.isOpen ? room.leave(consented) : Promise.resolve(0)),
    removeAllListeners: () => room.removeAllListeners(),
    onStateChange: (callback) => void room.onStateChange(callback),
    onDrop: (callback) => void room.onDrop(callback),
    onReconnect: (callback) => void room.onReconnect(callback),
    onLeave: (callback) => void room.onLeave(callback),
    onError: (callback) => void room.onError(callback),
    onMessage: (type, callback) => void room.onMessage(type, callback),
  };
};

/**
 * `next` with every part deep-equal to the same part of `previous` replaced by `previous`'s
 * (plain data: objects, arrays, primitives). Returns `previous` itself when nothing differs,
 * so identity changes exactly when data does.
 */
export function shareEqual<T>(previous: T, next: T): T {
  if (Object.is(previous, next)) return previous;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const out = next.map((item, i) => {
      const shared = i < previous.length ? shareEqual(previous[i], item) : item;
      if (shared !== previous[i]) same = false;
      return shared;
    });
    return (same ? previous : out) as T;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const shared = key in previous ? shareEqual(previous[key], next[key]) : next[key];
      if (shared !== previous[key] || !(key in previous)) same = false;
      out[key] = shared;
    }
    return (same ? previous : out) as T;
  }
  return next;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

const IDLE: ConnectionState = { status: "idle", statusMessage: "", sessionId: "" };

/**
 * One connection to a room of one kind. `ClientMessages` and `ServerMessages` map message
 * names to payloads (WorldClientMessages, WorldServerMessages in @game/schema/messages).
 */
export class RoomConnection<Data extends object, ClientMessages extends object = object, ServerMessages extends object = object> {
  private snapshot: RoomSnapshot<Data>;
  private readonly listeners = new Set<() => void>();
  private readonly messageListeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly errorListeners = new Set<(code: number, message: string) => void>();
  private readonly resetListeners = new Set<() => void>();
  private readonly finalListeners = new Set<(code: number, reason: string) => void>();
  private readonly connectedListeners = new Set<() => void>();
  private room: JoinedRoom | null = null;
  private token: string | null = null;
  /** bumps on every connect/disconnect: callbacks of an older join do nothing */
  private generation = 0;
  private rejoinTimer: ReturnType<typeof setTimeout> | null = null;
  /** failed or lost joins since the last good one: the back-off's exponent */
  private rejoinAttempt = 0;
  private readonly endpoint: () => string;
  private readonly joinRoom: JoinRoom;
  private readonly random: () => number;

  constructor(
    readonly definition: RoomDefinition<Data>,
    options: RoomConnectionOptions = {},
  ) {
    this.snapshot = { ...IDLE, ...definition.initial };
    this.endpoint = options.endpoint ?? colyseusEndpoint;
    this.joinRoom = options.join ?? joinWithSdk;
    this.random = options.random ?? Math.random;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RoomSnapshot<Data> => this.snapshot;

  /** The data part of the snapshot, without the connection state. */
  get data(): Data {
    const { status: _status, statusMessage: _message, sessionId: _session, ...data } = this.snapshot;
    return data as unknown as Data;
  }

  /**
   * Sets data slices (from a projection or a message). Each slice keeps its identity when
   * its data is unchanged; listeners hear only about real changes.
   */
  update(patch: Partial<Data>): void {
    this.apply(patch);
  }

  private setConnection(patch: Partial<ConnectionState>): void {
    this.apply(patch);
  }

  private apply(patch: object): void {
    const previous = this.snapshot as Record<string, unknown>;
    let changed = false;
    const next: Record<string, unknown> = { ...previous };
    for (const [key, value] of Object.entries(patch)) {
      const shared = shareEqual(previous[key], value);
      if (shared !== previous[key]) {
        next[key] = shared;
        changed = true;
      }
    }
    if (!changed) return;
    this.snapshot = next as RoomSnapshot<Data>;
    for (const listener of this.listeners) listener();
  }

  /** Joins with this token (no-op if already joined or joining with it). */
  connect(token: string): void {
    if (this.token === token && (this.room || this.rejoinTimer || this.snapshot.status === "connecting")) return;
    this.disconnect();
    this.token = token;
    void this.join(this.generation);
  }

  /** Leaves the room and forgets everything (logout): the snapshot returns to the initial data. */
  disconnect(): void {
    this.generation += 1;
    this.token = null;
    if (this.rejoinTimer) clearTimeout(this.rejoinTimer);
    this.rejoinTimer = null;
    this.rejoinAttempt = 0;
    const room = this.room;
    this.room = null;
    if (room) {
      room.removeAllListeners();
      room.leave(true).catch(() => undefined);
    }
    for (const listener of this.resetListeners) listener();
    this.apply({ ...IDLE, ...this.definition.initial });
  }

  /** Sends a typed message; false when not connected (nothing is queued). */
  send<K extends keyof ClientMessages & string>(type: K, payload: ClientMessages[K]): boolean {
    if (!this.room || this.snapshot.status !== "connected") return false;
    this.room.send(type, payload);
    return true;
  }

  /** Listens to a typed server message, across re-joins; returns the unsubscribe function. */
  on<K extends keyof ServerMessages & string>(type: K, listener: (payload: ServerMessages[K]) => void): () => void {
    let set = this.messageListeners.get(type);
    if (!set) {
      this.messageListeners.set(type, (set = new Set()));
      if (this.room) this.listenTo(this.room, type, this.generation);
    }
    const untyped = listener as (payload: unknown) => void;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  /** Listens to room errors the server raised for this client (code, message). */
  onError(listener: (code: number, message: string) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Called when the server closed the connection for good with one of the definition's finalCloseCodes. */
  onClosedForGood(listener: (code: number, reason: string) => void): () => void {
    this.finalListeners.add(listener);
    return () => this.finalListeners.delete(listener);
  }

  /**
   * Called each time the room is joined or the SDK got the seat back after a drop: what the
   * client asks of the room (subscriptions, watches) is said again then.
   */
  onConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /** Called when disconnect() forgets everything, to clear what a room kind keeps beside the snapshot. */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  private async join(generation: number): Promise<void> {
    const token = this.token;
    if (!token) return;
    this.setConnection({ status: this.snapshot.status === "reconnecting" ? "reconnecting" : "connecting", statusMessage: "" });
    let room: JoinedRoom;
    try {
      room = await this.joinRoom({ endpoint: this.endpoint(), name: this.definition.name, options: this.definition.options ?? {}, token });
    } catch (err) {
      if (generation !== this.generation) return;
      this.setConnection({ status: "reconnecting", statusMessage: describe(err, this.definition.unreachable) });
      this.scheduleRejoin(generation);
      return;
    }
    if (generation !== this.generation) {
      room.leave(true).catch(() => undefined);
      return;
    }
    this.room = room;
    this.rejoinAttempt = 0;
    this.wire(room, generation);
    this.setConnection({ status: "connected", statusMessage: "", sessionId: room.sessionId });
    if (room.state) this.readState(room);
    for (const listener of this.connectedListeners) listener();
  }

  private scheduleRejoin(generation: number): void {
    if (this.rejoinTimer || generation !== this.generation || !this.token) return;
    const delay = rejoinDelay(this.rejoinAttempt, this.random);
    this.rejoinAttempt += 1;
    this.rejoinTimer = setTimeout(() => {
      this.rejoinTimer = null;
      if (generation === this.generation) void this.join(generation);
    }, delay);
  }

  private wire(room: JoinedRoom, generation: number): void {
    room.onStateChange(() => {
      if (generation === this.generation) this.readState(room);
    });
    room.onDrop((_code, reason) => {
      if (generation === this.generation) this.setConnection({ status: "reconnecting", statusMessage: reason ?? "Connection lost" });
    });
    room.onReconnect(() => {
      if (generation !== this.generation) return;
      this.setConnection({ status: "connected", statusMessage: "", sessionId: room.sessionId });
      this.readState(room);
      for (const listener of this.connectedListeners) listener();
    });
    room.onLeave((code, reason) => {
      if (generation !== this.generation) return;
      this.room = null;
      if (this.definition.finalCloseCodes?.includes(code)) {
        // Closed out for good: forget what the room showed, and stay out.
        this.generation += 1;
        this.token = null;
        for (const listener of this.resetListeners) listener();
        this.apply({ ...IDLE, ...this.definition.initial, status: "error", statusMessage: reason || `Closed (${code})` });
        for (const listener of this.finalListeners) listener(code, reason ?? "");
        return;
      }
      this.setConnection({ status: "reconnecting", statusMessage: reason || `Disconnected (${code})` });
      this.scheduleRejoin(generation);
    });
    room.onError((code, message) => {
      if (generation !== this.generation) return;
      for (const listener of this.errorListeners) listener(code, message ?? "Room error");
    });
    for (const type of this.messageListeners.keys()) this.listenTo(room, type, generation);
  }

  private listenTo(room: JoinedRoom, type: string, generation: number): void {
    const accept = this.definition.accept?.[type];
    room.onMessage(type, (payload) => {
      if (generation !== this.generation) return;
      if (accept && !accept(payload)) {
        console.warn(`Dropped a "${type}" message of an unexpected shape`);
        return;
      }
      for (const listener of this.messageListeners.get(type) ?? []) listener(payload);
    });
  }

  private readState(room: JoinedRoom): void {
    const state = room.state as { toJSON?: () => unknown } | null | undefined;
    if (!state) return;
    const json = typeof state.toJSON === "function" ? state.toJSON() : state;
    this.update(this.definition.project(json, { sessionId: room.sessionId, previous: this.data }));
  }
}

function describe(err: unknown, unreachable = "Could not reach the game server"): string {
  if (err && typeof err === "object" && "message" in err && typeof err.message === "string" && err.message) return err.message;
  return unreachable;
}
