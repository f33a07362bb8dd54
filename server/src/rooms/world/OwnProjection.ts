import { WORLD_MESSAGES, unreadNewsOf, type CountrySummarySnapshot, type OwnCountryPatch } from "@game/schema/messages";
import { countryTopic, type CountryEvent, type CountryNumbers, type WorldEvent } from "../../events.js";
import { loadCountrySummaries, type CountrySummary, type WorldMember } from "../../services/world.js";
import { encodeMessage } from "../encodedMessage.js";
import { SharedSubscriptions } from "../GameRoom.js";
import type { WorldFeeds } from "./WorldFeeds.js";
import { Coalescer, type WorldClient, type WorldClientData, type WorldHost, type WorldProjection } from "./types.js";

/** Coalescing window for summary refreshes after a tick (milliseconds). */
export const SUMMARY_REFRESH_DELAY_MS = 250;
/** Most often a client's unread news count is sent (ms): a burst of global news is one message. */
export const UNREAD_FLUSH_MS = 250;

/**
 * Each player's own numbers ("own" messages, to that player's clients only): all of them at
 * the join, then the fields that changed. The shard subscribes to `country:{id}` for every
 * country with a client here; a countryChanged event carries the numbers, so an action costs
 * no query and one encoded message for that country's clients. The tick changes every
 * country's turns without an event per country, so after a tick the joined countries are
 * re-read in one query. Each country remembers the row version (updated_at) it shows, so a slow
 * query never overwrites newer numbers from an event. The unread news count (NewsProjection)
 * is sent at most every UNREAD_FLUSH_MS, one encoding per distinct count, and only when
 * something besides a global item changed it (a global item is the state's newsSeq).
 */
