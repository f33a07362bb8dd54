import { ServerError, type AuthContext } from "@colyseus/core";
import { WORLD_MESSAGES, WORLD_PATCH_INTERVAL_MS } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import { WORLD_TOPIC, type WorldEvent } from "../events.js";
import { sendChatMessage } from "../services/chat.js";
import { announceOnline, endWorldRoom, forgetOnlineSession, keepWorldSessionsAlive, leaveWorld, loadJoiningPlayer, loadWorldMember, recordOnlineSession, type CountrySummary, type WorldMember } from "../services/world.js";
import { ONLINE_HEARTBEAT_MS } from "../db/online.js";
import { admitRoomClient, GameRoom, verifyRoomToken } from "./GameRoom.js";
import { SeasonProjection } from "./world/SeasonProjection.js";
import { OwnProjection } from "./world/OwnProjection.js";
import { NewsProjection } from "./world/NewsProjection.js";
import { WorldFeeds } from "./world/WorldFeeds.js";
import type { WorldClient, WorldHost, WorldProjection } from "./world/types.js";

/** Options the server passes to every world room (define options override client options). */
export interface WorldRoomOptions {
  /** clients per shard: config WORLD_SHARD_SIZE */
  shardSize: number;
}

/**
 * A shard of the world. Its state (season, news ticker) is the same for every client and
 * patched at most once per WORLD_PATCH_INTERVAL_MS; each player's own numbers go to that
 * player alone ("own"); what only some screens show comes from the process's WorldFeeds to the
 * clients watching it. Wiring only: the projections and feeds read Postgres and events, the
 * services do the work. docs/architecture.md, "Rooms: cost per viewer".
 */
export class WorldRoom extends GameRoom<WorldState, WorldClient> {
  protected readonly kind = "world";
  state = new WorldState();
  private projections: WorldProjection[] = [];
  private own!: OwnProjection;
  private feeds!: WorldFeeds;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopResync: (() => void) | undefined;

  async onCreate(options: WorldRoomOptions): Promise<void> {
    await this.advertise();
    this.maxClients = options.shardSize;
    this.patchRate = WORLD_PATCH_INTERVAL_MS;
    const host: WorldHost = {
      ctx: this.ctx,
      log: this.log,
      state: this.state,
      roomId: this.roomId,
      clients: this.clients,
      subscribe: (topic, listener) => this.subscribe(topic, listener),
    };
    this.feeds = WorldFeeds.of(this.ctx);
    this.own = new OwnProjection(host, this.feeds);
    // News after own: it sends the unread count through the own numbers.
    this.projections = [new SeasonProjection(host), this.own, new NewsProjection(host, this.own)];

    // Subscribe before loading so no event falls between the load and the subscription.
    this.subscribe(WORLD_TOPIC, (event: WorldEvent) => {
      for (const p of this.projections) p.onWorldEvent?.(event);
    });
    await this.ctx.events.ready();
    await this.feeds.attach(this);
    for (const p of this.projections) await p.load?.();
    this.startHeartbeat();
    this.stopResync = this.ctx.events.onResync?.(() => void this.resync());

    this.handle(WORLD_MESSAGES.client.sendChat, async (client, payload) => {
      const result = await sendChatMessage(this.ctx, client.auth!.userId, payload);
      if (result.kind === "command") client.send(WORLD_MESSAGES.server.chatCommand.type, result.reply);
    });
    this.handle(WORLD_MESSAGES.client.watch, (client, payload) => this.feeds.watch(client, payload.topics));
  }

