import type { NewsCategory, NewsDraft, NewsParticipant, NewsType } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

/** A news_items row. */
export interface NewsRow {
  id: number;
  kind: string;
  type: NewsType;
  category: NewsCategory;
  priority: NewsDraft["priority"];
  impact: NewsDraft["impact"];
  title: string;
  description: string;
  content: string;
  participants: NewsParticipant[];
  tags: string[];
  location: string;
  alliance_id: number | null;
  country_id: number | null;
  /** the battle it reports (battle news), from params.battleId */
  battle_id: number | null;
  created_at: Date;
}

const NEWS_COLUMNS = `id, kind, type, category, priority, impact, title, description, content, participants, tags, location,
  alliance_id, country_id, battle_id, created_at`;

/** An item to insert: the catalogue's draft, who it is about and who it is for. */
export interface NewsInsert {
  draft: NewsDraft;
  /** the catalogue parameters (kept for the server's own reading: intelligence briefs) */
  params: unknown;
  participants: NewsParticipant[];
  allianceId: number | null;
  countryId: number | null;
  dedupeKey: string | null;
  createdAt: Date;
}

/**
 * Inserts news items; an item whose dedupe key exists already is skipped.
 * @returns the rows inserted, in the order given (skipped ones left out)
 */
export async function insertNews(client: DbClient | Db, items: readonly NewsInsert[]): Promise<NewsRow[]> {
  if (items.length === 0) return [];
  const { rows } = await client.query<NewsRow & { ord: number }>(
    `INSERT INTO news_items (kind, type, category, priority, impact, title, description, content, participants, tags, location, params,
                             alliance_id, country_id, dedupe_key, created_at)
     SELECT i.kind, i.type, i.category, i.priority, i.impact, i.title, i.description, i.content, i.participants, i.tags, i.location, i.params,
            i.alliance_id, i.country_id, i.dedupe_key, i.created_at
       FROM jsonb_to_recordset($1::jsonb) AS i(ord int, kind text, type text, category text, priority text, impact text, title text,
            description text, content text, participants jsonb, tags text[], location text, params jsonb, alliance_id bigint, country_id bigint,
            dedupe_key text, created_at timestamptz)
      ORDER BY i.ord
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
     RETURNING ${NEWS_COLUMNS}`,
    [
      JSON.stringify(
        items.map((item, ord) => ({
          ord,
          kind: item.draft.kind,
          type: item.draft.type,
          category: item.draft.category,
          priority: item.draft.priority,
          impact: item.draft.impact,
          title: item.draft.title,
          description: item.draft.description,
          content: item.draft.content,
          participants: item.participants,
          tags: item.draft.tags,
          location: item.draft.location,
          params: item.params ?? {},
          alliance_id: item.allianceId,
          country_id: item.countryId,
          dedupe_key: item.dedupeKey,
          created_at: item.createdAt.toISOString(),
        })),
      ),
    ],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Who reads: the user, their country and alliance (null without), and when they joined. */
export interface NewsReader {
  userId: number;
  countryId: number | null;
  allianceId: number | null;
  /** the account's creation: older items count as read (the player was not there) */
  since: Date;
}

export async function findNewsReader(db: Db | DbClient, userId: number): Promise<NewsReader | undefined> {
  const { rows } = await db.query<{ id: number; created_at: Date; country_id: number | null; alliance_id: number | null }>(
    `SELECT u.id, u.created_at, c.id AS country_id, c.alliance_id FROM users u LEFT JOIN countries c ON c.user_id = u.id WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  return row ? { userId: row.id, countryId: row.country_id, allianceId: row.alliance_id, since: row.created_at } : undefined;
}

/** The reader as a one-row relation `rd` from $1 (user), $2 (country), $3 (alliance), $4 (since). */
const READER = `(SELECT $1::bigint AS user_id, $2::bigint AS country_id, $3::bigint AS alliance_id, $4::timestamptz AS since) rd`;

/** SQL condition: item `n` is visible to the reader `rd`. */
const VISIBLE = `(n.category = 'global'
  OR (n.category = 'alliance' AND n.alliance_id = rd.alliance_id)
  OR (n.category = 'personal' AND n.country_id = rd.country_id))`;

/** SQL expression: whether the reader `rd` has read item `n`. */
const IS_READ = `(n.created_at < rd.since
  OR n.id <= coalesce((SELECT m.read_up_to FROM news_read_marks m WHERE m.user_id = rd.user_id), 0)
  OR EXISTS (SELECT 1 FROM news_reads r WHERE r.user_id = rd.user_id AND r.news_id = n.id))`;

const readerParams = (r: NewsReader) => [r.userId, r.countryId, r.allianceId, r.since];

/** A page of the items visible to a reader, newest first, with whether each is read. */
export async function listNewsFor(
  db: Db,
  reader: NewsReader,
  filter: { category: NewsCategory | null; type: NewsType | null; unreadOnly: boolean; limit: number; offset: number },
): Promise<{ rows: Array<NewsRow & { is_read: boolean }>; total: number }> {
  const conditions = [VISIBLE];
  const params: unknown[] = readerParams(reader);
  if (filter.category) {
    params.push(filter.category);
    conditions.push(`n.category = $${params.length}`);
  }
  if (filter.type) {
    params.push(filter.type);
    conditions.push(`n.type = $${params.length}`);
  }
  if (filter.unreadOnly) conditions.push(`NOT ${IS_READ}`);
  const where = conditions.join(" AND ");
  const [page, count] = await Promise.all([
    db.query<NewsRow & { is_read: boolean }>(
      `SELECT ${NEWS_COLUMNS.split(",")
        .map((c) => `n.${c.trim()}`)
        .join(", ")}, ${IS_READ} AS is_read
         FROM news_items n, ${READER} WHERE ${where} ORDER BY n.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM news_items n, ${READER} WHERE ${where}`, params),
  ]);
  return { rows: page.rows, total: count.rows[0]!.total };
}

/** Items visible to the reader and not read; and the highest visible id it counted up to. */
export async function countUnreadNews(db: Db | DbClient, reader: NewsReader): Promise<{ unread: number; maxId: number }> {
  const { rows } = await db.query<{ unread: number; max_id: number | null }>(
    `SELECT count(*) FILTER (WHERE NOT ${IS_READ})::int AS unread, max(n.id) AS max_id
       FROM news_items n, ${READER} WHERE ${VISIBLE} AND n.created_at >= rd.since`,
    readerParams(reader),
  );
  return { unread: rows[0]!.unread, maxId: rows[0]!.max_id ?? 0 };
}

/** Whether item `id` is visible to the reader; and whether it was read. undefined: not visible. */
export async function findNewsFor(db: Db | DbClient, reader: NewsReader, id: number): Promise<{ isRead: boolean } | undefined> {
  const { rows } = await db.query<{ is_read: boolean }>(`SELECT ${IS_READ} AS is_read FROM news_items n, ${READER} WHERE n.id = $5 AND ${VISIBLE}`, [...readerParams(reader), id]);
  return rows[0] ? { isRead: rows[0].is_read } : undefined;
}

export async function insertNewsRead(db: Db | DbClient, userId: number, newsId: number): Promise<void> {
  await db.query("INSERT INTO news_reads (user_id, news_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [userId, newsId]);
}

/**
 * Marks every item up to the newest one now as read: the mark moves up (never down) and the
 * single reads it covers are dropped.
 */
export async function markAllNewsRead(db: Db | DbClient, userId: number): Promise<void> {
  await db.query(
    `WITH top AS (SELECT coalesce(max(id), 0) AS id FROM news_items),
          mark AS (INSERT INTO news_read_marks (user_id, read_up_to) SELECT $1, top.id FROM top
                   ON CONFLICT (user_id) DO UPDATE SET read_up_to = GREATEST(news_read_marks.read_up_to, EXCLUDED.read_up_to)
                   RETURNING read_up_to)
     DELETE FROM news_reads r USING mark WHERE r.user_id = $1 AND r.news_id <= mark.read_up_to`,
    [userId],
  );
}

/** The latest global items, newest first (the world room's ticker). */
export async function latestGlobalNews(db: Db, limit: number): Promise<NewsRow[]> {
  const { rows } = await db.query<NewsRow>(`SELECT ${NEWS_COLUMNS} FROM news_items WHERE category = 'global' ORDER BY id DESC LIMIT $1`, [limit]);
  return rows;
}

/** Deletes items older than `before` (with their read marks). @returns rows deleted */
export async function deleteNewsBefore(client: DbClient, before: Date): Promise<number> {
  const { rowCount } = await client.query("DELETE FROM news_items WHERE created_at < $1", [before]);
  return rowCount ?? 0;
}

/** The away summary's counts for a reader between `since` and now (services/news.ts awaySummary). */
export interface AwayCountsRow {
  attacks_received: number;
  attacks_repelled: number;
  land_lost: number;
  attacks_made: number;
  attacks_won: number;
  land_gained: number;
  spy_detections: number;
  trades_filled: number;
  trade_value: number;
  alliance_operations: number;
  defense_requests: number;
  rank_before: number | null;
}

/**
 * Counts what happened to the reader's country since $4: battles and spy detections from its
 * personal news, alliance operations from its alliance's, trades filled from market_trades
 * (its listings bought, its standing orders filled), defense requests of its allies, and its
 * rank at the last daily snapshot on or before $4's day.
 */
export async function awayCounts(db: Db, reader: NewsReader, since: Date): Promise<AwayCountsRow> {
  const { rows } = await db.query<AwayCountsRow>(
    `WITH mine AS (SELECT n.kind, n.params FROM news_items n
                    WHERE n.category = 'personal' AND n.country_id = $1 AND n.created_at > $3)
     SELECT
       (SELECT count(*) FROM mine WHERE (kind = 'battle_lost' AND params->>'role' = 'defender') OR kind = 'battle_repelled')::int AS attacks_received,
       (SELECT count(*) FROM mine WHERE kind = 'battle_repelled')::int AS attacks_repelled,
       (SELECT coalesce(sum((params->>'landLost')::bigint), 0) FROM mine WHERE kind = 'battle_lost' AND params->>'role' = 'defender')::bigint AS land_lost,
       (SELECT count(*) FROM mine WHERE kind = 'battle_won' OR (kind = 'battle_lost' AND params->>'role' = 'attacker'))::int AS attacks_made,
       (SELECT count(*) FROM mine WHERE kind = 'battle_won')::int AS attacks_won,
       (SELECT coalesce(sum((params->>'landCaptured')::bigint), 0) FROM mine WHERE kind = 'battle_won')::bigint AS land_gained,
       (SELECT count(*) FROM mine WHERE kind IN ('spy_detected', 'sabotage_suffered'))::int AS spy_detections,
       (SELECT count(*) FROM market_trades t WHERE t.created_at > $3
          AND ((t.seller_id = $1 AND t.listing_id IS NOT NULL) OR (t.buyer_id = $1 AND t.order_id IS NOT NULL)))::int AS trades_filled,
       (SELECT coalesce(sum(t.total), 0) FROM market_trades t WHERE t.created_at > $3
          AND ((t.seller_id = $1 AND t.listing_id IS NOT NULL) OR (t.buyer_id = $1 AND t.order_id IS NOT NULL)))::bigint AS trade_value,
       (SELECT count(*) FROM news_items n WHERE n.category = 'alliance' AND n.alliance_id = $2 AND n.kind = 'alliance_operation_completed' AND n.created_at > $3)::int
         + (SELECT count(*) FROM alliance_operations o WHERE o.alliance_id = $2 AND o.created_at > $3 AND o.status IN ('planning', 'active'))::int AS alliance_operations,
       (SELECT count(*) FROM alliance_defense_requests r WHERE r.alliance_id = $2 AND r.requester_id <> $1 AND r.requested_at > $3)::int AS defense_requests,
       (SELECT s.rank FROM ranking_snapshots s WHERE s.country_id = $1 AND s.taken_on <= ($3::timestamptz AT TIME ZONE 'UTC')::date
          ORDER BY s.taken_on DESC LIMIT 1) AS rank_before`,
    [reader.countryId, reader.allianceId, since],
  );
  return rows[0]!;
}

/** The reader's personal and alliance items since `since`, newest first. */
export async function awayItems(db: Db, reader: NewsReader, since: Date, limit: number): Promise<Array<NewsRow & { is_read: boolean }>> {
  const { rows } = await db.query<NewsRow & { is_read: boolean }>(
    `SELECT ${NEWS_COLUMNS.split(",")
      .map((c) => `n.${c.trim()}`)
      .join(", ")}, ${IS_READ} AS is_read
       FROM news_items n, ${READER}
      WHERE ((n.category = 'alliance' AND n.alliance_id = rd.alliance_id) OR (n.category = 'personal' AND n.country_id = rd.country_id))
        AND n.created_at > $5
      ORDER BY n.id DESC LIMIT $6`,
    [...readerParams(reader), since, limit],
  );
  return rows;
}
