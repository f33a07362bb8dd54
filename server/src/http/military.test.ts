import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILDING_TYPES } from "@game/schema/rules";
import type { BattleReportJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { countryTopic, WORLD_TOPIC, allianceTopic, type GameEvent } from "../events.js";
import { launchAttack } from "../services/combat.js";

/**
 * Military and war over REST between real players on a real Postgres: an attack changes both
 * countries exactly as its report says, both sides (and nobody else) read the report, the
 * spec's refusals, the preview that never sees private numbers, and the events.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

async function country(id: number) {
  const { rows } = await sql("SELECT * FROM countries WHERE id = $1", [id]);
  return rows[0];
}

/** A player whose country is made strong enough to attack (units, cash, turns), by SQL. */
async function armedPlayer(prefix: string, patch: Record<string, number> = {}) {
  const p = await registerPlayer(t, prefix);
  const values = { troops: 5_000, tanks: 300, jets: 100, turrets: 200, cash: 5_000_000, turns: 150, land: 800, population: 8_000, ...patch };
  await setCountry(t.server.database.pool, p.countryId, values);
  return p;
}

async function launch(token: string, body: Record<string, unknown>) {
  return t.api("POST", "/attack/launch", body, token);
}

describe("an attack between two players over REST", () => {
  it("changes both countries exactly as the report says; both sides read it; a third player gets 403", async () => {
    const a = await armedPlayer("att");
    const d = await armedPlayer("def", { troops: 1_000, tanks: 50, jets: 10, turrets: 300, cash: 300_000 });
    await sql("UPDATE countries SET farms = 40, residential_areas = 100, military_bases = 5 WHERE id = $1", [d.countryId]);
    const before = { a: await country(a.countryId), d: await country(d.countryId) };
    const events: GameEvent[] = [];
    const offs = [t.server.ctx.events.subscribe(countryTopic(d.countryId), (e) => events.push(e)), t.server.ctx.events.subscribe(WORLD_TOPIC, (e) => events.push(e))];
    await t.server.ctx.events.ready();

    const res = await launch(a.token, { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 4_000, tanks: 250, jets: 80 } });
    expect(res.status).toBe(200);
    expect(res.body.executed).toBe(true);
    const report: BattleReportJson = res.body.report;
    expect(report).toMatchObject({ attackerCountryId: a.countryId, defenderCountryId: d.countryId, attackType: "standard_strike", isPlayerAttacker: true, isPlayerDefender: false });
    for (const field of [
      "attackerForces",
      "defenderForces",
      "attackerCasualties",
      "defenderCasualties",
      "landCaptured",
      "resourcesGained",
      "resourcesLost",
      "buildingsDestroyed",
      "populationKilled",
      "attackPower",
      "defensePower",
      "powerRatio",
      "efficiencyRating",
      "strategicValue",
      "attackerTechBonus",
      "defenderTechBonus",
      "weaponsEffectiveness",
      "allianceSupport",
      "combatLog",
      "timestamp",
      "outcome",
    ]) {
      expect(report, field).toHaveProperty(field);
    }
    expect(report.combatLog.length).toBeGreaterThan(2);

    const after = { a: await country(a.countryId), d: await country(d.countryId) };
    // the defender's copy is exact about its side (the attacker's estimates it: issue 28)
    const defenderCopy: BattleReportJson = (await t.api("GET", `/battle-reports/${report.id}`, undefined, d.token)).body.report;
    const { rows: battle } = await sql("SELECT economy FROM battles WHERE id = $1", [report.id]);
    const eco = battle[0].economy;
    // attacker: economy of the 2 turns + the battle
    expect(after.a.turns).toBe(before.a.turns - 2);
    expect(after.a.land).toBe(before.a.land + report.landCaptured);
    expect(after.a.cash).toBe(before.a.cash + eco.netCashChange + report.resourcesGained.cash);
    for (const u of ["troops", "jets", "tanks", "turrets", "spies"] as const) {
      expect(after.a[u], u).toBe(before.a[u] + (eco.militaryProduced[u] ?? 0) - eco.unitsLost[u] - report.attackerCasualties[u]);
      expect(after.d[u], u).toBe(before.d[u] - defenderCopy.defenderCasualties[u]);
    }
    // defender: exactly the report
    expect(after.d.land).toBe(before.d.land - report.landCaptured);
    expect(after.d.cash).toBe(before.d.cash - report.resourcesLost.cash);
    expect(after.d.food).toBe(before.d.food - report.resourcesLost.food);
    const column = (t: string) => (t === "residences" ? "residential_areas" : t);
    for (const b of BUILDING_TYPES) {
      expect(after.d[column(b)], b).toBe(before.d[column(b)] - report.buildingsLost[b]);
      expect(after.a[column(b)], b).toBe(before.a[column(b)] + report.buildingsCaptured[b]);
    }
    // records
    const won = report.outcome === "attacker_victory";
    expect(after.a).toMatchObject({ total_battles: 1, victories: won ? 1 : 0, defeats: won ? 0 : 1, total_land_captured: report.landCaptured });
    expect(after.d).toMatchObject({ total_battles: 1, victories: won ? 0 : 1, defeats: won ? 1 : 0 });

    // both sides see it; the defender's view says so; a third player cannot read it
    const mine = await t.api("GET", "/battle-reports", undefined, a.token);
    const theirs = await t.api("GET", "/battle-reports", undefined, d.token);
    expect(mine.body.reports.map((r: BattleReportJson) => r.id)).toContain(report.id);
    expect(theirs.body.reports.find((r: BattleReportJson) => r.id === report.id)).toMatchObject({ isPlayerAttacker: false, isPlayerDefender: true });
    const single = await t.api("GET", `/battle-reports/${report.id}`, undefined, d.token);
    expect(single.status).toBe(200);
    const third = await registerPlayer(t, "third");
    const refused = await t.api("GET", `/battle-reports/${report.id}`, undefined, third.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: "combat/not_a_party" });
    expect((await t.api("GET", "/battle-reports/999999", undefined, a.token)).status).toBe(404);

    // the live alert for the defender and the public event for everyone
    await waitFor(() => events.some((e) => e.type === "notice") && events.some((e) => e.type === "battleResolved"));
    const notice = events.find((e) => e.type === "notice") as Extract<GameEvent, { type: "notice" }>;
    expect(notice.notice).toMatchObject({ kind: "attacked", view: "military", refId: report.id });
    const pub = events.find((e) => e.type === "battleResolved") as Extract<GameEvent, { type: "battleResolved" }>;
    expect(pub.battle).toEqual({
      battleId: report.id,
      attackerId: a.countryId,
      attackerName: report.attackerName,
      defenderId: d.countryId,
      defenderName: report.defenderName,
      attackType: "standard_strike",
      outcome: report.outcome,
      landCaptured: report.landCaptured,
      landDestroyed: 0,
      at: Date.parse(report.timestamp),
    });
    offs.forEach((off) => off());
  });

  it("a stored seed replays the battle: the same sides and the same seed give the same report", async () => {
    const setup = async (prefix: string) => {
      const a = await armedPlayer(`${prefix}A`);
      const d = await armedPlayer(`${prefix}D`, { troops: 2_500, tanks: 100, turrets: 400, cash: 400_000 });
      await sql("UPDATE countries SET farms = 30, residential_areas = 60 WHERE id = $1", [d.countryId]);
      return { a, d };
    };
    const order = (p: { a: { countryId: number }; d: { countryId: number } }) => ({ countryId: p.a.countryId, targetCountryId: p.d.countryId, attackType: "standard_strike" as const, units: { troops: 3_000, tanks: 200 } });
    const first = await setup("seed1");
    const res = await launch(first.a.token, order(first));
    const report: BattleReportJson = res.body.report;
    const stored = await t.api("GET", `/battle-reports/${report.id}`, undefined, first.a.token);
    expect(stored.body.report.seed).toBe(report.seed);

    // identical countries elsewhere, the stored seed: the same battle
    const second = await setup("seed2");
    const replay = await launchAttack(t.server.ctx, { userId: second.a.user.id, countryId: second.a.countryId }, order(second), { seed: report.seed });
    if (!replay.executed) throw new Error("not executed");
    const strip = (r: BattleReportJson) => {
      const { id, attackerCountryId, defenderCountryId, attackerName, defenderName, timestamp, combatLog, ...rest } = r;
      void [id, attackerCountryId, defenderCountryId, attackerName, defenderName, timestamp];
      return { ...rest, combatLog: combatLog.map((line) => line.replaceAll(r.attackerName, "A").replaceAll(r.defenderName, "D")) };
    };
    expect(strip(replay.report)).toEqual(strip(report));
  });

  it("refuses one's own country, a protected target, a target too small, and another player's country", async () => {
    const a = await armedPlayer("refA");
    const d = await armedPlayer("refD");
    const order = { attackType: "standard_strike", units: { troops: 100 } };
    const own = await launch(a.token, { countryId: a.countryId, targetCountryId: a.countryId, ...order });
    expect(own.status).toBe(400);
    expect(own.body).toEqual({ success: false, error: "You cannot attack your own country", code: "combat/own_country" });

    await sql("UPDATE countries SET protected_until = now() + interval '1 hour' WHERE id = $1", [d.countryId]);
    const protectedTarget = await launch(a.token, { countryId: a.countryId, targetCountryId: d.countryId, ...order });
    expect(protectedTarget.status).toBe(400);
    expect(protectedTarget.body).toMatchObject({ error: "Target is under new player protection", code: "combat/target_protected" });
    const list = await t.api("GET", "/countries?limit=500", undefined, a.token);
    expect(list.body.countries.find((c: { id: number }) => c.id === d.countryId)).toMatchObject({ protection_status: "new_player_protection", alliance_name: null, is_ai: false });
    await sql("UPDATE countries SET protected_until = now() WHERE id = $1", [d.countryId]);

    const notMine = await launch(a.token, { countryId: d.countryId, targetCountryId: a.countryId, ...order });
    expect(notMine.status).toBe(403);

    const tiny = await registerPlayer(t, "tiny");
    await sql("UPDATE countries SET protected_until = now(), land = 5, networth = 10 WHERE id = $1", [tiny.countryId]);
    const small = await launch(a.token, { countryId: a.countryId, targetCountryId: tiny.countryId, ...order });
    expect(small.body.code).toBe("combat/target_too_small");

    const missing = await launch(a.token, { countryId: a.countryId, targetCountryId: 99_999_999, ...order });
    expect(missing.status).toBe(404);

    // nothing changed on any refusal
    const after = await country(a.countryId);
    expect(after.turns).toBe(150);
    expect(after.total_battles).toBe(0);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no target", { attackType: "standard_strike", units: { troops: 10 } }, "No target selected"],
    ["no attack type", { units: { troops: 10 } }, "No attack type selected"],
    ["spies", { attackType: "standard_strike", units: { troops: 10, spies: 1 } }, "Spies can only be used for spy operations"],
    ["wrong unit", { attackType: "guerrilla_strike", units: { tanks: 5 } }, "Tanks cannot be used for Guerrilla Strike"],
    ["too many", { attackType: "standard_strike", units: { troops: 999_999 } }, "Insufficient troops: have 5000, need 999999"],
    ["none", { attackType: "standard_strike", units: {} }, "No units allocated for attack"],
    ["minimum", { attackType: "standard_strike", units: { troops: 5 } }, "Minimum 10 units required for Standard Strike"],
    ["missiles", { attackType: "missile", units: { missiles: 11 } }, "Insufficient missiles: have 0, need 11"],
  ])("the spec's message: %s", async (_name, body, message) => {
    const a = await armedPlayer("msg");
    const d = await armedPlayer("msgD");
    // every order names the defender, except the one about the missing target
    const target = message === "No target selected" ? {} : { targetCountryId: d.countryId };
    const res = await launch(a.token, { countryId: a.countryId, ...body, ...target });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("validate-turns answers the spec's message; bad input is a 400 that changes nothing", async () => {
    const a = await armedPlayer("turns", { turns: 1 });
    const res = await t.api("POST", "/attack/validate-turns", { countryId: a.countryId, attackType: "standard_strike" }, a.token);
    expect(res.body).toEqual({ success: true, valid: false, turnsRequired: 2, turnsAvailable: 1, message: "Insufficient turns: need 2, have 1" });
    const ok = await t.api("POST", "/attack/validate-turns", { countryId: a.countryId, attackType: "spy" }, a.token);
    expect(ok.body.valid).toBe(true);
    for (const bad of [{ countryId: a.countryId, attackType: "nuke_it" }, { countryId: "x" }, { countryId: a.countryId, attackType: "standard_strike", units: { troops: -1 } }]) {
      const r = await t.api("POST", "/attack/launch", bad, a.token);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const r = await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: 1, attackType: "standard_strike", units: { troops: 10, horses: 5 } }, a.token);
    expect(r.status).toBe(400);
  });

  it("the preview uses public fields and says so; it never returns the target's private numbers", async () => {
    const a = await armedPlayer("prevA");
    const d = await armedPlayer("prevD", { troops: 77_777, turrets: 55_555 });
    const res = await t.api("POST", "/attack/preview", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 1_000 } }, a.token);
    expect(res.status).toBe(200);
    expect(res.body.preview).toMatchObject({ basis: "public", defensePower: null, attackType: "standard_strike", turnCost: 2 });
    expect(res.body.preview.notes).toContain("No intelligence on this target: estimate from public data only (networth, land, record).");
    expect(res.body.validation).toBeNull();
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("77777");
    expect(text).not.toContain("55555");
    expect(Object.keys(res.body.target).sort()).toEqual(["id", "land", "name", "networth", "protection_status"]);
  });
});

describe("events of a battle on alliance topics", () => {
  it("both sides' alliances get battleResolved with public fields", async () => {
    const a = await armedPlayer("allyA");
    const d = await armedPlayer("allyD", { troops: 100 });
    await sql("UPDATE countries SET alliance_id = 901 WHERE id = $1", [a.countryId]);
    await sql("UPDATE countries SET alliance_id = 902 WHERE id = $1", [d.countryId]);
    const got: GameEvent[] = [];
    const offs = [901, 902].map((id) => t.server.ctx.events.subscribe(allianceTopic(id), (e) => got.push(e)));
    await t.server.ctx.events.ready();
    const res = await launch(a.token, { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 1_000 } });
    expect(res.status).toBe(200);
    await waitFor(() => got.length >= 2);
    expect(got.map((e) => (e as { side: string }).side).sort()).toEqual(["attacker", "defender"]);
    offs.forEach((off) => off());
  });
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
