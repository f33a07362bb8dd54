import { StateView } from "@colyseus/schema";
import type { Client } from "@colyseus/core";
import {
  canAccessChannel,
  CHAT_CHANNELS,
  CHAT_RECENT_MESSAGES,
  estimateNextTickAt,
  findChannel,
  isAllianceLeader,
  seasonStatus,
  WorldMessage,
  type AllianceRole,
  type ChatMessagePayload,
} from "@game/schema/messages";
import { ChatChannelState, ChatMessageState, CountrySummaryState, OnlineUserState, RankingRow, type WorldState } from "@game/schema/state";
import type { ServiceContext } from "../services/context.js";
import type { ChatMessageEvent, GameEvent, OnlineUserEvent } from "../events.js";
import type { Logger } from "../logger.js";
import { ONLINE_HEARTBEAT_MS } from "../db/online.js";
import { currentSeason } from "../services/season.js";
import {
  keepWorldSessionsAlive,
  loadCountrySummaries,
  loadOnlineUsers,
  loadRankings,
  ONLINE_TRACK_LIMIT,
  ONLINE_USERS_LIMIT,
  type CountrySummary,
  type RankingEntry,
  type WorldMember,
} from "../services/world.js";
import { loadRecentChat } from "../services/chat.js";

/** What a world room client carries (server side only, never synchronised). */
export interface WorldClientData {
  userId: number;
  countryId: number;
  allianceId: number | null;
  allianceRole: AllianceRole | null;
  /** user ids whose alliance-channel messages are not pushed to this client */
  ignored: Set<number>;
}

export type WorldClient = Client<{ userData: WorldClientData; auth: { userId: number; countryId: number } }>;

/** The room as the projection sees it. */
export interface WorldHost {
  state: WorldState;
  roomId: string;
  clients: Iterable<WorldClient> & { get(sessionId: string): WorldClient | undefined };
}

/**
 * Coalescing window for country changes (milliseconds): a burst of actions and the tick
 * become one summary query and one rankings query per window per shard.
 */
export const WORLD_REFRESH_DELAY_MS = 250;

/**
 * Projects Postgres and the world events onto a world room's state. Every shard runs one and
 * applies the same events, so all shards show the same world; nothing is added locally that
 * an event will also add. IO goes through the services; errors are logged, never thrown
 * into the room.
 */
export class WorldSync {
  private readonly sessionsByCountry = new Map<number, Set<string>>();
  /** every online user this shard knows of (the state lists at most ONLINE_USERS_LIMIT of them) */
  private readonly online = new Map<number, OnlineUserEvent>();
  private readonly onlineByCountry = new Map<number, number>();
  private readonly pendingCountries = new Set<number>();
  private rankingsDirty = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private beats = 0;

  constructor(private readonly ctx: ServiceContext, private readonly host: WorldHost, private readonly log: Logger) {}

  private get state(): WorldState {
    return this.host.state;
  }

  /** Fills the state from Postgres. Subscribe to events before calling, so nothing is missed. */
  async load(): Promise<void> {
    for (const def of CHAT_CHANNELS) {
      const { id, name, description, icon, color, accessLevel, isActive } = def;
      this.state.channels.set(id, new ChatChannelState({ id, name, description, icon, color, accessLevel, isActive }));
    }
    const [season, rankings, online, recent] = await Promise.all([currentSeason(this.ctx), loadRankings(this.ctx), loadOnlineUsers(this.ctx, ONLINE_TRACK_LIMIT), loadRecentChat(this.ctx)]);
    Object.assign(this.state.season, {
      name: season.name, active: season.status, startsAt: season.startsAt, endsAt: season.endsAt,
      nextTickAt: season.nextTickAt, turnIntervalMs: season.turnIntervalMs, tickNumber: season.tickNumber,
    });
    this.applyRankings(rankings);
    this.applyOnlineUsers(online);
    for (const message of recent) this.appendChat(message.channel, message);
    this.heartbeat = setInterval(() => void this.beat(), ONLINE_HEARTBEAT_MS);
  }

