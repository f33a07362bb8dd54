import type { Db, DbClient } from "./pool.js";

export interface SeasonRow {
  id: number;
  name: string;
  starts_at: Date;
  ends_at: Date;
  is_active: boolean;
}

/** The active season, else the most recent one. */
export async function findCurrentSeason(db: Db): Promise<SeasonRow | undefined> {
  const { rows } = await db.query<SeasonRow>("SELECT id, name, starts_at, ends_at, is_active FROM seasons ORDER BY is_active DESC, starts_at DESC, id DESC LIMIT 1");
  return rows[0];
}

/** Creates an active season; a concurrent creator wins on seasons_one_active and we read theirs. */
export async function insertActiveSeason(db: Db, season: { name: string; startsAt: Date; endsAt: Date }): Promise<void> {
  await db.query(
    `INSERT INTO seasons (name, starts_at, ends_at, is_active) VALUES ($1, $2, $3, true)
     ON CONFLICT (is_active) WHERE is_active DO NOTHING`,
    [season.name, season.startsAt, season.endsAt],
  );
}

/** The spec's season stats counted over all countries. */
export interface SeasonStatsRow {
  total_players: number;
  /** countries the rankings list (networth above 0, not eliminated; RANKED in rankingMetrics.ts), AI included */
  ranked_countries: number;
  /** the same without AI countries (the rankings' players-only switch) */
  ranked_players: number;
  active_alliances: number;
  wars_total: number;
}

export async function seasonStats(db: Db): Promise<SeasonStatsRow> {
  const { rows } = await db.query<SeasonStatsRow>(
    `SELECT count(*) FILTER (WHERE NOT is_ai)::int AS total_players,
            count(*) FILTER (WHERE networth > 0)::int AS ranked_countries,
            count(*) FILTER (WHERE networth > 0 AND NOT is_ai)::int AS ranked_players,
            count(DISTINCT alliance_id)::int AS active_alliances,
            coalesce(sum(victories), 0)::int AS wars_total
     FROM countries WHERE NOT is_eliminated`,
  );
  return rows[0]!;
}

/** The active season's id, if a season is running (read without a lock). */
export async function findActiveSeasonId(db: Db): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>("SELECT id FROM seasons WHERE is_active");
  return rows[0]?.id;
}

/**
 * Locks every country in ascending id order, the order every action locks in. The season's end
 * takes these locks before anything else touches countries: the archive's INSERT used to take
 * key-share locks (its foreign key) in ranking order first, which deadlocked with actions
 * locking in id order (5 of 5 administrator season ends under load answered 500).
 */
export async function lockAllCountries(db: DbClient): Promise<void> {
  await db.query("SELECT id FROM countries ORDER BY id FOR UPDATE");
}

/** Locks the active season row (season rollover and administration serialize on it). */
export async function lockActiveSeason(db: Db | DbClient): Promise<SeasonRow | undefined> {
  const { rows } = await db.query<SeasonRow>("SELECT id, name, starts_at, ends_at, is_active FROM seasons WHERE is_active FOR UPDATE");
  return rows[0];
}

export async function seasonNames(db: Db | DbClient): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM seasons ORDER BY id");
  return rows.map((r) => r.name);
}

/** Archives the final ranking (networth above 0, not eliminated) of a season. @returns rows archived */
export async function archiveSeasonScores(db: DbClient, seasonId: number): Promise<number> {
  const result = await db.query(
    `INSERT INTO season_scores (season_id, rank, country_id, country_name, player_name, alliance_tag, networth, land, victories)
     SELECT $1, row_number() OVER (ORDER BY c.networth DESC, c.id ASC), c.id, c.name, CASE WHEN c.is_ai THEN c.name ELSE coalesce(u.username, '') END,
            coalesce(a.tag, ''), c.networth, c.land, c.victories
       FROM countries c
       LEFT JOIN users u ON u.id = c.user_id
       LEFT JOIN alliances a ON a.id = c.alliance_id AND a.disbanded_at IS NULL
      WHERE c.networth > 0 AND NOT c.is_eliminated
     ON CONFLICT DO NOTHING`,
    [seasonId],
  );
  return result.rowCount ?? 0;
}

export async function endSeasonRow(db: DbClient, seasonId: number, at: Date): Promise<void> {
  await db.query("UPDATE seasons SET is_active = false, ended_at = $2, ends_at = LEAST(ends_at, GREATEST($2, starts_at + interval '1 millisecond')) WHERE id = $1", [seasonId, at]);
}

export async function insertSeason(db: DbClient, season: { name: string; startsAt: Date; endsAt: Date }): Promise<SeasonRow> {
  const { rows } = await db.query<SeasonRow>("INSERT INTO seasons (name, starts_at, ends_at, is_active) VALUES ($1, $2, $3, true) RETURNING id, name, starts_at, ends_at, is_active", [season.name, season.startsAt, season.endsAt]);
  return rows[0]!;
}

/**
 * Every domain back to the starting line at a season's end (docs/rules.md, "Seasons"):
 * countries take the starting state (`starting` holds the column values; name, government,
 * alliance and account kept), open market listings and standing orders are cancelled without
 * returning escrow (the goods belong to the old season), running wars end ('season_end'),
 * pending strikes are cancelled, rehabilitation and brigades cleared, alliance operations
 * cancelled and defence requests and commitments expired, spy reports expired and the day's
 * operation counts cleared, and the ranking snapshots dropped
 * so no change is measured across the reset. @returns countries reset
 */
