import { isAllianceLeader, WORLD_MESSAGES, type AllianceRole, type OnlineUserSnapshot, type OnlineUsersMessage } from "@game/schema/messages";
import type { OnlineUserEvent, WorldEvent } from "../../events.js";
import { loadOnlineUsers, ONLINE_TRACK_LIMIT, ONLINE_USERS_LIMIT } from "../../services/world.js";
import type { ServiceContext } from "../../services/context.js";
import { encodeMessage } from "../encodedMessage.js";

/** Who changed: a user came online (true) or went offline (false). */
export type PresenceListener = (userId: number, online: boolean) => void;

/** Online players who can read each kind of channel: everyone, alliance members, alliance leaders. */
export interface ChannelCounts {
  all: number;
  alliance: number;
  leadership: number;
}

/**
 * Who is online, for the whole process (every shard shows the same): everyone online tracked
 * in memory (up to ONLINE_TRACK_LIMIT), the richest ONLINE_USERS_LIMIT listed for the chat
 * screen's "online" watchers, and the counts of the chat channels. A join or a leave changes
 * nothing on any screen at once: it marks the list and the counts, and `flush` (once per
 * WORLD_FEED_INTERVAL_MS) encodes what moved once, for every watcher of the process. The list
 * is read again from Postgres every other heartbeat and after a Redis reconnection, which
 * repairs an event that was missed.
 */
export class PresenceFeed {
  private readonly online = new Map<number, OnlineUserEvent>();
  private readonly onlineByCountry = new Map<number, number>();
  /** listed users by id, as watchers have them after the last flush plus what is dirty */
  private readonly listed = new Map<string, OnlineUserSnapshot>();
  /** listed ids changed (added or updated) since the last flush */
  private readonly changed = new Set<string>();
  /** listed ids removed since the last flush */
  private readonly removed = new Set<string>();
  private readonly listeners: PresenceListener[] = [];
  private counts: ChannelCounts = { all: 0, alliance: 0, leadership: 0 };
  private countsDirty = true;
  private fullCache: Uint8Array | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  /** Other feeds that show online flags (rankings). */
  onChange(listener: PresenceListener): void {
    this.listeners.push(listener);
  }

  isOnline(userId: number): boolean {
    return this.online.has(userId);
  }

  /** How many players are online (all of them, listed or not). */
  get total(): number {
    return this.online.size;
  }

