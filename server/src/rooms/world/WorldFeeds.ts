import { WATCH_TOPICS, WORLD_FEED_INTERVAL_MS, WORLD_MESSAGES, type WatchTopic } from "@game/schema/messages";
import { WORLD_TOPIC, type WorldEvent } from "../../events.js";
import type { ServiceContext } from "../../services/context.js";
import { loadOnlineUsers, ONLINE_TRACK_LIMIT } from "../../services/world.js";
import type { Logger } from "../../logger.js";
import { encodeMessage, sendEncoded } from "../encodedMessage.js";
import { AllianceChatFeed } from "./AllianceChatFeed.js";
import { ChatFeed } from "./ChatFeed.js";
import { PresenceFeed } from "./PresenceFeed.js";
import { RankingsFeed } from "./RankingsFeed.js";
import type { WorldClient } from "./types.js";

/** How often the online list is read again from Postgres, repairing a missed event (ms). */
export const PRESENCE_RELOAD_MS = 60_000;

/**
 * What every world shard of a process shows the same way, kept once per process instead of
 * once per shard (issue 29): who is online, the rankings, the open chat channels, the market's
 * changes and the alliance channels. Each is fed by the `world` topic (one subscription per
 * process) and sent only to the clients whose screen shows it ("watch"): a change is encoded
 * once and the same bytes go to every watcher of every shard, coalesced to one message per
 * WORLD_FEED_INTERVAL_MS (chat lines and market changes at once). A client that starts
 * watching gets a snapshot first.
 *
 * Started by the first shard of the process and stopped with the last; a Redis reconnection
 * (`resync`) reads the list, the rankings and the recent chat again from Postgres and sends
 * what watchers missed.
 */
export class WorldFeeds {
  private static readonly byContext = new WeakMap<ServiceContext, WorldFeeds>();

  /** The process's feeds (one per ServiceContext: tests run several servers in one process). */
  static of(ctx: ServiceContext): WorldFeeds {
    let feeds = WorldFeeds.byContext.get(ctx);
    if (!feeds) WorldFeeds.byContext.set(ctx, (feeds = new WorldFeeds(ctx)));
    return feeds;
  }

  readonly presence: PresenceFeed;
  readonly rankings: RankingsFeed;
  readonly chat: ChatFeed;
  readonly allianceChat: AllianceChatFeed;
  /**
   * each topic's watchers by session id: a client that got its seat back after a drop is a new
   * client object (Colyseus), and the old one sends nothing any more (reconnected)
   */
  private readonly watchers = new Map<WatchTopic, Map<string, WorldClient>>(WATCH_TOPICS.map((t) => [t, new Map()]));
  private readonly shards = new Set<object>();
  private readonly log: Logger;
  private started: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private flushing = false;

  private constructor(private readonly ctx: ServiceContext) {
    this.log = ctx.logger.child({ component: "world-feeds" });
    this.presence = new PresenceFeed(ctx);
    this.rankings = new RankingsFeed(ctx, this.presence);
    this.chat = new ChatFeed(ctx);
    this.allianceChat = new AllianceChatFeed(ctx);
  }

  /** A shard of this process starts: the feeds are loaded and live when this resolves. */
  async attach(shard: object): Promise<void> {
    this.shards.add(shard);
    this.started ??= this.start().catch((err: unknown) => {
      // a failed start (Postgres away) is tried again by the next shard, not remembered; the
      // shards that waited on it fail their creation and detach when disposed
      this.stop();
      throw err;
    });
    await this.started;
  }

  /** A shard is disposed; with the last one the feeds stop (nothing is shown to anyone). */
  detach(shard: object): void {
    this.shards.delete(shard);
    if (this.shards.size > 0 || !this.started) return;
    this.stop();
  }

