import { ALLIANCE_CHAT_CHANNELS, ALLIANCE_CHAT_RECENT_MESSAGES, allianceChannelStoredAs } from "@game/schema/rules";
import { AllianceChannelState, ChatMessageState } from "@game/schema/state";
import type { AllianceEvent, ChatMessageEvent } from "../../events.js";
import { recentAllianceChat } from "../../services/allianceChat.js";
import type { AllianceHost, AllianceProjection } from "./types.js";

/**
 * The alliance channels with their latest 50 messages: general and military in the shared
 * state, intelligence and leadership inside state.leadership (behind the leaders' view tag).
 * Messages arrive as allianceChatMessage events whichever room or REST call posted them.
 */
export class AllianceChatProjection implements AllianceProjection {
  constructor(private readonly host: AllianceHost) {}

  async load(): Promise<void> {
    for (const def of ALLIANCE_CHAT_CHANNELS) {
      const target = def.accessLevel === "all" ? this.host.state.channels : this.host.state.leadership.channels;
      if (!target.has(def.id)) target.set(def.id, new AllianceChannelState({ id: def.id, name: def.name, description: def.description, accessLevel: def.accessLevel, isPrivate: def.isPrivate }));
    }
    const recent = await recentAllianceChat(this.host.ctx.db, this.host.allianceId);
    for (const [channelId, messages] of recent) for (const m of messages) this.append(channelId, m);
  }

  onEvent(event: AllianceEvent): void {
    if (event.type !== "allianceChatMessage" || event.allianceId !== this.host.allianceId) return;
    const channel = allianceChannelStoredAs(event.channelId);
    if (channel) this.append(channel.id, event.message);
  }

  private channel(id: string): AllianceChannelState | undefined {
    return this.host.state.channels.get(id) ?? this.host.state.leadership.channels.get(id);
  }

  /** Appended once (by id), in id order, the oldest beyond the cap dropped. */
  private append(channelId: string, m: ChatMessageEvent): void {
    const channel = this.channel(channelId);
    if (!channel || channel.messages.some((x) => x.id === m.id)) return;
    const entry = new ChatMessageState({
      id: m.id,
      channel: channelId,
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
    const at = channel.messages.findIndex((x) => Number(x.id) > Number(m.id));
    if (at === -1) channel.messages.push(entry);
    else channel.messages.splice(at, 0, entry);
    while (channel.messages.length > ALLIANCE_CHAT_RECENT_MESSAGES) channel.messages.shift();
  }
}
