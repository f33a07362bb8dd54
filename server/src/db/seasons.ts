import type { Db } from "./pool.js";

export interface SeasonRow {
  id: number;
  name: string;
  starts_at: Date;
  ends_at: Date;
  is_active: boolean;
}

/** The active season, else the most recent one. */
export async function findCurrentSeason(db: Db): Promise<SeasonRow | undefined> {
  const { rows } = await db.query<SeasonRow>(
    "SELECT id, name, starts_at, ends_at, is_active FROM seasons ORDER BY is_active DESC, starts_at DESC, id DESC LIMIT 1",
  );
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
  active_alliances: number;
  wars_total: number;
}

export async function seasonStats(db: Db): Promise<SeasonStatsRow> {
  const { rows } = await db.query<SeasonStatsRow>(
    `SELECT count(*) FILTER (WHERE NOT is_ai)::int AS total_players,
            count(DISTINCT alliance_id)::int AS active_alliances,
            coalesce(sum(victories), 0)::int AS wars_total
     FROM countries WHERE NOT is_eliminated`,
  );
  return rows[0]!;
}
