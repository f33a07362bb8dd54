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
/**
 * How long after a client's count was read a global item its query already saw may still be
 * delivered (published after its commit, so it can trail the query by the pub/sub hop).
 */
export const LATE_DELIVERY_MS = 5_000;
/** Global item ids remembered to take each once (a repeated delivery counts nothing). */
const SEEN_GLOBAL_IDS = 1_000;

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
 * device: the count it carries replaces ours). A global item adds one to state.newsSeq and
 * sends nothing to anyone: each client adds the items after the seq its count came with
 * (unreadNewsOf), so the item costs the shard's one patch whatever the number of clients. The
 * count is read from Postgres once per client at join, after the subscriptions are live; items
 * published meanwhile wait and count only if newer than what the query saw, and a global item
 * the query saw that arrives after it is taken back, so nothing is counted twice or missed.
 */
export class NewsProjection implements WorldProjection {
  private readonly readers = new Map<string, Reader>();
  /** session ids by country and by alliance: an item for one reaches its readers without a scan of every client */
  private readonly readersOfCountry = new Map<number, Set<string>>();
  private readonly readersOfAlliance = new Map<number, Set<string>>();
  /** readers whose count is being read: global items wait in their `pending` */
  private readonly loading = new Set<string>();
  /** readers whose count was read in the last LATE_DELIVERY_MS, oldest first, with the time it was */
  private readonly justLoaded = new Map<string, number>();
  /** global item ids taken, oldest first (at most SEEN_GLOBAL_IDS) */
  private readonly seenGlobal = new Set<number>();
  private readonly countries: SharedSubscriptions<number>;
  private readonly alliances: SharedSubscriptions<number>;

