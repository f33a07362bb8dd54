import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIDENCE_SPREAD, DAILY_OPS_LIMIT, computeSpyDefense, forceRatio, missionChance, utcDay, withSpyBonus } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { auditTotals, conservationErrors } from "../db/audit.js";
import { resetDailyCounters } from "../db/espionage.js";
import { resetWorld } from "../db/seasons.js";
import { knownIntelligence } from "../db/knownIntelligence.js";
import { AppError } from "../errors.js";
import { launchMission } from "../services/espionage.js";
import { spyDailyResetPhase } from "../tick/espionagePhases.js";

/**
 * Espionage against a real Postgres: reports carry the target's real numbers (within the
 * confidence's spread), other players cannot read them, the daily cap holds under races and
 * resets at midnight UTC, detection reaches the target live, and spies are conserved.
 */

let t: TestServer;
type Player = Awaited<ReturnType<typeof registerPlayer>>;
let spy: Player;
let target: Player;
let stranger: Player;
const clients: WorldTestClient[] = [];

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const set = (id: number, values: Record<string, number | string>) =>
  sql(
    `UPDATE countries SET ${Object.keys(values)
      .map((k, i) => `${k} = $${i + 2}`)
      .join(", ")} WHERE id = $1`,
    [id, ...Object.values(values)],
  );
const row = async (id: number) => (await sql("SELECT * FROM countries WHERE id = $1", [id])).rows[0];

/**
 * What the turns spent by a country's espionage actions produced, from their turn results: the
 * documented change of cash, food, oil and units (every operation, mission and training runs
 * the economy once per turn spent).
 */
async function economyLedger(countryId: number): Promise<{ cash: number; food: number; oil: number; troops: number; jets: number; turrets: number; tanks: number }> {
  const { rows } = await sql("SELECT result FROM turn_results WHERE country_id = $1 AND action_type = 'espionage'", [countryId]);
  const ledger = { cash: 0, food: 0, oil: 0, troops: 0, jets: 0, turrets: 0, tanks: 0 };
  for (const { result } of rows) {
    ledger.cash += result.economicEffects.netCashChange;
    ledger.food += result.economicEffects.netFoodChange;
    ledger.oil += result.economicEffects.netOilChange;
    for (const u of ["troops", "jets", "turrets", "tanks"] as const) ledger[u] += result.militaryProduced[u];
  }
  return ledger;
}

beforeAll(async () => {
  t = await startTestServer();
  [spy, target, stranger] = await Promise.all([registerPlayer(t, "espy"), registerPlayer(t, "etgt"), registerPlayer(t, "estr")]);
  await set(spy.countryId, { spies: 500, land: 2000, turns: 150 });
  await set(target.countryId, { spies: 40, land: 3000, troops: 12_345, jets: 678, turrets: 910, tanks: 111, population: 54_321, oil: 50_000, farms: 200 });
});
afterAll(async () => {
  for (const c of clients) await c.leave();
  await t?.close();
});

const mission = (p: Player, body: object) => t.api("POST", "/intelligence/missions", body, p.token);

