import { AWAY_SUMMARY_MAX_DAYS, type AwaySummaryResponse, type NewsItemJson, type NewsListResponse, type NewsQuery } from "@game/schema/api";
import { composeNews, type NewsKind, type NewsParams, type NewsParticipant } from "@game/schema/rules";
import type { Db, DbClient } from "../db/pool.js";
import { rankedCountry } from "../db/rankings.js";
import { battlesSince } from "../db/military.js";
import { awayCounts, awayItems, countUnreadNews, findNewsFor, findNewsReader, insertNews, insertNewsRead, latestGlobalNews, listNewsFor, markAllNewsRead, type NewsInsert, type NewsReader, type NewsRow } from "../db/news.js";
import { allianceTopic, countryTopic, WORLD_TOPIC, type EventTopic, type GameEvent, type NewsEventItem } from "../events.js";
import { notFound, unauthorized } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { rankBoard } from "./world.js";

/**
 * News: recorded inside the transaction of whatever produced it (a battle, a trade, a tick
 * phase), so an item exists exactly when its cause committed, once, whichever process ran
 * it; published after that commit on the topic of its audience. Read per user.
 */

/**
 * What recordNews needs of the caller's transaction: its connection and its event queue.
 * runCountriesAction's ActionTransaction and a tick phase's context both are one.
 */
export interface NewsTransaction {
  client: DbClient;
  emit<E extends GameEvent>(topic: EventTopic<E>, event: E): void;
  /** the action's time; @default now */
  now?: Date;
}

/** One item to record: a catalogue kind with its parameters, and its audience. */
export type NewsRecord<K extends NewsKind = NewsKind> = {
  kind: K;
  params: NewsParams<K>;
  /** who the item is about (countries, alliances, players) */
  participants?: NewsParticipant[];
  /** the personal item's country (required for personal kinds) */
  countryId?: number;
  /** the alliance item's alliance (required for alliance kinds) */
  allianceId?: number;
  /**
   * Makes the item exist once even if several transactions record it (a season's end, a
   * day's rank change): the later ones record nothing.
   */
  dedupeKey?: string;
};

/** Records every kind with its own parameter type: `recordNews(tx, { kind: "battle_won", params: {...} })`. */
type AnyNewsRecord = { [K in NewsKind]: NewsRecord<K> }[NewsKind];

function toInsert(record: AnyNewsRecord, now: Date): NewsInsert {
  const draft = composeNews(record.kind, record.params as never);
  const countryId = draft.category === "personal" ? (record.countryId ?? null) : null;
  const allianceId = draft.category === "alliance" ? (record.allianceId ?? null) : null;
  // A missing audience is a programming error in the producing domain, not a player's mistake.
  if (draft.category === "personal" && countryId === null) throw new Error(`news ${record.kind} is personal: countryId required`);
  if (draft.category === "alliance" && allianceId === null) throw new Error(`news ${record.kind} is for an alliance: allianceId required`);
  return { draft, params: record.params, participants: record.participants ?? [], countryId, allianceId, dedupeKey: record.dedupeKey ?? null, createdAt: now };
}

/** The published shape of a row. */
export function toNewsEventItem(row: NewsRow): NewsEventItem {
  return {
    id: String(row.id),
    kind: row.kind as NewsKind,
    type: row.type,
    title: row.title,
    description: row.description,
    content: row.content,
    timestamp: row.created_at.toISOString(),
    priority: row.priority,
    participants: row.participants,
    tags: row.tags,
    category: row.category,
    location: row.location,
    impact: row.impact,
    battleId: row.battle_id,
    allianceId: row.alliance_id,
    countryId: row.country_id,
  };
}

export function toNewsItemJson(row: NewsRow, isRead: boolean): NewsItemJson {
  const { allianceId: _a, countryId: _c, ...item } = toNewsEventItem(row);
  return { ...item, isRead };
}

/** Queues the newsPublished event of a recorded item on its audience's topic. */
function emitPublished(tx: Pick<NewsTransaction, "emit">, row: NewsRow): void {
  const item = toNewsEventItem(row);
  if (row.category === "global") tx.emit(WORLD_TOPIC, { type: "newsPublished", item });
  else if (row.category === "alliance") tx.emit(allianceTopic(row.alliance_id!), { type: "newsPublished", item });
  else tx.emit(countryTopic(row.country_id!), { type: "newsPublished", item });
}

/**
 * Records a news item in the caller's transaction and queues its event for after the commit.
 * @returns the item, or null when its dedupe key was recorded already
 */
export async function recordNews(tx: NewsTransaction, record: AnyNewsRecord): Promise<NewsEventItem | null> {
  const [row] = await insertNews(tx.client, [toInsert(record, tx.now ?? new Date())]);
  if (!row) return null;
  emitPublished(tx, row);
  return toNewsEventItem(row);
}

/** recordNews for many items in one statement (tick phases). @returns the items recorded */
export async function recordNewsBatch(tx: NewsTransaction, records: readonly AnyNewsRecord[]): Promise<NewsEventItem[]> {
  const now = tx.now ?? new Date();
  const rows = await insertNews(
    tx.client,
    records.map((r) => toInsert(r, now)),
  );
  for (const row of rows) emitPublished(tx, row);
  return rows.map(toNewsEventItem);
}

/**
 * Records news outside any other transaction (an administrator's announcement): its own
 * transaction, then the events.
 */
