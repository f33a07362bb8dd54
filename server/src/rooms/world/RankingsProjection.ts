import { RANKINGS_DEFAULT_LIMIT } from "@game/schema/messages";
import { RankingRow } from "@game/schema/state";
import type { PublicCountryNumbers, WorldEvent } from "../../events.js";
import { loadRankings, type RankingEntry } from "../../services/world.js";
import type { PresenceProjection } from "./PresenceProjection.js";
import { assignChanged, Coalescer, type WorldHost, type WorldProjection } from "./types.js";

/** Coalescing window for ranking reloads (milliseconds): a burst of changes is one query. */
export const RANKINGS_RELOAD_DELAY_MS = 250;

/**
 * state.rankings: the top RANKINGS_DEFAULT_LIMIT countries by networth. A country change
 * (countryRanked, which carries the new networth) reloads the list only when it can change it:
 * the country is listed, the list is not full, or it now reaches the last listed networth.
 * Rows are updated in place by position so a patch carries only what moved.
 */
export class RankingsProjection implements WorldProjection {
  private readonly reload: Coalescer;
  /** user id -> country id of ranked countries that have an owner (to flip isOnline) */
  private rankedUsers = new Map<number, number>();

  constructor(private readonly host: WorldHost, private readonly presence: PresenceProjection) {
    this.reload = new Coalescer(RANKINGS_RELOAD_DELAY_MS, () => this.refresh(), (err) => host.log.error({ err }, "rankings reload failed"));
    presence.onChange((userId, online) => this.markOnline(userId, online));
  }

  async load(): Promise<void> {
    this.apply(await loadRankings(this.host.ctx));
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type === "countryRanked" && this.mayChangeRankings(event.country)) this.reload.request();
    else if (event.type === "seasonChanged") this.reload.request();
  }

  dispose(): void {
    this.reload.dispose();
  }

  /** Whether a country with these numbers could enter, leave or move in the list. */
  mayChangeRankings(country: PublicCountryNumbers): boolean {
    const rows = this.host.state.rankings;
    if (rows.length < RANKINGS_DEFAULT_LIMIT) return true;
    if (rows.some((row) => row.countryId === country.countryId)) return true;
    return country.networth >= rows.at(rows.length - 1)!.value;
  }

  private async refresh(): Promise<void> {
    this.apply(await loadRankings(this.host.ctx));
  }

  private apply(entries: RankingEntry[]): void {
    const rows = this.host.state.rankings;
    entries.forEach((entry, i) => {
      let row = rows.at(i);
      if (!row) rows.push((row = new RankingRow()));
      const { userId: _userId, ...fields } = entry;
      assignChanged(row, { ...fields, isOnline: entry.userId !== null && this.presence.isOnline(entry.userId) });
    });
    while (rows.length > entries.length) rows.pop();
    this.rankedUsers = new Map(entries.filter((e) => e.userId !== null).map((e) => [e.userId!, e.countryId]));
  }

  private markOnline(userId: number, isOnline: boolean): void {
    const countryId = this.rankedUsers.get(userId);
    if (countryId === undefined) return;
    const row = this.host.state.rankings.find((r) => r.countryId === countryId);
    if (row && row.isOnline !== isOnline) row.isOnline = isOnline;
  }
}