  dispose(): void {
    clearTimeout(this.flushTimer);
    clearInterval(this.heartbeat);
  }

  /** One world event, from any process. */
  handle(event: GameEvent): void {
    switch (event.type) {
      case "countryChanged":
        this.schedule([event.countryId]);
        break;
      case "tick":
        Object.assign(this.state.season, { tickNumber: event.tickNumber, nextTickAt: event.nextTickAt, turnIntervalMs: event.turnIntervalMs });
        this.schedule([...this.sessionsByCountry.keys()]);
        break;
      case "chatMessage":
        if (event.allianceScope) this.pushPrivateChat(event.channelId, event.message, event.allianceScope);
        else this.appendChat(event.channelId, event.message);
        break;
      case "seasonChanged":
        void this.reloadSeason();
        break;
      case "userOnline":
        this.setOnline(event.user);
        this.updateChannelCounts();
        break;
      case "userOffline":
        this.setOffline(event.userId);
        this.updateChannelCounts();
        break;
    }
  }

  /** A client joined: its own summary goes into the state, visible to its view only. */
  addClient(client: WorldClient, member: WorldMember, summary: CountrySummary): void {
    client.userData = { userId: member.userId, countryId: member.countryId, allianceId: member.allianceId, allianceRole: member.allianceRole, ignored: new Set() };
    const entry = new CountrySummaryState();
    this.state.countries.set(client.sessionId, entry);
    client.view = new StateView();
    client.view.add(entry);
    this.applySummary(client, entry, summary);
    let sessions = this.sessionsByCountry.get(member.countryId);
    if (!sessions) this.sessionsByCountry.set(member.countryId, (sessions = new Set()));
    sessions.add(client.sessionId);
  }

  removeClient(client: WorldClient): void {
    this.state.countries.delete(client.sessionId);
    const countryId = client.userData?.countryId;
    const sessions = countryId === undefined ? undefined : this.sessionsByCountry.get(countryId);
    sessions?.delete(client.sessionId);
    if (sessions?.size === 0) this.sessionsByCountry.delete(countryId!);
  }