export async function publishNews(ctx: ServiceContext, record: AnyNewsRecord): Promise<NewsEventItem | null> {
  const client = await ctx.db.connect();
  const events: Array<{ topic: EventTopic<GameEvent>; event: GameEvent }> = [];
  try {
    await client.query("BEGIN");
    const item = await recordNews({ client, emit: (topic, event) => events.push({ topic: topic as EventTopic<GameEvent>, event }) }, record);
    await client.query("COMMIT");
    ctx.events.publishAll(events);
    return item;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

// --- reading -----------------------------------------------------------------------------

async function reader(db: Db, userId: number): Promise<NewsReader> {
  const found = await findNewsReader(db, userId);
  if (!found) throw unauthorized("Account no longer exists", "auth/no_account");
  return found;
}

/** GET /news: a page of what the user may see, filtered, newest first, with the unread count. */
export async function listNews(ctx: ServiceContext, userId: number, query: NewsQuery): Promise<Omit<NewsListResponse, "success">> {
  const r = await reader(ctx.db, userId);
  const [{ rows, total }, { unread }] = await Promise.all([
    listNewsFor(ctx.db, r, {
      category: query.category === "all" ? null : query.category,
      type: query.type === "all" ? null : query.type,
      unreadOnly: query.unread === "true",
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    }),
    countUnreadNews(ctx.db, r),
  ]);
  return { data: rows.map((row) => toNewsItemJson(row, row.is_read)), unreadCount: unread, total, page: query.page, limit: query.limit };
}

/**
 * GET /news/away-summary: what happened to the user's country since `since` (its last visit,
 * which the client remembers), at most AWAY_SUMMARY_MAX_DAYS back: attacks and their results,
 * spy detections, trades filled, alliance operations and defense requests, the rank then and
 * now, and the latest personal and alliance items. A player without a country gets zeros.
 */
export async function awaySummary(ctx: ServiceContext, userId: number, since: Date): Promise<AwaySummaryResponse> {
  const now = new Date(ctx.clock.now());
  const from = new Date(Math.min(now.getTime(), Math.max(since.getTime(), now.getTime() - AWAY_SUMMARY_MAX_DAYS * 86_400_000)));
  const r = await reader(ctx.db, userId);
  const countryId = r.countryId ?? 0;
  const [counts, items, battles, ranked] = await Promise.all([awayCounts(ctx.db, r, from), awayItems(ctx.db, r, from, 20), battlesSince(ctx.db, countryId, from, 10), rankBoard(ctx).then((board) => rankedCountry(ctx.db, countryId, board))]);
  return {
    since: from.toISOString(),
    until: now.toISOString(),
    attacksReceived: counts.attacks_received,
    attacksRepelled: counts.attacks_repelled,
    landLost: Number(counts.land_lost),
    attacksMade: counts.attacks_made,
    attacksWon: counts.attacks_won,
    landGained: Number(counts.land_gained),
    battles: battles.map((b) => {
      const role = b.attacker_id === countryId ? "attacker" : "defender";
      const attackerWon = b.outcome === "attacker_victory";
      return {
        battleId: b.id,
        role,
        opponentName: role === "attacker" ? b.defender_name : b.attacker_name,
        attackType: b.attack_type,
        won: role === "attacker" ? attackerWon : !attackerWon,
        land: b.land_captured + b.land_destroyed,
        at: b.created_at.toISOString(),
      };
    }),
    spyDetections: counts.spy_detections,
    tradesFilled: counts.trades_filled,
    tradeValue: Number(counts.trade_value),
    allianceOperations: counts.alliance_operations,
    defenseRequests: counts.defense_requests,
    rankBefore: counts.rank_before,
    rankNow: ranked?.rank ?? null,
    items: items.map((row) => toNewsItemJson(row, row.is_read)),
  };
}

/** The user's unread count (and the newest visible id it counted). */
export async function unreadNewsCount(ctx: ServiceContext, userId: number): Promise<{ unread: number; maxId: number }> {
  return countUnreadNews(ctx.db, await reader(ctx.db, userId));
}

/** Tells the player's open clients their new unread count. */
function announceRead(ctx: ServiceContext, r: NewsReader, unreadCount: number): void {
  if (r.countryId !== null) ctx.events.publish(countryTopic(r.countryId), { type: "newsRead", userId: r.userId, unreadCount });
}

/** POST /news/{id}/read: 404 unless the user may see the item; reading twice changes nothing. */
export async function markNewsRead(ctx: ServiceContext, userId: number, newsId: number): Promise<{ unreadCount: number }> {
  const r = await reader(ctx.db, userId);
  const item = await findNewsFor(ctx.db, r, newsId);
  if (!item) throw notFound("News item not found", "news/not_found");
  if (!item.isRead) await insertNewsRead(ctx.db, userId, newsId);
  const { unread } = await countUnreadNews(ctx.db, r);
  announceRead(ctx, r, unread);
  return { unreadCount: unread };
}

/** POST /news/read-all. */
export async function markAllRead(ctx: ServiceContext, userId: number): Promise<{ unreadCount: number }> {
  const r = await reader(ctx.db, userId);
  await markAllNewsRead(ctx.db, userId);
  const { unread } = await countUnreadNews(ctx.db, r);
  announceRead(ctx, r, unread);
  return { unreadCount: unread };
}

/** The world room's ticker: the latest global headlines, newest first. */
export async function loadNewsTicker(ctx: ServiceContext, limit: number): Promise<NewsEventItem[]> {
  return (await latestGlobalNews(ctx.db, limit)).map(toNewsEventItem);
}
