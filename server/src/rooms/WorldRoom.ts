import { ServerError, type AuthContext } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";
import { MarketMessage, marketWatchSchema, sendChatSchema, WorldMessage } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import { WORLD_TOPIC, type WorldEvent } from "../events.js";
import { sendChatMessage } from "../services/chat.js";
import { endWorldRoom, joinWorld, leaveWorld, loadCountrySummaries, loadWorldMember } from "../services/world.js";
import { ONLINE_HEARTBEAT_MS } from "../db/online.js";
import { admitRoomClient, GameRoom, verifyRoomToken } from "./GameRoom.js";
import { ChatProjection } from "./world/ChatProjection.js";
import { PresenceProjection } from "./world/PresenceProjection.js";
import { RankingsProjection } from "./world/RankingsProjection.js";
import { SeasonProjection } from "./world/SeasonProjection.js";
import { SummaryProjection } from "./world/SummaryProjection.js";
import { NewsProjection } from "./world/NewsProjection.js";
import { MarketProjection } from "./world/MarketProjection.js";
import type { WorldClient, WorldHost, WorldProjection } from "./world/types.js";

/**
 * Encoder buffer per room (bytes). @colyseus/core 0.18.17 encodes a joining client's full
 * state into a per-room buffer of Encoder.BUFFER_SIZE and, when the state outgrows it, keeps
 * writing the client's StateView part into the old, too-small buffer: the client receives a
 * corrupt state ("a 'SeasonState' was expected, but 'WorldState' was provided"). So the
 * buffer must hold the largest world state: worldStateBudget.test.ts fills every cap with the
 * longest four-byte strings (about 624 KB) and checks it stays under its budget (768 KB), below
 * this buffer. One buffer per room: 1 MB x 20 shards is 20 MB at 10,000 clients. Regression
 * test: WorldRoom.test.ts, "a state larger than the default encoder buffer".
 */
export const WORLD_ENCODER_BUFFER_BYTES = 1024 * 1024;
if (Encoder.BUFFER_SIZE < WORLD_ENCODER_BUFFER_BYTES) Encoder.BUFFER_SIZE = WORLD_ENCODER_BUFFER_BYTES;

/** Options the server passes to every world room (define options override client options). */
export interface WorldRoomOptions {
  /** clients per shard: config WORLD_SHARD_SIZE */
  shardSize: number;
}

/**
 * A shard of the world: season, rankings, global chat, online users and each client's own
 * country summary, each kept by one projection (rooms/world/). Wiring only: the projections
 * read Postgres and events, the services do the work.
 */
export class WorldRoom extends GameRoom<WorldState, WorldClient> {
  protected readonly kind = "world";
  state = new WorldState();
  private projections: WorldProjection[] = [];
  private summaries!: SummaryProjection;
  private heartbeat: NodeJS.Timeout | undefined;

  async onCreate(options: WorldRoomOptions): Promise<void> {
    this.maxClients = options.shardSize;
    const host: WorldHost = {
      ctx: this.ctx,
      log: this.log,
      state: this.state,
      roomId: this.roomId,
      clients: this.clients,
      subscribe: (topic, listener) => this.subscribe(topic, listener),
    };
    const season = new SeasonProjection(host);
    const presence = new PresenceProjection(host);
    const rankings = new RankingsProjection(host, presence);
    const chat = new ChatProjection(host, presence);
    this.summaries = new SummaryProjection(host, chat, presence);
    const market = new MarketProjection();
    // News after summaries: it writes the unread count into the client's summary entry.
    this.projections = [season, presence, rankings, chat, this.summaries, new NewsProjection(host), market];

    // Subscribe before loading so no event falls between the load and the subscription.
    this.subscribe(WORLD_TOPIC, (event: WorldEvent) => {
      for (const p of this.projections) p.onWorldEvent?.(event);
    });
    await this.ctx.events.ready();
    for (const p of this.projections) await p.load?.();
    this.startHeartbeat();

    this.handle(WorldMessage.sendChat, sendChatSchema, { fallback: "Failed to send chat message", invalidCode: "chat/invalid" }, async (client, payload) => {
      const result = await sendChatMessage(this.ctx, client.auth!.userId, payload);
      if (result.kind === "command") client.send(WorldMessage.chatCommand, result.reply);
    });
    this.handle(MarketMessage.marketWatch, marketWatchSchema, { fallback: "Failed to get market listings", invalidCode: "market/invalid" }, (client, payload) =>
      market.setWatching(client, payload.watching),
    );
  }

  async onJoin(client: WorldClient): Promise<void> {
    const member = await loadWorldMember(this.ctx, client.auth!.userId);
    if (!member) throw new ServerError(403, "You have no country");
    await this.summaries.watch(member.countryId);
    try {
      const summary = (await loadCountrySummaries(this.ctx, [member.countryId])).get(member.countryId)!;
      client.userData = {
        userId: member.userId,
        countryId: member.countryId,
        allianceId: member.allianceId,
        allianceRole: member.allianceRole,
        ignored: new Set(summary.ignoredUserIds),
      };
      for (const p of this.projections) p.addClient?.(client, member, summary);
    } catch (err) {
      this.summaries.unwatch(member.countryId);
      throw err;
    }
    try {
      await joinWorld(this.ctx, { sessionId: client.sessionId, roomId: this.roomId, member });
    } catch (err) {
      // The join fails and onLeave never runs for it: take the client back out.
      for (const p of this.projections) p.removeClient?.(client);
      throw err;
    }
    this.trackSession(client);
  }

  async onLeave(client: WorldClient): Promise<void> {
    this.untrackSession(client);
    for (const p of this.projections) p.removeClient?.(client);
    if (client.auth) await leaveWorld(this.ctx, { sessionId: client.sessionId, userId: client.auth.userId });
  }

  async onDispose(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const p of this.projections) p.dispose?.();
    await super.onDispose();
    await endWorldRoom(this.ctx, this.roomId);
  }

  /** Keeps the room's sessions online and lets projections roll their clocks. */
  private startHeartbeat(): void {
    let beat = 0;
    this.heartbeat = setInterval(() => {
      beat += 1;
      for (const p of this.projections) {
        p.heartbeat?.(beat).catch((err) => this.log.error({ err, projection: p.constructor.name }, "world heartbeat failed"));
      }
    }, ONLINE_HEARTBEAT_MS);
  }
}

/**
 * Same JWT as REST (token problems are a 401); a user without a country is a 403.
 */
export async function authenticateWorldClient(ctx: ServiceContext, token: string): Promise<{ userId: number; countryId: number }> {
  const claims = await verifyRoomToken(ctx, token);
  const member = await loadWorldMember(ctx, claims.userId);
  if (!member) throw new ServerError(403, "You have no country");
  return admitRoomClient(ctx, claims, member.countryId);
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