  /** Marks countries changed and rankings stale; one flush per WORLD_REFRESH_DELAY_MS. */
  private schedule(countryIds: number[]): void {
    for (const id of countryIds) this.pendingCountries.add(id);
    this.rankingsDirty = true;
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, WORLD_REFRESH_DELAY_MS);
  }

  private async flush(): Promise<void> {
    if (this.flushing) {
      // A flush is running: run again after it, with whatever arrived meanwhile.
      await this.flushing;
      if (this.pendingCountries.size || this.rankingsDirty) return this.flush();
      return;
    }
    const ids = [...this.pendingCountries].filter((id) => this.sessionsByCountry.has(id) || this.onlineCountry(id) !== undefined);
    const rankings = this.rankingsDirty;
    this.pendingCountries.clear();
    this.rankingsDirty = false;
    this.flushing = (async () => {
      const [summaries, entries] = await Promise.all([loadCountrySummaries(this.ctx, ids), rankings ? loadRankings(this.ctx) : undefined]);
      for (const summary of summaries.values()) this.applyCountry(summary);
      if (entries) this.applyRankings(entries);
    })()
      .catch((err) => this.log.error({ err }, "world refresh failed"))
      .finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private applyCountry(summary: CountrySummary): void {
    for (const sessionId of this.sessionsByCountry.get(summary.countryId) ?? []) {
      const entry = this.state.countries.get(sessionId);
      const client = this.host.clients.get(sessionId);
      if (entry && client) this.applySummary(client, entry, summary);
    }
    const userId = this.onlineCountry(summary.countryId);
    const user = userId === undefined ? undefined : this.online.get(userId);
    if (user) this.setOnline({ ...user, networth: summary.networth, government: summary.government, allianceId: summary.allianceId });
  }

  private applySummary(client: WorldClient, entry: CountrySummaryState, s: CountrySummary): void {
    assign(entry, {
      countryId: s.countryId, name: s.name, turns: s.turns, storedTurns: s.storedTurns, cash: s.cash, food: s.food,
      oil: s.oil, networth: s.networth, population: s.population, land: s.land,
    });
    if (entry.ignoredUserIds.join() !== s.ignoredUserIds.join()) {
      entry.ignoredUserIds.clear();
      entry.ignoredUserIds.push(...s.ignoredUserIds);
    }
    if (client.userData) {
      client.userData.ignored = new Set(s.ignoredUserIds);
      client.userData.allianceId = s.allianceId;
      client.userData.allianceRole = s.allianceRole;
    }
  }

  /** Updates the rows in place so a patch carries only what moved. */
  private applyRankings(entries: RankingEntry[]): void {
    const rows = this.state.rankings;
    entries.forEach((e, i) => {
      let row = rows.at(i);
      if (!row) rows.push((row = new RankingRow()));
      const { userId: _userId, ...fields } = e;
      assign(row, { ...fields, isOnline: e.userId !== null && this.online.has(e.userId) });
    });
    while (rows.length > entries.length) rows.pop();
    this.rankedUsers = new Map(entries.filter((e) => e.userId !== null).map((e) => [e.userId!, e.countryId]));
  }
  private rankedUsers = new Map<number, number>();

  private applyOnlineUsers(users: OnlineUserEvent[]): void {
    const keep = new Set(users.map((u) => u.userId));
    for (const userId of [...this.online.keys()]) if (!keep.has(userId)) this.setOffline(userId);
    for (const user of users) this.setOnline(user);
    this.updateChannelCounts();
  }

  private setOnline(user: OnlineUserEvent): void {
    const previous = this.online.get(user.userId);
    if (previous && previous.countryId !== user.countryId) this.onlineByCountry.delete(previous.countryId);
    this.online.set(user.userId, user);
    this.onlineByCountry.set(user.countryId, user.userId);
    this.list(user);
    this.markRankingOnline(user.userId, true);
  }

  /**
   * Lists a user in state.onlineUsers. The list holds at most ONLINE_USERS_LIMIT, the richest:
   * when full, a richer newcomer takes the poorest one's place (O(limit), no sort).
   */
  private list(user: OnlineUserEvent): void {
    const key = String(user.userId);
    let entry = this.state.onlineUsers.get(key);
    if (!entry) {
      if (this.state.onlineUsers.size >= ONLINE_USERS_LIMIT) {
        let poorest: OnlineUserState | undefined;
        for (const listed of this.state.onlineUsers.values()) if (!poorest || listed.networth < poorest.networth) poorest = listed;
        if (!poorest || poorest.networth >= user.networth) return;
        this.state.onlineUsers.delete(poorest.id);
      }
      this.state.onlineUsers.set(key, (entry = new OnlineUserState()));
    }
    assign(entry, {
      id: key, name: user.name, role: user.role, allianceName: user.allianceName, allianceTag: user.allianceTag,
      government: user.government, networth: user.networth, isOnline: true,
    });
  }

  private setOffline(userId: number): void {
    const user = this.online.get(userId);
    if (user) {
      this.online.delete(userId);
      this.onlineByCountry.delete(user.countryId);
    }
    const key = String(userId);
    if (this.state.onlineUsers.has(key)) {
      this.state.onlineUsers.delete(key);
      // A place freed up: the richest user not listed yet takes it.
      let next: OnlineUserEvent | undefined;
      for (const u of this.online.values()) if (!this.state.onlineUsers.has(String(u.userId)) && (!next || u.networth > next.networth)) next = u;
      if (next) this.list(next);
    }
    this.markRankingOnline(userId, false);
  }

  private markRankingOnline(userId: number, isOnline: boolean): void {
    const countryId = this.rankedUsers.get(userId);
    if (countryId === undefined) return;
    const row = this.state.rankings.find((r) => r.countryId === countryId);
    if (row && row.isOnline !== isOnline) row.isOnline = isOnline;
  }

  private onlineCountry(countryId: number): number | undefined {
    return this.onlineByCountry.get(countryId);
  }

  /** Open channels count everyone online; alliance channels count alliance members and leaders overall. */
  private updateChannelCounts(): void {
    const users = [...this.online.values()];
    const members = users.filter((u) => u.allianceId !== null).length;
    const leaders = users.filter((u) => isAllianceLeader({ allianceId: u.allianceId, allianceRole: toRole(u.role) })).length;
    for (const channel of this.state.channels.values()) {
      const count = channel.accessLevel === "all" ? users.length : channel.accessLevel === "alliance" ? members : leaders;
      if (channel.userCount !== count) channel.userCount = count;
    }
  }

  /** An open channel's message joins the state (deduplicated by id), the oldest beyond the cap leaves. */
  private appendChat(channelId: string, m: ChatMessageEvent): void {
    const channel = this.state.channels.get(channelId);
    if (!channel || channel.accessLevel !== "all" || channel.messages.some((x) => x.id === m.id)) return;
    const entry = new ChatMessageState({
      id: m.id, channel: m.channel, type: m.type, senderId: m.senderId, senderName: m.senderName, senderRole: m.senderRole,
      allianceTag: m.allianceTag, timestamp: m.timestamp, content: m.content, isEdited: false,
    });
    entry.mentions.push(...m.mentions);
    // Keep ascending id order even if an event overtook the initial load.
    const at = channel.messages.findIndex((x) => Number(x.id) > Number(m.id));
    if (at === -1) channel.messages.push(entry);
    else channel.messages.splice(at, 0, entry);
    while (channel.messages.length > CHAT_RECENT_MESSAGES) channel.messages.shift();
  }

  /** Alliance and leadership messages go to that alliance's entitled clients only, never into shared state. */
  private pushPrivateChat(channelId: string, m: ChatMessageEvent, allianceScope: number): void {
    const channel = findChannel(channelId);
    if (!channel) return;
    const payload: ChatMessagePayload = { ...m, isOnline: true, isEdited: false };
    for (const client of this.host.clients) {
      const data = client.userData;
      if (!data || data.allianceId !== allianceScope || !canAccessChannel(channel, data) || data.ignored.has(m.senderId)) continue;
      client.send(WorldMessage.chatMessage, payload);
    }
  }

  private async reloadSeason(): Promise<void> {
    try {
      const season = await currentSeason(this.ctx);
      Object.assign(this.state.season, { name: season.name, active: season.status, startsAt: season.startsAt, endsAt: season.endsAt });
    } catch (err) {
      this.log.error({ err }, "season reload failed");
    }
  }

  /** Keeps the room's sessions online, re-reads who is online, rolls the season status and clock forward. */
  private async beat(): Promise<void> {
    try {
      this.beats += 1;
      await keepWorldSessionsAlive(this.ctx, this.host.roomId);
      if (this.beats % 2 === 0) this.applyOnlineUsers(await loadOnlineUsers(this.ctx, ONLINE_TRACK_LIMIT));
      const now = Date.now();
      const season = this.state.season;
      const status = seasonStatus({ isActive: true, startsAt: season.startsAt, endsAt: season.endsAt }, now);
      if (season.active === "ACTIVE" && status === "INACTIVE") season.active = status;
      if (season.nextTickAt < now) season.nextTickAt = estimateNextTickAt(now, season.turnIntervalMs);
    } catch (err) {
      this.log.error({ err }, "world heartbeat failed");
    }
  }
}

function toRole(role: string): AllianceRole | null {
  return role === "owner" || role === "manager" || role === "member" ? role : null;
}

/** Sets only the fields that differ, so unchanged values add nothing to the next patch. */
function assign<T extends object>(target: T, values: Partial<T>): void {
  for (const key of Object.keys(values) as Array<keyof T>) {
    if (target[key] !== values[key]) target[key] = values[key]!;
  }
}
