import { OnlineUserState } from "@game/schema/state";
import type { OnlineUserEvent, WorldEvent } from "../../events.js";
import { keepWorldSessionsAlive, loadOnlineUsers, ONLINE_TRACK_LIMIT, ONLINE_USERS_LIMIT } from "../../services/world.js";
import { assignChanged, type WorldHost, type WorldProjection } from "./types.js";

/** Who changed: a user came online (true) or went offline (false). */
export type PresenceListener = (userId: number, online: boolean) => void;

/**
 * state.onlineUsers: everyone online (tracked up to ONLINE_TRACK_LIMIT in memory, listed up
 * to ONLINE_USERS_LIMIT in the state, the richest). Keeps this room's sessions alive in
 * Postgres and re-reads who is online every other heartbeat, which repairs a missed event.
 */
export class PresenceProjection implements WorldProjection {
  private readonly online = new Map<number, OnlineUserEvent>();
  private readonly onlineByCountry = new Map<number, number>();
  private readonly listeners: PresenceListener[] = [];

  constructor(private readonly host: WorldHost) {}

  /** Other projections that show online flags or counts. */
  onChange(listener: PresenceListener): void {
    this.listeners.push(listener);
  }

  isOnline(userId: number): boolean {
    return this.online.has(userId);
  }

  /** Everyone tracked as online (for channel counts). */
  users(): Iterable<OnlineUserEvent> {
    return this.online.values();
  }

  async load(): Promise<void> {
    this.apply(await loadOnlineUsers(this.host.ctx, ONLINE_TRACK_LIMIT));
  }

  onWorldEvent(event: WorldEvent): void {
    switch (event.type) {
      case "userOnline":
        this.setOnline(event.user);
        break;
      case "userOffline":
        this.setOffline(event.userId);
        break;
      case "countryRanked": {
        const userId = this.onlineByCountry.get(event.country.countryId);
        const user = userId === undefined ? undefined : this.online.get(userId);
        if (user) this.setOnline({ ...user, networth: event.country.networth, government: event.country.government });
        break;
      }
    }
  }

  async heartbeat(beat: number): Promise<void> {
    await keepWorldSessionsAlive(this.host.ctx, this.host.roomId);
    if (beat % 2 === 0) this.apply(await loadOnlineUsers(this.host.ctx, ONLINE_TRACK_LIMIT));
  }

  /** A user's alliance changed: their listed entry follows. */
  updateAlliance(userId: number, allianceId: number | null, role: string): void {
    const user = this.online.get(userId);
    if (user) this.setOnline({ ...user, allianceId, role });
  }

  private apply(users: OnlineUserEvent[]): void {
    const keep = new Set(users.map((u) => u.userId));
    for (const userId of [...this.online.keys()]) if (!keep.has(userId)) this.setOffline(userId);
    for (const user of users) this.setOnline(user);
  }

  private setOnline(user: OnlineUserEvent): void {
    const previous = this.online.get(user.userId);
    if (previous && previous.countryId !== user.countryId) this.onlineByCountry.delete(previous.countryId);
    this.online.set(user.userId, user);
    this.onlineByCountry.set(user.countryId, user.userId);
    this.list(user);
    for (const l of this.listeners) l(user.userId, true);
  }

  /**
   * Lists a user in state.onlineUsers. The list holds at most ONLINE_USERS_LIMIT, the richest:
   * when full, a richer newcomer takes the poorest one's place (O(limit), no sort).
   */
  private list(user: OnlineUserEvent): void {
    const listed = this.host.state.onlineUsers;
    const key = String(user.userId);
    let entry = listed.get(key);
    if (!entry) {
      if (listed.size >= ONLINE_USERS_LIMIT) {
        let poorest: OnlineUserState | undefined;
        for (const candidate of listed.values()) if (!poorest || candidate.networth < poorest.networth) poorest = candidate;
        if (!poorest || poorest.networth >= user.networth) return;
        listed.delete(poorest.id);
      }
      listed.set(key, (entry = new OnlineUserState()));
    }
    assignChanged(entry, {
      id: key,
      name: user.name,
      role: user.role,
      allianceName: user.allianceName,
      allianceTag: user.allianceTag,
      government: user.government,
      networth: user.networth,
      isOnline: true,
    });
  }

  private setOffline(userId: number): void {
    const user = this.online.get(userId);
    if (user) {
      this.online.delete(userId);
      this.onlineByCountry.delete(user.countryId);
    }
    const listed = this.host.state.onlineUsers;
    const key = String(userId);
    if (listed.has(key)) {
      listed.delete(key);
      // A place freed up: the richest user not listed yet takes it.
      let next: OnlineUserEvent | undefined;
      for (const u of this.online.values()) if (!listed.has(String(u.userId)) && (!next || u.networth > next.networth)) next = u;
      if (next) this.list(next);
    }
    for (const l of this.listeners) l(userId, false);
  }
}
