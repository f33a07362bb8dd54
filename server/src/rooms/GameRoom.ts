import { Room, ServerError, type Client } from "@colyseus/core";
import type { z } from "zod";
import { firstIssueMessage } from "@game/schema/api";
import { ROOM_ERROR_CODES, ROOM_ERROR_MESSAGE, type ClientMessageEntry, type RoomErrorPayload } from "@game/schema/messages";
import type { ServiceContext } from "../services/context.js";
import type { Logger } from "../logger.js";
import { AppError } from "../errors.js";
import { InvalidTokenError, type TokenClaims } from "../auth/tokens.js";
import { roomSessionsOf, type RoomSessions } from "./sessions.js";
import type { EventListener, EventTopic, GameEvent } from "../events.js";

/**
 * Messages a client may send per second before Colyseus disconnects it. Domain limits (the
 * chat's 5 per 10 s) refuse an ordinary flood politely with "error" messages; this is the
 * hard stop for scripts, with room for a burst of refused messages.
 */
export const ROOM_MAX_MESSAGES_PER_SECOND = 20;
/** How long a dropped client's seat is kept for it to reconnect (seconds). */
export const ROOM_RECONNECT_SECONDS = 20;

/** What a room knows of an authenticated client (the result of onAuth). */
export interface RoomAuth {
  userId: number;
  countryId: number;
}

/**
 * Verifies a room client's token with the same JWT rules as REST. Any token problem is a
 * ServerError 401: a raw jose error would reach the client as a misleading 524.
 */
export async function verifyRoomToken(ctx: ServiceContext, token: string): Promise<TokenClaims> {
  try {
    return await ctx.tokens.verify(token);
  } catch (err) {
    if (err instanceof InvalidTokenError) throw new ServerError(401, err.message);
    throw err;
  }
}

/**
 * Takes the client's seat in its user's room session count (429 beyond
 * ROOM_SESSIONS_PER_USER) and returns what the room keeps as `client.auth`: the last step of
 * every room's onAuth, after the room's own checks passed.
 */
export async function admitRoomClient(ctx: ServiceContext, claims: TokenClaims, countryId: number): Promise<RoomAuth & { jti: string; sessionKey: string }> {
  const sessionKey = (await roomSessionsOf(ctx)?.reserve(claims.userId)) ?? "";
  return { userId: claims.userId, countryId, jti: claims.jti, sessionKey };
}

/**
 * What every game room shares: authentication errors mapped to ServerError, one queue per
 * client so its messages are handled and answered in the order sent, payloads parsed by the
 * same zod schemas as REST, rule rejections answered to that client only as "error", unknown
 * message types refused, a message rate limit, reconnection after a drop, uncaught errors
 * logged with the room and session, and event subscriptions released on dispose.
 *
 * A room registers its messages with `handle` in `onCreate` and subscribes to topics with
 * `subscribe`. Subclasses that override `onDispose` call `super.onDispose()`; their `onJoin`
 * ends with `this.trackSession(client)` and their `onLeave` calls `this.untrackSession(client)`,
 * so a revoked token's session closes at once (SESSION_CLOSE_SIGNED_OUT, no reconnection).
 */
export abstract class GameRoom<S extends object, C extends Client = Client> extends Room<{ state: S; client: C }> {
  /** Set once per process by the room's bind function (the matchmaker constructs rooms itself). */
  static ctx: ServiceContext;

  /** "world", "alliance": for logs and metrics */
  protected abstract readonly kind: string;

  maxMessagesPerSecond = ROOM_MAX_MESSAGES_PER_SECOND;
  /** seconds a dropped client may take to come back. @default ROOM_RECONNECT_SECONDS */
  protected reconnectSeconds = ROOM_RECONNECT_SECONDS;

  private logger: Logger | undefined;
  /** The last queued request of each client (requests of one client run one after another). */
  private readonly pending = new WeakMap<C, Promise<void>>();
  private readonly unsubscribers = new Set<() => void>();
  private unknownRefusalRegistered = false;

  protected get ctx(): ServiceContext {
    return (this.constructor as typeof GameRoom).ctx;
  }

