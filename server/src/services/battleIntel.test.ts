import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIDENCE_SPREAD, UNIT_TYPES } from "@game/schema/rules";
import type { BattleReportJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";

/**
 * Issue 28: "a 1-troop attack is a free spy report": an attack with a handful of units returned
 * the defender's exact troops, jets, tanks, turrets and spies in defenderForces. The attacker's
 * copy now holds estimates (docs/rules.md, "What a battle report tells the attacker").
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const REAL = { troops: 12_345, jets: 678, turrets: 910, tanks: 111, spies: 40 };

describe("issue 28: a small attack is no free spy report", () => {
  it("the attacker's copy estimates the defender's forces (low confidence without intelligence); the defender's copy is exact", async () => {
    const attacker = await registerPlayer(t, "probe");
    const defender = await registerPlayer(t, "hidden");
    await setCountry(t.server.database.pool, attacker.countryId, { troops: 100, cash: 5_000_000, turns: 150, land: 800, population: 8_000 });
    await setCountry(t.server.database.pool, defender.countryId, { ...REAL, land: 800, population: 8_000 });

    const launched = await t.api("POST", "/attack/launch", { countryId: attacker.countryId, targetCountryId: defender.countryId, attackType: "standard_strike", units: { troops: 10 } }, attacker.token);
    expect(launched.status).toBe(200);
    const seen: BattleReportJson = launched.body.report;
    const own: BattleReportJson = (await t.api("GET", `/battle-reports/${seen.id}`, undefined, defender.token)).body.report;
    // the defender reads its own side exactly: what fought of its real forces
    expect(own.defenderForces.troops).toBe(REAL.troops);
    const exact = own.defenderForces;
    // not the exact numbers, but within the low confidence's spread of them
    const fought = UNIT_TYPES.filter((u) => exact[u] > 0);
    expect(fought.length).toBeGreaterThan(1);
    expect(fought.filter((u) => seen.defenderForces[u] === exact[u]).length).toBeLessThan(fought.length);
    for (const u of UNIT_TYPES) expect(Math.abs(seen.defenderForces[u] - exact[u])).toBeLessThanOrEqual(Math.ceil(exact[u] * CONFIDENCE_SPREAD.low));
    expect(seen.combatLog).not.toContain(own.combatLog.find((line) => line.startsWith(`${defender.body.countryName} lost `)));

    expect(seen.defenderSideConfidence).toBe("low");
    expect(own.defenderSideConfidence).toBeNull();

    // the attacker reads the same copy later
    const again = await t.api("GET", `/battle-reports/${seen.id}`, undefined, attacker.token);
    expect(again.body.report.defenderForces).toEqual(seen.defenderForces);
  });
});
