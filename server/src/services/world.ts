import { computeRankChange, RANKINGS_DEFAULT_LIMIT, type AllianceRole, type ChatMember } from "@game/schema/messages";
import type { OnlineUserJson, RankingRowJson } from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { WORLD_TOPIC, type OnlineUserEvent } from "../events.js";
import { allianceLabels, allianceRoles } from "../db/alliances.js";
import { readTogether } from "../db/readBatch.js";
import { rankBoardOf, type RankSnapshot } from "../db/rankBoard.js";
import { ensureDailySnapshot, rankedCountry, topByNetworth, type RankingDbRow } from "../db/rankings.js";
import { deleteOnlineSession, insertOnlineSession, listOnlineUsers, touchRoomSessions, deleteRoomSessions } from "../db/online.js";
import { selectCountrySummaries, selectJoiningPlayer, selectWorldMember, type CountrySummaryRow, type WorldMemberRow } from "../db/worldMembers.js";

/**
 * The world's public projections (rankings, online users) and each player's private country
 * summary, read from Postgres for the world room and the REST routes; joining and leaving a
 * world room (online presence).
 */

/** Most players in the online list (state and GET /chat/online-users), richest first. */
export const ONLINE_USERS_LIMIT = 500;
/** Most online players a world room keeps track of for counts (server memory only). */
export const ONLINE_TRACK_LIMIT = 10_000;

/** A ranking row with the owner's user id (the room needs it to flip isOnline). */
export interface RankingEntry extends Omit<RankingRowJson, "lastActive"> {
  userId: number | null;
  /** epoch ms */
  lastActive: number;
}

/** Who a player is in chat and presence: identity, alliance, public country numbers. */
export interface WorldMember extends ChatMember {
  userId: number;
  username: string;
  countryId: number;
  role: string;
  allianceName: string;
  allianceTag: string;
  government: string;
  networth: number;
}

/** A player's own country numbers for the private summary. */
export interface CountrySummary {
  /** the row's updated_at, epoch ms (see CountryNumbers.version) */
  version: number;
  countryId: number;
  userId: number | null;
  name: string;
  turns: number;
  storedTurns: number;
  cash: number;
  food: number;
  oil: number;
  networth: number;
  population: number;
  land: number;
  government: string;
  allianceId: number | null;
  allianceRole: AllianceRole | null;
  ignoredUserIds: number[];
}

// Today's snapshot is taken once per process per UTC day, in the background: at 100,000
// countries it takes seconds (docs/performance.md) and must not hold up a ranking read.
let snapshotDay = "";

function takeDailySnapshot(ctx: ServiceContext): void {
  const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  if (snapshotDay === today) return;
  snapshotDay = today;
  ensureDailySnapshot(ctx.db).catch((err) => {
    snapshotDay = "";
    ctx.logger.error({ err }, "ranking snapshot failed");
  });
}

/** The world's order by networth as this process last read it, at most `rankingsMaxAgeMs` old (db/rankBoard.ts). */
export function rankBoard(ctx: ServiceContext): Promise<RankSnapshot> {
  return rankBoardOf(ctx.db).current(ctx.config.rankingsMaxAgeMs);
}

/** The top `limit` countries by networth as ranking rows (change and trend since today's snapshot). */
export async function loadRankings(ctx: ServiceContext, limit = RANKINGS_DEFAULT_LIMIT, playersOnly = false): Promise<RankingEntry[]> {
  takeDailySnapshot(ctx);
  return toRankingEntries(await topByNetworth(ctx.db, limit, playersOnly));
}

/**
 * GET /rankings/networth: the top `limit` and the caller's own row after them when it is not
 * among them (the spec), both read in one round trip (db/readBatch.ts).
 */