export class OwnProjection implements WorldProjection {
  private readonly sessionsByCountry = new Map<number, Set<string>>();
  private readonly versions = new Map<number, number>();
  /** what each client was last sent */
  private readonly sent = new Map<string, CountrySummarySnapshot>();
  private readonly unreadDirty = new Set<string>();
  private readonly countries: SharedSubscriptions<number>;
  private readonly refresh: Coalescer;
  private unreadTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: WorldHost,
    private readonly feeds: WorldFeeds,
  ) {
    this.countries = new SharedSubscriptions((countryId) => host.subscribe(countryTopic(countryId), (event: CountryEvent) => this.onCountryEvent(event)));
    this.refresh = new Coalescer(
      SUMMARY_REFRESH_DELAY_MS,
      () => this.reloadAll(),
      (err) => host.log.error({ err }, "summary refresh failed"),
    );
  }

  /**
   * Subscribes to a country's topic before its summary is read, so no change can fall between
   * the read and the subscription. Resolves when the subscription is live.
   */
  async watch(countryId: number): Promise<void> {
    this.countries.retain(countryId);
    await this.host.ctx.events.ready();
  }

  /** Undoes watch() for a client that did not join after all. */
  unwatch(countryId: number): void {
    this.countries.release(countryId);
  }

  /** A client joined (after watch()): it gets its own numbers in full. */
  addClient(client: WorldClient, member: WorldMember, summary: CountrySummary): void {
    let sessions = this.sessionsByCountry.get(member.countryId);
    if (!sessions) this.sessionsByCountry.set(member.countryId, (sessions = new Set()));
    sessions.add(client.sessionId);
    const own: CountrySummarySnapshot = { ...numbersOf(summary), countryId: summary.countryId, ignoredUserIds: summary.ignoredUserIds, unreadNews: 0, unreadNewsSeq: this.host.state.newsSeq };
    this.sent.set(client.sessionId, own);
    const version = this.versions.get(member.countryId) ?? 0;
    if (summary.version >= version) this.versions.set(member.countryId, summary.version);
    client.send(WORLD_MESSAGES.server.own.type, own);
  }

  /** A client that got its seat back after a drop may have missed patches: all of its numbers again. */
  resend(client: WorldClient): void {
    const own = this.sent.get(client.sessionId);
    if (own) client.send(WORLD_MESSAGES.server.own.type, own);
  }

  removeClient(client: WorldClient): void {
    this.sent.delete(client.sessionId);
    this.unreadDirty.delete(client.sessionId);
    const countryId = client.userData?.countryId;
    if (countryId === undefined) return;
    const sessions = this.sessionsByCountry.get(countryId);
    if (!sessions?.delete(client.sessionId)) return;
    if (sessions.size === 0) {
      this.sessionsByCountry.delete(countryId);
      this.versions.delete(countryId);
    }
    this.countries.release(countryId);
  }

  onWorldEvent(event: WorldEvent): void {
    // a season's end resets every country: re-read the summaries as after a tick
    if (event.type === "tick" || event.type === "seasonChanged") this.refresh.request();
  }

  /** A missed countryChanged (Redis reconnection) is repaired by reading every joined country. */
  async resync(): Promise<void> {
    await this.reloadAll();
  }

  /**
   * The unread news count of a client changed (NewsProjection), global items up to the state's
   * newsSeq included; sent at the next flush. A global item alone needs no call: the client
   * adds the items after the seq it was sent (unreadNewsOf).
   */
  setUnread(sessionId: string, count: number): void {
    const own = this.sent.get(sessionId);
    if (!own || this.unreadOf(sessionId) === count) return;
    own.unreadNews = count;
    own.unreadNewsSeq = this.host.state.newsSeq;
    this.unreadDirty.add(sessionId);
    this.unreadTimer ??= setTimeout(() => this.flushUnread(), UNREAD_FLUSH_MS);
  }

  /** The client's unread count as it shows it now (what it was sent and the global items since). */
  unreadOf(sessionId: string): number | undefined {
    const own = this.sent.get(sessionId);
    return own && unreadNewsOf(own, this.host.state.newsSeq);
  }

  dispose(): void {
    this.refresh.dispose();
    this.countries.clear();
    clearTimeout(this.unreadTimer);
  }

  private flushUnread(): void {
    this.unreadTimer = undefined;
    const byCount = new Map<string, Uint8Array>();
    for (const sessionId of this.unreadDirty) {
      const client = this.host.clients.get(sessionId);
      const own = this.sent.get(sessionId);
      if (!client || !own) continue;
      const { unreadNews, unreadNewsSeq } = own;
      const key = `${unreadNews}@${unreadNewsSeq}`;
      let bytes = byCount.get(key);
      if (!bytes) byCount.set(key, (bytes = encodeMessage(WORLD_MESSAGES.server.own, { unreadNews, unreadNewsSeq })));
      client.enqueueRaw(bytes);
    }
    this.unreadDirty.clear();
  }

  private onCountryEvent(event: CountryEvent): void {
    switch (event.type) {
      case "countryChanged":
        this.applyNumbers(event.countryId, event.numbers);
        break;
      case "ignoreListChanged":
        for (const client of this.clientsOfUser(event.userId)) {
          client.userData.ignored = new Set(event.ignoredUserIds);
          this.sendChanged(client.sessionId, { ignoredUserIds: event.ignoredUserIds });
        }
        break;
      case "notice": {
        const bytes = encodeMessage(WORLD_MESSAGES.server.notice, event.notice);
        for (const client of this.clientsOfCountry(event.countryId)) client.enqueueRaw(bytes);
        break;
      }
      case "membershipChanged":
        for (const client of this.clientsOfCountry(event.countryId)) {
          const before = client.userData.allianceId;
          client.userData.allianceId = event.allianceId;
          client.userData.allianceRole = event.allianceRole;
          this.feeds.allianceChat.move(client, before, event.allianceId);
          this.feeds.presence.updateAlliance(client.userData.userId, event.allianceId, event.allianceRole ?? "member");
        }
        break;
    }
  }

  private applyNumbers(countryId: number, numbers: CountryNumbers): void {
    if (numbers.version < (this.versions.get(countryId) ?? 0)) return;
    this.versions.set(countryId, numbers.version);
    const fields = numbersOf(numbers);
    let bytes: Uint8Array | undefined;
    let bytesFor: string | undefined;
    for (const sessionId of this.sessionsByCountry.get(countryId) ?? []) {
      const patch = this.changes(sessionId, fields);
      if (!patch) continue;
      // the sessions of one country were sent the same numbers: one encoding serves them all
      const key = JSON.stringify(patch);
      if (key !== bytesFor) {
        bytes = encodeMessage(WORLD_MESSAGES.server.own, patch);
        bytesFor = key;
      }
      this.host.clients.get(sessionId)?.enqueueRaw(bytes!);
    }
  }

  /** The fields of `fields` that differ from what the session was sent (applied as sent), or undefined. */
  private changes(sessionId: string, fields: OwnCountryPatch): OwnCountryPatch | undefined {
    const own = this.sent.get(sessionId);
    if (!own) return undefined;
    const patch: Record<string, unknown> = {};
    let any = false;
    for (const [key, value] of Object.entries(fields)) {
      if ((own as Record<string, unknown>)[key] === value) continue;
      (own as Record<string, unknown>)[key] = value;
      patch[key] = value;
      any = true;
    }
    return any ? (patch as OwnCountryPatch) : undefined;
  }

  private sendChanged(sessionId: string, fields: OwnCountryPatch): void {
    const own = this.sent.get(sessionId);
    if (!own) return;
    Object.assign(own, fields);
    this.host.clients.get(sessionId)?.send(WORLD_MESSAGES.server.own.type, fields);
  }

  private async reloadAll(): Promise<void> {
    const summaries = await loadCountrySummaries(this.host.ctx, [...this.sessionsByCountry.keys()]);
    for (const summary of summaries.values()) this.applyNumbers(summary.countryId, summary);
  }

  private *clientsOfCountry(countryId: number): Iterable<WorldClient & { userData: WorldClientData }> {
    for (const sessionId of this.sessionsByCountry.get(countryId) ?? []) {
      const client = this.host.clients.get(sessionId);
      if (client?.userData) yield client as WorldClient & { userData: WorldClientData };
    }
  }

  private *clientsOfUser(userId: number): Iterable<WorldClient & { userData: WorldClientData }> {
    for (const client of this.host.clients) if (client.userData?.userId === userId) yield client as WorldClient & { userData: WorldClientData };
  }
}

/** The own numbers an event or a read carries (no version, no ids). */
function numbersOf(n: Omit<CountryNumbers, "version"> & { version?: number }): Omit<CountrySummarySnapshot, "countryId" | "ignoredUserIds" | "unreadNews" | "unreadNewsSeq"> {
  const { name, turns, storedTurns, cash, food, oil, networth, population, land } = n;
  return { name, turns, storedTurns, cash, food, oil, networth, population, land };
}