describe("reports reveal the target's real numbers", () => {
  it("a military mission's estimates are within its confidence's spread of the real state at that moment, and the preview then uses them", async () => {
    const real = await row(target.countryId);
    let report: any;
    // the spec's formula keeps a military mission near 20% here: try until one succeeds
    for (let i = 0; i < 100 && !report; i++) {
      await set(spy.countryId, { spies: 500, turns: 150 });
      await sql("DELETE FROM spy_daily_counters");
      await sql("DELETE FROM spy_missions WHERE country_id = $1 AND operation_type = 'military'", [spy.countryId]);
      const res = await mission(spy, { type: "military", targetCountryId: target.countryId, spiesUsed: 15 });
      expect(res.status).toBe(200);
      expect(res.body.mission).toMatchObject({ operationType: "military", targetCountryId: target.countryId, spiesUsed: 15 });
      expect(res.body.message).toBe(res.body.mission.results.success ? "Mission Successful" : "Mission Failed");
      if (res.body.report.success) report = res.body.report;
      else {
        expect(res.body.report.intelligence).toBeNull();
        expect(res.body.details).toContain("Operation detected by enemy intelligence");
        expect(res.body.details).toContain(`Spies lost: ${res.body.report.spiesLost}`);
      }
    }
    expect(report).toBeTruthy();
    const spread = CONFIDENCE_SPREAD[report.confidenceLevel as keyof typeof CONFIDENCE_SPREAD];
    for (const unit of ["troops", "jets", "turrets", "tanks", "spies"] as const) {
      const est = report.intelligence.military.estimatedUnits[unit];
      expect(Math.abs(est - Number(real[unit]))).toBeLessThanOrEqual(Math.ceil(Number(real[unit]) * spread));
    }
    expect(report.expiresAt - report.operationDate).toBe(12 * 3_600_000);
    expect(typeof report.seed).toBe("number");

    const known = await knownIntelligence(t.server.database.pool, spy.countryId, target.countryId, new Date());
    expect(known).toMatchObject({ confidence: report.confidenceLevel, estimatedUnits: report.intelligence.military.estimatedUnits });
    const preview = await t.api("POST", "/attack/preview", { countryId: spy.countryId, targetCountryId: target.countryId, attackType: "standard_strike", units: { troops: 10 } }, spy.token);
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toMatchObject({ basis: "intelligence", analysis: { basis: "intelligence", confidence: report.confidenceLevel } });
    expect(preview.body.preview.defensePower).not.toBeNull();
    // the target list's analysis reads the same report; others know nothing
    const knownList = await t.api("GET", "/intelligence/known", undefined, spy.token);
    expect(knownList.body.known[target.countryId]).toMatchObject({ confidence: report.confidenceLevel, estimatedUnits: report.intelligence.military.estimatedUnits });
    expect((await t.api("GET", "/intelligence/known", undefined, stranger.token)).body.known).toEqual({});
    // expired reports are not used
    expect(await knownIntelligence(t.server.database.pool, spy.countryId, target.countryId, new Date(Date.now() + 13 * 3_600_000))).toBeNull();
  });

  it("a general report carries population and land within the spread; read back by id and found by search", async () => {
    await sql("DELETE FROM spy_daily_counters");
    await set(spy.countryId, { spies: 500, turns: 150 });
    let report: any;
    for (let i = 0; i < 30 && !report; i++) {
      const res = await t.api("POST", "/spy/execute", { operationType: "general_intelligence", targetCountryId: target.countryId, spiesUsed: 10 }, spy.token);
      expect(res.status).toBe(200);
      if (res.body.report.success) report = res.body.report;
    }
    expect(report).toBeTruthy();
    const spread = CONFIDENCE_SPREAD[report.confidenceLevel as keyof typeof CONFIDENCE_SPREAD];
    expect(Math.abs(report.intelligence.general.population - 54_321)).toBeLessThanOrEqual(Math.ceil(54_321 * spread));
    expect(Math.abs(report.intelligence.general.landAcres - 3000)).toBeLessThanOrEqual(Math.ceil(3000 * spread));

    const byId = await t.api("GET", `/intelligence/reports/${report.id}`, undefined, spy.token);
    expect(byId.body.report).toMatchObject({ id: report.id, isOwn: true, targetCountryName: target.body.countryName });
    const search = await t.api("GET", `/intelligence/reports?search=${encodeURIComponent(target.body.countryName.slice(0, 8))}&type=general&sort=confidence`, undefined, spy.token);
    expect(search.body.total).toBeGreaterThan(0);
    expect(search.body.reports.every((r: any) => r.intelType === "general")).toBe(true);
    const byTag = await t.api("GET", "/intelligence/reports?search=general%20intelligence", undefined, spy.token);
    expect(byTag.body.reports.some((r: any) => r.id === report.id)).toBe(true);
    const none = await t.api("GET", "/intelligence/reports?search=zzzz-nothing", undefined, spy.token);
    expect(none.body).toMatchObject({ total: 0, reports: [] });
  });
});

