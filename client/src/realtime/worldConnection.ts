import type { Room } from "@colyseus/sdk";
import { CHAT_RECENT_MESSAGES, WORLD_ROOM, WorldMessage } from "@game/schema/messages";
import {
  normalizeMessage,
  normalizeChannels,
  normalizeOnlineUsers,
  normalizeOwnCountry,
  normalizeRankings,
  normalizeSeason,
} from "./normalize";
import { EMPTY_SNAPSHOT, type ChatChannel, type ChatMessage, type CountrySummary, type WorldSnapshot } from "./types";

export { WORLD_ROOM };
/** Re-join back-off after the SDK's own reconnection gave up, or a join failed (ms). */
const REJOIN_MIN_MS = 1_000;
const REJOIN_MAX_MS = 15_000;
/** Command outputs and room errors kept for the chat screen. */
const KEEP_NOTICES = 20;

/**
 * Where Colyseus lives: the page's own origin in production (the server serves the client),
 * /colyseus behind Vite's proxy in development (see vite.config.ts).
 */
export function colyseusEndpoint(): string {
  const origin = typeof location !== "undefined" ? location.origin : "http://localhost:3000";
  return import.meta.env.DEV ? `${origin}/colyseus` : origin;
}

type Listener = () => void;

/**
 * One connection to the world room, shared by the whole app. Components read it through
 * useSyncExternalStore (see hooks.ts): every state patch produces a new plain snapshot.
 * Reconnection: the SDK retries a dropped socket itself; if it gives up (or the first join
 * fails, e.g. the server is restarting) this class re-joins with back-off while a token is set.
 */
export class WorldConnection {
  private snapshot: WorldSnapshot = EMPTY_SNAPSHOT;
  private listeners = new Set<Listener>();
  private room: Room | null = null;
  private token: string | null = null;
  private generation = 0;
  private rejoinTimer: ReturnType<typeof setTimeout> | null = null;
  private rejoinDelay = REJOIN_MIN_MS;
  private noticeId = 0;
  private lastOwnCountryKey = "";
  /** channels as the state has them (open channels carry their messages) */
  private stateChannels: ChatChannel[] = [];
  /** alliance and leadership messages, pushed to entitled clients as "chatMessage" */
  private privateMessages = new Map<string, ChatMessage[]>();

