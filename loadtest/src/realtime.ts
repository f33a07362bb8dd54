import { Client, Protocol, Room } from "@colyseus/sdk";
import { LatencyRecorder } from "./histogram.js";

/** Low five bits of a frame's first byte are the protocol code; the rest are modifiers. */
const PROTOCOL_CODE_MASK = 0x1f;

/**
 * What one WebSocket client received. Bytes are WebSocket message payloads as the SDK sees them
 * (`event.data.byteLength` of each binary frame), without the 2-14 bytes of WebSocket framing
 * and without TCP/IP headers.
 */
export class ClientTraffic {
  frames = 0;
  bytes = 0;
  /** ROOM_STATE_PATCH frames: the room's delta patches */
  patches = 0;
  patchBytes = 0;
  /** ROOM_STATE frames (full state on join) */
  fullStates = 0;
  fullStateBytes = 0;
  /** ROOM_DATA frames: room.send() messages from the server */
  messages = 0;
  /** onStateChange callbacks (only on clients that decode patches) */
  stateChanges = 0;
  /** frames the SDK failed to decode (the client stops decoding after the first) */
  decodeErrors = 0;
  firstDecodeError: string | undefined;

  /**
   * @param decode whether this client decodes patches. Decoding 1,000 copies of every patch in
   * the tester's own process would compete with the server for the same two cores, so only a
   * sample decodes; the others count the frames and drop them.
   */
  constructor(readonly sampled: boolean) {
    this.decode = sampled;
  }

  /** whether patches are decoded now (cleared after a decode error) */
  decode: boolean;

  record(code: number, bytes: number): void {
    this.frames++;
    this.bytes += bytes;
    if (code === Protocol.ROOM_STATE_PATCH) {
      this.patches++;
      this.patchBytes += bytes;
    } else if (code === Protocol.ROOM_STATE) {
      this.fullStates++;
      this.fullStateBytes += bytes;
    } else if (code === Protocol.ROOM_DATA) {
      this.messages++;
    }
  }
}

/** A Room that meters every frame before the SDK decodes it, and may skip decoding patches. */
export class MeteredRoom<State = any> extends Room<any, State> {
  traffic: ClientTraffic = new ClientTraffic(true);

  protected override onMessageCallback(event: MessageEvent): void {
    const data = event.data as ArrayBuffer | Uint8Array;
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const code = (bytes[0] ?? 0) & PROTOCOL_CODE_MASK;
    this.traffic.record(code, bytes.byteLength);
    if (code === Protocol.ROOM_STATE_PATCH && !this.traffic.decode) return;
    try {
      super.onMessageCallback(event);
    } catch (err) {
      // A frame this client cannot decode would otherwise escape the socket's listener and
      // kill the whole tester. Its state is unreliable from here on: count it, stop decoding.
      this.traffic.decodeErrors++;
      this.traffic.firstDecodeError ??= `protocol ${code}: ${(err as Error).message}`;
      this.traffic.decode = false;
    }
  }
}

/** An SDK Client whose rooms are MeteredRooms sharing this client's traffic counters. */
export class MeteredClient extends Client {
  constructor(
    url: string,
    readonly traffic: ClientTraffic,
    token?: string,
  ) {
    // The token only in the matchmaking request's Authorization header, never in the
    // WebSocket URL (issue 15, finding 10), as the browser client does.
    super(url, token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
  }

  protected override createRoom<T>(roomName: string, rootSchema?: any): Room<any, T> {
    const room = new MeteredRoom<T>(roomName, rootSchema);
    room.traffic = this.traffic;
    return room;
  }
}

/** Joins `roomName` authenticated with the REST token, as the browser client does (`options`: the room's join options). */
export async function joinRoom(url: string, token: string, traffic: ClientTraffic, roomName: string, rootSchema?: any, options: Record<string, unknown> = {}): Promise<MeteredRoom> {
  const client = new MeteredClient(url, traffic, token);
  const room = (await client.joinOrCreate(roomName, options, rootSchema)) as MeteredRoom;
  if (traffic.sampled) room.onStateChange(() => traffic.stateChanges++);
  return room;
}

/** Marker the tester puts in chat content: `lt:<runId>:<seq>`, plus the send time for humans. */
const CHAT_MARKER = /\blt:([a-z0-9]+):(\d+)\b/;

interface PendingChat {
  sentAt: number;
  senderIndex: number;
  receivedBy: number;
  /** observers that already saw it (a line re-created by a resync is not a second receipt) */
  seenBy: Set<number>;
  settle(outcome: ChatOutcome): void;
  timer: NodeJS.Timeout;
}

export type ChatOutcome = { ok: true } | { ok: false; status: string; message: string };

/**
 * Chat fan-out: a sender embeds a marker; observer clients (the decoding sample) watch their
 * room state's channel and record, per (message, observer), the time from send to receipt.
 * The sender's action completes when the first observer other than the sender sees it.
 */
export class ChatTracker {
  readonly fanout = new LatencyRecorder();
  sent = 0;
  /** messages at least one other observer saw */
  delivered = 0;
  /** (message, observer) receipts */
  receipts = 0;
  undelivered = 0;
  private seq = 0;
  private readonly pending = new Map<number, PendingChat>();
  private readonly observers = new Set<number>();
  /** observers that ever watched (the report's count; `observers` shrinks at teardown) */
  private observersEver = 0;

