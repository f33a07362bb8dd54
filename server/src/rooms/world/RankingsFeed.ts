import { RANKINGS_DEFAULT_LIMIT, WORLD_MESSAGES, type RankingRowSnapshot, type RankingsMessage } from "@game/schema/messages";
import type { PublicCountryNumbers, WorldEvent } from "../../events.js";
import { loadRankings, type RankingEntry } from "../../services/world.js";
import type { ServiceContext } from "../../services/context.js";
import { encodeMessage } from "../encodedMessage.js";
import type { PresenceFeed } from "./PresenceFeed.js";

/**
 * The top RANKINGS_DEFAULT_LIMIT countries by networth, for the whole process, for the
 * clients watching "rankings". A country change (countryRanked carries the new networth) marks
 * the list stale only when it can change it: the country is listed, the list is not full, or it
 * now reaches the last listed networth. `flush` (once per WORLD_FEED_INTERVAL_MS) reads it
 * again in one query when stale, and encodes once the rows that differ by position from what
 * watchers have (rows by position, as measured in docs/performance.md "Rankings patches").
 */
export class RankingsFeed {
  private entries: RankingEntry[] = [];
  /** the rows watchers have, by position */
  private sent: RankingRowSnapshot[] = [];
  private stale = true;
  private flagsChanged = false;
  private fullCache: Uint8Array | undefined;
  /** user id -> ranked, to flip online flags without a query */
  private rankedUsers = new Set<number>();

  /** @param read the top of the ranking, from Postgres (tests give their own list) */
  constructor(
    ctx: ServiceContext,
    private readonly presence: PresenceFeed,
    private readonly read: () => Promise<RankingEntry[]> = () => loadRankings(ctx),
  ) {
    presence.onChange((userId) => {
      if (this.rankedUsers.has(userId)) this.flagsChanged = true;
    });
  }

  async load(): Promise<void> {
    this.setEntries(await this.read());
    this.sent = this.rows();
    this.fullCache = undefined;
    this.stale = false;
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type === "countryRanked" && this.mayChangeRankings(event.country)) this.stale = true;
    else if (event.type === "seasonChanged") this.stale = true;
  }

  /** Marks the list for a reread (a Redis reconnection may have hidden changes). */
  markStale(): void {
    this.stale = true;
  }

  /** Whether a country with these numbers could enter, leave or move in the list. */
  mayChangeRankings(country: PublicCountryNumbers): boolean {
    if (this.entries.length < RANKINGS_DEFAULT_LIMIT) return true;
    if (this.entries.some((e) => e.countryId === country.countryId)) return true;
    return country.networth >= this.entries.at(-1)!.value;
  }

  /** Every row, for a client that starts watching (encoded once until the rows change). */
  fullMessage(): Uint8Array {
    this.fullCache ??= encodeMessage(WORLD_MESSAGES.server.rankings, { length: this.sent.length, rows: this.sent.map((row, at) => ({ at, row })) });
    return this.fullCache;
  }

  /** Rereads when stale; returns the changes since the last flush encoded once, or undefined. */
  async flush(): Promise<Uint8Array | undefined> {
    if (this.stale) {
      this.stale = false;
      this.setEntries(await this.read());
    } else if (!this.flagsChanged) {
      return undefined;
    }
    this.flagsChanged = false;
    const next = this.rows();
    const changed: RankingsMessage["rows"] = [];
    next.forEach((row, at) => {
      const before = this.sent[at];
      if (!before || !sameRow(before, row)) changed.push({ at, row });
    });
    if (changed.length === 0 && next.length === this.sent.length) return undefined;
    this.sent = next;
    this.fullCache = undefined;
    return encodeMessage(WORLD_MESSAGES.server.rankings, { length: next.length, rows: changed });
  }

  /** The rows watchers have now (tests). */
  current(): RankingRowSnapshot[] {
    return this.sent;
  }

  clear(): void {
    this.entries = [];
    this.sent = [];
    this.rankedUsers.clear();
    this.fullCache = undefined;
    this.stale = true;
  }

  private setEntries(entries: RankingEntry[]): void {
    this.entries = entries;
    this.rankedUsers = new Set(entries.filter((e) => e.userId !== null).map((e) => e.userId!));
  }

  private rows(): RankingRowSnapshot[] {
    return this.entries.map((entry) => {
      const { userId, ...fields } = entry;
      return { ...fields, isOnline: userId !== null && this.presence.isOnline(userId) };
    });
  }
}

function sameRow(a: RankingRowSnapshot, b: RankingRowSnapshot): boolean {
  for (const key of Object.keys(b) as Array<keyof RankingRowSnapshot>) if (a[key] !== b[key]) return false;
  return true;
}