  private stop(): void {
    this.started = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.flushTimer);
    clearInterval(this.reloadTimer);
    this.presence.clear();
    this.rankings.clear();
    this.chat.clear();
    this.allianceChat.clear();
    for (const set of this.watchers.values()) set.clear();
  }

  /** Clients watching a topic in this process (tests and metrics). */
  watcherCount(topic: WatchTopic): number {
    return this.watchers.get(topic)!.size;
  }

  /** What a client's screens show now: it gets a snapshot of each topic it starts watching. */
  watch(client: WorldClient, topics: readonly WatchTopic[]): void {
    const data = client.userData;
    if (!data) return;
    const next = new Set(topics);
    for (const topic of data.watching) if (!next.has(topic)) this.watchers.get(topic)!.delete(client.sessionId);
    for (const topic of next) {
      if (data.watching.has(topic)) continue;
      this.watchers.get(topic)!.set(client.sessionId, client);
      const snapshot = this.snapshotOf(topic);
      if (snapshot) client.enqueueRaw(snapshot);
    }
    data.watching = next;
  }

  /** A client joined a shard of this process. */
  addClient(client: WorldClient): void {
    this.allianceChat.add(client, client.userData?.allianceId ?? null);
  }

  /**
   * A dropped client got its seat back (WorldRoom.onReconnect): Colyseus made a new client
   * object for the session, and the one the feeds held sends nothing now (its messages went
   * nowhere: everything watched was lost after a reconnection, issue 29). The feeds hold the
   * new one; a snapshot of each watched topic goes to it, since what was sent while it was
   * away is lost.
   */
  reconnected(client: WorldClient): void {
    for (const [topic, watching] of this.watchers) {
      if (!watching.has(client.sessionId)) continue;
      watching.set(client.sessionId, client);
      const snapshot = this.snapshotOf(topic);
      if (snapshot) client.enqueueRaw(snapshot);
    }
    this.allianceChat.reconnected(client, client.userData?.allianceId ?? null);
  }

  /** A client left for good. */
  removeClient(client: WorldClient): void {
    for (const watching of this.watchers.values()) watching.delete(client.sessionId);
    this.allianceChat.remove(client, client.userData?.allianceId ?? null);
  }

  /**
   * The connection to the other processes came back (or a subscription was late): read what
   * events may have been missed from Postgres, the source of truth, and send what changed.
   */
  async resync(): Promise<void> {
    if (!this.started) return;
    await this.started;
    this.presence.apply(await loadOnlineUsers(this.ctx, ONLINE_TRACK_LIMIT));
    this.rankings.markStale();
    for (const bytes of await this.chat.catchUp()) sendEncoded(this.watchers.get("chat")!.values(), bytes);
    await this.flush();
  }

  private async start(): Promise<void> {
    this.unsubscribe = this.ctx.events.subscribe(WORLD_TOPIC, (event: WorldEvent) => this.onWorldEvent(event));
    // Loaded after the subscription is live, so nothing falls between the read and the events.
    await this.ctx.events.ready();
    await Promise.all([this.presence.load(), this.rankings.load(), this.chat.load()]);
    // nobody watches yet: this only settles the counts the first snapshots show
    this.presence.flush();
    this.flushTimer = setInterval(() => void this.flush(), WORLD_FEED_INTERVAL_MS);
    this.reloadTimer = setInterval(() => {
      loadOnlineUsers(this.ctx, ONLINE_TRACK_LIMIT).then(
        (users) => this.presence.apply(users),
        (err) => this.log.error({ err }, "online list reload failed"),
      );
    }, PRESENCE_RELOAD_MS);
    this.flushTimer.unref();
    this.reloadTimer.unref();
  }

  private onWorldEvent(event: WorldEvent): void {
    this.presence.onWorldEvent(event);
    this.rankings.onWorldEvent(event);
    const line = this.chat.onWorldEvent(event);
    if (line) sendEncoded(this.watchers.get("chat")!.values(), line);
    if (event.type === "marketChanged" && this.watchers.get("market")!.size > 0) {
      sendEncoded(this.watchers.get("market")!.values(), encodeMessage(WORLD_MESSAGES.server.marketChanged, event.change));
    }
  }

  /** Sends what moved since the last flush to its watchers, each encoded once. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      const presence = this.presence.flush();
      if (presence.users) sendEncoded(this.watchers.get("online")!.values(), presence.users);
      if (presence.counts) sendEncoded(this.watchers.get("chat")!.values(), this.chat.countsMessage(presence.counts));
      const rankings = await this.rankings.flush();
      if (rankings) sendEncoded(this.watchers.get("rankings")!.values(), rankings);
    } catch (err) {
      this.log.error({ err }, "world feed flush failed");
    } finally {
      this.flushing = false;
    }
  }

  private snapshotOf(topic: WatchTopic): Uint8Array | undefined {
    switch (topic) {
      case "chat":
        return this.chat.snapshot(this.presence.channelCounts());
      case "online":
        return this.presence.fullMessage();
      case "rankings":
        return this.rankings.fullMessage();
      case "market":
        // the market screen reads listings over REST, then applies the changes that follow
        return undefined;
    }
  }
}