export async function networthRankingsWithOwn(ctx: ServiceContext, limit: number, playersOnly: boolean, ownCountryId: number | null): Promise<RankingEntry[]> {
  takeDailySnapshot(ctx);
  const board = ownCountryId === null ? null : await rankBoard(ctx);
  const [top, own] = await readTogether(ctx.db, (db) => [topByNetworth(db, limit, playersOnly), board === null || ownCountryId === null ? Promise.resolve(undefined) : rankedCountry(db, ownCountryId, board, playersOnly)] as const);
  const rows = toRankingEntries(top);
  if (own && !top.some((r) => r.id === own.id)) rows.push(...toRankingEntries([own]));
  return rows;
}

/** One country's ranking row, or undefined when it is not ranked (networth 0, eliminated). */
export async function loadRankingOf(ctx: ServiceContext, countryId: number, playersOnly = false): Promise<RankingEntry | undefined> {
  const row = await rankedCountry(ctx.db, countryId, await rankBoard(ctx), playersOnly);
  return row ? toRankingEntries([row])[0] : undefined;
}

/**
 * The name a ranking shows for a country's player: its owner's username, but for an AI country
 * its country name (its owner is an internal account, ai_<hex>, that means nothing to players;
 * the row's isAi says it is an AI).
 */
export function rankedPlayerName(r: { is_ai: boolean; name: string; username: string | null }): string {
  return r.is_ai ? r.name : (r.username ?? "");
}

/** Ranking rows as entries: the alliance's name and tag come with the row (db/rankings.ts). */
function toRankingEntries(rows: RankingDbRow[]): RankingEntry[] {
  return rows.map((r) => {
    return {
      id: String(r.id),
      rank: r.rank,
      countryId: r.id,
      countryName: r.name,
      playerName: rankedPlayerName(r),
      isAi: r.is_ai,
      governmentType: r.government_type,
      allianceName: r.alliance_name ?? "",
      allianceTag: r.alliance_tag ?? "",
      value: r.networth,
      land: r.land,
      ...computeRankChange(r.previous_rank, r.rank),
      lastActive: r.last_active.getTime(),
      isOnline: r.is_online,
      userId: r.user_id,
    };
  });
}

/** A ranking entry as REST answers it. */
export function toRankingJson(entry: RankingEntry): RankingRowJson {
  const { userId: _userId, ...row } = entry;
  return { ...row, lastActive: new Date(entry.lastActive).toISOString() };
}

function distinctAlliances(rows: Array<{ alliance_id: number | null }>): number[] {
  return [...new Set(rows.map((r) => r.alliance_id).filter((id): id is number => id !== null))];
}

/** Players connected to any world room now (public fields only), richest first. */
export async function loadOnlineUsers(ctx: ServiceContext, limit = ONLINE_USERS_LIMIT): Promise<OnlineUserEvent[]> {
  const rows = await listOnlineUsers(ctx.db, limit);
  const countries = rows.map((r) => ({ id: r.country_id, alliance_id: r.alliance_id }));
  const [labels, roles] = await Promise.all([allianceLabels(ctx.db, distinctAlliances(rows)), allianceRoles(ctx.db, countries)]);
  return rows.map((r) => {
    const label = r.alliance_id === null ? undefined : labels.get(r.alliance_id);
    return {
      userId: r.user_id,
      countryId: r.country_id,
      name: r.username,
      role: roles.get(r.country_id) ?? "member",
      allianceId: r.alliance_id,
      allianceName: label?.name ?? "",
      allianceTag: label?.tag ?? "",
      government: r.government_type,
      networth: r.networth,
    };
  });
}

export function toOnlineUserJson(user: OnlineUserEvent): OnlineUserJson {
  return {
    id: String(user.userId),
    name: user.name,
    role: user.role,
    isOnline: true,
    allianceName: user.allianceName,
    allianceTag: user.allianceTag,
    government: user.government,
    networth: user.networth,
  };
}

/** The chat and presence identity of a user, or undefined when they have no country (one query). */
export async function loadWorldMember(ctx: ServiceContext, userId: number): Promise<WorldMember | undefined> {
  const row = await selectWorldMember(ctx.db, userId);
  return row ? toWorldMember(userId, row) : undefined;
}

/**
 * What a world room's join shows a player, in one query: who the player is (chat, presence)
 * and the private summary of the player's country; undefined without a country.
 */
