import { ServerError, type AuthContext } from "@colyseus/core";
import { Encoder, StateView } from "@colyseus/schema";
import { ALLIANCE_MESSAGES, ALLIANCE_ROOM_CLOSE_NOT_MEMBER, AllianceMessage, allianceJoinOptionsSchema, type ActionDoneMessage } from "@game/schema/messages";
import { canAccessAllianceChannel, findAllianceChannel, isLeaderRole, type AllianceRole } from "@game/schema/rules";
import { AllianceState, LEADERSHIP_VIEW_TAG } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import { allianceTopic, type AllianceEvent } from "../events.js";
import { loadWorldMember } from "../services/world.js";
import { sendAllianceChat } from "../services/allianceChat.js";
import { cancelOperation, launchOperation, planOperation, requestDefense, respondDefense, respondOperation } from "../services/allianceWarfare.js";
import { admitRoomClient, GameRoom, verifyRoomToken } from "./GameRoom.js";
import { HeaderProjection } from "./alliance/HeaderProjection.js";
import { MembersProjection } from "./alliance/MembersProjection.js";
import { WarfareProjection } from "./alliance/WarfareProjection.js";
import { AllianceChatProjection } from "./alliance/ChatProjection.js";
import type { AllianceClient, AllianceHost, AllianceProjection } from "./alliance/types.js";

/** How often the room re-reads members and totals (networth moves with every action): ms. */
export const ALLIANCE_HEARTBEAT_MS = 15_000;

/** The room's creation options (the client's join options, checked). */
export interface AllianceRoomOptions {
  allianceId: number;
}

/**
 * One alliance's live room: header, members online, operations with readiness, defense
 * requests, chat channels by access level. Members only (checked against Postgres at auth
 * and again at join). Registered with filterBy(["allianceId"]) and joined with joinOrCreate,
 * so every process finds the one room of an alliance through the driver. Wiring only: the
 * projections read Postgres and the alliance's events, the services do the work.
 *
 * A member who leaves or is kicked is closed out the moment the event arrives (code
 * ALLIANCE_ROOM_CLOSE_NOT_MEMBER); a demoted member's view loses the leadership part at once.
 */
/**
 * Encoder buffer of an alliance room (bytes). @colyseus/core 0.18.17 encodes a joining
 * client's full state into a per-room buffer of Encoder.BUFFER_SIZE and, when the state outgrows
 * it, keeps writing the client's StateView part into the old, too-small buffer: the client
 * receives a corrupt state. An alliance room's state with its leadership view reaches about
 * 400 KB at its caps (allianceStateBudget.test.ts), so its buffers are made this large when
 * the room is created. World rooms hold no views and a state of a few KB (issue 29): they keep
 * the default 16 KB, which at 20 shards saves 40 MB against the 1 MB they used to take.
 */
export const ALLIANCE_ENCODER_BUFFER_BYTES = 1024 * 1024;

/** Runs `create` with Encoder.BUFFER_SIZE raised, so the buffers allocated meanwhile have that size. */
function withEncoderBuffer<T>(bytes: number, create: () => T): T {
  const previous = Encoder.BUFFER_SIZE;
  Encoder.BUFFER_SIZE = Math.max(previous, bytes);
  try {
    return create();
  } finally {
    Encoder.BUFFER_SIZE = previous;
  }
}

