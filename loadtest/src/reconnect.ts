import { CloseCode } from "@colyseus/sdk";
import { rejoinDelay } from "@game/schema/messages";
import type { MeteredRoom } from "./realtime.js";
import { percentileOf } from "./stats.js";

/**
 * A bot's room connection that comes back on its own, as the browser client's does
 * (client/src/realtime/roomConnection.ts): a socket the server closes (a process shutting
 * down: 4001) or that breaks and cannot be resumed is joined again, with a growing, jittered
 * back-off, until the run stops. Every drop is logged with its cause and how long the bot was
 * away, for the report (issue 28: a drop the report cannot see is a drop nobody looks at).
 */

/** Close codes after which a bot stays out: it left itself, or its session was signed out. */
const FINAL_CLOSE_CODES: readonly number[] = [CloseCode.CONSENTED, 4401];

// The back-off is the browser's (one definition in schema): 50-100% of 250 ms, doubling to 8 s.
export { REJOIN_MAX_MS, REJOIN_MIN_MS, rejoinDelay } from "@game/schema/messages";

/** What a close code means, for the report. */
export function closeCause(code: number): string {
  switch (code) {
    case CloseCode.SERVER_SHUTDOWN:
      return "4001 server shutting down";
    case CloseCode.MAY_TRY_RECONNECT:
      return "4010 server asked to reconnect";
    case CloseCode.FAILED_TO_RECONNECT:
      return "4003 resuming the session failed";
    case CloseCode.WITH_ERROR:
      return "4002 room error";
    case CloseCode.ABNORMAL_CLOSURE:
      return "1006 socket broke";
    case CloseCode.GOING_AWAY:
      return "1001 going away";
    case CloseCode.NO_STATUS_RECEIVED:
      return "1005 closed without a status";
    default:
      return `${code} other`;
  }
}

export interface DropRecord {
  code: number;
  cause: string;
  /** when the socket closed (ms, the log's clock) */
  closedAt: number;
  /** when the bot was in a room again, if it came back */
  backAt?: number;
  /** re-join attempts it took (0: the SDK resumed the session itself) */
  attempts: number;
  /** how long the successful re-join's request and handshake took (ms) */
  joinMs?: number;
}

export interface DropSummary {
  total: number;
  byCause: Record<string, number>;
  back: number;
  notBack: number;
  /** why re-join attempts failed (the first words of each error), with counts */
  rejoinFailures: Record<string, number>;
  /** socket closed to back in a room, over the drops that came back */
  backWithinMs: { p50: number | null; p99: number | null; max: number | null };
}

/** Every drop of a run's room connections. */
export class DropLog {
  readonly records: DropRecord[] = [];
  readonly rejoinFailures = new Map<string, number>();

  constructor(readonly now: () => number = () => performance.now()) {}

  drop(code: number): DropRecord {
    const record: DropRecord = { code, cause: closeCause(code), closedAt: this.now(), attempts: 0 };
    this.records.push(record);
    return record;
  }

  rejoinFailed(err: unknown): void {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 80) || "unknown";
    this.rejoinFailures.set(message, (this.rejoinFailures.get(message) ?? 0) + 1);
  }

  back(record: DropRecord): void {
    record.backAt ??= this.now();
  }

  summary(): DropSummary {
    const byCause: Record<string, number> = {};
    for (const r of this.records) byCause[r.cause] = (byCause[r.cause] ?? 0) + 1;
    const away = this.records
      .filter((r) => r.backAt !== undefined)
      .map((r) => r.backAt! - r.closedAt)
      .sort((a, b) => a - b);
    const round = (v: number | undefined) => (v === undefined ? null : Math.round(v));
    return {
      total: this.records.length,
      byCause,
      back: away.length,
      notBack: this.records.length - away.length,
      rejoinFailures: Object.fromEntries(this.rejoinFailures),
      backWithinMs: { p50: away.length ? round(percentileOf(away, 50)) : null, p99: away.length ? round(percentileOf(away, 99)) : null, max: round(away[away.length - 1]) },
    };
  }
}

export interface ReconnectingRoomOptions {
  /** joins the room (attempt 0 is the first join); pick another process here when one is gone */
  join(attempt: number): Promise<MeteredRoom>;
  /** wires a fresh room (messages, watches): on the first join and after every re-join */
  attach(room: MeteredRoom, rejoined: boolean): void;
  /** the room is gone until a re-join (the bot acts without it meanwhile) */
  away?(): void;
  drops: DropLog;
  random?: () => number;
}

/** One bot's room, joined again after every drop until stop(). */
export class ReconnectingRoom {
  room: MeteredRoom | undefined;
  private stopped = false;
  private rejoining: Promise<void> | undefined;

  constructor(private readonly options: ReconnectingRoomOptions) {}

  /** The first join: throws when it fails (the run counts a failed join, it does not retry it). */
  async start(): Promise<MeteredRoom> {
    const room = await this.options.join(0);
    this.use(room, false);
    return room;
  }

  /** No more re-joins (the run's teardown leaves the room itself). */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves once a re-join in progress has ended (tests and teardown). */
  async settled(): Promise<void> {
    await this.rejoining;
  }

  private use(room: MeteredRoom, rejoined: boolean): void {
    this.room = room;
    let pending: DropRecord | undefined;
    // A broken socket: the SDK resumes the session itself (onReconnect) or gives up (onLeave 4003).
    room.onDrop((code: number) => {
      pending ??= this.options.drops.drop(code);
    });
    room.onReconnect(() => {
      if (pending) this.options.drops.back(pending);
      pending = undefined;
    });
    room.onLeave((code: number) => {
      if (this.room !== room) return;
      this.room = undefined;
      this.options.away?.();
      if (this.stopped || FINAL_CLOSE_CODES.includes(code)) return;
      const record = pending ?? this.options.drops.drop(code);
      this.rejoining = this.rejoin(record);
    });
    this.options.attach(room, rejoined);
  }

  private async rejoin(record: DropRecord): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, rejoinDelay(attempt, this.options.random)));
      if (this.stopped) return;
      record.attempts = attempt + 1;
      let room: MeteredRoom;
      const joinStarted = performance.now();
      try {
        room = await this.options.join(attempt + 1);
        record.joinMs = Math.round(performance.now() - joinStarted);
      } catch (err) {
        this.options.drops.rejoinFailed(err);
        continue;
      }
      if (this.stopped) {
        void room.leave(true).catch(() => undefined);
        return;
      }
      this.options.drops.back(record);
      this.use(room, true);
      return;
    }
  }
}