export async function resetWorld(db: DbClient, starting: Record<string, unknown>, at: Date, protectedUntil: Date): Promise<number> {
  const columns = Object.keys(starting);
  const values = Object.values(starting);
  const assignments = columns.map((column, i) => `${column} = $${i + 1}`);
  const n = values.length;
  const reset = await db.query(
    `UPDATE countries SET ${assignments.join(", ")},
       victories = 0, defeats = 0, total_battles = 0, total_land_captured = 0, combat_efficiency = 100, war_expenses = 0,
       is_eliminated = false, gdi_protection = false, protected_until = $${n + 1}, updated_at = $${n + 2}`,
    [...values, protectedUntil, at],
  );
  await db.query("UPDATE market_listings SET status = 'cancelled', held_quantity = 0, closed_at = $1 WHERE status = 'open'", [at]);
  await db.query("UPDATE standing_orders SET status = 'cancelled', held_cash = 0, closed_at = $1 WHERE status IN ('pending', 'active', 'partial')", [at]);
  await db.query("UPDATE war_declarations SET ended_at = $1, end_reason = 'season_end' WHERE ended_at IS NULL", [at]);
  await db.query("UPDATE strikes SET state = 'cancelled', failure = 'The season ended', finished_at = $1 WHERE state = 'pending'", [at]);
  await db.query("DELETE FROM rehabilitation");
  await db.query("DELETE FROM brigades");
  await db.query("UPDATE alliance_operations SET status = 'cancelled' WHERE status IN ('planning', 'active')");
  await db.query("UPDATE alliance_defense_requests SET expires_at = $1 WHERE expires_at > $1", [at]);
  await db.query("UPDATE alliance_defense_responses SET commitment_expires_at = $1 WHERE commitment_expires_at > $1", [at]);
  // espionage: reports describe the old season's countries (expired, kept as history); today's operation counts start again
  await db.query("UPDATE spy_reports SET expires_at = $1 WHERE expires_at > $1", [at]);
  await db.query("DELETE FROM spy_daily_counters");
  await db.query("DELETE FROM ranking_snapshots");
  await db.query("DELETE FROM country_snapshots");
  return reset.rowCount ?? 0;
}

/** An archived season with its final scores (GET /season/scores?season=). */
export interface SeasonScoreRow {
  rank: number;
  country_id: number | null;
  country_name: string;
  player_name: string;
  alliance_tag: string;
  networth: number;
  land: number;
  victories: number;
}

export async function findSeasonById(db: Db, id: number): Promise<(SeasonRow & { ended_at: Date | null }) | undefined> {
  const { rows } = await db.query<SeasonRow & { ended_at: Date | null }>("SELECT id, name, starts_at, ends_at, is_active, ended_at FROM seasons WHERE id = $1", [id]);
  return rows[0];
}

export async function archivedScores(db: Db | DbClient, seasonId: number, limit: number): Promise<SeasonScoreRow[]> {
  const { rows } = await db.query<SeasonScoreRow>("SELECT rank, country_id, country_name, player_name, alliance_tag, networth, land, victories FROM season_scores WHERE season_id = $1 ORDER BY rank LIMIT $2", [seasonId, limit]);
  return rows;
}

/** Seasons that ended, newest first, with their winner and size. */
export interface PastSeasonRow {
  id: number;
  name: string;
  starts_at: Date;
  ended_at: Date;
  players: number;
  winner_name: string | null;
  winner_player: string | null;
  winner_networth: number | null;
}

export async function pastSeasons(db: Db, limit: number): Promise<PastSeasonRow[]> {
  const { rows } = await db.query<PastSeasonRow>(
    `SELECT s.id, s.name, s.starts_at, coalesce(s.ended_at, s.ends_at) AS ended_at,
            (SELECT count(*)::int FROM season_scores x WHERE x.season_id = s.id) AS players,
            w.country_name AS winner_name, w.player_name AS winner_player, w.networth AS winner_networth
       FROM seasons s LEFT JOIN season_scores w ON w.season_id = s.id AND w.rank = 1
      WHERE NOT s.is_active ORDER BY s.starts_at DESC, s.id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

/** One row of the season chart: a country's snapshot on one day, with its rank that day. */
export interface SeasonPointRow {
  country_id: number;
  name: string;
  taken_on: string;
  networth: number;
  land: number;
  rank: number;
}

/**
 * The daily snapshots (country_snapshots) since `from` of the country $1 and of today's top
 * `topN` by networth, each with its rank that day among the day's snapshots (networth, ties by
 * id; countries without networth are not ranked), oldest first.
 */
export async function seasonPoints(db: Db, countryId: number, from: Date, topN: number): Promise<SeasonPointRow[]> {
  const { rows } = await db.query<SeasonPointRow>(
    `WITH ranked AS (
       SELECT s.taken_on, s.country_id, s.networth, s.land,
              row_number() OVER (PARTITION BY s.taken_on ORDER BY s.networth DESC, s.country_id)::int AS rank
         FROM country_snapshots s
        WHERE s.networth > 0 AND s.taken_on >= ($2::timestamptz AT TIME ZONE 'UTC')::date),
     shown AS (
       SELECT $1::bigint AS id
       UNION SELECT id FROM (SELECT c.id FROM countries c WHERE c.networth > 0 AND NOT c.is_eliminated ORDER BY c.networth DESC, c.id LIMIT $3) t)
     SELECT r.country_id, c.name, to_char(r.taken_on, 'YYYY-MM-DD') AS taken_on, r.networth, r.land, r.rank
       FROM ranked r JOIN shown ON shown.id = r.country_id JOIN countries c ON c.id = r.country_id
      ORDER BY r.taken_on, r.rank`,
    [countryId, from, topN],
  );
  return rows;
}