export class AllianceRoom extends GameRoom<AllianceState, AllianceClient> {
  protected readonly kind = "alliance";
  private allianceId = 0;
  private projections: AllianceProjection[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private stopResync: (() => void) | undefined;
  /** When each country last left (room clock): a join that raced the departure is refused. */
  private readonly departures = new Map<number, number>();
  /** When each country's role last changed (room clock): a join that raced it re-reads the role. */
  private readonly roleChanges = new Map<number, number>();

  async onCreate(options: AllianceRoomOptions): Promise<void> {
    await this.advertise();
    // The room's serializer and encoder allocate their buffers when the state is set.
    withEncoderBuffer(ALLIANCE_ENCODER_BUFFER_BYTES, () => (this.state = new AllianceState()));
    this.allianceId = options.allianceId;
    this.maxClients = 250;
    const host: AllianceHost = { ctx: this.ctx, log: this.log, state: this.state, allianceId: this.allianceId, clients: this.clients };
    this.projections = [new HeaderProjection(host), new MembersProjection(host), new WarfareProjection(host), new AllianceChatProjection(host)];
    this.subscribe(allianceTopic(this.allianceId), (event: AllianceEvent) => this.onAllianceEvent(event));
    await this.ctx.events.ready();
    for (const p of this.projections) await p.load();
    this.heartbeat = setInterval(() => {
      for (const p of this.projections) p.heartbeat?.().catch((err) => this.log.error({ err }, "alliance heartbeat failed"));
    }, ALLIANCE_HEARTBEAT_MS);
    // Redis came back: what the alliance's events carried meanwhile is read from Postgres (the
    // projections' loads apply by id, so reading again changes only what moved).
    this.stopResync = this.ctx.events.onResync?.(() => {
      Promise.all(this.projections.map((p) => p.load())).catch((err) => this.log.error({ err }, "alliance resync failed"));
    });

    const id = () => this.allianceId;
    const done = (client: AllianceClient, message: ActionDoneMessage) => client.send(AllianceMessage.done, message);
    const userId = (client: AllianceClient) => client.auth!.userId;
    this.handle(ALLIANCE_MESSAGES.client.planOperation, async (client, payload) => {
      const { operationId } = await planOperation(this.ctx, userId(client), id(), payload);
      done(client, { action: "planOperation", id: operationId, message: `Operation "${payload.name}" planned` });
    });
    this.handle(ALLIANCE_MESSAGES.client.respondOperation, async (client, payload) => {
      const { readiness } = await respondOperation(this.ctx, userId(client), id(), payload);
      done(client, { action: "respondOperation", id: payload.operationId, message: payload.response === "join" ? `Joined: ${readiness}` : "Declined" });
    });
    this.handle(ALLIANCE_MESSAGES.client.launchOperation, async (client, payload) => {
      const { outcome } = await launchOperation(this.ctx, userId(client), id(), payload.operationId);
      done(client, { action: "launchOperation", id: payload.operationId, message: outcome.summary });
    });
    this.handle(ALLIANCE_MESSAGES.client.cancelOperation, async (client, payload) => {
      await cancelOperation(this.ctx, userId(client), id(), payload.operationId);
      done(client, { action: "cancelOperation", id: payload.operationId, message: "Operation cancelled" });
    });
    this.handle(ALLIANCE_MESSAGES.client.requestDefense, async (client, payload) => {
      const { requestId } = await requestDefense(this.ctx, userId(client), id(), payload);
      done(client, { action: "requestDefense", id: requestId, message: "Defense requested" });
    });
    this.handle(ALLIANCE_MESSAGES.client.respondDefense, async (client, payload) => {
      await respondDefense(this.ctx, userId(client), id(), payload);
      done(client, { action: "respondDefense", id: payload.requestId, message: "You have responded to this defense request" });
    });
    this.handle(ALLIANCE_MESSAGES.client.sendChat, async (client, payload) => {
      await sendAllianceChat(this.ctx, userId(client), id(), payload);
    });
    this.handle(ALLIANCE_MESSAGES.client.typing, (client, payload) => this.typing(client, payload.channel));
  }

  async onJoin(client: AllianceClient): Promise<void> {
    const started = performance.now();
    const member = await loadWorldMember(this.ctx, client.auth!.userId);
    const left = (this.departures.get(member?.countryId ?? 0) ?? -1) >= started;
    if (!member || member.allianceId !== this.allianceId || left) throw new ServerError(403, "You are not a member of this alliance");
    client.userData = { userId: member.userId, countryId: member.countryId, role: member.allianceRole ?? "member" };
    client.view = new StateView();
    this.applyRole(client, client.userData.role);
    // A role change that arrived while the role was being read: read it again.
    if ((this.roleChanges.get(member.countryId) ?? -1) >= started) {
      const again = await loadWorldMember(this.ctx, client.auth!.userId);
      if (!again || again.allianceId !== this.allianceId) throw new ServerError(403, "You are not a member of this alliance");
      client.userData.role = again.allianceRole ?? "member";
      this.applyRole(client, client.userData.role);
    }
    for (const p of this.projections) p.clientsChanged?.();
    this.trackSession(client);
  }

  async onLeave(client: AllianceClient): Promise<void> {
    this.untrackSession(client);
    for (const p of this.projections) p.clientsChanged?.();
  }

  async onDispose(): Promise<void> {
    clearInterval(this.heartbeat);
    this.stopResync?.();
    for (const p of this.projections) p.dispose?.();
    await super.onDispose();
  }

  private onAllianceEvent(event: AllianceEvent): void {
    for (const p of this.projections) p.onEvent?.(event);
    switch (event.type) {
      case "memberLeft":
        this.departures.set(event.countryId, performance.now());
        for (const client of this.clientsOf(event.countryId)) client.leave(ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "You are no longer a member of this alliance");
        break;
      case "memberRoleChanged":
        this.roleChanges.set(event.countryId, performance.now());
        for (const client of this.clientsOf(event.countryId)) {
          client.userData!.role = event.role;
          this.applyRole(client, event.role);
        }
        break;
      case "allianceDisbanded":
        for (const client of [...this.clients]) client.leave(ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "The alliance was disbanded");
        break;
      case "allyAttacked":
        this.broadcast(AllianceMessage.allyAttacked, event.alert);
        break;
      default:
        break;
    }
  }

  /** Leaders see the leadership part (behind its view tag); others do not, from this patch on. */
  private applyRole(client: AllianceClient, role: AllianceRole): void {
    if (isLeaderRole(role)) client.view!.add(this.state, LEADERSHIP_VIEW_TAG);
    else client.view!.remove(this.state, LEADERSHIP_VIEW_TAG);
  }

  private *clientsOf(countryId: number): Iterable<AllianceClient> {
    for (const client of [...this.clients]) if (client.userData?.countryId === countryId) yield client;
  }

  /** "X is typing" goes to the other clients that may read the channel. */
  private typing(sender: AllianceClient, channelId: string): void {
    const channel = findAllianceChannel(channelId);
    const data = sender.userData;
    if (!channel || !data || !canAccessAllianceChannel(channel, data.role)) return;
    const member = this.state.members.get(String(data.countryId));
    const notice = { channel: channelId, countryId: data.countryId, name: member?.countryName ?? "" };
    for (const client of this.clients) {
      if (client !== sender && client.userData && canAccessAllianceChannel(channel, client.userData.role)) client.send(AllianceMessage.typingNotice, notice);
    }
  }
}

/**
 * Same JWT as REST (token problems are a 401); the alliance id must be a positive integer
 * (400) and the player a member of that alliance now, in Postgres (403).
 */
export async function authenticateAllianceClient(ctx: ServiceContext, token: string, options: unknown): Promise<{ userId: number; countryId: number }> {
  const claims = await verifyRoomToken(ctx, token);
  const parsed = allianceJoinOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new ServerError(400, "allianceId must be an alliance id");
  const member = await loadWorldMember(ctx, claims.userId);
  if (!member) throw new ServerError(403, "You have no country");
  if (member.allianceId !== parsed.data.allianceId) throw new ServerError(403, "You are not a member of this alliance");
  return admitRoomClient(ctx, claims, member.countryId);
}

/** The AllianceRoom class for one process's services (static onAuth reaches them through this closure). */
export function bindAllianceRoom(ctx: ServiceContext): typeof AllianceRoom {
  return class BoundAllianceRoom extends AllianceRoom {
    static ctx = ctx;
    static async onAuth(token: string, options: unknown, _context: AuthContext) {
      return authenticateAllianceClient(ctx, token, options);
    }
  };
}
