import { StateView } from "@colyseus/schema";
import { WorldMessage } from "@game/schema/messages";
import { CountrySummaryState } from "@game/schema/state";
import { countryTopic, type CountryEvent, type CountryNumbers, type WorldEvent } from "../../events.js";
import { loadCountrySummaries, type CountrySummary, type WorldMember } from "../../services/world.js";
import { SharedSubscriptions } from "../GameRoom.js";
import type { ChatProjection } from "./ChatProjection.js";
import type { PresenceProjection } from "./PresenceProjection.js";
import { assignChanged, Coalescer, type WorldClient, type WorldClientData, type WorldHost, type WorldProjection } from "./types.js";

/** Coalescing window for summary refreshes after a tick (milliseconds). */
export const SUMMARY_REFRESH_DELAY_MS = 250;

/**
 * state.countries: each client's own country summary, in a StateView that only that client
 * sees. The room subscribes to `country:{id}` for every country with a client here; a
 * countryChanged event carries the numbers, so an action costs the room no query. The tick
 * changes every country's turns without an event per country, so after a tick the joined
 * summaries are re-read in one query. Each summary remembers the row version (updated_at) it
 * shows, so a slow query never overwrites newer numbers from an event.
 */
export class SummaryProjection implements WorldProjection {
  private readonly sessionsByCountry = new Map<number, Set<string>>();
  private readonly versions = new Map<number, number>();
  private readonly countries: SharedSubscriptions<number>;
  private readonly refresh: Coalescer;

  constructor(
    private readonly host: WorldHost,
    private readonly chat: ChatProjection,
    private readonly presence: PresenceProjection,
  ) {
    this.countries = new SharedSubscriptions((countryId) =>
      host.subscribe(countryTopic(countryId), (event: CountryEvent) => this.onCountryEvent(event)),
    );
    this.refresh = new Coalescer(SUMMARY_REFRESH_DELAY_MS, () => this.reloadAll(), (err) => host.log.error({ err }, "summary refresh failed"));
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

  /** A client joined (after watch()): its own summary enters the state, visible to its view only. */
  addClient(client: WorldClient, member: WorldMember, summary: CountrySummary): void {
    const entry = new CountrySummaryState();
    this.host.state.countries.set(client.sessionId, entry);
    client.view = new StateView();
    client.view.add(entry);
    let sessions = this.sessionsByCountry.get(member.countryId);
    if (!sessions) this.sessionsByCountry.set(member.countryId, (sessions = new Set()));
    sessions.add(client.sessionId);
    this.applySummary(summary);
  }

  removeClient(client: WorldClient): void {
    this.host.state.countries.delete(client.sessionId);
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

  dispose(): void {
    this.refresh.dispose();
    this.countries.clear();
  }

  private onCountryEvent(event: CountryEvent): void {
    switch (event.type) {
      case "countryChanged":
        this.applyNumbers(event.countryId, event.numbers);
        break;
      case "ignoreListChanged":
        for (const client of this.clientsOfUser(event.userId)) {
          client.userData.ignored = new Set(event.ignoredUserIds);
          const entry = this.host.state.countries.get(client.sessionId);
          if (entry) replaceNumbers(entry.ignoredUserIds, event.ignoredUserIds);
        }
        break;
      case "notice":
        for (const client of this.clientsOfCountry(event.countryId)) client.send(WorldMessage.notice, event.notice);
        break;
      case "membershipChanged":
        for (const client of this.clientsOfCountry(event.countryId)) {
          const before = client.userData.allianceId;
          client.userData.allianceId = event.allianceId;
          client.userData.allianceRole = event.allianceRole;
          this.chat.membershipChanged(client, before, event.allianceId);
          this.presence.updateAlliance(client.userData.userId, event.allianceId, event.allianceRole ?? "member");
        }
        break;
    }
  }

  private applyNumbers(countryId: number, numbers: CountryNumbers): void {
    if (numbers.version < (this.versions.get(countryId) ?? 0)) return;
    this.versions.set(countryId, numbers.version);
    for (const sessionId of this.sessionsByCountry.get(countryId) ?? []) {
      const entry = this.host.state.countries.get(sessionId);
      if (entry) assignChanged(entry, { countryId, ...withoutVersion(numbers) });
    }
  }

  private applySummary(s: CountrySummary): void {
    this.applyNumbers(s.countryId, s);
    for (const sessionId of this.sessionsByCountry.get(s.countryId) ?? []) {
      const entry = this.host.state.countries.get(sessionId);
      if (entry) replaceNumbers(entry.ignoredUserIds, s.ignoredUserIds);
    }
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

function withoutVersion(numbers: CountryNumbers): Omit<CountryNumbers, "version"> {
  const { version: _version, ...rest } = numbers as CountryNumbers & { ignoredUserIds?: unknown };
  const { name, turns, storedTurns, cash, food, oil, networth, population, land } = rest;
  return { name, turns, storedTurns, cash, food, oil, networth, population, land };
}

/** Replaces an ArraySchema of numbers only when it differs (no patch otherwise). */
function replaceNumbers(target: { join(sep?: string): string; clear(): void; push(...items: number[]): number }, values: number[]): void {
  if (target.join() === values.join()) return;
  target.clear();
  target.push(...values);
}
