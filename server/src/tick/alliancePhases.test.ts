import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { computeNetworth } from "@game/schema/rules";
import { loadConfig } from "../config.js";
import { runMigrations } from "../db/migrate.js";
import { COUNTRY_COLUMNS, rowToState } from "../db/countries.js";
import { createTestDatabase } from "../test/harness.js";
import { tickDueAt, tickNumberAt } from "../turnClock.js";
import { TICK_PHASES } from "./phases.js";
import { DAY_MS } from "./tickPhase.js";
import { insertCountries, tickContext } from "./testSupport.js";
import { ensureGameClock, runDueTicks, runTick } from "./turnTick.js";

/** 20 minutes, the game's default: 72 ticks a day. */
const INTERVAL_MS = 1_200_000;

function tickAt(day: number, hours: number, minutes = 0): number {
  return tickNumberAt(day * DAY_MS + (hours * 60 + minutes) * 60_000, INTERVAL_MS);
}
const timeOf = (tick: number) => new Date(tickDueAt(tick, INTERVAL_MS));

describe("alliance and diplomacy tick phases (real Postgres)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const config = loadConfig({ turnIntervalMs: INTERVAL_MS, tickEnabled: true, logLevel: "silent" });
  const sql = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(8);
    await runMigrations(pool);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });
  beforeEach(async () => {
    await pool.query(
      `TRUNCATE turn_ticks, game_clock, tick_phase_periods, diplomatic_relations, diplomatic_proposals, alliance_point_ledger,
         alliance_bonus_purchases, alliance_invitations, alliance_applications, alliance_operation_participants, alliance_operations,
         alliance_members, turn_results, chat_messages CASCADE;
       DELETE FROM countries; DELETE FROM alliances`,
    );
  });

  const cashOf = async (id: number) => Number((await sql("SELECT cash FROM countries WHERE id = $1", [id]))[0].cash);
  const relate = async (type: string, from: number, to: number, establishedAt: Date) =>
    (
      await sql(
        `INSERT INTO diplomatic_relations (relation_type, from_country_id, to_country_id, established_at, can_cancel_after, daily_cost)
         VALUES ($1, $2, $3, $4, $4, (CASE $1 WHEN 'defensive' THEN 100 WHEN 'offensive' THEN 150 WHEN 'intelligence' THEN 75 WHEN 'research' THEN 200 ELSE 50 END)) RETURNING id`,
        [type, from, to, establishedAt],
      )
    )[0].id as number;
  const alliance = async (tag: string) => (await sql("INSERT INTO alliances (name, name_key, tag, flag_background, flag_symbol, flag_symbol_color) VALUES ($1, lower($1), $1, '#000000', '⚔', '#ffffff') RETURNING id", [tag]))[0].id as number;
  const join = async (countryId: number, allianceId: number, role = "member", credited: number[] = []) => {
    await sql("UPDATE countries SET alliance_id = $2 WHERE id = $1", [countryId, allianceId]);
    await sql("INSERT INTO alliance_members (country_id, alliance_id, role, research_credited) VALUES ($1, $2, $3, $4)", [countryId, allianceId, role, credited]);
  };

  it("charges each payer a relation's daily cost once per day, across a retried tick and a catch-up over midnight", async () => {
    const ctx = tickContext(pool, config);
    const [a, b, c] = await insertCountries(pool, 3, 10, 0, "dip");
    const day = 20_000;
    await relate("defensive", a!, b!, timeOf(tickAt(day - 1, 12)));
    // A trade agreement is paid by its holder only.
    await relate("trade", c!, a!, timeOf(tickAt(day - 1, 12)));
    const n = tickAt(day, 9);
    await runTick(ctx, n);
    expect([await cashOf(a!), await cashOf(b!), await cashOf(c!)]).toEqual([100_000 - 100, 100_000 - 100, 100_000 - 50]);
    // The same tick again, and another tick the same day: nothing more.
    await runTick(ctx, n);
    await runTick(ctx, n + 1);
    expect([await cashOf(a!), await cashOf(b!), await cashOf(c!)]).toEqual([100_000 - 100, 100_000 - 100, 100_000 - 50]);
    // Down from 23:00 to 00:20 two days later: two midnights, two charges, in one catch-up.
    await ensureGameClock(pool, tickDueAt(n, INTERVAL_MS));
    await runDueTicks(ctx, tickAt(day, 23));
    const caught = await runDueTicks(ctx, tickAt(day + 2, 0, 20));
    expect(caught.phases.diplomacy_daily_costs).toBeGreaterThan(0);
    expect([await cashOf(a!), await cashOf(b!), await cashOf(c!)]).toEqual([100_000 - 300, 100_000 - 300, 100_000 - 150]);
    const relation = (await sql("SELECT total_paid, status FROM diplomatic_relations WHERE relation_type = 'defensive'"))[0];
    expect(relation).toMatchObject({ total_paid: 600, status: "active" });
    // Networth follows cash through the shared rule.
    const row = (await sql(`SELECT ${COUNTRY_COLUMNS} FROM countries WHERE id = $1`, [a]))[0];
    expect(row.networth).toBe(computeNetworth(rowToState(row)));
    // Rankings and summaries hear about it.
    expect(ctx.events.published.some((p) => p.topic.name === `country:${a}` && p.event.type === "countryChanged")).toBe(true);
  });

  it("a relation its payer cannot afford ends, nobody pays it, both parties are told", async () => {
    const ctx = tickContext(pool, config);
    const [a, b] = await insertCountries(pool, 2, 10, 0, "poor");
    await sql("UPDATE countries SET cash = 150 WHERE id = $1", [a]);
    const day = 21_000;
    const defensive = await relate("defensive", a!, b!, timeOf(tickAt(day - 2, 1)));
    const research = await relate("research", a!, b!, timeOf(tickAt(day - 1, 1)));
    await runTick(ctx, tickAt(day, 0, 20));
    // a pays the older defensive pact (100 of its 150); the research pact (200 more) lapses.
    expect(await cashOf(a!)).toBe(50);
    expect(await cashOf(b!)).toBe(100_000 - 100);
    const status = Object.fromEntries((await sql("SELECT id, status FROM diplomatic_relations")).map((r) => [r.id, r.status]));
    expect(status).toEqual({ [defensive]: "active", [research]: "expired" });
    const lapsed = ctx.events.published
      .filter((p) => p.event.type === "notice" && p.event.notice.kind === "diplomacy_lapsed")
      .map((p) => p.topic.name)
      .sort();
    expect(lapsed).toEqual([`country:${a}`, `country:${b}`].sort());
  });

  it("a relation established during the day is first charged the next day", async () => {
    const ctx = tickContext(pool, config);
    const [a, b] = await insertCountries(pool, 2, 10, 0, "new");
    const day = 22_000;
    await relate("intelligence", a!, b!, timeOf(tickAt(day, 10)));
    await runTick(ctx, tickAt(day, 11));
    expect(await cashOf(a!)).toBe(100_000);
    await runTick(ctx, tickAt(day + 1, 0));
    expect(await cashOf(a!)).toBe(100_000 - 75);
  });

  it("invitations, applications and proposals expire after 3 days; stale operations are cancelled", async () => {
    const ctx = tickContext(pool, config);
    const [o, x, y] = await insertCountries(pool, 3, 10, 0, "exp");
    const al = await alliance("EXP");
    await join(o!, al, "owner");
    const day = 23_000;
    const sent = timeOf(tickAt(day, 10));
    const expires = new Date(sent.getTime() + 3 * DAY_MS);
    await sql("INSERT INTO alliance_invitations (alliance_id, target_country_id, invited_by_name, expires_at, sent_at) VALUES ($1, $2, 'o', $3, $4)", [al, x, expires, sent]);
    await sql("INSERT INTO alliance_applications (alliance_id, applicant_country_id, expires_at, applied_at) VALUES ($1, $2, $3, $4)", [al, y, expires, sent]);
    await sql("INSERT INTO diplomatic_proposals (from_country_id, to_country_id, relation_type, expires_at, proposed_at) VALUES ($1, $2, 'defensive', $3, $4)", [x, y, expires, sent]);
    const op = (
      await sql(
        `INSERT INTO alliance_operations (alliance_id, name, operation_type, target_country_id, target_name, initiator_name, scheduled_for, min_participants, max_participants, min_total_force)
         VALUES ($1, 'Old plan', 'reconnaissance', $2, 't', 'o', $3, 1, 2, 0) RETURNING id`,
        [al, x, sent],
      )
    )[0].id;
    await runTick(ctx, tickAt(day + 3, 9, 40));
    expect((await sql("SELECT status FROM alliance_invitations"))[0].status).toBe("pending");
    expect((await sql("SELECT status FROM alliance_operations"))[0].status).toBe("cancelled");
    await runTick(ctx, tickAt(day + 3, 10));
    expect((await sql("SELECT status FROM alliance_invitations"))[0].status).toBe("expired");
    expect((await sql("SELECT status FROM alliance_applications"))[0].status).toBe("expired");
    expect((await sql("SELECT status FROM diplomatic_proposals"))[0].status).toBe("expired");
    const events = ctx.events.published.map((p) => [p.topic.name, p.event.type]);
    expect(events).toContainEqual([`alliance:${al}`, "leadershipQueueChanged"]);
    expect(events).toContainEqual([`alliance:${al}`, "operationChanged"]);
    expect(ctx.events.published.find((p) => p.event.type === "operationChanged")!.event).toMatchObject({ operation: { id: op, status: "cancelled" } });
  });

  it("announces a temporary bonus's end once", async () => {
    const ctx = tickContext(pool, config);
    const al = await alliance("BON");
    const day = 24_000;
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_at, expires_at, purchased_by_name) VALUES ($1, 'war_preparations', 1, 200, $2, $3, 'o')", [
      al,
      timeOf(tickAt(day - 1, 12)),
      timeOf(tickAt(day, 12)),
    ]);
    await runTick(ctx, tickAt(day, 11, 40));
    expect(ctx.events.published.filter((p) => p.event.type === "allianceChanged")).toHaveLength(0);
    await runTick(ctx, tickAt(day, 12));
    await runTick(ctx, tickAt(day, 12, 20));
    expect(ctx.events.published.filter((p) => p.event.type === "allianceChanged").map((p) => (p.event as { reason: string }).reason)).toEqual(["bonus_ended"]);
    expect((await sql("SELECT content FROM chat_messages WHERE alliance_scope = $1", [al])).map((r) => r.content)).toEqual(["War Preparations has ended"]);
  });

  it("credits daily activity and research milestones once per day, for the day that ended", async () => {
    const ctx = tickContext(pool, config);
    const [busy, idle, scholar] = await insertCountries(pool, 3, 10, 0, "pts");
    const al = await alliance("PTS");
    await join(busy!, al, "owner");
    await join(idle!, al);
    // Joined with military tech 2 and agricultural 0: credited already.
    await sql("UPDATE countries SET military_tech = 2 WHERE id = $1", [scholar]);
    await join(scholar!, al, "member", [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const day = 25_000;
    const during = timeOf(tickAt(day - 1, 15));
    // busy did 7 things yesterday; idle nothing (and its last action was long ago).
    for (let i = 0; i < 7; i++) await sql("INSERT INTO turn_results (country_id, action_type, created_at, result) VALUES ($1, 'explore', $2, '{}')", [busy, during]);
    await sql("UPDATE countries SET last_active = $2 WHERE id = $1", [idle, timeOf(tickAt(day - 5, 1))]);
    await sql("UPDATE countries SET last_active = $2 WHERE id = $1", [busy, during]);
    // scholar reached military 4 and agricultural 1 yesterday (acted once).
    await sql("UPDATE countries SET military_tech = 4, agricultural_tech = 1, last_active = $2 WHERE id = $1", [scholar, during]);

    await runTick(ctx, tickAt(day, 0, 20));
    await runTick(ctx, tickAt(day, 0, 20));
    await runTick(ctx, tickAt(day, 6));
    const ledger = await sql("SELECT country_id, source, points FROM alliance_point_ledger ORDER BY country_id, source");
    // busy: 4 + 7 = 11; scholar: active 5, levels military 3 and 4 and agricultural 1: 35 + 40 + 25.
    expect(ledger).toEqual([
      { country_id: busy, source: "daily_activity", points: 11 },
      { country_id: scholar, source: "daily_activity", points: 5 },
      { country_id: scholar, source: "research", points: 100 },
    ]);
    expect((await sql("SELECT bonus_points, points_earned FROM alliances WHERE id = $1", [al]))[0]).toEqual({ bonus_points: 116, points_earned: 116 });
    expect((await sql("SELECT points_contributed FROM alliance_members WHERE country_id = $1", [scholar]))[0].points_contributed).toBe(105);
    // The next day the same levels earn nothing more.
    await runTick(ctx, tickAt(day + 1, 0, 20));
    expect((await sql("SELECT count(*)::int AS n FROM alliance_point_ledger WHERE source = 'research'"))[0].n).toBe(1);
  });

  it("is part of the tick's declared phases, after turns", () => {
    const names = TICK_PHASES.map((p) => p.name);
    expect(names.indexOf("turns")).toBe(0);
    expect(names).toEqual(expect.arrayContaining(["alliance_expiries", "diplomacy_daily_costs", "alliance_daily_points"]));
  });
});