  /**
   * Two waits in a row at most: the country's topic subscribed, then one read of who the
   * player is and the country's summary (the read after the subscription, so no change falls
   * between them); the online session is written meanwhile. docs/reliability.md, "The join path".
   */
  async onJoin(client: WorldClient): Promise<void> {
    const { userId, countryId } = client.auth!;
    const session = { sessionId: client.sessionId, userId, roomId: this.roomId };
    const [read, online] = await Promise.allSettled([this.watchAndRead(userId, countryId), recordOnlineSession(this.ctx, session)]);
    if (read.status === "rejected" || online.status === "rejected") {
      if (read.status === "fulfilled") this.own.unwatch(read.value.watched);
      if (online.status === "fulfilled") await forgetOnlineSession(this.ctx, session).catch((err) => this.log.warn({ err }, "online session of a failed join not removed"));
      throw read.status === "rejected" ? read.reason : (online as PromiseRejectedResult).reason;
    }
    const { member, summary } = read.value;
    client.userData = {
      userId: member.userId,
      countryId: member.countryId,
      allianceId: member.allianceId,
      allianceRole: member.allianceRole,
      ignored: new Set(summary.ignoredUserIds),
      watching: new Set(),
    };
    for (const p of this.projections) p.addClient?.(client, member, summary);
    this.feeds.addClient(client);
    announceOnline(this.ctx, member);
    this.trackSession(client);
  }

  /**
   * Subscribes to the player's country, then reads the player and the summary. The country is
   * the one the token check saw; a player whose country changed since (deleted, founded again)
   * is subscribed to the new one before the answer is used.
   */
  private async watchAndRead(userId: number, countryId: number): Promise<{ member: WorldMember; summary: CountrySummary; watched: number }> {
    let watched = countryId;
    await this.own.watch(watched);
    try {
      for (;;) {
        const joining = await loadJoiningPlayer(this.ctx, userId);
        if (!joining) throw new ServerError(403, "You have no country");
        if (joining.member.countryId === watched) return { ...joining, watched };
        this.own.unwatch(watched);
        watched = joining.member.countryId;
        await this.own.watch(watched);
      }
    } catch (err) {
      this.own.unwatch(watched);
      throw err;
    }
  }

  async onLeave(client: WorldClient): Promise<void> {
    this.untrackSession(client);
    this.removeClient(client);
    if (client.auth) await leaveWorld(this.ctx, { sessionId: client.sessionId, userId: client.auth.userId });
  }

  /**
   * A dropped client got its seat back: what it missed while away is sent again, and the
   * process's feeds send to its new client object (Colyseus makes one per reconnection).
   */
  onReconnect(client: WorldClient): void {
    super.onReconnect(client);
    this.own.resend(client);
    this.feeds.reconnected(client);
  }

  async onDispose(): Promise<void> {
    clearInterval(this.heartbeat);
    this.stopResync?.();
    for (const p of this.projections) p.dispose?.();
    this.feeds.detach(this);
    await super.onDispose();
    await endWorldRoom(this.ctx, this.roomId);
  }

  private removeClient(client: WorldClient): void {
    for (const p of this.projections) p.removeClient?.(client);
    this.feeds.removeClient(client);
  }

  /** Redis came back: whatever was published meanwhile is read from Postgres. */
  private async resync(): Promise<void> {
    try {
      await this.feeds.resync();
      for (const p of this.projections) await p.resync?.();
    } catch (err) {
      this.log.error({ err }, "world resync failed");
    }
  }

  /** Keeps the room's sessions online and lets projections roll their clocks. */
  private startHeartbeat(): void {
    let beat = 0;
    this.heartbeat = setInterval(() => {
      beat += 1;
      keepWorldSessionsAlive(this.ctx, this.roomId).catch((err) => this.log.error({ err }, "world sessions heartbeat failed"));
      for (const p of this.projections) {
        p.heartbeat?.(beat).catch((err) => this.log.error({ err, projection: p.constructor.name }, "world heartbeat failed"));
      }
    }, ONLINE_HEARTBEAT_MS);
  }
}

/**
 * Same JWT as REST (token problems are a 401); a user without a country is a 403. The token
 * check already read the user's country (TokenClaims.countryId), so a join with a country
 * costs no query here, only the seat (one Redis round trip); onJoin reads the player once.
 */
export async function authenticateWorldClient(ctx: ServiceContext, token: string): Promise<{ userId: number; countryId: number }> {
  const claims = await verifyRoomToken(ctx, token);
  const countryId = claims.countryId ?? (await loadWorldMember(ctx, claims.userId))?.countryId;
  if (countryId === undefined) throw new ServerError(403, "You have no country");
  return admitRoomClient(ctx, claims, countryId);
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