  protected get log(): Logger {
    this.logger ??= this.ctx.logger.child({ roomId: this.roomId, room: this.kind });
    return this.logger;
  }

  /**
   * Registers a client message from the room's catalogue (schema/src/messages): the payload is
   * parsed by the entry's schema (a refusal names the first problem, with its `invalidCode`),
   * then `handler` runs after the client's earlier messages. An AppError becomes an "error"
   * message with its code; anything else is logged and answered with the entry's `fallback`
   * (the spec's fallback message for that action).
   */
  protected handle<S extends z.ZodType>(entry: ClientMessageEntry<S>, handler: (client: C, payload: z.output<S>) => Promise<void> | void): void {
    const { type, payload: schema, fallback, invalidCode = ROOM_ERROR_CODES.invalidMessage } = entry;
    this.registerUnknownRefusal();
    this.onMessage(type, (client: C, raw: unknown) => {
      const parsed = schema.safeParse(raw ?? {});
      // enqueue never rejects: a failure is answered to the client and logged there.
      if (!parsed.success) {
        void this.enqueue(client, type, fallback, () => {
          throw new AppError(400, firstIssueMessage(parsed.error), invalidCode);
        });
        return;
      }
      void this.enqueue(client, type, fallback, () => handler(client, parsed.data));
    });
  }

  /** Unknown message types get an "error" (once per room, on the first handle()). */
  private registerUnknownRefusal(): void {
    if (this.unknownRefusalRegistered) return;
    this.unknownRefusalRegistered = true;
    this.onMessage("*", (client: C, type: string | number) => this.refuse(client, { code: ROOM_ERROR_CODES.unknownMessage, message: `Unknown message type: ${String(type).slice(0, 40)}` }));
  }

  /**
   * Runs a client's request after that client's earlier ones, so two quick messages are stored
   * and answered in the order they were sent; records its duration and outcome.
   */
  private enqueue(client: C, type: string, fallback: string, work: () => Promise<void> | void): Promise<void> {
    const run = async () => {
      const started = performance.now();
      let outcome = "ok";
      try {
        await work();
      } catch (err) {
        if (err instanceof AppError) {
          outcome = "refused";
          this.refuse(client, { code: err.code, message: err.message });
        } else {
          outcome = "failed";
          this.log.error({ err, sessionId: client.sessionId, message: type }, "room message failed");
          this.refuse(client, { code: ROOM_ERROR_CODES.server, message: fallback });
        }
      } finally {
        this.ctx.metrics.roomMessageDuration.observe((performance.now() - started) / 1000, { room: this.kind, type, outcome });
      }
    };
    const next = (this.pending.get(client) ?? Promise.resolve()).then(run);
    this.pending.set(client, next);
    return next;
  }

  /** Sends a client the "error" message for a refused request, and counts it. */
  protected refuse(client: C, error: RoomErrorPayload): void {
    this.ctx.metrics.roomMessagesRejected.inc({ reason: error.code });
    client.send(ROOM_ERROR_MESSAGE, error);
  }

  /** Subscribes to a topic for the life of the room; the returned function unsubscribes early. */
  protected subscribe<E extends GameEvent>(topic: EventTopic<E>, listener: EventListener<E>): () => void {
    const unsubscribe = this.ctx.events.subscribe(topic, listener);
    const release = () => {
      if (this.unsubscribers.delete(release)) unsubscribe();
    };
    this.unsubscribers.add(release);
    return release;
  }

  private get sessions(): RoomSessions | undefined {
    return roomSessionsOf(this.ctx);
  }

  /** Registers a joined client with the process's sessions (the last step of onJoin). */
  protected trackSession(client: C): void {
    this.sessions?.track(this, client);
  }

  /** Releases a client that left for good (onLeave). */
  protected untrackSession(client: C): void {
    this.sessions?.untrack(client);
  }

