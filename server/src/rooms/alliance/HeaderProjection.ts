import { ALLIANCE_MAX_MEMBERS, bonusCooldownUntil, currentBonusLevel, findAllianceBonus, ALLIANCE_BONUSES } from "@game/schema/rules";
import { AllianceBonusState } from "@game/schema/state";
import type { AllianceEvent } from "../../events.js";
import { loadAllianceJson } from "../../services/alliances.js";
import { listPurchases, pendingCounts, toBonusPurchase } from "../../db/alliances.js";
import { assignChanged, Coalescer } from "../world/types.js";
import type { AllianceHost, AllianceProjection } from "./types.js";

/** Coalescing window for header reloads (ms): a burst of joins is one query. */
const HEADER_RELOAD_MS = 100;

/**
 * state.header (flag, tag, name, rank, members, totals), state.bonuses (in force or cooling
 * down) and the leaders' counters of pending applications and invitations. Totals move with
 * every member's networth, so the header is re-read on membership and point events and on the
 * heartbeat, never computed here.
 */
export class HeaderProjection implements AllianceProjection {
  private readonly reload: Coalescer;
  private readonly counts: Coalescer;

  constructor(private readonly host: AllianceHost) {
    this.reload = new Coalescer(
      HEADER_RELOAD_MS,
      () => this.load(),
      (err) => host.log.error({ err }, "alliance header reload failed"),
    );
    this.counts = new Coalescer(
      HEADER_RELOAD_MS,
      () => this.loadCounts(),
      (err) => host.log.error({ err }, "alliance counters reload failed"),
    );
  }

  async load(): Promise<void> {
    const { ctx, allianceId, state } = this.host;
    const [alliance, purchases] = await Promise.all([loadAllianceJson(ctx.db, allianceId, true), listPurchases(ctx.db, allianceId)]);
    if (!alliance) return;
    assignChanged(state.header, {
      id: alliance.id,
      name: alliance.name,
      tag: alliance.tag,
      description: alliance.description,
      flagBackground: alliance.flag.backgroundColor,
      flagSymbol: alliance.flag.symbol,
      flagSymbolColor: alliance.flag.symbolColor,
      rank: alliance.rank,
      memberCount: alliance.memberCount,
      maxMembers: ALLIANCE_MAX_MEMBERS,
      totalNetworth: alliance.totalNetworth,
      averageNetworth: alliance.averageNetworth,
      bonusPoints: alliance.bonusPoints,
      totalLand: alliance.stats.totalLand,
      totalMilitary: alliance.stats.totalMilitary ?? 0,
      warsWon: alliance.stats.warsWon,
      warsLost: alliance.stats.warsLost,
      activeWars: alliance.stats.activeWars,
    });
    const now = Date.now();
    const bought = purchases.map(toBonusPurchase);
    const shown = new Set<string>();
    for (const bonus of ALLIANCE_BONUSES) {
      const level = currentBonusLevel(bonus, bought, now);
      const cooldownUntil = bonusCooldownUntil(bonus, bought);
      if (level === 0 && cooldownUntil <= now) continue;
      const running = bought.filter((p) => p.bonusId === bonus.id && (p.expiresAt ?? 0) > now).sort((a, b) => b.expiresAt! - a.expiresAt!)[0];
      const values = { bonusId: bonus.id, level, expiresAt: running?.expiresAt ?? 0, cooldownUntil: cooldownUntil > now ? cooldownUntil : 0 };
      const entry = state.bonuses.get(bonus.id);
      if (entry) assignChanged(entry, values);
      else state.bonuses.set(bonus.id, new AllianceBonusState(values));
      shown.add(bonus.id);
    }
    for (const id of [...state.bonuses.keys()]) if (!shown.has(id) || !findAllianceBonus(id)) state.bonuses.delete(id);
    await this.loadCounts();
  }

  private async loadCounts(): Promise<void> {
    const counts = await pendingCounts(this.host.ctx.db, this.host.allianceId);
    assignChanged(this.host.state.leadership, { pendingApplications: counts.applications, pendingInvitations: counts.invitations });
  }

  onEvent(event: AllianceEvent): void {
    switch (event.type) {
      case "allianceChanged":
      case "memberJoined":
      case "memberLeft":
      case "battleResolved": // a member won or lost land, units and networth
        this.reload.request();
        break;
      case "leadershipQueueChanged":
        this.counts.request();
        break;
      default:
        break;
    }
  }

  async heartbeat(): Promise<void> {
    this.reload.request();
  }

  dispose(): void {
    this.reload.dispose();
    this.counts.dispose();
  }
}