describe("who may read a report", () => {
  it("another player gets 403; a missing report 404; bad queries 400", async () => {
    const { body } = await t.api("GET", "/intelligence/reports?limit=1", undefined, spy.token);
    const id = body.reports[0].id;
    expect(await t.api("GET", `/intelligence/reports/${id}`, undefined, stranger.token)).toMatchObject({ status: 403, body: { success: false, code: "espionage/not_your_report" } });
    expect(await t.api("GET", `/intelligence/reports/${id}`, undefined, target.token)).toMatchObject({ status: 403 });
    expect((await t.api("GET", "/intelligence/reports/999999999", undefined, spy.token)).status).toBe(404);
    expect((await t.api("GET", "/intelligence/reports", undefined, stranger.token)).body.total).toBe(0);
    expect(await t.api("GET", "/intelligence/reports?sort=price", undefined, spy.token)).toMatchObject({ status: 400, body: { error: "sort must be date, target or confidence" } });
    expect(await t.api("GET", `/intelligence/status/${spy.countryId}`, undefined, stranger.token)).toMatchObject({ status: 403 });
    expect(await mission(spy, { type: "nuclear", targetCountryId: target.countryId, spiesUsed: 1 })).toMatchObject({ status: 400, body: { error: "Unknown mission type" } });
    expect(await mission(spy, { type: "general", targetCountryId: spy.countryId, spiesUsed: 1 })).toMatchObject({ status: 400, body: { error: "You cannot spy on your own country" } });
    expect(await mission(spy, { type: "general", targetCountryId: 987_654_321, spiesUsed: 1 })).toMatchObject({ status: 404 });
    expect(await mission(spy, { type: "military", targetCountryId: target.countryId, spiesUsed: 16 })).toMatchObject({ status: 400, body: { code: "espionage/too_many_spies" } });
    expect(await t.api("POST", "/spy/execute", { operationType: "sabotage", targetCountryId: target.countryId, spiesUsed: 5000 }, spy.token)).toMatchObject({ status: 400, body: { error: "Insufficient spies" } });
  });
});