  async load(): Promise<void> {
    this.apply(await loadOnlineUsers(this.ctx, ONLINE_TRACK_LIMIT));
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

  /** A user's alliance changed: their listed entry and the channel counts follow. */
  updateAlliance(userId: number, allianceId: number | null, role: string): void {
    const user = this.online.get(userId);
    if (user) this.setOnline({ ...user, allianceId, role });
  }

  /** The whole list, for a client that starts watching (encoded once until it changes). */
  fullMessage(): Uint8Array {
    this.fullCache ??= encodeMessage(WORLD_MESSAGES.server.onlineUsers, { full: true, users: [...this.listed.values()], removed: [], total: this.online.size });
    return this.fullCache;
  }

  /**
   * What moved since the last flush: the list's changes (for "online" watchers) and the
   * channel counts (for chat watchers), each encoded once, or undefined when nothing did.
   */
  flush(): { users?: Uint8Array; counts?: ChannelCounts } {
    const out: { users?: Uint8Array; counts?: ChannelCounts } = {};
    if (this.changed.size || this.removed.size) {
      const message: OnlineUsersMessage = {
        full: false,
        users: [...this.changed].map((id) => this.listed.get(id)!).filter(Boolean),
        removed: [...this.removed],
        total: this.online.size,
      };
      this.changed.clear();
      this.removed.clear();
      out.users = encodeMessage(WORLD_MESSAGES.server.onlineUsers, message);
    }
    if (this.countsDirty) {
      this.countsDirty = false;
      const next = this.count();
      if (next.all !== this.counts.all || next.alliance !== this.counts.alliance || next.leadership !== this.counts.leadership) out.counts = next;
      this.counts = next;
    }
    return out;
  }

  /** The counts as of the last flush. */
  channelCounts(): ChannelCounts {
    return this.counts;
  }

  clear(): void {
    this.online.clear();
    this.onlineByCountry.clear();
    this.listed.clear();
    this.changed.clear();
    this.removed.clear();
    this.fullCache = undefined;
    this.countsDirty = true;
  }

  /** Replaces what is known with a fresh read (load, reconciliation, resync). */
  apply(users: OnlineUserEvent[]): void {
    const keep = new Set(users.map((u) => u.userId));
    for (const userId of [...this.online.keys()]) if (!keep.has(userId)) this.setOffline(userId);
    for (const user of users) this.setOnline(user);
  }

  private setOnline(user: OnlineUserEvent): void {
    const previous = this.online.get(user.userId);
    if (previous && previous.countryId !== user.countryId) this.onlineByCountry.delete(previous.countryId);
    this.online.set(user.userId, user);
    this.onlineByCountry.set(user.countryId, user.userId);
    this.countsDirty = true;
    this.fullCache = undefined;
    this.list(user);
    if (!previous) for (const l of this.listeners) l(user.userId, true);
  }

  /**
   * Lists a user. The list holds at most ONLINE_USERS_LIMIT, the richest: when full, a richer
   * newcomer takes the poorest one's place (O(limit), no sort).
   */
  private list(user: OnlineUserEvent): void {
    const key = String(user.userId);
    const entry: OnlineUserSnapshot = {
      id: key,
      name: user.name,
      role: user.role,
      allianceName: user.allianceName,
      allianceTag: user.allianceTag,
      government: user.government,
      networth: user.networth,
      isOnline: true,
    };
    const existing = this.listed.get(key);
    if (!existing && this.listed.size >= ONLINE_USERS_LIMIT) {
      let poorest: OnlineUserSnapshot | undefined;
      for (const candidate of this.listed.values()) if (!poorest || candidate.networth < poorest.networth) poorest = candidate;
      if (!poorest || poorest.networth >= user.networth) return;
      this.unlist(poorest.id);
    }
    if (existing && sameEntry(existing, entry)) return;
    this.listed.set(key, entry);
    this.removed.delete(key);
    this.changed.add(key);
  }

  private unlist(key: string): void {
    if (!this.listed.delete(key)) return;
    this.changed.delete(key);
    this.removed.add(key);
  }

  private setOffline(userId: number): void {
    const user = this.online.get(userId);
    if (!user) return;
    this.online.delete(userId);
    this.onlineByCountry.delete(user.countryId);
    this.countsDirty = true;
    this.fullCache = undefined;
    const key = String(userId);
    if (this.listed.has(key)) {
      this.unlist(key);
      // A place freed up: the richest user not listed yet takes it.
      let next: OnlineUserEvent | undefined;
      for (const u of this.online.values()) if (!this.listed.has(String(u.userId)) && (!next || u.networth > next.networth)) next = u;
      if (next) this.list(next);
    }
    for (const l of this.listeners) l(userId, false);
  }

  private count(): ChannelCounts {
    const counts = { all: 0, alliance: 0, leadership: 0 };
    for (const u of this.online.values()) {
      counts.all += 1;
      if (u.allianceId !== null) counts.alliance += 1;
      if (isAllianceLeader({ allianceId: u.allianceId, allianceRole: toRole(u.role) })) counts.leadership += 1;
    }
    return counts;
  }
}

function sameEntry(a: OnlineUserSnapshot, b: OnlineUserSnapshot): boolean {
  return a.name === b.name && a.role === b.role && a.allianceName === b.allianceName && a.allianceTag === b.allianceTag && a.government === b.government && a.networth === b.networth;
}

function toRole(role: string): AllianceRole | null {
  return role === "owner" || role === "manager" || role === "member" ? role : null;
}
