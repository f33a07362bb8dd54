import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE_ACCOUNT_CONFIRMATION, type BattleReportJson, type IntelligenceReportJson, type StrikeJson, type WarDeclarationJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { STRIKE_TARGET_DELETED } from "./account.js";

/**
 * Issue 28: when a defender deleted its account, the attacker's battle reports against it
 * disappeared (the attacker's first report answered 404). The side that remains keeps its
 * history; the deleted country shows as a former country: no id, its name as it was.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const deleteAccount = (token: string) => t.api("POST", "/account/delete", { confirmation: DELETE_ACCOUNT_CONFIRMATION, password: "secret123" }, token);

describe("issue 28: a deleted account keeps the other side's history", () => {
  it("the attacker's battle report answers 200 after the defender deletes its account, the defender shown as a former country", async () => {
    const attacker = await registerPlayer(t, "keep");
    const defender = await registerPlayer(t, "gone");
    await setCountry(t.server.database.pool, attacker.countryId, { troops: 5_000, tanks: 300, jets: 100, cash: 5_000_000, turns: 150, land: 800, population: 8_000 });
    await setCountry(t.server.database.pool, defender.countryId, { troops: 1_000, tanks: 50, jets: 10, turrets: 300, land: 800, population: 8_000 });
    const launched = await t.api("POST", "/attack/launch", { countryId: attacker.countryId, targetCountryId: defender.countryId, attackType: "standard_strike", units: { troops: 4_000, tanks: 250, jets: 80 } }, attacker.token);
    expect(launched.status).toBe(200);
    const report: BattleReportJson = launched.body.report;

    expect((await deleteAccount(defender.token)).status).toBe(200);

    const read = await t.api("GET", `/battle-reports/${report.id}`, undefined, attacker.token);
    expect(read.status).toBe(200);
    expect(read.body.report).toMatchObject({
      id: report.id,
      attackerCountryId: attacker.countryId,
      defenderCountryId: null,
      defenderName: defender.body.countryName,
      outcome: report.outcome,
      landCaptured: report.landCaptured,
      isPlayerAttacker: true,
      isPlayerDefender: false,
    });
    const list = await t.api("GET", "/battle-reports", undefined, attacker.token);
    expect(list.status).toBe(200);
    expect(list.body.reports.map((r: BattleReportJson) => r.id)).toContain(report.id);
  });

  it("a spy's reports and missions stay when their target deletes its account", async () => {
    const spy = await registerPlayer(t, "spyk");
    const target = await registerPlayer(t, "spyg");
    await setCountry(t.server.database.pool, spy.countryId, { spies: 500, land: 2_000, turns: 150 });
    await setCountry(t.server.database.pool, target.countryId, { spies: 5, land: 3_000 });
    const done = await t.api("POST", "/spy/execute", { operationType: "general_intelligence", targetCountryId: target.countryId, spiesUsed: 10 }, spy.token);
    expect(done.status).toBe(200);
    const reportId: number = done.body.report.id;

    expect((await deleteAccount(target.token)).status).toBe(200);

    const read = await t.api("GET", `/intelligence/reports/${reportId}`, undefined, spy.token);
    expect(read.status).toBe(200);
    const kept: IntelligenceReportJson = read.body.report;
    expect(kept).toMatchObject({ id: reportId, targetCountryId: null, targetCountryName: target.body.countryName });
    const list = await t.api("GET", "/intelligence/reports", undefined, spy.token);
    expect(list.status).toBe(200);
    expect(list.body.reports.find((r: IntelligenceReportJson) => r.id === reportId)).toMatchObject({ targetCountryId: null, targetCountryName: target.body.countryName });
    const missions = await sql("SELECT target_id, target_name FROM spy_missions WHERE country_id = $1", [spy.countryId]);
    expect(missions.rows).toEqual([{ target_id: null, target_name: target.body.countryName }]);
  });

  it("wars keep the other side's history: a war declared on a deleted country stays in its declarer's list (ended), and one declared by it stays in its target's", async () => {
    const keeper = await registerPlayer(t, "warkeep");
    const leaver = await registerPlayer(t, "wargone");
    for (const p of [keeper, leaver]) await setCountry(t.server.database.pool, p.countryId, { cash: 5_000_000, land: 800, population: 8_000 });
    const onLeaver = await t.api("POST", "/war/declare", { targetCountryId: leaver.countryId }, keeper.token);
    expect(onLeaver.status).toBe(200);
    const byLeaver = await t.api("POST", "/war/declare", { targetCountryId: keeper.countryId }, leaver.token);
    expect(byLeaver.status).toBe(200);
    const ids = [onLeaver.body.declaration.id as number, byLeaver.body.declaration.id as number];

    expect((await deleteAccount(leaver.token)).status).toBe(200);

    const list = await t.api("GET", "/war/declarations", undefined, keeper.token);
    expect(list.status).toBe(200);
    const wars = new Map((list.body.declarations as WarDeclarationJson[]).map((w) => [w.id, w]));
    expect(wars.get(ids[0]!)).toMatchObject({ declarerId: keeper.countryId, targetId: null, targetName: leaver.body.countryName, isDeclarer: true, status: "cooldown", endReason: "country_deleted", canEnd: false });
    expect(wars.get(ids[1]!)).toMatchObject({ declarerId: null, declarerName: leaver.body.countryName, targetId: keeper.countryId, isDeclarer: false, status: "cooldown", endReason: "country_deleted" });
    // the ended war no longer counts against the declarer's active wars, nor is it charged
    const active = await sql("SELECT count(*)::int AS n FROM war_declarations WHERE declarer_id = $1 AND ended_at IS NULL", [keeper.countryId]);
    expect(active.rows[0].n).toBe(0);
  });

  it("an attacker's strikes against a deleted country stay in its list; one still waiting fails with the reason", async () => {
    const attacker = await registerPlayer(t, "stkeep");
    const target = await registerPlayer(t, "stgone");
    await setCountry(t.server.database.pool, attacker.countryId, { troops: 5_000, tanks: 300, jets: 100, cash: 5_000_000, turns: 150, land: 800, population: 8_000 });
    await setCountry(t.server.database.pool, target.countryId, { troops: 1_000, land: 800, population: 8_000 });
    const planned = await t.api(
      "POST",
      "/attack/launch",
      { countryId: attacker.countryId, targetCountryId: target.countryId, attackType: "standard_strike", units: { troops: 2_000 }, scheduledFor: new Date(Date.now() + 3_600_000).toISOString() },
      attacker.token,
    );
    expect(planned.status).toBe(200);
    const strike: StrikeJson = planned.body.strike;
    expect(strike).toMatchObject({ state: "pending", targetCountryId: target.countryId });

    expect((await deleteAccount(target.token)).status).toBe(200);

    const list = await t.api("GET", "/attack/strikes", undefined, attacker.token);
    expect(list.status).toBe(200);
    expect((list.body.strikes as StrikeJson[]).find((s) => s.id === strike.id)).toMatchObject({
      targetCountryId: null,
      targetName: target.body.countryName,
      state: "failed",
      failure: STRIKE_TARGET_DELETED,
    });
  });
});