describe("the daily cap", () => {
  it("the 31st operation of a UTC day is refused; at midnight (injected clock, then the tick phase) the counter starts again", async () => {
    const p = await registerPlayer(t, "ecap");
    await set(p.countryId, { spies: 100, turns: 150, land: 1000 });
    const ctx = t.server.ctx;
    const day = Date.UTC(2031, 4, 6);
    const at = (ms: number) => ({ now: new Date(day + ms) });
    for (let i = 0; i < DAILY_OPS_LIMIT; i++) {
      await launchMission(ctx, p.user.id, p.countryId, { type: "general", targetCountryId: target.countryId, spiesUsed: 1 }, at(23 * 3_600_000 + i * 1000));
    }
    const refused = await launchMission(ctx, p.user.id, p.countryId, { type: "general", targetCountryId: target.countryId, spiesUsed: 1 }, at(86_400_000 - 1)).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: "Daily limit reached", code: "espionage/daily_limit" });
    // one millisecond past midnight the day is a new one
    const next = await launchMission(ctx, p.user.id, p.countryId, { type: "general", targetCountryId: target.countryId, spiesUsed: 1 }, at(86_400_000));
    expect(next.mission.status).toMatch(/completed|failed/);
    const counter = (await sql("SELECT day, used FROM spy_daily_counters WHERE country_id = $1", [p.countryId])).rows[0];
    expect(counter).toEqual({ day: utcDay(day) + 1, used: 1 });

    // the tick phase zeroes counters of earlier days, once; applied twice it changes nothing
    await sql("UPDATE spy_daily_counters SET day = $2, used = 30 WHERE country_id = $1", [p.countryId, utcDay(day)]);
    const client = await t.server.database.pool.connect();
    try {
      const period = utcDay(day) + 1;
      const ctxPhase = { client, ticks: [1], firstDueTick: 1, intervalMs: 60_000, at: day + 86_400_000, emit: () => undefined, period, periodStart: period * 86_400_000 };
      const missionsBefore = (await sql("SELECT count(*)::int AS n FROM spy_missions WHERE country_id = $1", [p.countryId])).rows[0].n;
      expect(await spyDailyResetPhase.run(ctxPhase)).toBeGreaterThanOrEqual(1);
      expect((await sql("SELECT day, used FROM spy_daily_counters WHERE country_id = $1", [p.countryId])).rows[0]).toEqual({ day: period, used: 0 });
      // retention: this (2031) day keeps its missions; those of 2026, more than 30 days before, are gone with their reports
      expect((await sql("SELECT count(*)::int AS n FROM spy_missions WHERE country_id = $1", [p.countryId])).rows[0].n).toBe(missionsBefore);
      expect((await sql("SELECT count(*)::int AS n FROM spy_missions WHERE country_id = $1", [spy.countryId])).rows[0].n).toBe(0);
      expect((await sql("SELECT count(*)::int AS n FROM spy_reports WHERE owner_id = $1", [spy.countryId])).rows[0].n).toBe(0);
      expect(await resetDailyCounters(client, period)).toBe(0);
    } finally {
      client.release();
    }
  });

  it("30 parallel missions (and 10 more) from one country: never past the cap, never more spies than owned; conserved", async () => {
    const p = await registerPlayer(t, "erace");
    await set(p.countryId, { spies: 12, turns: 150, land: 1000 });
    const before = await auditTotals(t.server.database.pool);
    const results = await Promise.all(Array.from({ length: 40 }, () => mission(p, { type: "general", targetCountryId: target.countryId, spiesUsed: 3 })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok.length).toBeLessThanOrEqual(DAILY_OPS_LIMIT);
    for (const r of refused) expect(r.body.error).toMatch(/Daily limit reached|Insufficient spies/);
    const after = await row(p.countryId);
    const lost = ok.reduce((s, r) => s + r.body.mission.results.spiesLost, 0);
    expect(Number(after.spies)).toBe(12 - lost);
    expect(Number(after.spies)).toBeGreaterThanOrEqual(0);
    const status = await t.api("GET", `/intelligence/status/${p.countryId}`, undefined, p.token);
    expect(status.body.status).toMatchObject({ operationsUsed: ok.length, operationsRemaining: DAILY_OPS_LIMIT - ok.length, availableSpies: 12 - lost, dailyLimit: 30 });
    if (ok.length < DAILY_OPS_LIMIT) expect(Number(after.spies)).toBeLessThan(3);
    expect(conservationErrors(before, await auditTotals(t.server.database.pool), { ...(await economyLedger(p.countryId)), spies: -lost, turns: -ok.length })).toEqual([]);
  });
});

