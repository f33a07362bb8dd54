import { RedisPresence } from "@colyseus/redis-presence";
import type { Redis } from "ioredis";
import type { Logger } from "./logger.js";
import type { RedisFailureSink } from "./services/context.js";

/**
 * Colyseus's Redis presence, told when its subscriptions are live again after the connection
 * to Redis dropped. Redis pub/sub keeps nothing for a subscriber that is away: whatever was
 * published while this process was disconnected is lost to it, so the rooms then read what
 * they show again from Postgres (EventBus.onResync).
 */
export class ResyncingRedisPresence extends RedisPresence {
  private readonly resyncListeners = new Set<() => void>();
  private connections = 0;

  /**
   * @param pub the publishing connection (RedisConnections.presence); the subscriber is its duplicate
   * @param outage where connection errors go: one log line per outage instead of RedisPresence's
   *   warning per error event of each connection
   */
  constructor(
    pub: Redis,
    private readonly logger: Logger,
    outage?: RedisFailureSink,
  ) {
    super(pub);
    // The subscriber (pub's duplicate) keeps ioredis's defaults: no command time-out, commands
    // queued until it is connected. Its SUBSCRIBEs are re-sent on every reconnection (here and
    // by ioredis) and must not be timed out while Redis comes back (the resync of rooms waits
    // for them); nothing on a request's path waits on it.
    Object.assign((this.sub as Redis).options, { commandTimeout: undefined, maxRetriesPerRequest: null });
    if (outage) {
      for (const client of [this.pub, this.sub] as Redis[]) {
        client.removeAllListeners("error");
        client.on("error", (err: Error) => outage.noteFailure(err, "presence") || logger.warn({ err }, "redis presence connection error"));
      }
    }
  }

  /** Called once the subscriptions are live again after a reconnection (never for the first connection). */
  onResubscribed(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** Runs on every 'ready' of the subscriber connection (RedisPresence's own handler). */
  protected override resubscribeAll(): void {
    const reconnected = this.connections++ > 0;
    const topics = this.subscriptions.eventNames().filter((topic): topic is string => typeof topic === "string");
    const live = topics.length > 0 ? this.sub.subscribe(...topics) : Promise.resolve(0);
    live.then(
      () => {
        if (!reconnected) return;
        this.logger.warn({ topics: topics.length }, "redis subscriptions live again: rooms read what they may have missed from Postgres");
        for (const listener of this.resyncListeners) listener();
      },
      (err: unknown) => this.logger.warn({ err }, "redis re-subscription failed"),
    );
  }
}
