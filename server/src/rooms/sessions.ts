import crypto from "node:crypto";
import { ServerError, type Client, type Presence, type Room } from "@colyseus/core";
import { SESSION_CLOSE_SIGNED_OUT } from "@game/schema/messages";
import type { ServiceContext } from "../services/context.js";
import type { Revocation } from "../auth/tokens.js";
import type { Redis } from "ioredis";
import { ROOM_PROCESS_HEARTBEAT_TTL_S } from "../roomSeats.js";
import { PresenceSeatCount, RedisSeatCount, type SeatCount } from "./seatCount.js";

/**
 * A room session's seat in the per-user count is refreshed this often (ms) while it lives; one
 * not refreshed for ROOM_SESSION_STALE_MS (a reservation never used) no longer counts.
 */
export const ROOM_SESSION_REFRESH_MS = 20_000;
export const ROOM_SESSION_STALE_MS = 60_000;
/**
 * Every process holding seats says it lives this often (ms), in a presence key that expires
 * after ROOM_PROCESS_HEARTBEAT_TTL_S: the seats of a process whose key is gone (killed,
 * crashed, restarted under a new key) stop counting at once. A kill -9 used to leave a user at
 * the cap refused for about 60 s (issue 28); now for at most the TTL.
 */
export const ROOM_PROCESS_HEARTBEAT_MS = 3_000;
/** A user's seat hash outlives its last write by this (s): a user gone for good leaves nothing. */
const SEAT_HASH_TTL_S = Math.ceil((ROOM_SESSION_STALE_MS * 2) / 1000);
/** A process's heartbeat key is this prefix and the process's key. */
const PROCESS_KEY_PREFIX = "room_process:";

export { ROOM_PROCESS_HEARTBEAT_TTL_S };

/** What a room's onAuth returns for a client admitted through RoomSessions. */
export interface SessionAuth {
  userId: number;
  countryId: number;
  /** the token's id: a revocation of this token closes the session */
  jti: string;
  /** the session's seat in the user's count (RoomSessions.reserve) */
  sessionKey: string;
}

interface LiveSession {
  userId: number;
  jti: string;
  room: Room;
  sessionId: string;
  /** the seat kept for a dropped client, while it may reconnect */
  reconnection?: { reject: (reason?: unknown) => unknown };
}

const registries = new WeakMap<ServiceContext, RoomSessions>();

/** The RoomSessions of a process's services (undefined for bare contexts: benches, unit tests). */
export function roomSessionsOf(ctx: ServiceContext): RoomSessions | undefined {
  return registries.get(ctx);
}

/**
 * Every room session of this process, by token and user (issue 15, findings 2 and 4).
 *
 * - A revocation (logout, password change, account deletion), heard from TokenService in
 *   whichever process made it (the auth:revoked channel on presence: Redis across processes),
 *   closes the matching sessions at once with SESSION_CLOSE_SIGNED_OUT, rejects the seats
 *   kept for dropped clients of those tokens, and refuses reconnection with their
 *   reconnection tokens.
 * - A user may hold at most `config.roomSessionsPerUser` sessions at once, across rooms and
 *   processes: the seat is taken in onAuth (the matchmaking request, so a refusal is its 429)
 *   in a presence hash per user, its value the owning process's key and the time, rewritten
 *   by the process hosting the session (track, refresh); entries not refreshed for
 *   ROOM_SESSION_STALE_MS stop counting, and so do, at once, entries of a process whose
 *   heartbeat key has expired (a killed or restarted process: a restart has a new key).
 */
export class RoomSessions {
  private readonly live = new Map<string, LiveSession>();
  /** session keys closed by a revocation: no reconnection, no seat kept */
  private readonly closed = new Set<string>();
  private readonly refresher: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly stopListening: () => void;
  /** this process's key in seat values and its heartbeat; new at every start */
  private readonly processKey = crypto.randomUUID();

  /** the per-user seat count: one Redis script call, or the presence's calls without Redis */
  private readonly seats: SeatCount;

