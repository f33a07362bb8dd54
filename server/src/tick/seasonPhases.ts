import { ACHIEVEMENTS } from "@game/schema/rules";
import { DAY_MS, type CollapsingPhase, type PeriodicPhase, type TickPhase } from "./tickPhase.js";
import { endSeason } from "../services/seasonLifecycle.js";
import { recordNewsBatch } from "../services/news.js";
import { activeSeasonId, awardReachedAchievements, takeCountrySnapshots } from "../db/rankingMetrics.js";

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
    return takeCountrySnapshots(client, new Date(periodStart).toISOString().slice(0, 10), COUNTRY_SNAPSHOT_RETENTION_DAYS);
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
    const season = await activeSeasonId(ctx.client);
    if (season === undefined) return 0;
    const rows = await awardReachedAchievements(ctx.client, season, ACHIEVEMENTS, new Date(ctx.at));
    if (rows.length === 0) return 0;
    await recordNewsBatch(
      { client: ctx.client, emit: ctx.emit, now: new Date(ctx.at) },
      rows.map((row) => {
        const a = ACHIEVEMENTS.find((x) => x.id === row.achievement_id)!;
        return {
          kind: "achievement_unlocked" as const,
          params: { achievement: a.id, name: a.name, description: a.description, rarity: a.rarity },
          countryId: row.country_id,
          dedupeKey: `achievement:${season}:${row.country_id}:${a.id}`,
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
