import { AllianceMemberState } from "@game/schema/state";
import type { AllianceEvent } from "../../events.js";
import { listMembers } from "../../db/alliances.js";
import { assignChanged, Coalescer } from "../world/types.js";
import type { AllianceHost, AllianceProjection } from "./types.js";

const MEMBERS_RELOAD_MS = 50;

/**
 * state.members: every member with public numbers (networth, land; never cash or units),
 * role, contributions and online status. Online means a world room holds a session of the
 * player (online_sessions, the one truth of presence) or the player is in this room now.
 * Re-read (one indexed query) on membership and role events and on the heartbeat.
 */
export class MembersProjection implements AllianceProjection {
  private readonly reload: Coalescer;
  private onlineInDb = new Set<number>();

  constructor(private readonly host: AllianceHost) {
    this.reload = new Coalescer(
      MEMBERS_RELOAD_MS,
      () => this.load(),
      (err) => host.log.error({ err }, "alliance members reload failed"),
    );
  }

  async load(): Promise<void> {
    const rows = await listMembers(this.host.ctx.db, this.host.allianceId);
    const { members } = this.host.state;
    const seen = new Set<string>();
    this.onlineInDb = new Set(rows.filter((r) => r.is_online).map((r) => r.country_id));
    for (const r of rows) {
      const key = String(r.country_id);
      seen.add(key);
      const values = {
        countryId: r.country_id,
        countryName: r.country_name,
        playerName: r.player_name ?? "",
        governmentType: r.government_type,
        role: r.role,
        networth: r.networth,
        landAcres: r.land,
        joinedAt: r.joined_at.getTime(),
        lastActive: r.last_active.getTime(),
        isOnline: this.isOnline(r.country_id),
        contributionPoints: r.points_contributed,
        militarySupport: r.military_support,
        resourcesShared: r.resources_shared,
      };
      const entry = members.get(key);
      if (entry) assignChanged(entry, values);
      else members.set(key, new AllianceMemberState(values));
    }
    for (const key of [...members.keys()]) if (!seen.has(key)) members.delete(key);
  }

  private isOnline(countryId: number): boolean {
    if (this.onlineInDb.has(countryId)) return true;
    for (const c of this.host.clients) if (c.userData?.countryId === countryId) return true;
    return false;
  }

  onEvent(event: AllianceEvent): void {
    if (event.type === "memberJoined" || event.type === "memberLeft" || event.type === "memberRoleChanged" || event.type === "allianceChanged" || event.type === "battleResolved") this.reload.request();
    // A member that left goes from the list at once, before the reload.
    if (event.type === "memberLeft") this.host.state.members.delete(String(event.countryId));
    if (event.type === "memberRoleChanged") {
      const entry = this.host.state.members.get(String(event.countryId));
      if (entry) entry.role = event.role;
    }
  }

  clientsChanged(): void {
    for (const entry of this.host.state.members.values()) {
      const online = this.isOnline(entry.countryId);
      if (entry.isOnline !== online) entry.isOnline = online;
    }
  }

  async heartbeat(): Promise<void> {
    this.reload.request();
  }

  dispose(): void {
    this.reload.dispose();
  }
}