  /**
   * @param redis the presence's Redis connection, when there is one: the seat count runs there
   *   as one script (one round trip, atomic across processes)
   */
  constructor(
    private readonly ctx: ServiceContext,
    private readonly presence: Presence,
    redis?: Redis,
  ) {
    registries.set(ctx, this);
    this.seats = redis ? new RedisSeatCount(redis) : new PresenceSeatCount(presence);
    this.stopListening = ctx.tokens.onRevocation((revocation) => this.close(revocation));
    this.refresher = setInterval(() => void this.refresh(), ROOM_SESSION_REFRESH_MS);
    this.refresher.unref();
    this.beat();
    this.heartbeat = setInterval(() => this.beat(), ROOM_PROCESS_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  stop(): void {
    clearInterval(this.refresher);
    clearInterval(this.heartbeat);
    this.stopListening();
    // this process's seats stop counting at once (the sessions were closed by the shutdown)
    void Promise.resolve(this.presence.del(processKeyOf(this.processKey))).catch(() => undefined);
  }

  /**
   * Takes a seat in the user's session count, or answers 429 when the user already holds
   * `roomSessionsPerUser`. Called from onAuth, after every other check passed.
   */
  async reserve(userId: number): Promise<string> {
    const key = crypto.randomUUID();
    const cap = this.ctx.config.roomSessionsPerUser;
    if (cap <= 0) return key;
    const taken = await this.seats.take({
      hash: userHash(userId),
      field: key,
      owner: this.processKey,
      now: Date.now(),
      cap,
      staleMs: ROOM_SESSION_STALE_MS,
      ttlS: SEAT_HASH_TTL_S,
      heartbeatPrefix: PROCESS_KEY_PREFIX,
    });
    if (!taken) {
      this.ctx.metrics.roomMessagesRejected.inc({ reason: "session/cap" });
      throw new ServerError(429, `Too many open sessions: at most ${cap} at once. Close another tab or window first.`);
    }
    return key;
  }

  /** Records a joined client (end of onJoin). */
  track(room: Room, client: Client): void {
    const auth = client.auth as SessionAuth | undefined;
    if (!auth?.sessionKey) return;
    this.live.set(auth.sessionKey, { userId: auth.userId, jti: auth.jti, room, sessionId: client.sessionId });
    // the seat belongs to the process hosting the session (onAuth may have run in another)
    if (this.ctx.config.roomSessionsPerUser > 0) {
      void Promise.resolve(this.presence.hset(userHash(auth.userId), auth.sessionKey, this.seatValue(Date.now()))).catch(() => undefined);
    }
  }

  /** Forgets a client that left for good (onLeave) and frees its seat. */
  untrack(client: Client): void {
    const auth = client.auth as SessionAuth | undefined;
    if (!auth?.sessionKey) return;
    this.live.delete(auth.sessionKey);
    this.closed.delete(auth.sessionKey);
    if (this.ctx.config.roomSessionsPerUser > 0) void Promise.resolve(this.presence.hdel(userHash(auth.userId), auth.sessionKey)).catch(() => undefined);
  }

  /** True when a revocation closed this client's session: no reconnection for it. */
  isClosed(client: Client): boolean {
    const key = (client.auth as SessionAuth | undefined)?.sessionKey;
    return key !== undefined && this.closed.has(key);
  }

  /** A dropped client's kept seat: rejected if its token is revoked before it returns. */
  holding(client: Client, reconnection: { reject: (reason?: unknown) => unknown }): void {
    const key = (client.auth as SessionAuth | undefined)?.sessionKey;
    const session = key === undefined ? undefined : this.live.get(key);
    if (session) session.reconnection = reconnection;
  }

  /** Sessions of a user in this process (tests, the drills). */
  countOf(userId: number): number {
    let n = 0;
    for (const session of this.live.values()) if (session.userId === userId) n += 1;
    return n;
  }

  private close(revocation: Revocation): void {
    for (const [key, session] of this.live) {
      const matches = "jti" in revocation ? session.jti === revocation.jti : session.userId === revocation.userId && session.jti !== revocation.exceptJti;
      if (!matches || this.closed.has(key)) continue;
      this.closed.add(key);
      const client = session.room.clients.find((c) => c.sessionId === session.sessionId);
      if (client) client.leave(SESSION_CLOSE_SIGNED_OUT, "Signed out");
      else session.reconnection?.reject(new ServerError(SESSION_CLOSE_SIGNED_OUT, "Signed out"));
    }
  }

  private async refresh(): Promise<void> {
    if (this.ctx.config.roomSessionsPerUser <= 0) return;
    const value = this.seatValue(Date.now());
    try {
      await this.seats.refresh(
        [...this.live].map(([key, session]) => ({ hash: userHash(session.userId), field: key, value })),
        SEAT_HASH_TTL_S,
      );
    } catch (err) {
      if (!this.ctx.redisOutage?.noteFailure(err, "room seats")) this.ctx.logger.warn({ err }, "room session seats not refreshed");
    }
  }

  /** Says this process lives (ROOM_PROCESS_HEARTBEAT_TTL_S); a failure (Redis away) is retried at the next beat. */
  private beat(): void {
    if (this.ctx.config.roomSessionsPerUser <= 0) return;
    void Promise.resolve(this.presence.setex(processKeyOf(this.processKey), "1", ROOM_PROCESS_HEARTBEAT_TTL_S)).catch(() => undefined);
  }

  /** A seat's value: the owning process's key and when it was last seen (ms). */
  private seatValue(now: number): string {
    return `${this.processKey}:${now}`;
  }
}

function processKeyOf(processKey: string): string {
  return `${PROCESS_KEY_PREFIX}${processKey}`;
}

function userHash(userId: number): string {
  return `room_sessions:${userId}`;
}
