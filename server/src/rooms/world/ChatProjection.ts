import {
  canAccessChannel,
  CHAT_CHANNELS,
  CHAT_RECENT_MESSAGES,
  findChannel,
  isAllianceLeader,
  WorldMessage,
  type AllianceRole,
  type ChatMessagePayload,
} from "@game/schema/messages";
import { ChatChannelState, ChatMessageState } from "@game/schema/state";
import { allianceTopic, type AllianceEvent, type ChatMessageEvent, type WorldEvent } from "../../events.js";
import { loadRecentChat } from "../../services/chat.js";
import { SharedSubscriptions } from "../GameRoom.js";
import type { PresenceProjection } from "./PresenceProjection.js";
import type { WorldClient, WorldHost, WorldProjection } from "./types.js";

/**
 * state.channels: the global channels with the recent messages of the open ones, and their
 * online counts. Messages of the alliance and leadership channels never enter the shared
 * state: the room subscribes to `alliance:{id}` for each alliance with a member here and sends
 * those messages to that alliance's entitled clients only.
 */
export class ChatProjection implements WorldProjection {
  private readonly alliances: SharedSubscriptions<number>;

  constructor(private readonly host: WorldHost, private readonly presence: PresenceProjection) {
    this.alliances = new SharedSubscriptions((allianceId) =>
      host.subscribe(allianceTopic(allianceId), (event: AllianceEvent) => this.onAllianceEvent(event)),
    );
    presence.onChange(() => this.scheduleCounts());
  }

  async load(): Promise<void> {
    for (const def of CHAT_CHANNELS) {
      const { id, name, description, icon, color, accessLevel, isActive } = def;
      this.host.state.channels.set(id, new ChatChannelState({ id, name, description, icon, color, accessLevel, isActive }));
    }
    for (const message of await loadRecentChat(this.host.ctx)) this.append(message.channel, message);
    this.updateCounts();
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type === "chatMessage") this.append(event.channelId, event.message);
  }

  addClient(client: WorldClient): void {
    const allianceId = client.userData?.allianceId;
    if (allianceId) this.alliances.retain(allianceId);
  }

  removeClient(client: WorldClient): void {
    const allianceId = client.userData?.allianceId;
    if (allianceId) this.alliances.release(allianceId);
  }

  /** A member joined, left or changed role: alliance subscriptions follow. */
  membershipChanged(_client: WorldClient, before: number | null, after: number | null): void {
    if (before === after) return;
    if (after) this.alliances.retain(after);
    if (before) this.alliances.release(before);
  }

  dispose(): void {
    this.alliances.clear();
  }

  private onAllianceEvent(event: AllianceEvent): void {
    if (event.type === "allianceChatMessage") this.pushPrivate(event.allianceId, event.channelId, event.message);
  }

  /** An open channel's message joins the state (deduplicated by id), the oldest beyond the cap leaves. */
  private append(channelId: string, m: ChatMessageEvent): void {
    const channel = this.host.state.channels.get(channelId);
    if (!channel || channel.accessLevel !== "all" || channel.messages.some((x) => x.id === m.id)) return;
    const entry = new ChatMessageState({
      id: m.id,
      channel: m.channel,
      type: m.type,
      senderId: m.senderId,
      senderName: m.senderName,
      senderRole: m.senderRole,
      allianceTag: m.allianceTag,
      timestamp: m.timestamp,
      content: m.content,
      isEdited: false,
    });
    entry.mentions.push(...m.mentions);
    // Keep ascending id order even if an event overtook the initial load.
    const at = channel.messages.findIndex((x) => Number(x.id) > Number(m.id));
    if (at === -1) channel.messages.push(entry);
    else channel.messages.splice(at, 0, entry);
    while (channel.messages.length > CHAT_RECENT_MESSAGES) channel.messages.shift();
  }

  /** An alliance or leadership message goes to that alliance's entitled clients only. */
  private pushPrivate(allianceId: number, channelId: string, m: ChatMessageEvent): void {
    const channel = findChannel(channelId);
    if (!channel) return;
    const payload: ChatMessagePayload = { ...m, isOnline: true, isEdited: false };
    for (const client of this.host.clients) {
      const data = client.userData;
      if (!data || data.allianceId !== allianceId || !canAccessChannel(channel, data) || data.ignored.has(m.senderId)) continue;
      client.send(WorldMessage.chatMessage, payload);
    }
  }

  private countsScheduled = false;

  /** Many presence changes in one go (a reload lists thousands) are counted once. */
  private scheduleCounts(): void {
    if (this.countsScheduled) return;
    this.countsScheduled = true;
    queueMicrotask(() => {
      this.countsScheduled = false;
      this.updateCounts();
    });
  }

  /** Open channels count everyone online; alliance channels count alliance members and leaders overall. */
  private updateCounts(): void {
    let all = 0;
    let members = 0;
    let leaders = 0;
    for (const u of this.presence.users()) {
      all += 1;
      if (u.allianceId !== null) members += 1;
      if (isAllianceLeader({ allianceId: u.allianceId, allianceRole: toRole(u.role) })) leaders += 1;
    }
    for (const channel of this.host.state.channels.values()) {
      const count = channel.accessLevel === "all" ? all : channel.accessLevel === "alliance" ? members : leaders;
      if (channel.userCount !== count) channel.userCount = count;
    }
  }
}

function toRole(role: string): AllianceRole | null {
  return role === "owner" || role === "manager" || role === "member" ? role : null;
}
