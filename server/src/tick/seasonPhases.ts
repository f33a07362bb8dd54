import { ACHIEVEMENTS } from "@game/schema/rules";
import { DAY_MS, type CollapsingPhase, type PeriodicPhase, type TickPhase } from "./tickPhase.js";
import { endSeason } from "../services/seasonLifecycle.js";
import { recordNewsBatch } from "../services/news.js";
import { METRIC_SQL } from "../db/rankingMetrics.js";


/** Daily country snapshots are kept this long (days): the monthly period needs 30. */
export const COUNTRY_SNAPSHOT_RETENTION_DAYS = 35;

/**
 * Once a UTC day: every country's public ranking metrics, the base of the daily, weekly and
 * monthly change in GET /rankings/{metric}. Periodic, so one snapshot per day whatever is
 * retried; ON CONFLICT keeps a day's first values.
 */
export const countrySnapshotPhase: PeriodicPhase = {
  name: "country_snapshots",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run({ client, periodStart }) {
    const day = new Date(periodStart).toISOString().slice(0, 10);
    const inserted = await client.query(
      `INSERT INTO country_snapshots (taken_on, country_id, networth, land, military, population, wars_won)
       SELECT $1::date, c.id, c.networth, c.land, ${METRIC_SQL.military}, c.population, c.victories FROM countries c
       ON CONFLICT DO NOTHING`,
      [day],
    );
    await client.query(`DELETE FROM country_snapshots WHERE taken_on < $1::date - ${COUNTRY_SNAPSHOT_RETENTION_DAYS}`, [day]);
    return inserted.rowCount ?? 0;
  },
};

/**
 * Every tick: awards each achievement (schema ACHIEVEMENTS) a country of the active season
 * has reached and does not hold, with its personal news. The primary key (country, season,
 * achievement) makes a second run for the same tick award nothing.
 */
export const achievementsPhase: CollapsingPhase = {
  name: "achievements",
  catchUp: "collapse",
  async run(ctx) {
    const { rows: seasons } = await ctx.client.query<{ id: number }>("SELECT id FROM seasons WHERE is_active");
    const season = seasons[0];
    if (!season) return 0;
    const branches = ACHIEVEMENTS.map(
      (a, i) => `SELECT c.id AS country_id, $${i + 2}::text AS achievement_id FROM countries c WHERE NOT c.is_eliminated AND ${METRIC_SQL[a.metric]} >= ${Number(a.threshold)}`,
    );
    const { rows } = await ctx.client.query<{ country_id: number; achievement_id: string }>(
      `INSERT INTO achievements (country_id, season_id, achievement_id, awarded_at)
       SELECT e.country_id, $1, e.achievement_id, to_timestamp(${Number(ctx.at)} / 1000.0) FROM (${branches.join(" UNION ALL ")}) e
       ON CONFLICT DO NOTHING RETURNING country_id, achievement_id`,
      [season.id, ...ACHIEVEMENTS.map((a) => a.id)],
    );
    if (rows.length === 0) return 0;
    await recordNewsBatch(
      { client: ctx.client, emit: ctx.emit, now: new Date(ctx.at) },
      rows.map((row) => {
        const a = ACHIEVEMENTS.find((x) => x.id === row.achievement_id)!;
        return {
          kind: "achievement_unlocked" as const,
          params: { achievement: a.id, name: a.name, description: a.description, rarity: a.rarity },
          countryId: row.country_id,
          dedupeKey: `achievement:${season.id}:${row.country_id}:${a.id}`,
        };
      }),
    );
    return rows.length;
  },
};

/**
 * The season's end: after a tick commits, if the active season's end has passed, it ends
 * (scores archived, countries reset, news) and the next starts (services/seasonLifecycle.ts).
 * A sweep of durable state: the active season row decides, so a second run, another process
 * or a crash before it changes nothing / is repaired by the next tick.
 */
export const seasonEndPhase: CollapsingPhase = {
  name: "season_end",
  catchUp: "collapse",
  async run() {
    return 0;
  },
  async afterCommit(ctx) {
    await endSeason(ctx, { now: Date.now(), startNext: true, onlyIfDue: true });
  },
};

/** The phases of the seasons and rankings work, in order. */
export const SEASON_TICK_PHASES: readonly TickPhase[] = [countrySnapshotPhase, achievementsPhase, seasonEndPhase];
