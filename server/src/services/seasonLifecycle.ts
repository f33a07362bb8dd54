import { COUNTRY_FIELDS } from "@game/schema/api";
import { computeNetworth, computeSeasonEnd, nextSeasonName, startingCountry, type CountryState } from "@game/schema/rules";
import type { ServiceContext } from "./context.js";
import { WORLD_TOPIC, type EventTopic, type GameEvent, type TopicEvent } from "../events.js";
import { withTransaction, type DbClient } from "../db/pool.js";
import { archiveSeasonScores, archivedScores, endSeasonRow, insertSeason, lockActiveSeason, lockAllCountries, resetWorld, seasonNames, type SeasonRow } from "../db/seasons.js";
import { retryLockConflicts } from "./actions.js";
import { recordNews } from "./news.js";

/** Ending and starting seasons serialize on one advisory lock (every process). */
const SEASON_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext('season-lifecycle'))";

/** What the season lifecycle needs: the tick's context satisfies it. */
export type SeasonContext = Pick<ServiceContext, "config" | "db" | "logger" | "events" | "metrics">;

/**
 * The starting state as column values (the columns registration writes), without the
 * government: a player keeps the government they chose (docs/rules.md, "Seasons").
 */
export function startingColumns(): Record<string, unknown> {
  const state = startingCountry();
  const columns: Record<string, unknown> = {};
  for (const field of COUNTRY_FIELDS) {
    if (!field.state || field.key === "government_type") continue;
    let value: unknown = state;
    for (const key of field.state.split(".")) value = (value as Record<string, unknown>)[key];
    columns[field.key] = value;
  }
  columns.networth = computeNetworth(state as CountryState);
  return columns;
}

export interface SeasonChange {
  ended: SeasonRow | null;
  started: SeasonRow | null;
  archived: number;
  reset: number;
}

/**
 * Ends the active season: archives its final scores, puts every country back at the start,
 * records the news, and (startNext) starts the next season of `config.seasonLengthDays`.
 * One transaction that first locks the active season row, then every country in id order (the
 * order actions lock in) before the archive reads or references any, so two processes (two
 * ticks, a tick and an administrator) never both end it: the second finds no active season,
 * (onlyIfDue) one not yet due, or (seasonId) another season than the one it was asked to end,
 * and does nothing. A deadlock or serialization failure (the tick's set-wide UPDATE can still
 * meet it) runs the whole transaction again, as every multi-row action does (retryLockConflicts).
 */
export async function endSeason(ctx: SeasonContext, options: { now: number; startNext: boolean; onlyIfDue: boolean; seasonId?: number }): Promise<SeasonChange> {
  let events: TopicEvent[] = [];
  const emit = <E extends GameEvent>(topic: EventTopic<E>, event: E) => events.push({ topic: topic as EventTopic<GameEvent>, event });
  const change = await retryLockConflicts(ctx, "end_season", () => {
    events = [];
    return withTransaction(ctx.db, (client) => endSeasonIn(client, ctx, options, emit));
  });
  ctx.events.publishAll(events);
  if (change.ended) ctx.logger.info({ season: change.ended.name, archived: change.archived, reset: change.reset, next: change.started?.name }, "season ended");
  return change;
}

async function endSeasonIn(
  client: DbClient,
  ctx: SeasonContext,
  options: { now: number; startNext: boolean; onlyIfDue: boolean; seasonId?: number },
  emit: <E extends GameEvent>(topic: EventTopic<E>, event: E) => void,
): Promise<SeasonChange> {
  await client.query(SEASON_LOCK_SQL);
  const season = await lockActiveSeason(client);
  if (!season || (options.onlyIfDue && options.now < season.ends_at.getTime())) return { ended: null, started: null, archived: 0, reset: 0 };
  if (options.seasonId !== undefined && season.id !== options.seasonId) return { ended: null, started: null, archived: 0, reset: 0 };
  const at = new Date(options.now);
  await lockAllCountries(client);
  const archived = await archiveSeasonScores(client, season.id);
  const [winner] = await archivedScores(client, season.id, 1);
  const protectedUntil = new Date(options.now + ctx.config.newPlayerProtectionHours * 3_600_000);
  const reset = await resetWorld(client, startingColumns(), at, protectedUntil);
  await endSeasonRow(client, season.id, at);
  const tx = { client, emit, now: at };
  await recordNews(tx, {
    kind: "season_ended",
    params: { season: season.name, winner: winner && winner.country_id ? { id: winner.country_id, name: winner.country_name } : null, winnerNetworth: winner?.networth ?? 0, players: archived },
    dedupeKey: `season_ended:${season.id}`,
  });
  const started = options.startNext ? await startSeasonIn(client, ctx, options.now, tx) : null;
  emit(WORLD_TOPIC, { type: "seasonChanged" });
  return { ended: season, started, archived, reset };
}

/** Starts a season when none is active. @returns it, or null when one is active already */
export async function startSeason(ctx: SeasonContext, now: number): Promise<SeasonRow | null> {
  const events: TopicEvent[] = [];
  const emit = <E extends GameEvent>(topic: EventTopic<E>, event: E) => events.push({ topic: topic as EventTopic<GameEvent>, event });
  const started = await withTransaction(ctx.db, async (client) => {
    await client.query(SEASON_LOCK_SQL);
    if (await lockActiveSeason(client)) return null;
    const row = await startSeasonIn(client, ctx, now, { client, emit, now: new Date(now) });
    emit(WORLD_TOPIC, { type: "seasonChanged" });
    return row;
  });
  ctx.events.publishAll(events);
  return started;
}

async function startSeasonIn(client: DbClient, ctx: SeasonContext, now: number, tx: { client: DbClient; emit: <E extends GameEvent>(topic: EventTopic<E>, event: E) => void; now: Date }): Promise<SeasonRow> {
  const name = nextSeasonName(await seasonNames(client));
  const row = await insertSeason(client, { name, startsAt: new Date(now), endsAt: new Date(computeSeasonEnd(now, ctx.config.seasonLengthDays)) });
  await recordNews(tx, { kind: "season_started", params: { season: row.name, endsAt: row.ends_at.getTime() }, dedupeKey: `season_started:${row.id}` });
  return row;
}
