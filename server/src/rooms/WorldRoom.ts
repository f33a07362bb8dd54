import { ServerError, type AuthContext } from "@colyseus/core";
import { WORLD_MESSAGES, WORLD_PATCH_INTERVAL_MS } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import { WORLD_TOPIC, type WorldEvent } from "../events.js";
import { sendChatMessage } from "../services/chat.js";
import { endWorldRoom, joinWorld, keepWorldSessionsAlive, leaveWorld, loadCountrySummaries, loadWorldMember, type WorldMember } from "../services/world.js";
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

  async onJoin(client: WorldClient): Promise<void> {
    // onAuth read who the player is a moment ago; what may have moved since (alliance,
    // networth) comes from the summary, read after the country's topic is subscribed.
    const authMember = client.auth!.member ?? (await loadWorldMember(this.ctx, client.auth!.userId));
    if (!authMember) throw new ServerError(403, "You have no country");
    await this.own.watch(authMember.countryId);
    let member = authMember;
    try {
      const summary = (await loadCountrySummaries(this.ctx, [authMember.countryId])).get(authMember.countryId);
      if (!summary) throw new ServerError(403, "You have no country");
      if (summary.allianceId !== authMember.allianceId || summary.allianceRole !== authMember.allianceRole) {
        member = (await loadWorldMember(this.ctx, authMember.userId)) ?? authMember;
      }
      member = { ...member, networth: summary.networth };
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
    } catch (err) {
      this.own.unwatch(authMember.countryId);
      throw err;
    }
    try {
      await joinWorld(this.ctx, { sessionId: client.sessionId, roomId: this.roomId, member });
    } catch (err) {
      // The join fails and onLeave never runs for it: take the client back out.
      this.removeClient(client);
      throw err;
    }
    this.trackSession(client);
  }

  async onLeave(client: WorldClient): Promise<void> {
    this.untrackSession(client);
    this.removeClient(client);
    if (client.auth) await leaveWorld(this.ctx, { sessionId: client.sessionId, userId: client.auth.userId });
  }

  /** A dropped client got its seat back: what it missed while away is sent again. */
  onReconnect(client: WorldClient): void {
    super.onReconnect(client);
    this.own.resend(client);
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
 * Same JWT as REST (token problems are a 401); a user without a country is a 403. The member
 * read here travels to onJoin with the auth result, so a join reads it once.
 */
export async function authenticateWorldClient(ctx: ServiceContext, token: string): Promise<{ userId: number; countryId: number; member: WorldMember }> {
  const claims = await verifyRoomToken(ctx, token);
  const member = await loadWorldMember(ctx, claims.userId);
  if (!member) throw new ServerError(403, "You have no country");
  return { ...(await admitRoomClient(ctx, claims, member.countryId)), member };
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
