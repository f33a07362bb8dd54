import type { Db } from "./pool.js";
import { IS_ONLINE_SQL } from "./online.js";
import type { RankSnapshot } from "./rankBoard.js";

/** A ranked country: public fields, the owner's username, its rank now and at today's snapshot. */
export interface RankingDbRow {
  id: number;
  rank: number;
  name: string;
  government_type: string;
  networth: number;
  land: number;
  alliance_id: number | null;
  last_active: Date;
  user_id: number | null;
  username: string | null;
  previous_rank: number | null;
  is_online: boolean;
  is_ai: boolean;
  /** its alliance's name and tag (null outside one), joined here so a ranking is one statement */
  alliance_name: string | null;
  alliance_tag: string | null;
}

/** Who is ranked (spec: networth above 0); eliminated countries are left out. */
const RANKED = "c.networth > 0 AND NOT c.is_eliminated";
/** Today in UTC, the key of the day's snapshot. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

const ROW_COLUMNS = `c.id, c.name, c.government_type, c.networth, c.land, c.alliance_id, c.last_active, c.user_id,
  u.username, s.rank AS previous_rank, ${IS_ONLINE_SQL("c.user_id")} AS is_online, c.is_ai, a.name AS alliance_name, a.tag AS alliance_tag`;
/**
 * Players only (?playersOnly=true): AI countries left out and ranks counted among players.
 * The daily snapshot ranks the whole world, so a players-only row has no previous rank (its
 * change reads "same"): comparing a rank among players with one among everyone would be wrong.
 */
const PLAYERS_ONLY_COLUMNS = ROW_COLUMNS.replace("s.rank AS previous_rank", "NULL::int AS previous_rank");

/** The players-only top-N query ($1 = limit). */
export const TOP_PLAYERS_BY_NETWORTH_SQL = `SELECT ${PLAYERS_ONLY_COLUMNS}
     FROM (SELECT * FROM countries c WHERE ${RANKED} AND NOT c.is_ai ORDER BY c.networth DESC, c.id ASC LIMIT $1) c
     LEFT JOIN users u ON u.id = c.user_id
     LEFT JOIN alliances a ON a.id = c.alliance_id
     LEFT JOIN ranking_snapshots s ON false
     ORDER BY c.networth DESC, c.id ASC`;

/** The top-N query ($1 = limit); exported so tests can EXPLAIN it. */
export const TOP_BY_NETWORTH_SQL = `SELECT ${ROW_COLUMNS}
     FROM (SELECT * FROM countries c WHERE ${RANKED} ORDER BY c.networth DESC, c.id ASC LIMIT $1) c
     LEFT JOIN users u ON u.id = c.user_id
     LEFT JOIN alliances a ON a.id = c.alliance_id
     LEFT JOIN ranking_snapshots s ON s.taken_on = ${TODAY} AND s.country_id = c.id
     ORDER BY c.networth DESC, c.id ASC`;

/**
 * The top `limit` countries by networth, ties by id. Walks countries_networth_rank
 * (networth DESC, id) and stops after `limit` rows, so it costs the same at 100 or 100,000
 * countries (docs/performance.md).
 */
export async function topByNetworth(db: Db, limit: number, playersOnly = false): Promise<RankingDbRow[]> {
  const { rows } = await db.query<Omit<RankingDbRow, "rank">>(playersOnly ? TOP_PLAYERS_BY_NETWORTH_SQL : TOP_BY_NETWORTH_SQL, [limit]);
  return rows.map((row, i) => ({ ...row, rank: i + 1 }));
}

/**
 * One country's row with its rank, or undefined when it is not ranked. The row (its networth
 * included) is read now; its rank is placed on the board (db/rankBoard.ts), which says how many
 * countries stand above that networth without counting them in SQL per request.
 */
export async function rankedCountry(db: Db, countryId: number, board: RankSnapshot, playersOnly = false): Promise<RankingDbRow | undefined> {
  const { rows } = await db.query<Omit<RankingDbRow, "rank">>(
    `SELECT ${playersOnly ? PLAYERS_ONLY_COLUMNS : ROW_COLUMNS}
     FROM countries c
     LEFT JOIN users u ON u.id = c.user_id
     LEFT JOIN alliances a ON a.id = c.alliance_id
     LEFT JOIN ranking_snapshots s ON s.taken_on = ${TODAY} AND s.country_id = c.id
     WHERE c.id = $1 AND ${RANKED}${playersOnly ? " AND NOT c.is_ai" : ""}`,
    [countryId],
  );
  const row = rows[0];
  return row && { ...row, rank: board.rankOf(row.id, row.networth, playersOnly) };
}

/** Snapshots are kept this many days (days). */
const SNAPSHOT_RETENTION_DAYS = 31;

/**
 * Records every ranked country's rank once per UTC day (the first call of the day writes,
 * later ones find the day present and do nothing). @returns whether this call wrote it
 */
export async function ensureDailySnapshot(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM ranking_snapshots WHERE taken_on = ${TODAY}) AS exists`);
  if (rows[0]!.exists) return false;
  await db.query(
    `INSERT INTO ranking_snapshots (taken_on, country_id, rank, networth)
     SELECT ${TODAY}, c.id, row_number() OVER (ORDER BY c.networth DESC, c.id ASC), c.networth
     FROM countries c WHERE ${RANKED}
     ON CONFLICT DO NOTHING`,
  );
  await db.query(`DELETE FROM ranking_snapshots WHERE taken_on < ${TODAY} - ${SNAPSHOT_RETENTION_DAYS}`);
  return true;
}