  constructor(private readonly endpoint: () => string = colyseusEndpoint) {}

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): WorldSnapshot => this.snapshot;

  private update(patch: Partial<WorldSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Joins the world room with this token (no-op if already joined with it). */
  connect(token: string): void {
    if (this.token === token && (this.room || this.rejoinTimer || this.snapshot.status === "connecting")) return;
    this.disconnect();
    this.token = token;
    void this.join(this.generation);
  }

  /** Leaves the room and forgets everything (logout). */
  disconnect(): void {
    this.generation += 1;
    this.token = null;
    if (this.rejoinTimer) clearTimeout(this.rejoinTimer);
    this.rejoinTimer = null;
    this.rejoinDelay = REJOIN_MIN_MS;
    const room = this.room;
    this.room = null;
    if (room) {
      room.removeAllListeners();
      room.leave(true).catch(() => undefined);
    }
    this.lastOwnCountryKey = "";
    this.stateChannels = [];
    this.privateMessages.clear();
    this.update({ ...EMPTY_SNAPSHOT });
  }

  /** Sends a chat line; false when not connected. */
  sendChat(channel: string, content: string): boolean {
    if (!this.room || this.snapshot.status !== "connected") return false;
    this.room.send(WorldMessage.sendChat, { channel, content });
    return true;
  }

  private async join(generation: number): Promise<void> {
    const token = this.token;
    if (!token) return;
    this.update({ status: this.snapshot.status === "reconnecting" ? "reconnecting" : "connecting", statusMessage: "" });
    let room: Room;
    try {
      // the SDK loads on first join, not with the entry screen
      const { Client } = await import("@colyseus/sdk");
      const client = new Client(this.endpoint());
      client.auth.token = token;
      room = await client.joinOrCreate(WORLD_ROOM);
    } catch (err) {
      if (generation !== this.generation) return;
      this.update({ status: "reconnecting", statusMessage: describe(err) });
      this.scheduleRejoin(generation);
      return;
    }
    if (generation !== this.generation) {
      room.leave(true).catch(() => undefined);
      return;
    }
    this.room = room;
    this.rejoinDelay = REJOIN_MIN_MS;
    this.wire(room, generation);
    this.update({ status: "connected", statusMessage: "", sessionId: room.sessionId });
    if (room.state) this.readState(room);
  }

  private scheduleRejoin(generation: number): void {
    if (this.rejoinTimer || generation !== this.generation || !this.token) return;
    const delay = this.rejoinDelay;
    this.rejoinDelay = Math.min(REJOIN_MAX_MS, this.rejoinDelay * 2);
    this.rejoinTimer = setTimeout(() => {
      this.rejoinTimer = null;
      if (generation === this.generation) void this.join(generation);
    }, delay);
  }

  private wire(room: Room, generation: number): void {
    room.onStateChange(() => {
      if (generation === this.generation) this.readState(room);
    });
    room.onDrop((_code, reason) => {
      if (generation === this.generation) this.update({ status: "reconnecting", statusMessage: reason ?? "Connection lost" });
    });
    room.onReconnect(() => {
      if (generation !== this.generation) return;
      this.update({ status: "connected", statusMessage: "", sessionId: room.sessionId });
      this.readState(room);
    });
    room.onLeave((code, reason) => {
      if (generation !== this.generation) return;
      this.room = null;
      this.update({ status: "reconnecting", statusMessage: reason || `Disconnected (${code})` });
      this.scheduleRejoin(generation);
    });
    room.onError((code, message) => {
      if (generation === this.generation) this.pushError(String(code), message ?? "Room error");
    });
    room.onMessage(WorldMessage.chatCommand, (payload: { command?: unknown; lines?: unknown }) => {
      if (generation !== this.generation) return;
      const lines = Array.isArray(payload?.lines) ? payload.lines.map(String) : [];
      const output = { id: ++this.noticeId, command: String(payload?.command ?? ""), lines, at: Date.now() };
      this.update({ commandOutputs: [...this.snapshot.commandOutputs, output].slice(-KEEP_NOTICES) });
    });
    room.onMessage(WorldMessage.chatMessage, (payload: Record<string, unknown>) => {
      if (generation !== this.generation || !payload) return;
      const message = normalizeMessage(payload);
      const list = this.privateMessages.get(message.channel) ?? [];
      if (list.some((m) => m.id === message.id)) return;
      this.privateMessages.set(message.channel, [...list, message].slice(-CHAT_RECENT_MESSAGES));
      this.update({ channels: this.mergeChannels() });
    });
    room.onMessage(WorldMessage.error, (payload: { code?: unknown; message?: unknown }) => {
      if (generation === this.generation) this.pushError(String(payload?.code ?? "error"), String(payload?.message ?? "Error"));
    });
    // Other broadcasts (news ticker, ...) are not used by these screens; accept them quietly.
    room.onMessage("*", () => undefined);
  }

  private mergeChannels(fromState?: ChatChannel[]): ChatChannel[] {
    if (fromState) this.stateChannels = fromState;
    if (this.privateMessages.size === 0) return this.stateChannels;
    return this.stateChannels.map((channel) => {
      const extra = this.privateMessages.get(channel.id);
      if (!extra?.length) return channel;
      const known = new Set(channel.messages.map((m) => m.id));
      const messages = [...channel.messages, ...extra.filter((m) => !known.has(m.id))].sort((a, b) => a.timestamp - b.timestamp);
      return { ...channel, messages };
    });
  }

  private pushError(code: string, message: string): void {
    const notice = { id: ++this.noticeId, code, message, at: Date.now() };
    this.update({ errors: [...this.snapshot.errors, notice].slice(-KEEP_NOTICES) });
  }

  private readState(room: Room): void {
    const state = room.state as { toJSON?: () => unknown } | undefined;
    if (!state) return;
    const json = (typeof state.toJSON === "function" ? state.toJSON() : state) as Record<string, unknown>;
    const ownCountry = normalizeOwnCountry(json.countries, room.sessionId);
    const ownKey = ownCountry ? JSON.stringify(ownCountry) : "";
    const ownChanged = ownKey !== this.lastOwnCountryKey;
    this.lastOwnCountryKey = ownKey;
    this.update({
      season: normalizeSeason(json.season),
      rankings: normalizeRankings(json.rankings),
      channels: this.mergeChannels(normalizeChannels(json.channels)),
      onlineUsers: normalizeOnlineUsers(json.onlineUsers),
      ownCountry: ownChanged ? ownCountry : this.snapshot.ownCountry,
      ownCountryAt: ownChanged ? Date.now() : this.snapshot.ownCountryAt,
    });
  }
}

function describe(err: unknown): string {
  if (err && typeof err === "object" && "message" in err && typeof err.message === "string" && err.message) return err.message;
  return "Could not reach the world server";
}

/** The app's one world connection. */
export const world = new WorldConnection();

export type { CountrySummary };
