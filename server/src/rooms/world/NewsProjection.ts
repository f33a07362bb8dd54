import { NEWS_TICKER_SIZE } from "@game/schema/messages";
import { NewsTickerItem } from "@game/schema/state";
import { allianceTopic, countryTopic, type AllianceEvent, type CountryEvent, type NewsEventItem, type WorldEvent } from "../../events.js";
import { loadNewsTicker, unreadNewsCount } from "../../services/news.js";
import { SharedSubscriptions } from "../GameRoom.js";
import type { WorldClient, WorldHost, WorldProjection } from "./types.js";
import type { WorldMember } from "../../services/world.js";
import type { OwnProjection } from "./OwnProjection.js";

/** Unread counts read at once after a Redis reconnection (queries in flight per shard). */
export const RESYNC_COUNT_CONCURRENCY = 4;

/** What the projection keeps per client to count its unread news. */
interface Reader {
  userId: number;
  countryId: number;
  allianceId: number | null;
  /** the count was read from Postgres (until then, published items wait in `pending`) */
  loaded: boolean;
  /** the newest item the loaded count covered: items up to it are in the count already */
  countedUpTo: number;
  /** ids of items published before the count arrived */
  pending: number[];
}

/**
 * state.news (the latest global headlines) and each client's unread news count (in its "own"
 * messages, private to that client: OwnProjection sends it). Fed by `newsPublished` on
 * `world` (global items: every client), `alliance:{id}` (that alliance's members) and
 * `country:{id}` (that player), and `newsRead` on `country:{id}` (the player read items on any
 * device: the count it carries replaces ours). The count is read from Postgres once per
 * client at join, after the subscriptions are live; items published meanwhile wait and count
 * only if newer than what the query saw, so nothing is counted twice or missed.
 */
export class NewsProjection implements WorldProjection {
  private readonly readers = new Map<string, Reader>();
  private readonly countries: SharedSubscriptions<number>;
  private readonly alliances: SharedSubscriptions<number>;

  constructor(
    private readonly host: WorldHost,
    private readonly own: OwnProjection,
  ) {
    this.countries = new SharedSubscriptions((id) => host.subscribe(countryTopic(id), (event: CountryEvent) => this.onCountryEvent(event)));
    this.alliances = new SharedSubscriptions((id) => host.subscribe(allianceTopic(id), (event: AllianceEvent) => this.onAllianceEvent(event)));
  }

  async load(): Promise<void> {
    const items = await loadNewsTicker(this.host.ctx, NEWS_TICKER_SIZE);
    for (const item of items.reverse()) this.addHeadline(item);
  }

  /**
   * After a Redis reconnection: headlines published meanwhile join the ticker, and every
   * client's count is read again (RESYNC_COUNT_CONCURRENCY at a time, not all at once).
   */
  async resync(): Promise<void> {
    await this.load();
    const readers = [...this.readers];
    for (const [, r] of readers) {
      r.loaded = false;
      r.pending = [];
    }
    const next = async (): Promise<void> => {
      const entry = readers.shift();
      if (!entry) return;
      await this.loadCount(entry[0], entry[1]);
      await next();
    };
    await Promise.all(Array.from({ length: RESYNC_COUNT_CONCURRENCY }, next));
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type !== "newsPublished") return;
    this.addHeadline(event.item);
    for (const sessionId of this.readers.keys()) this.bump(sessionId, Number(event.item.id));
  }

  addClient(client: WorldClient, member: WorldMember): void {
    const reader: Reader = { userId: member.userId, countryId: member.countryId, allianceId: member.allianceId, loaded: false, countedUpTo: 0, pending: [] };
    this.readers.set(client.sessionId, reader);
    this.countries.retain(member.countryId);
    if (member.allianceId) this.alliances.retain(member.allianceId);
    void this.loadCount(client.sessionId, reader);
  }

  removeClient(client: WorldClient): void {
    const reader = this.readers.get(client.sessionId);
    if (!reader) return;
    this.readers.delete(client.sessionId);
    this.countries.release(reader.countryId);
    if (reader.allianceId) this.alliances.release(reader.allianceId);
  }

  dispose(): void {
    this.countries.clear();
    this.alliances.clear();
    this.readers.clear();
  }

  /** Headlines, newest first, capped; a repeated event (two processes, a reload) is ignored. */
  private addHeadline(item: NewsEventItem): void {
    const news = this.host.state.news;
    if (item.category !== "global" || news.some((n) => n.id === item.id)) return;
    const entry = new NewsTickerItem({
      id: item.id,
      kind: item.kind,
      type: item.type,
      title: item.title,
      priority: item.priority,
      impact: item.impact,
      timestamp: Date.parse(item.timestamp),
    });
    const at = news.findIndex((n) => Number(n.id) < Number(item.id));
    if (at === -1) news.push(entry);
    else news.splice(at, 0, entry);
    while (news.length > NEWS_TICKER_SIZE) news.pop();
  }

  private onCountryEvent(event: CountryEvent): void {
    switch (event.type) {
      case "newsPublished":
        for (const [sessionId, r] of this.readers) if (r.countryId === event.item.countryId) this.bump(sessionId, Number(event.item.id));
        break;
      case "newsRead":
        for (const [sessionId, r] of this.readers) {
          if (r.userId !== event.userId) continue;
          // The count from the read is current: later items count on top of it.
          r.loaded = true;
          r.pending = [];
          this.setCount(sessionId, event.unreadCount);
        }
        break;
      case "membershipChanged":
        for (const [sessionId, r] of this.readers) {
          if (r.countryId !== event.countryId || r.allianceId === event.allianceId) continue;
          if (event.allianceId) this.alliances.retain(event.allianceId);
          if (r.allianceId) this.alliances.release(r.allianceId);
          r.allianceId = event.allianceId;
          // Another alliance's items are visible now: count again.
          r.loaded = false;
          r.pending = [];
          void this.loadCount(sessionId, r);
        }
        break;
    }
  }

  private onAllianceEvent(event: AllianceEvent): void {
    if (event.type !== "newsPublished") return;
    for (const [sessionId, r] of this.readers) if (r.allianceId !== null && r.allianceId === event.item.allianceId) this.bump(sessionId, Number(event.item.id));
  }

  /** One more unread item for a client, unless its loaded count has it already. */
  private bump(sessionId: string, newsId: number): void {
    const r = this.readers.get(sessionId);
    if (!r) return;
    if (!r.loaded) {
      r.pending.push(newsId);
      return;
    }
    if (newsId <= r.countedUpTo) return;
    this.own.setUnread(sessionId, (this.own.unreadOf(sessionId) ?? 0) + 1);
  }

  private setCount(sessionId: string, count: number): void {
    this.own.setUnread(sessionId, count);
  }

  private async loadCount(sessionId: string, reader: Reader): Promise<void> {
    try {
      await this.host.ctx.events.ready();
      const { unread, maxId } = await unreadNewsCount(this.host.ctx, reader.userId);
      if (this.readers.get(sessionId) !== reader || reader.loaded) return;
      reader.loaded = true;
      reader.countedUpTo = maxId;
      const later = reader.pending.filter((id) => id > maxId).length;
      reader.pending = [];
      this.setCount(sessionId, unread + later);
    } catch (err) {
      this.host.log.error({ err, sessionId }, "unread news count failed");
    }
  }
}
