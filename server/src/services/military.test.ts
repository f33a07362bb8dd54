import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIGADE_DUTY_FATIGUE, computeMilitaryUpkeep, computeNetworth, MISSILE_PRICE } from "@game/schema/rules";
import type { BrigadeJson, MilitaryStatusJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { rowToState } from "../db/countries.js";

/**
 * The military's own actions over REST: status, brigades (use, recover, reduce), deployment,
 * defense allocation and alert level (kept on the server), missiles, the GDI, alliance
 * support offers. Every refusal answers the rule's message and changes nothing.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const row = async (id: number) => (await sql("SELECT * FROM countries WHERE id = $1", [id])).rows[0];

async function player(prefix: string, patch: Record<string, number> = {}) {
  const p = await registerPlayer(t, prefix);
  await setCountry(t.server.database.pool, p.countryId, { troops: 3_000, tanks: 100, jets: 50, turrets: 500, cash: 1_000_000, turns: 150, land: 400, ...patch });
  return p;
}

describe("status", () => {
  it("answers the owner's military figures from real data; 403 for anyone else", async () => {
    const p = await player("status", { industrial_complexes: 3, military_bases: 2, missiles: 1 });
    const res = await t.api("GET", `/military/status/${p.countryId}`, undefined, p.token);
    expect(res.status).toBe(200);
    const s: MilitaryStatusJson = res.body.status;
    const state = rowToState(await row(p.countryId));
    expect(s.upkeep).toBe(computeMilitaryUpkeep(state));
    expect(s.deployment).toEqual({ garrison: 40, patrol: 30, reserve: 20, expedition: 10 });
    expect(s.defense).toMatchObject({ alertLevel: "medium", allocation: { garrison: 40, perimeter: 30, airDefense: 20, counterIntel: 10 } });
    expect(s.defense.systems.map((x) => [x.id, x.maxLevel])).toEqual([
      ["sdi", 10],
      ["air_defense", 8],
      ["counter_intel", 12],
      ["fortification", 15],
    ]);
    expect(s.brigades).toMatchObject({ ready: 5, deployed: 0 });
    expect(s.missiles).toEqual({ stock: 1, capacity: 4, price: MISSILE_PRICE });
    expect(s.production).toMatchObject({ complexes: 3, activeComplexes: 3, perComplex: { troops: 6, jets: 2, turrets: 4, tanks: 2 } });
    expect(s.protection.status).toBe("unprotected");
    const other = await registerPlayer(t, "nosy");
    expect((await t.api("GET", `/military/status/${p.countryId}`, undefined, other.token)).status).toBe(403);
    expect((await t.api("GET", `/military/brigades/${p.countryId}`, undefined, other.token)).status).toBe(403);
    expect((await t.api("GET", `/military/status/${p.countryId}`)).status).toBe(401);
  });
});

describe("brigades", () => {
  it("use-brigade deploys for defence, reduce-readiness stands it down, recover-readiness pays for readiness", async () => {
    const p = await player("brig");
    const use = await t.api("POST", "/military/use-brigade", { countryId: p.countryId, brigadeId: 2 }, p.token);
    expect(use.status).toBe(200);
    expect(use.body.brigade).toMatchObject({ id: 2, name: "Bravo", status: "deployed", readiness: 100 - BRIGADE_DUTY_FATIGUE });
    expect(use.body).toMatchObject({ ready: 4, deployed: 1 });
    const again = await t.api("POST", "/military/use-brigade", { countryId: p.countryId, brigadeId: 2 }, p.token);
    expect(again.body).toMatchObject({ success: false, error: "Brigade Bravo is already deployed", code: "brigade/already_deployed" });

    const listed = await t.api("GET", `/military/brigades/${p.countryId}`, undefined, p.token);
    expect(listed.body.brigades.map((b: BrigadeJson) => b.status)).toEqual(["ready", "deployed", "ready", "ready", "ready"]);

    const reduce = await t.api("POST", "/military/reduce-readiness", { countryId: p.countryId, brigadeId: 2 }, p.token);
    expect(reduce.body.brigade.status).toBe("ready");
    expect((await t.api("POST", "/military/reduce-readiness", { countryId: p.countryId, brigadeId: 2 }, p.token)).body.error).toBe("Brigade Bravo is not deployed");

    const cashBefore = Number((await row(p.countryId)).cash);
    const recover = await t.api("POST", "/military/recover-readiness", { countryId: p.countryId, brigadeId: 2 }, p.token);
    expect(recover.status).toBe(200);
    expect(recover.body.brigade.readiness).toBe(100);
    const upkeep = computeMilitaryUpkeep(rowToState(await row(p.countryId)));
    expect(recover.body.cost).toBe(Math.ceil((BRIGADE_DUTY_FATIGUE * 24 * Math.max(100, upkeep)) / 100));
    const after = await row(p.countryId);
    expect(Number(after.cash)).toBe(cashBefore - recover.body.cost);
    expect(after.networth).toBe(computeNetworth(rowToState(after)));
    expect((await t.api("POST", "/military/recover-readiness", { countryId: p.countryId, brigadeId: 2 }, p.token)).body.error).toBe("Brigade Bravo is already at full readiness");
    for (const bad of [{ countryId: p.countryId, brigadeId: 6 }, { countryId: p.countryId }, { countryId: p.countryId, brigadeId: "x" }]) {
      expect((await t.api("POST", "/military/use-brigade", bad, p.token)).status).toBe(400);
    }
  });

  it("attacks tire brigades; with none ready, the attack is refused with the rule's message", async () => {
    const a = await player("tired", { troops: 20_000, turns: 150 });
    const d = await player("tiredD", { troops: 100 });
    // every brigade exhausted
    for (let slot = 1; slot <= 5; slot++) {
      await sql("INSERT INTO brigades (country_id, slot, readiness, readiness_at) VALUES ($1, $2, 10, now())", [a.countryId, slot]);
    }
    const res = await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 1_000 } }, a.token);
    expect(res.body).toMatchObject({ error: "No brigade ready: every brigade is deployed or recovering", code: "brigade/none_ready" });
    await sql("UPDATE brigades SET readiness = 100 WHERE country_id = $1 AND slot = 3", [a.countryId]);
    const ok = await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 1_000 } }, a.token);
    expect(ok.status).toBe(200);
    const brigades = (await t.api("GET", `/military/brigades/${a.countryId}`, undefined, a.token)).body.brigades as BrigadeJson[];
    expect(brigades[2]).toMatchObject({ readiness: 70, status: "ready" });
    expect(brigades[2]!.lastDeployed).not.toBeNull();
  });
});

describe("deployment, defense, alert level", () => {
  it("are kept on the server; over 100% is refused; the defaults come back in status", async () => {
    const p = await player("posture");
    const dep = await t.api("POST", "/military/deployment", { countryId: p.countryId, garrison: 10, patrol: 10, reserve: 0, expedition: 80 }, p.token);
    expect(dep.body.deployment).toEqual({ garrison: 10, patrol: 10, reserve: 0, expedition: 80 });
    const over = await t.api("POST", "/military/deployment", { countryId: p.countryId, garrison: 50, patrol: 50, reserve: 1, expedition: 0 }, p.token);
    expect(over.body).toMatchObject({ error: "Deployment cannot exceed 100% (now 101%)" });
    const def = await t.api("POST", "/military/defense", { countryId: p.countryId, alertLevel: "critical", allocation: { garrison: 0, perimeter: 60, airDefense: 40, counterIntel: 0 } }, p.token);
    expect(def.body).toMatchObject({ alertLevel: "critical", allocation: { perimeter: 60, airDefense: 40 } });
    expect((await t.api("POST", "/military/defense", { countryId: p.countryId, alertLevel: "extreme" }, p.token)).status).toBe(400);
    const status: MilitaryStatusJson = (await t.api("GET", `/military/status/${p.countryId}`, undefined, p.token)).body.status;
    expect(status.deployment).toEqual({ garrison: 10, patrol: 10, reserve: 0, expedition: 80 });
    expect(status.defense.alertLevel).toBe("critical");
    expect(status.defense.interceptChance).toBe(Math.round(10 + Math.min(25, (500 / 400) * 5)));
  });

  it("the alert level changes the battle: critical defends 20% better than medium", async () => {
    const a = await player("alertA", { troops: 10_000 });
    const d = await player("alertD", { troops: 2_000 });
    // the defender's copy: the attacker's estimates the defender's forces (issue 28)
    const fight = async () => {
      const launched = (await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "guerrilla_strike", units: { troops: 1_000 } }, a.token)).body.report;
      return (await t.api("GET", `/battle-reports/${launched.id}`, undefined, d.token)).body.report;
    };
    const medium = await fight();
    await t.api("POST", "/military/defense", { countryId: d.countryId, alertLevel: "critical" }, d.token);
    const critical = await fight();
    // same forces on the defending side apart from the first battle's losses
    const perTroop = (r: { defensePower: number; defenderForces: { troops: number } }) => r.defensePower / r.defenderForces.troops;
    expect(perTroop(critical) / perTroop(medium)).toBeCloseTo(1.2, 1);
  });
});

describe("missiles and the GDI", () => {
  it("missiles are bought at the bases' capacity, for cash", async () => {
    const p = await player("missile", { military_bases: 3, cash: 100_000 });
    const refused = await t.api("POST", "/military/missiles/buy", { countryId: p.countryId, quantity: 7 }, p.token);
    expect(refused.body.error).toBe("Your military bases store 6 missiles: room for 6 more");
    const bought = await t.api("POST", "/military/missiles/buy", { countryId: p.countryId, quantity: 5 }, p.token);
    expect(bought.status).toBe(200);
    expect(bought.body.country.missiles).toBe("5");
    const after = await row(p.countryId);
    expect(Number(after.cash)).toBe(0);
    expect(after.networth).toBe(computeNetworth(rowToState(after)));
    expect((await t.api("POST", "/military/missiles/buy", { countryId: p.countryId, quantity: 1 }, p.token)).body.error).toBe("Insufficient funds. Need $20,000 more.");
  });

  it("joining the GDI costs $100 an acre and protects; leaving waits 24 hours", async () => {
    const p = await player("gdi");
    const join = await t.api("POST", "/military/gdi/join", { countryId: p.countryId }, p.token);
    expect(join.body).toMatchObject({ member: true, fee: 40_000 });
    expect(join.body.country).toMatchObject({ gdi_protection: true, protection_status: "gdi_protected" });
    expect((await t.api("POST", "/military/gdi/join", { countryId: p.countryId }, p.token)).body.code).toBe("gdi/already_member");
    expect((await t.api("POST", "/military/gdi/leave", { countryId: p.countryId }, p.token)).body.code).toBe("gdi/min_membership");
    await sql("UPDATE military_settings SET gdi_joined_at = now() - interval '25 hours' WHERE country_id = $1", [p.countryId]);
    const leave = await t.api("POST", "/military/gdi/leave", { countryId: p.countryId }, p.token);
    expect(leave.body.country.protection_status).toBe("unprotected");
    expect((await t.api("POST", "/military/gdi/join", { countryId: p.countryId }, p.token)).body.code).toBe("gdi/rejoin_cooldown");
  });
});

describe("alliance support", () => {
  it("lists active allies with 25% of their forces; lends them in battle, capped at the attacker's own force", async () => {
    const a = await player("supA", { troops: 2_000, tanks: 0, jets: 0 });
    const ally = await player("supB", { troops: 40_000, tanks: 0, jets: 0 });
    const idle = await player("supC", { troops: 4_000 });
    const d = await player("supD", { troops: 500 });
    await sql("UPDATE countries SET alliance_id = 777 WHERE id IN ($1, $2, $3)", [a.countryId, ally.countryId, idle.countryId]);
    await sql("UPDATE countries SET last_active = now() - interval '10 days' WHERE id = $1", [idle.countryId]);
    const offers = await t.api("GET", `/attack/allies/${a.countryId}?targetCountryId=${d.countryId}`, undefined, a.token);
    expect(offers.status).toBe(200);
    const byId = new Map(offers.body.allies.map((o: { countryId: number }) => [o.countryId, o]));
    expect(byId.get(ally.countryId)).toMatchObject({ isActive: true, availableForces: { troops: 10_000 }, reason: null });
    expect(byId.get(idle.countryId)).toMatchObject({ isActive: false, reason: "Alliance support unavailable (out of range or engaged)" });
    expect(offers.body.estimatedContribution).toBe(100);

    const res = await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "guerrilla_strike", units: { troops: 1_000 }, allianceSupport: { enabled: true } }, a.token);
    expect(res.status).toBe(200);
    const support = res.body.report.allianceSupport;
    expect(support.attackerAllies).toHaveLength(1);
    expect(support.attackerAllies[0]).toMatchObject({ countryId: ally.countryId, units: { troops: 10_000 } });
    // capped: the allies add at most the attacker's own force
    const own = 1_000 * 1.1;
    expect(support.attackerAllies[0].power).toBeLessThanOrEqual(Math.ceil(own));
    // allies lend strength and lose nothing
    expect(Number((await row(ally.countryId)).troops)).toBe(40_000);
  });
});
