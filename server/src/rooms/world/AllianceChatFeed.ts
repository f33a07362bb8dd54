import { canAccessChannel, findChannel, WORLD_MESSAGES } from "@game/schema/messages";
import { allianceTopic, type AllianceEvent } from "../../events.js";
import type { ServiceContext } from "../../services/context.js";
import { encodeMessage } from "../encodedMessage.js";
import { SharedSubscriptions } from "../GameRoom.js";
import type { WorldClient } from "./types.js";

/**
 * The alliance and leadership channels of the world chat, for the whole process. Their lines
 * never reach anyone outside the alliance: the process subscribes to `alliance:{id}` while a
 * member of that alliance is connected to one of its world shards, and sends each line, encoded
 * once, to the members entitled to the channel who do not ignore the sender, whatever screen
 * they are on (the chat screen shows the lines since the join).
 */
export class AllianceChatFeed {
  /** each alliance's member clients by session id (a reconnected session is a new client object) */
  private readonly members = new Map<number, Map<string, WorldClient>>();
  private readonly subscriptions: SharedSubscriptions<number>;

  constructor(ctx: ServiceContext) {
    this.subscriptions = new SharedSubscriptions((allianceId) => ctx.events.subscribe(allianceTopic(allianceId), (event: AllianceEvent) => this.onAllianceEvent(event)));
  }

  /** A client of an alliance member joined (or moved into an alliance). */
  add(client: WorldClient, allianceId: number | null): void {
    if (!allianceId) return;
    let clients = this.members.get(allianceId);
    if (!clients) this.members.set(allianceId, (clients = new Map()));
    if (clients.has(client.sessionId)) return;
    clients.set(client.sessionId, client);
    this.subscriptions.retain(allianceId);
  }

  /** A client left (or its country left the alliance). */
  remove(client: WorldClient, allianceId: number | null): void {
    if (!allianceId) return;
    const clients = this.members.get(allianceId);
    if (!clients?.delete(client.sessionId)) return;
    if (clients.size === 0) this.members.delete(allianceId);
    this.subscriptions.release(allianceId);
  }

  /** The session got its seat back as a new client object (WorldFeeds.reconnected): lines go to it. */
  reconnected(client: WorldClient, allianceId: number | null): void {
    const clients = allianceId ? this.members.get(allianceId) : undefined;
    if (clients?.has(client.sessionId)) clients.set(client.sessionId, client);
  }

  /** The client's country joined, left or changed alliance. */
  move(client: WorldClient, before: number | null, after: number | null): void {
    if (before === after) return;
    this.add(client, after);
    this.remove(client, before);
  }

  clear(): void {
    this.subscriptions.clear();
    this.members.clear();
  }

  private onAllianceEvent(event: AllianceEvent): void {
    if (event.type !== "allianceChatMessage") return;
    const channel = findChannel(event.channelId);
    const clients = this.members.get(event.allianceId);
    if (!channel || !clients) return;
    const bytes = encodeMessage(WORLD_MESSAGES.server.chatMessage, { ...event.message, isOnline: true, isEdited: false });
    for (const client of clients.values()) {
      const data = client.userData;
      if (!data || data.allianceId !== event.allianceId || !canAccessChannel(channel, data) || data.ignored.has(event.message.senderId)) continue;
      client.enqueueRaw(bytes);
    }
  }
}
