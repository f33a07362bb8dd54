import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BattleReportJson } from "@game/schema/api";
import { UNIT_TYPES } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { auditTotals, conservationErrors, type Audited } from "../db/audit.js";

/**
 * Races: many attacks at once never create or lose anything that the battles do not account
 * for, and never deadlock. The audit's documented sinks and sources of a battle: the turns it
 * spends, the attacker's economy during those turns (net cash, food, oil, units produced and
 * deserted, stored with the battle), units killed, land destroyed by missiles, missiles spent.
 * Plunder and captured land move between the two countries and cancel out.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

async function armedPlayer(prefix: string, patch: Record<string, number> = {}) {
  const p = await registerPlayer(t, prefix);
  const values = { troops: 6_000, tanks: 300, jets: 100, turrets: 400, cash: 3_000_000, food: 500_000, oil: 50_000, turns: 150, land: 1_000, population: 10_000, farms: 60, residential_areas: 50, military_bases: 10, ...patch };
  await setCountry(t.server.database.pool, p.countryId, values);
  return p;
}

/** What the battles since `sinceId` account for: the documented change of each audited quantity. */
async function battleLedger(sinceId: number): Promise<Partial<Record<Audited, number>>> {
  const { rows } = await sql("SELECT report, economy, land_destroyed FROM battles WHERE id > $1", [sinceId]);
  const ledger: Record<Audited, number> = { cash: 0, food: 0, oil: 0, land: 0, troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0, missiles: 0, turns: 0, stored_turns: 0 };
  for (const { report, economy, land_destroyed } of rows) {
    ledger.turns -= economy.turnsSpent;
    ledger.cash += economy.netCashChange;
    ledger.food += economy.netFoodChange;
    ledger.oil += economy.netOilChange;
    ledger.land -= land_destroyed;
    ledger.missiles -= report.missilesLaunched;
    for (const u of UNIT_TYPES) {
      ledger[u] += (economy.militaryProduced[u] ?? 0) - economy.unitsLost[u] - report.attackerCasualties[u] - report.defenderCasualties[u];
    }
  }
  return ledger;
}

async function lastBattleId(): Promise<number> {
  const { rows } = await sql("SELECT coalesce(max(id), 0)::bigint AS id FROM battles");
  return Number(rows[0].id);
}

async function retries(): Promise<number> {
  const m = (await t.server.ctx.metrics.render()).match(/game_action_retries_total\{action="attack"\} (\d+)/);
  return m ? Number(m[1]) : 0;
}

describe("attacks in parallel", () => {
  it("50 attacks on one defender at once: every count conserved, no deadlock, the daily cap holds", async () => {
    const attackers = await Promise.all(Array.from({ length: 10 }, (_, i) => armedPlayer(`mass${i}`, { troops: 12_000 })));
    const defender = await armedPlayer("massDef", { troops: 1_500, turrets: 300 });
    const since = await lastBattleId();
    const retriesBefore = await retries();
    const before = await auditTotals(t.server.database.pool);
    const defenderLandBefore = Number((await sql("SELECT land FROM countries WHERE id = $1", [defender.countryId])).rows[0].land);

    const calls = Array.from({ length: 50 }, (_, i) => {
      const a = attackers[i % attackers.length]!;
      const type = i % 5 === 0 ? "guerrilla_strike" : "standard_strike";
      const units = type === "guerrilla_strike" ? { troops: 5_000 } : { troops: 5_000, tanks: 200, jets: 10 };
      return t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: defender.countryId, attackType: type, units }, a.token);
    });
    const answers = await Promise.all(calls);
    const statuses = answers.map((r) => r.status);
    // every call either fought (200) or was refused by a rule (400); never a 5xx
    expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBe(50);
    expect(await retries()).toBe(retriesBefore);

    const after = await auditTotals(t.server.database.pool);
    expect(conservationErrors(before, after, await battleLedger(since))).toEqual([]);

    // the defender lost at most 15% of its land (+2 acres of rounding to whole buildings)
    const reports: BattleReportJson[] = answers.map((r) => r.body.report);
    const lost = reports.reduce((s, r) => s + r.landCaptured, 0);
    const defenderLandAfter = Number((await sql("SELECT land FROM countries WHERE id = $1", [defender.countryId])).rows[0].land);
    expect(defenderLandBefore - defenderLandAfter).toBe(lost);
    expect(lost).toBeLessThanOrEqual(Math.floor(defenderLandBefore * 0.15) + 2);
    expect(lost).toBeGreaterThan(0);
    // all 50 battles are on the defender's record
    const { rows } = await sql("SELECT total_battles, defeats + victories AS fought FROM countries WHERE id = $1", [defender.countryId]);
    expect(rows[0]).toEqual({ total_battles: 50, fought: 50 });
  });

  it("opposing attacks between two countries at once: conserved, no deadlock", async () => {
    const a = await armedPlayer("duelA");
    const b = await armedPlayer("duelB");
    const since = await lastBattleId();
    const retriesBefore = await retries();
    const before = await auditTotals(t.server.database.pool);
    const calls: Promise<{ status: number; body: { report: BattleReportJson } }>[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push(t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: b.countryId, attackType: "standard_strike", units: { troops: 400, tanks: 20 } }, a.token));
      calls.push(t.api("POST", "/attack/launch", { countryId: b.countryId, targetCountryId: a.countryId, attackType: "standard_strike", units: { troops: 400, tanks: 20 } }, b.token));
    }
    const answers = await Promise.all(calls);
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(await retries()).toBe(retriesBefore);
    const after = await auditTotals(t.server.database.pool);
    expect(conservationErrors(before, after, await battleLedger(since))).toEqual([]);
    const { rows } = await sql("SELECT id, total_battles FROM countries WHERE id IN ($1, $2) ORDER BY id", [a.countryId, b.countryId]);
    expect(rows.map((r) => r.total_battles)).toEqual([20, 20]);
  });

  it("missile strikes destroy land and spend missiles: the audit accounts for both", async () => {
    const a = await armedPlayer("rocketA", { missiles: 10, weapons_tech: 5 });
    const d = await armedPlayer("rocketD", { turrets: 0 });
    const since = await lastBattleId();
    const before = await auditTotals(t.server.database.pool);
    const answers = await Promise.all(
      ["missile", "nuclear_missile", "chemical_missile"].map((attackType, i) => t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType, units: { missiles: [4, 3, 3][i] } }, a.token)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const after = await auditTotals(t.server.database.pool);
    const ledger = await battleLedger(since);
    expect(conservationErrors(before, after, ledger)).toEqual([]);
    expect(after.missiles - before.missiles).toBe(-10n);
    expect(answers.reduce((s, r) => s + r.body.report.landCaptured, 0)).toBe(0);
    expect(BigInt(answers.reduce((s, r) => s + r.body.report.landDestroyed, 0))).toBe(before.land - after.land);
  });
});