describe("cooldowns, detection, sabotage, training, sharing", () => {
  it("a military mission puts the type on its 6-hour cooldown", async () => {
    const p = await registerPlayer(t, "ecool");
    await set(p.countryId, { spies: 100, turns: 150, land: 1000 });
    expect((await mission(p, { type: "military", targetCountryId: target.countryId, spiesUsed: 5 })).status).toBe(200);
    const again = await mission(p, { type: "military", targetCountryId: target.countryId, spiesUsed: 5 });
    expect(again).toMatchObject({ status: 400, body: { code: "espionage/cooldown" } });
    const status = await t.api("GET", `/intelligence/status/${p.countryId}?targetCountryId=${target.countryId}`, undefined, p.token);
    expect(status.body.status.cooldowns.military).toBeGreaterThan(5.9 * 3_600_000);
    expect(status.body.status.cooldowns.general).toBe(0);
    expect(status.body.status.successPreview.targetCountryId).toBe(target.countryId);
  });

  it("a detected operation reaches the target live (notice) and in its news", async () => {
    const watcher = await joinWorld(t.baseUrl, target.token);
    clients.push(watcher);
    const p = await registerPlayer(t, "edet");
    // few spies against many: the Spy Center's chance is at its floor (half the base)
    await set(p.countryId, { spies: 10, turns: 150, land: 100_000 });
    let detected: any;
    for (let i = 0; i < 30 && !detected; i++) {
      await set(p.countryId, { spies: 10 });
      const res = await t.api("POST", "/spy/execute", { operationType: "general_intelligence", targetCountryId: target.countryId, spiesUsed: 10 }, p.token);
      expect(res.status).toBe(200);
      if (res.body.report.detected) detected = res.body;
    }
    expect(detected).toBeTruthy();
    const notice = await eventually(() => watcher.received.get("notice")?.find((n: any) => n.refId === detected.mission.id), "the detection notice");
    expect(notice).toMatchObject({ kind: "spy_detected", view: "spy-center" });
    if (!detected.report.success) expect(notice.title).toContain(p.body.countryName);
    const news = await sql("SELECT kind FROM news_items WHERE country_id = $1 AND kind = 'spy_detected'", [target.countryId]);
    expect(news.rows.length).toBeGreaterThan(0);
  });

  it("sabotage destroys buildings and oil within its bound; spies, oil and buildings are accounted for", async () => {
    const p = await registerPlayer(t, "esab");
    await set(p.countryId, { spies: 5000, turns: 150, land: 1000 });
    // a new player's protection stops sabotage (not intelligence)
    await sql("UPDATE countries SET protected_until = now() + interval '1 hour' WHERE id = $1", [target.countryId]);
    expect(await t.api("POST", "/spy/execute", { operationType: "sabotage", targetCountryId: target.countryId, spiesUsed: 50 }, p.token)).toMatchObject({
      status: 400,
      body: { error: "Target is under new player protection", code: "espionage/target_protected" },
    });
    await sql("UPDATE countries SET protected_until = now() - interval '1 second' WHERE id = $1", [target.countryId]);
    const before = await auditTotals(t.server.database.pool);
    const tBefore = await row(target.countryId);
    let destroyedOil = 0;
    let destroyedFarms = 0;
    let lost = 0;
    for (let i = 0; i < 3; i++) {
      const res = await t.api("POST", "/spy/execute", { operationType: "sabotage", targetCountryId: target.countryId, spiesUsed: 50 }, p.token);
      expect(res.status).toBe(200);
      lost += res.body.mission.results.spiesLost;
      if (res.body.report.success) {
        const d = res.body.report.intelligence.sabotage;
        destroyedOil += d.oilDestroyed;
        if (d.building === "farms") destroyedFarms += d.buildingsDestroyed;
        expect(d.oilDestroyed).toBeLessThanOrEqual(5_000);
        expect(d.buildingsDestroyed).toBeLessThanOrEqual(50);
      }
    }
    expect(await t.api("POST", "/spy/execute", { operationType: "sabotage", targetCountryId: target.countryId, spiesUsed: 50 }, p.token)).toMatchObject({ status: 400, body: { error: "Daily limit reached" } });
    const tAfter = await row(target.countryId);
    expect(Number(tBefore.oil) - Number(tAfter.oil)).toBe(destroyedOil);
    expect(Number(tBefore.farms) - Number(tAfter.farms)).toBe(destroyedFarms);
    const economy = await economyLedger(p.countryId);
    expect(conservationErrors(before, await auditTotals(t.server.database.pool), { ...economy, spies: -lost, turns: -6, oil: economy.oil - destroyedOil })).toEqual([]);
  });

  it("training: 5 per turn, $100 each, up to 5% of land", async () => {
    const p = await registerPlayer(t, "etrain");
    await set(p.countryId, { spies: 0, land: 200, turns: 10, cash: 100_000 });
    const before = await auditTotals(t.server.database.pool);
    const ok = await t.api("POST", "/spy/train", { countryId: p.countryId, quantity: 7 }, p.token);
    expect(ok.body).toMatchObject({ success: true, trained: 7, spies: 7, turnsSpent: 2, cost: 700 });
    expect(await t.api("POST", "/spy/train", { countryId: p.countryId, quantity: 4 }, p.token)).toMatchObject({ status: 400, body: { error: "Spy capacity reached: at most 10 spies (5% of land)" } });
    expect(await t.api("POST", "/spy/train", { countryId: p.countryId, quantity: 1 }, stranger.token)).toMatchObject({ status: 403 });
    const economy = await economyLedger(p.countryId);
    expect(conservationErrors(before, await auditTotals(t.server.database.pool), { ...economy, spies: 7, turns: -2, cash: economy.cash - 700 })).toEqual([]);
  });

  it("training, operations and missions run the economy once per turn they spend (issue 30 #15: money, food and research stayed unchanged)", async () => {
    const p = await registerPlayer(t, "eeco");
    await set(p.countryId, { spies: 50, land: 2000, turns: 150, cash: 1_000_000, farms: 50, research_labs: 20 });
    const start = await row(p.countryId);
    const trained = await t.api("POST", "/spy/train", { countryId: p.countryId, quantity: 10 }, p.token);
    expect(trained.status).toBe(200);
    const afterTraining = await row(p.countryId);
    const ledger = await economyLedger(p.countryId);
    expect(ledger.cash).not.toBe(0);
    expect(Number(afterTraining.cash)).toBe(Number(start.cash) - 1_000 + ledger.cash);
    expect(Number(afterTraining.food)).toBe(Number(start.food) + ledger.food);
    expect(Number(afterTraining.research_points)).toBeGreaterThan(Number(start.research_points));
    for (const res of [
      await mission(p, { type: "general", targetCountryId: target.countryId, spiesUsed: 3 }),
      await t.api("POST", "/spy/execute", { operationType: "general_intelligence", targetCountryId: target.countryId, spiesUsed: 10 }, p.token),
    ]) {
      expect(res.status).toBe(200);
    }
    const end = await row(p.countryId);
    const all = await economyLedger(p.countryId);
    expect(all.cash).not.toBe(ledger.cash);
    expect(Number(end.cash)).toBe(Number(start.cash) - 1_000 + all.cash);
    expect(Number(end.research_points)).toBeGreaterThan(Number(afterTraining.research_points));
    expect(Number(end.turns)).toBe(150 - 2 - 1 - 1);
  });

  it("Share Intelligence: an alliance member reads a shared report; allowSpyOperations off hides and refuses it", async () => {
    const a = await registerPlayer(t, "esha");
    const b = await registerPlayer(t, "eshb");
    await set(a.countryId, { spies: 500, turns: 150, land: 1000, cash: 10_000_000 });
    await set(b.countryId, { cash: 10_000_000 });
    // an alliance of a and b, written directly (the alliance flow itself is tested elsewhere)
    const { rows } = await sql("INSERT INTO alliances (name, name_key, tag, flag_background, flag_symbol, flag_symbol_color) VALUES ($1, $1, $2, '#000000', 'star', '#ffffff') RETURNING id::int", [
      `spies${a.countryId}`,
      `S${a.countryId % 1000}`,
    ]);
    await sql("UPDATE countries SET alliance_id = $1 WHERE id = ANY($2::bigint[])", [rows[0].id, [a.countryId, b.countryId]]);
    let report: any;
    for (let i = 0; i < 30 && !report; i++) {
      const res = await mission(a, { type: "general", targetCountryId: target.countryId, spiesUsed: 3 });
      if (res.body.report?.success) report = res.body.report;
    }
    expect(report).toBeTruthy();
    expect(await t.api("GET", `/intelligence/reports/${report.id}`, undefined, b.token)).toMatchObject({ status: 403 });
    const shared = await t.api("POST", `/intelligence/reports/${report.id}/share`, {}, a.token);
    expect(shared.body).toMatchObject({ success: true, report: { sharedWithAlliance: true } });
    const line = await sql("SELECT content FROM chat_messages WHERE alliance_scope = $1 AND type = 'system'", [rows[0].id]);
    expect(line.rows.map((r: any) => r.content)).toContain(`${a.body.countryName} shared ${report.confidenceLevel}-confidence general intelligence on ${target.body.countryName} (Alliances > Intelligence Operations > Shared Intelligence)`);
    expect(await t.api("POST", `/intelligence/reports/${report.id}/share`, {}, b.token)).toMatchObject({ status: 403 });
    expect((await t.api("GET", `/intelligence/reports/${report.id}`, undefined, b.token)).body.report).toMatchObject({ id: report.id, isOwn: false, ownerName: a.body.countryName });
    expect((await t.api("GET", "/intelligence/shared", undefined, b.token)).body.reports.map((r: any) => r.id)).toContain(report.id);
    expect((await t.api("GET", "/intelligence/shared", undefined, stranger.token)).body.reports).toEqual([]);

    // the target turns allowSpyOperations off: intelligence about it is no longer shown to alliances
    expect((await t.api("POST", "/intelligence/privacy", { countryId: target.countryId, allowSpyOperations: false }, target.token)).body).toMatchObject({ allowSpyOperations: false });
    expect(await t.api("GET", `/intelligence/reports/${report.id}`, undefined, b.token)).toMatchObject({ status: 403 });
    expect((await t.api("GET", "/intelligence/shared", undefined, b.token)).body.reports).toEqual([]);
    expect(await t.api("POST", `/intelligence/reports/${report.id}/share`, {}, a.token)).toMatchObject({ status: 409, body: { code: "espionage/privacy_target" } });
    // ...but it is still spied on: the owner keeps its report
    expect((await t.api("GET", `/intelligence/reports/${report.id}`, undefined, a.token)).status).toBe(200);
    await t.api("POST", "/intelligence/privacy", { countryId: target.countryId, allowSpyOperations: true }, target.token);
    expect((await t.api("GET", "/settings", undefined, target.token)).body.data.settings.privacy.allowSpyOperations).toBe(true);
    expect((await t.api("GET", "/intelligence/shared", undefined, b.token)).body.reports.map((r: any) => r.id)).toContain(report.id);
    // the Settings screen's switch is the same setting: the owner turns it off there
    const settings = (await t.api("GET", "/settings", undefined, a.token)).body.data.settings;
    settings.privacy.allowSpyOperations = false;
    expect((await t.api("PUT", "/settings", settings, a.token)).status).toBe(200);
    expect((await t.api("GET", "/intelligence/shared", undefined, b.token)).body.reports).toEqual([]);
    expect((await t.api("GET", `/intelligence/status/${a.countryId}`, undefined, a.token)).body.status.allowSpyOperations).toBe(false);
    settings.privacy.allowSpyOperations = true;
    await t.api("PUT", "/settings", settings, a.token);
    expect((await t.api("GET", `/intelligence/status/${a.countryId}`, undefined, a.token)).body.status).toMatchObject({ inAlliance: true, allowSpyOperations: true });
  });

  it("answering a defense request with Share Intelligence shares the responder's spy report with the alliance", async () => {
    const [owner, helper, victim] = await Promise.all([registerPlayer(t, "edfo"), registerPlayer(t, "edfh"), registerPlayer(t, "edfv")]);
    const { rows } = await sql("INSERT INTO alliances (name, name_key, tag, flag_background, flag_symbol, flag_symbol_color) VALUES ($1, $1, $2, '#000000', 'star', '#ffffff') RETURNING id::int", [
      `defence${owner.countryId}`,
      `D${owner.countryId % 1000}`,
    ]);
    const allianceId = rows[0].id;
    await sql("UPDATE countries SET alliance_id = $1 WHERE id = ANY($2::bigint[])", [allianceId, [owner.countryId, helper.countryId, victim.countryId]]);
    await sql("INSERT INTO alliance_members (country_id, alliance_id, role) VALUES ($1, $4, 'owner'), ($2, $4, 'member'), ($3, $4, 'member')", [owner.countryId, helper.countryId, victim.countryId, allianceId]);
    await set(helper.countryId, { spies: 500, turns: 150, land: 1000 });
    let report: any;
    for (let i = 0; i < 30 && !report; i++) {
      const res = await mission(helper, { type: "general", targetCountryId: target.countryId, spiesUsed: 3 });
      if (res.body.report?.success) report = res.body.report;
    }
    expect(report).toBeTruthy();
    const request = await t.api("POST", "/alliance/defense-requests", { urgency: "high", supportNeeded: { intelligence: true }, attackerCountryId: target.countryId }, victim.token);
    expect(request.status).toBe(201);
    const requestId = request.body.requestId;
    // someone else's report cannot be passed off
    expect(await t.api("POST", `/alliance/defense-requests/${requestId}/respond`, { responseType: "intelligence", reportId: report.id }, owner.token)).toMatchObject({ status: 403 });
    const answer = await t.api("POST", `/alliance/defense-requests/${requestId}/respond`, { responseType: "intelligence", reportId: report.id }, helper.token);
    expect(answer.status).toBe(200);
    expect((await t.api("GET", `/intelligence/reports/${report.id}`, undefined, victim.token)).body.report).toMatchObject({ id: report.id, isOwn: false, sharedWithAlliance: true });
  });

  it("alliance modifiers: x1.1 force in an alliance, Intelligence Network (+5%) and an intelligence treaty (+10%) on the chance", async () => {
    const q = await registerPlayer(t, "emod");
    await set(q.countryId, { spies: 100, turns: 150, land: 1000 });
    const land = Number((await row(target.countryId)).land);
    const preview = async () => (await t.api("GET", `/intelligence/status/${q.countryId}?targetCountryId=${target.countryId}`, undefined, q.token)).body.status;
    const alone = await preview();
    expect(alone).toMatchObject({ inAlliance: false, spySuccessBonusPct: 0 });
    // no report on the target: parity (q's 0.1 spies per acre) and the default counter-intelligence (105%)
    const parityDefense = computeSpyDefense({ spies: Math.round(0.1 * land), land }, 105);
    expect(alone.successPreview).toMatchObject({ basis: "estimate", target: { spies: Math.round(0.1 * land), land }, spyDefensePct: 105 });
    expect(alone.successPreview.missions.general).toBe(Math.round(missionChance(forceRatio(1, "monarchy", 0, false, land), 0, parityDefense) * 100));

    const { rows } = await sql("INSERT INTO alliances (name, name_key, tag, flag_background, flag_symbol, flag_symbol_color) VALUES ($1, $1, $2, '#000000', 'star', '#ffffff') RETURNING id::int", [
      `intel${q.countryId}`,
      `I${q.countryId % 1000}`,
    ]);
    await sql("UPDATE countries SET alliance_id = $1 WHERE id = $2", [rows[0].id, q.countryId]);
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name) VALUES ($1, 'intelligence_network', 1, 600, 'test')", [rows[0].id]);
    await sql("INSERT INTO diplomatic_relations (relation_type, from_country_id, to_country_id, can_cancel_after, daily_cost) VALUES ('intelligence', $1, $2, now(), 75)", [q.countryId, stranger.countryId]);
    const allied = await preview();
    expect(allied).toMatchObject({ inAlliance: true, spySuccessBonusPct: 15 });
    expect(allied.successPreview.missions.general).toBe(Math.round(withSpyBonus(missionChance(forceRatio(1, "monarchy", 0, true, land), 0, parityDefense), 15) * 100));

    // the mission itself draws against the same modifiers and the target's real spy defense
    const real = await row(target.countryId);
    const res = await mission(q, { type: "general", targetCountryId: target.countryId, spiesUsed: 3 });
    const defense = computeSpyDefense({ spies: Number(real.spies), land }, 105);
    expect(res.body.mission.successChance).toBe(Math.round(withSpyBonus(missionChance(forceRatio(3, "monarchy", 0, true, land), 0, defense), 15) * 100));
  });

  it("a season's end expires every report and clears the counters (checked inside a transaction rolled back)", async () => {
    expect((await sql("SELECT count(*)::int AS n FROM spy_reports WHERE expires_at > now()")).rows[0].n).toBeGreaterThan(0);
    const client = await t.server.database.pool.connect();
    try {
      await client.query("BEGIN");
      const at = new Date();
      await resetWorld(client, { cash: 100_000 }, at, at);
      expect((await client.query("SELECT count(*)::int AS n FROM spy_reports WHERE expires_at > $1", [at])).rows[0].n).toBe(0);
      expect((await client.query("SELECT count(*)::int AS n FROM spy_daily_counters")).rows[0].n).toBe(0);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