export async function loadJoiningPlayer(ctx: ServiceContext, userId: number): Promise<{ member: WorldMember; summary: CountrySummary } | undefined> {
  const row = await selectJoiningPlayer(ctx.db, userId);
  if (!row) return undefined;
  const member = toWorldMember(userId, row);
  const summary = toCountrySummary(row);
  return { member, summary };
}

function toWorldMember(userId: number, row: WorldMemberRow): WorldMember {
  return {
    userId,
    username: row.username,
    countryId: row.id,
    allianceId: row.alliance_id,
    allianceRole: row.alliance_role,
    role: row.alliance_role ?? "member",
    allianceName: row.alliance_name ?? "",
    allianceTag: row.alliance_tag ?? "",
    government: row.government_type,
    networth: row.networth,
  };
}

/** Private summaries of the given countries (one query, roles joined), keyed by country id. */
export async function loadCountrySummaries(ctx: ServiceContext, countryIds: number[]): Promise<Map<number, CountrySummary>> {
  if (countryIds.length === 0) return new Map();
  const rows = await selectCountrySummaries(ctx.db, countryIds);
  return new Map(rows.map((r) => [r.id, toCountrySummary(r)]));
}

function toCountrySummary(r: CountrySummaryRow): CountrySummary {
  return {
    version: r.updated_at.getTime(),
    countryId: r.id,
    userId: r.user_id,
    name: r.name,
    turns: r.turns,
    storedTurns: r.stored_turns,
    cash: r.cash,
    food: r.food,
    oil: r.oil,
    networth: r.networth,
    population: r.population,
    land: r.land,
    government: r.government_type,
    allianceId: r.alliance_id,
    allianceRole: r.alliance_role,
    ignoredUserIds: (r.ignored ?? []).map(Number),
  };
}

/** The public face of a member as the online list shows it. */
export function toOnlineUserEvent(member: WorldMember): OnlineUserEvent {
  return {
    userId: member.userId,
    countryId: member.countryId,
    name: member.username,
    role: member.role,
    allianceId: member.allianceId,
    allianceName: member.allianceName,
    allianceTag: member.allianceTag,
    government: member.government,
    networth: member.networth,
  };
}

/**
 * A client is joining a world room: records the session, so every process counts the user
 * online. Runs beside the join's read (WorldRoom.onJoin); announceOnline follows once the
 * client is in.
 */
export async function recordOnlineSession(ctx: ServiceContext, session: { sessionId: string; userId: number; roomId: string }): Promise<void> {
  await insertOnlineSession(ctx.db, session);
}

/** A join that failed after recordOnlineSession: its session goes, unannounced. */
export async function forgetOnlineSession(ctx: ServiceContext, session: { sessionId: string; userId: number }): Promise<void> {
  await deleteOnlineSession(ctx.db, session.sessionId, session.userId);
}

/** A client joined a world room: the user is announced to every shard (each tells its watchers, coalesced). */
export function announceOnline(ctx: ServiceContext, member: WorldMember): void {
  ctx.events.publish(WORLD_TOPIC, { type: "userOnline", user: toOnlineUserEvent(member) });
}

/** A client left for good: ends the session; the user goes offline when it was their last. */
export async function leaveWorld(ctx: ServiceContext, session: { sessionId: string; userId: number }): Promise<void> {
  const remaining = await deleteOnlineSession(ctx.db, session.sessionId, session.userId);
  if (remaining === 0) ctx.events.publish(WORLD_TOPIC, { type: "userOffline", userId: session.userId });
}

/** Heartbeat of a room: its sessions stay online. */
export async function keepWorldSessionsAlive(ctx: ServiceContext, roomId: string): Promise<void> {
  await touchRoomSessions(ctx.db, roomId);
}

/** A room went away: its sessions end (clients of a disposed room are gone). */
export async function endWorldRoom(ctx: ServiceContext, roomId: string): Promise<void> {
  await deleteRoomSessions(ctx.db, roomId);
}
