import { CHAT_CHANNELS, CHAT_RECENT_MESSAGES, WORLD_MESSAGES, type ChatMessagePayload } from "@game/schema/messages";
import type { ChatMessageEvent, WorldEvent } from "../../events.js";
import { loadRecentChat } from "../../services/chat.js";
import type { ServiceContext } from "../../services/context.js";
import { encodeMessage } from "../encodedMessage.js";
import type { ChannelCounts } from "./PresenceFeed.js";

const OPEN_CHANNELS = CHAT_CHANNELS.filter((c) => c.accessLevel === "all").map((c) => c.id);

/**
 * The open chat channels for the whole process: their recent lines (CHAT_RECENT_MESSAGES each,
 * in id order, deduplicated by id) for a client that starts watching the chat, and each new
 * line encoded once for every chat watcher of the process, at once (chat is the one feed that
 * is not coalesced). Lines are read again from Postgres after a Redis reconnection, and the
 * lines found that watchers had not been sent are sent then.
 */
export class ChatFeed {
  private readonly recent = new Map<string, ChatMessagePayload[]>(OPEN_CHANNELS.map((id) => [id, []]));
  private snapshotCache: Uint8Array | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  async load(): Promise<void> {
    for (const line of await loadRecentChat(this.ctx)) this.append(line);
  }

  /** A new line to send to the chat watchers (encoded once), or undefined (not open, or known). */
  onWorldEvent(event: WorldEvent): Uint8Array | undefined {
    if (event.type !== "chatMessage") return undefined;
    const payload = this.append(event.message);
    return payload && encodeMessage(WORLD_MESSAGES.server.chatMessage, payload);
  }

  /**
   * Reads the recent lines again and returns the ones this process had not seen (a Redis
   * reconnection, a subscription not live yet), each encoded for the watchers, oldest first.
   */
  async catchUp(): Promise<Uint8Array[]> {
    const missed: Uint8Array[] = [];
    for (const line of await loadRecentChat(this.ctx)) {
      const payload = this.append(line);
      if (payload) missed.push(encodeMessage(WORLD_MESSAGES.server.chatMessage, payload));
    }
    return missed;
  }

  /** Channel counts and recent lines for a client that starts watching (encoded once until either changes). */
  snapshot(counts: ChannelCounts): Uint8Array {
    this.snapshotCache ??= encodeMessage(WORLD_MESSAGES.server.chatChannels, {
      channels: CHAT_CHANNELS.map((c) => ({ id: c.id, userCount: counts[c.accessLevel], messages: this.recent.get(c.id) ?? [] })),
    });
    return this.snapshotCache;
  }

  /** The counts message for chat watchers; the snapshot follows them too. */
  countsMessage(counts: ChannelCounts): Uint8Array {
    this.snapshotCache = undefined;
    return encodeMessage(WORLD_MESSAGES.server.chatCounts, { counts: Object.fromEntries(CHAT_CHANNELS.map((c) => [c.id, counts[c.accessLevel]])) });
  }

  clear(): void {
    for (const lines of this.recent.values()) lines.length = 0;
    this.snapshotCache = undefined;
  }

  /** Adds a line of an open channel in id order; the oldest beyond the cap leaves. Undefined when not added. */
  private append(m: ChatMessageEvent): ChatMessagePayload | undefined {
    const lines = this.recent.get(m.channel);
    if (!lines || lines.some((x) => x.id === m.id)) return undefined;
    const payload: ChatMessagePayload = { ...m, isOnline: true, isEdited: false };
    // Keep ascending id order even if an event overtook the initial load.
    const at = lines.findIndex((x) => Number(x.id) > Number(m.id));
    if (at === -1) lines.push(payload);
    else lines.splice(at, 0, payload);
    while (lines.length > CHAT_RECENT_MESSAGES) lines.shift();
    this.snapshotCache = undefined;
    return payload;
  }
}