  /**
   * An unexpected disconnect keeps the seat; onLeave runs if the client does not return in
   * time. A session closed because its token was revoked keeps nothing.
   */
  onDrop(client: C, code?: number): void {
    this.ctx.metrics.roomDrops.inc({ room: this.kind, code: String(code ?? "none") });
    if (this.sessions?.isClosed(client)) return;
    const reconnection = this.allowReconnection(client, this.reconnectSeconds);
    // A plain rejected promise (not joined yet, disposing) keeps no seat.
    Promise.resolve(reconnection).catch(() => undefined);
    if (typeof (reconnection as { reject?: unknown }).reject === "function") this.sessions?.holding(client, reconnection as unknown as { reject: (reason?: unknown) => unknown });
  }

  /** A reconnection of a session whose token was revoked meanwhile is refused. */
  onReconnect(client: C): void {
    if (this.sessions?.isClosed(client)) throw new ServerError(401, "Signed out");
    this.ctx.metrics.roomReconnects.inc({ room: this.kind });
  }

  /**
   * The first step of every room's onCreate: with a PUBLIC_ADDRESS that names the bound port
   * (`host:0`, server/src/publicAddress.ts) Colyseus was built without one, so the room puts the
   * process's address on its listing itself, before the matchmaker records it (seat
   * reservations send clients there). Colyseus 0.18 has no API for it: the listing is reached
   * by name, as onBeforeShutdown does.
   */
  protected async advertise(): Promise<void> {
    const address = this.ctx.publicAddress;
    if (!address?.deferred) return;
    (this as unknown as { _listing: { publicAddress?: string } })._listing.publicAddress = await address.value;
  }

  onUncaughtException(err: Error, methodName: string): void {
    this.log.error({ err, methodName }, "room error");
  }

  /**
   * A process shutting down (issue 28): seats the matchmaker reserved that no client has used
   * yet are dropped before the room disconnects its clients. Colyseus disposes a room only once
   * it holds no reservation and its auto-dispose timer has run, and both last the seat
   * reservation time (15 s): one unused seat made a SIGTERM wait past main.ts's 9 s limit and
   * exit 1. The client that held the seat fails to connect and re-joins another process (its
   * back-off), as the room's own clients do after the 4001. Colyseus has no API for this, so the
   * room's reservation fields are reached by name (checked by drain.test.ts on every upgrade).
   */
  onBeforeShutdown(): void {
    const room = this as unknown as ReservationInternals;
    for (const [sessionId, seat] of Object.entries(room._reservedSeats ?? {})) {
      // [joinOptions, authData, consumed, allowReconnection]: a consumed seat is a join in
      // progress, a reconnection seat is released by the disconnect's rejection of reconnections
      if (seat[2] || seat[3]) continue;
      clearTimeout(room._reservedSeatTimeouts?.[sessionId]);
      delete room._reservedSeatTimeouts?.[sessionId];
      delete room._reservedSeats[sessionId];
    }
    clearTimeout(room._autoDisposeTimeout);
    room._autoDisposeTimeout = undefined;
    super.onBeforeShutdown();
  }

  async onDispose(): Promise<void> {
    for (const release of [...this.unsubscribers]) release();
  }
}

/** The fields of a Colyseus 0.18 Room that hold its seat reservations (private in its types). */
interface ReservationInternals {
  _reservedSeats: Record<string, [unknown, unknown, boolean, boolean]>;
  _reservedSeatTimeouts?: Record<string, ReturnType<typeof setTimeout>>;
  _autoDisposeTimeout?: ReturnType<typeof setTimeout>;
}

/**
 * Counts subscriptions to keyed topics (a country, an alliance) held for several clients, so
 * the room subscribes on the first holder and unsubscribes after the last.
 */
export class SharedSubscriptions<K> {
  private readonly held = new Map<K, { count: number; release: () => void }>();

  constructor(private readonly open: (key: K) => () => void) {}

  retain(key: K): void {
    const entry = this.held.get(key);
    if (entry) entry.count += 1;
    else this.held.set(key, { count: 1, release: this.open(key) });
  }

  release(key: K): void {
    const entry = this.held.get(key);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count === 0) {
      this.held.delete(key);
      entry.release();
    }
  }

  keys(): K[] {
    return [...this.held.keys()];
  }

  clear(): void {
    for (const entry of this.held.values()) entry.release();
    this.held.clear();
  }
}
