import { Room, ServerError, type AuthContext } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";
import { ROOM_ERROR_CODES, WorldMessage, type RoomErrorPayload } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import type { Logger } from "../logger.js";
import { AppError } from "../errors.js";
import { InvalidTokenError } from "../auth/tokens.js";
import { sendChatMessage } from "../services/chat.js";
import { endWorldRoom, joinWorld, leaveWorld, loadCountrySummaries, loadWorldMember } from "../services/world.js";
import { WorldSync, type WorldClient } from "./worldSync.js";

/**
 * Messages a client may send per second before Colyseus disconnects it (messages). The chat
 * rate limit (5 per 10 s) refuses an ordinary flood politely with "error" messages; this is
 * the hard stop for scripts, with room for a burst of refused messages.
 */
export const WORLD_MAX_MESSAGES_PER_SECOND = 20;
/** How long a dropped client's seat and summary are kept for it to reconnect (seconds). */
export const WORLD_RECONNECT_SECONDS = 20;

/**
 * Encoder buffer per room (bytes). @colyseus/core 0.18.17 encodes a joining client's full
 * state into a per-room buffer of Encoder.BUFFER_SIZE and, when the state outgrows it, keeps
 * writing the client's StateView part into the old, too-small buffer: the client receives a
 * corrupt state ("a 'SeasonState' was expected, but 'WorldState' was provided"). So the
 * buffer must hold the largest world state: 150 chat messages of up to 500 four-byte
 * characters (~310 KB), 500 online users (~75 KB), 100 ranking rows (~20 KB).
 * Regression test: WorldRoom.test.ts, "a state larger than the default encoder buffer".
 */
export const WORLD_ENCODER_BUFFER_BYTES = 512 * 1024;
if (Encoder.BUFFER_SIZE < WORLD_ENCODER_BUFFER_BYTES) Encoder.BUFFER_SIZE = WORLD_ENCODER_BUFFER_BYTES;

/** Options the server passes to every world room (define options override client options). */
export interface WorldRoomOptions {
  /** clients per shard: config WORLD_SHARD_SIZE */
  shardSize: number;
}

/**
 * A shard of the world: season, rankings, global chat, online users and each client's own
 * country summary. Wiring only: WorldSync projects Postgres and events onto the state; the
 * services do the work.
 */
export class WorldRoom extends Room<{ state: WorldState; client: WorldClient }> {
  /** Set once per process by bindWorldRoom (the matchmaker constructs rooms itself). */
  static ctx: ServiceContext;

  maxMessagesPerSecond = WORLD_MAX_MESSAGES_PER_SECOND;
  state = new WorldState();
  private sync!: WorldSync;
  private log!: Logger;
  private unsubscribe: (() => void) | undefined;

  /** The last queued request of each client (requests of one client run one after another). */
  private readonly pending = new WeakMap<WorldClient, Promise<void>>();

  private get ctx(): ServiceContext {
    return (this.constructor as typeof WorldRoom).ctx;
  }

  async onCreate(options: WorldRoomOptions): Promise<void> {
    this.maxClients = options.shardSize;
    this.log = this.ctx.logger.child({ roomId: this.roomId, room: "world" });
    this.sync = new WorldSync(this.ctx, this, this.log);
    // Subscribe before loading so no event falls between the load and the subscription.
    this.unsubscribe = this.ctx.events.subscribe((event) => this.sync.handle(event));
    await this.sync.load();
    this.onMessage(WorldMessage.sendChat, (client: WorldClient, payload: unknown) =>
      this.answer(client, "Failed to send chat message", async () => {
        const result = await sendChatMessage(this.ctx, client.auth!.userId, payload);
        if (result.kind === "command") client.send(WorldMessage.chatCommand, result.reply);
      }),
    );
    this.onMessage("*", (client: WorldClient, type: string | number) =>
      this.refuse(client, { code: ROOM_ERROR_CODES.unknownMessage, message: `Unknown message type: ${String(type).slice(0, 40)}` }),
    );
  }

  async onJoin(client: WorldClient): Promise<void> {
    const member = await loadWorldMember(this.ctx, client.auth!.userId);
    if (!member) throw new ServerError(403, "You have no country");
    const summary = (await loadCountrySummaries(this.ctx, [member.countryId])).get(member.countryId)!;
    this.sync.addClient(client, member, summary);
    try {
      await joinWorld(this.ctx, { sessionId: client.sessionId, roomId: this.roomId, member });
    } catch (err) {
      // The join fails and onLeave never runs for it: take the summary back out.
      this.sync.removeClient(client);
      throw err;
    }
  }

  /** An unexpected disconnect keeps the seat and summary; onLeave runs if the client does not return in time. */
  onDrop(client: WorldClient): void {
    this.allowReconnection(client, WORLD_RECONNECT_SECONDS);
  }

  async onLeave(client: WorldClient): Promise<void> {
    this.sync.removeClient(client);
    if (client.auth) await leaveWorld(this.ctx, { sessionId: client.sessionId, userId: client.auth.userId });
  }

  async onDispose(): Promise<void> {
    this.unsubscribe?.();
    this.sync?.dispose();
    await endWorldRoom(this.ctx, this.roomId);
  }

  onUncaughtException(err: Error, methodName: string): void {
    this.log?.error({ err, methodName }, "world room error");
  }

  /**
   * Runs a client's request after that client's earlier ones, so two quick messages are stored
   * and answered in the order they were sent; a refusal or failure becomes an "error" message to
   * that client only.
   */
  private answer(client: WorldClient, fallback: string, work: () => Promise<void>): Promise<void> {
    const run = async () => {
      try {
        await work();
      } catch (err) {
        if (err instanceof AppError) return this.refuse(client, { code: err.code, message: err.message });
        this.log.error({ err, sessionId: client.sessionId }, "room message failed");
        this.refuse(client, { code: ROOM_ERROR_CODES.server, message: fallback });
      }
    };
    const next = (this.pending.get(client) ?? Promise.resolve()).then(run);
    this.pending.set(client, next);
    return next;
  }

  private refuse(client: WorldClient, error: RoomErrorPayload): void {
    this.ctx.metrics.roomMessagesRejected.inc({ reason: error.code });
    client.send(WorldMessage.error, error);
  }
}

/**
 * Same JWT as REST; any token problem is a 401 (a raw jose error would reach the client as a
 * 524), a user without a country a 403.
 */
export async function authenticateWorldClient(ctx: ServiceContext, token: string): Promise<{ userId: number; countryId: number }> {
  let userId: number;
  try {
    ({ userId } = await ctx.tokens.verify(token));
  } catch (err) {
    if (err instanceof InvalidTokenError) throw new ServerError(401, err.message);
    throw err;
  }
  const member = await loadWorldMember(ctx, userId);
  if (!member) throw new ServerError(403, "You have no country");
  return { userId, countryId: member.countryId };
}

/**
 * The WorldRoom class for one process's services. The matchmaker calls static onAuth
 * unbound, so it reaches the services through this closure, not `this`.
 */
export function bindWorldRoom(ctx: ServiceContext): typeof WorldRoom {
  return class BoundWorldRoom extends WorldRoom {
    static ctx = ctx;
    static async onAuth(token: string, _options: unknown, _context: AuthContext) {
      return authenticateWorldClient(ctx, token);
    }
  };
}