  constructor(
    readonly runId: string,
    readonly channel: string,
    private readonly deliveryTimeoutMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** observer clients that watched this run */
  get observerCount(): number {
    return this.observersEver;
  }

  /** Chat content for the next message and its sequence number. */
  nextContent(): { seq: number; content: string } {
    const seq = ++this.seq;
    return { seq, content: `load test lt:${this.runId}:${seq} t=${Date.now()}` };
  }

  /**
   * Registers a sent message; resolves when another observer receives it, at once when there
   * are no other observers, or with a failure after the delivery time-out.
   */
  track(seq: number, senderIndex: number): Promise<ChatOutcome> {
    this.sent++;
    const otherObservers = [...this.observers].some((i) => i !== senderIndex);
    if (!otherObservers) return Promise.resolve({ ok: true });
    return new Promise<ChatOutcome>((resolve) => {
      const entry: PendingChat = {
        sentAt: this.now(),
        senderIndex,
        receivedBy: 0,
        seenBy: new Set(),
        settle: resolve,
        timer: setTimeout(() => {
          if (this.pending.get(seq) !== entry) return;
          this.pending.delete(seq);
          if (entry.receivedBy === 0) {
            this.undelivered++;
            resolve({ ok: false, status: "undelivered", message: `not received by any observer within ${this.deliveryTimeoutMs} ms` });
          }
        }, this.deliveryTimeoutMs),
      };
      this.pending.set(seq, entry);
    });
  }

  /** Fails a pending message at once (the server answered the sender with an error). */
  fail(seq: number, message: string): void {
    const entry = this.pending.get(seq);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(seq);
    entry.settle({ ok: false, status: "rejected", message });
  }

  /**
   * Counts a room as an observer (a client whose screen shows the chat: it watches "chat" and
   * so receives every line of the open channels as a "chatMessage"); its lines come to `line`.
   */
  observe(observerIndex: number, room: Pick<Room, "onLeave">): void {
    this.observers.add(observerIndex);
    this.observersEver++;
    room.onLeave(() => this.observers.delete(observerIndex));
  }

  /** A chat line an observer received ("chatMessage"): checked for this run's marker. */
  line(observerIndex: number, channel: string, content: string): void {
    if (channel === this.channel) this.receive(observerIndex, content);
  }

  private receive(observerIndex: number, content: string): void {
    const match = CHAT_MARKER.exec(content);
    if (!match || match[1] !== this.runId) return;
    const entry = this.pending.get(Number(match[2]));
    if (!entry || observerIndex === entry.senderIndex || entry.seenBy.has(observerIndex)) return;
    entry.seenBy.add(observerIndex);
    this.fanout.record(this.now() - entry.sentAt);
    this.receipts++;
    entry.receivedBy++;
    if (entry.receivedBy === 1) {
      this.delivered++;
      entry.settle({ ok: true });
    }
    // keep the entry until the time-out so later observers' receipts are measured too
  }

  /** Stops waiting: clears timers (messages still pending count as undelivered). */
  close(): void {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      if (entry.receivedBy === 0) {
        this.undelivered++;
        entry.settle({ ok: false, status: "undelivered", message: "run ended before delivery" });
      }
    }
    this.pending.clear();
  }
}