  constructor(
    private readonly host: WorldHost,
    private readonly own: OwnProjection,
  ) {
    this.countries = new SharedSubscriptions((id) => host.subscribe(countryTopic(id), (event: CountryEvent) => this.onCountryEvent(id, event)));
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
    for (const [sessionId, r] of readers) this.startLoading(sessionId, r);
    const next = async (): Promise<void> => {
      const entry = readers.shift();
      if (!entry) return;
      await this.loadCount(entry[0], entry[1]);
      await next();
    };
    await Promise.all(Array.from({ length: RESYNC_COUNT_CONCURRENCY }, next));
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type !== "newsPublished" || event.item.category !== "global") return;
    const id = Number(event.item.id);
    if (this.seenGlobal.has(id)) return;
    this.seenGlobal.add(id);
    if (this.seenGlobal.size > SEEN_GLOBAL_IDS) this.seenGlobal.delete(this.seenGlobal.values().next().value!);
    this.addHeadline(event.item);
    this.host.state.newsSeq += 1;
    for (const sessionId of this.loading) this.readers.get(sessionId)?.pending.push(id);
    this.takeBackIfCounted(id);
  }

  addClient(client: WorldClient, member: WorldMember): void {
    const reader: Reader = { userId: member.userId, countryId: member.countryId, allianceId: member.allianceId, loaded: false, countedUpTo: 0, pending: [] };
    this.readers.set(client.sessionId, reader);
    this.loading.add(client.sessionId);
    addTo(this.readersOfCountry, member.countryId, client.sessionId);
    this.countries.retain(member.countryId);
    if (member.allianceId) {
      addTo(this.readersOfAlliance, member.allianceId, client.sessionId);
      this.alliances.retain(member.allianceId);
    }
    void this.loadCount(client.sessionId, reader);
  }

  removeClient(client: WorldClient): void {
    const reader = this.readers.get(client.sessionId);
    if (!reader) return;
    this.readers.delete(client.sessionId);
    this.loading.delete(client.sessionId);
    this.justLoaded.delete(client.sessionId);
    removeFrom(this.readersOfCountry, reader.countryId, client.sessionId);
    this.countries.release(reader.countryId);
    if (reader.allianceId) {
      removeFrom(this.readersOfAlliance, reader.allianceId, client.sessionId);
      this.alliances.release(reader.allianceId);
    }
  }

  dispose(): void {
    this.countries.clear();
    this.alliances.clear();
    this.readers.clear();
    this.readersOfCountry.clear();
    this.readersOfAlliance.clear();
    this.loading.clear();
    this.justLoaded.clear();
  }

  /**
   * A global item that a count read in the last LATE_DELIVERY_MS already covered: the seq that
   * counted it for the client counted it twice, so that client's count goes one back.
   */
  private takeBackIfCounted(id: number): void {
    const now = Date.now();
    for (const [sessionId, loadedAt] of this.justLoaded) {
      if (now - loadedAt <= LATE_DELIVERY_MS) break;
      this.justLoaded.delete(sessionId);
    }
    for (const sessionId of this.justLoaded.keys()) {
      if (id > (this.readers.get(sessionId)?.countedUpTo ?? Infinity)) continue;
      const shown = this.own.unreadOf(sessionId);
      if (shown !== undefined) this.setCount(sessionId, Math.max(0, shown - 1));
    }
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

  private onCountryEvent(countryId: number, event: CountryEvent): void {
    switch (event.type) {
      case "newsPublished":
        for (const sessionId of this.readersOfCountry.get(countryId) ?? []) this.bump(sessionId, Number(event.item.id));
        break;
      case "newsRead":
        for (const sessionId of this.readersOfCountry.get(countryId) ?? []) {
          const r = this.readers.get(sessionId)!;
          if (r.userId !== event.userId) continue;
          // The count from the read is current: later items count on top of it.
          this.finishLoading(sessionId, r);
          this.setCount(sessionId, event.unreadCount);
        }
        break;
      case "membershipChanged":
        for (const sessionId of [...(this.readersOfCountry.get(countryId) ?? [])]) {
          const r = this.readers.get(sessionId)!;
          if (r.allianceId === event.allianceId) continue;
          if (event.allianceId) {
            addTo(this.readersOfAlliance, event.allianceId, sessionId);
            this.alliances.retain(event.allianceId);
          }
          if (r.allianceId) {
            removeFrom(this.readersOfAlliance, r.allianceId, sessionId);
            this.alliances.release(r.allianceId);
          }
          r.allianceId = event.allianceId;
          // Another alliance's items are visible now: count again.
          this.startLoading(sessionId, r);
          void this.loadCount(sessionId, r);
        }
        break;
    }
  }

  private onAllianceEvent(event: AllianceEvent): void {
    if (event.type !== "newsPublished" || event.item.allianceId == null) return;
    for (const sessionId of this.readersOfAlliance.get(event.item.allianceId) ?? []) this.bump(sessionId, Number(event.item.id));
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

  /** The reader's count is to be read again: items wait in its `pending` until it is. */
  private startLoading(sessionId: string, reader: Reader): void {
    reader.loaded = false;
    reader.pending = [];
    this.loading.add(sessionId);
    this.justLoaded.delete(sessionId);
  }

  private finishLoading(sessionId: string, reader: Reader): void {
    reader.loaded = true;
    reader.pending = [];
    this.loading.delete(sessionId);
  }

  private setCount(sessionId: string, count: number): void {
    this.own.setUnread(sessionId, count);
  }

  private async loadCount(sessionId: string, reader: Reader): Promise<void> {
    try {
      await this.host.ctx.events.ready();
      const { unread, maxId } = await unreadNewsCount(this.host.ctx, reader.userId);
      if (this.readers.get(sessionId) !== reader || reader.loaded) return;
      const later = reader.pending.filter((id) => id > maxId).length;
      this.finishLoading(sessionId, reader);
      reader.countedUpTo = maxId;
      this.justLoaded.delete(sessionId);
      this.justLoaded.set(sessionId, Date.now());
      this.setCount(sessionId, unread + later);
    } catch (err) {
      this.host.log.error({ err, sessionId }, "unread news count failed");
    }
  }
}

function addTo(index: Map<number, Set<string>>, key: number, sessionId: string): void {
  let sessions = index.get(key);
  if (!sessions) index.set(key, (sessions = new Set()));
  sessions.add(sessionId);
}

function removeFrom(index: Map<number, Set<string>>, key: number, sessionId: string): void {
  const sessions = index.get(key);
  if (!sessions?.delete(sessionId)) return;
  if (sessions.size === 0) index.delete(key);
}
