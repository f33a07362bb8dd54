import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACK_TYPES, ATTACK_TYPE_IDS, DESERTION_LINE, isMissileAttack, type AttackTypeId } from "@game/schema/rules";
import type { BattleReplayResponse, BattleReportJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { executeStrike } from "../services/combat.js";

/**
 * Battle replays (issue 30): every attack type fought over REST (a planned strike through the
 * strike job) replays, recomputed on the server from the stored inputs and seed, to exactly the
 * stored report; both sides may watch it, nobody else; a battle without stored inputs is
 * refused rather than shown wrong.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

async function pair(prefix: string, attackerPatch: Record<string, number> = {}) {
  const a = await registerPlayer(t, `${prefix}A`);
  const d = await registerPlayer(t, `${prefix}D`);
  await setCountry(t.server.database.pool, a.countryId, { troops: 5_000, tanks: 300, jets: 200, turrets: 200, spies: 500, missiles: 10, weapons_tech: 5, cash: 5_000_000, turns: 150, land: 800, population: 8_000, ...attackerPatch });
  await setCountry(t.server.database.pool, d.countryId, { troops: 1_500, tanks: 80, jets: 40, turrets: 150, spies: 50, cash: 800_000, food: 200_000, oil: 5_000, land: 800, population: 8_000, farms: 40, residential_areas: 60 });
  return { a, d };
}

function unitsFor(attackType: AttackTypeId): Record<string, number> {
  if (isMissileAttack(attackType)) return { missiles: ATTACK_TYPES[attackType].maxUnits! };
  const half: Record<string, number> = { troops: 2_500, tanks: 150, jets: 100, spies: 250 };
  return Object.fromEntries(ATTACK_TYPES[attackType].allowedUnits.map((u) => [u, half[u]!]));
}

/** Fights one battle of `attackType` and answers its id. */
async function fight(attackType: AttackTypeId, p: Awaited<ReturnType<typeof pair>>): Promise<number> {
  const res = await t.api("POST", "/attack/launch", { countryId: p.a.countryId, targetCountryId: p.d.countryId, attackType, units: unitsFor(attackType) }, p.a.token);
  if (res.status !== 200) throw new Error(`${attackType}: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.body.executed) return res.body.report.id;
  // a planned strike: its preparation is over, the job runs it
  await sql("UPDATE strikes SET execute_at = now() WHERE id = $1", [res.body.strike.id]);
  expect(await executeStrike(t.server.ctx, res.body.strike.id)).toBe("executed");
  const { rows } = await sql("SELECT battle_id FROM strikes WHERE id = $1", [res.body.strike.id]);
  return Number(rows[0].battle_id);
}

async function replayOf(id: number, token: string) {
  return t.api("GET", `/battle-reports/${id}/replay`, undefined, token);
}

describe("battle replay", () => {
  it.each(ATTACK_TYPE_IDS)("%s: the replay ends exactly in the stored report, for both sides", async (attackType) => {
    const p = await pair(`rp${attackType.slice(0, 6)}`);
    const id = await fight(attackType, p);
    for (const side of [p.a, p.d]) {
      const stored: BattleReportJson = (await t.api("GET", `/battle-reports/${id}`, undefined, side.token)).body.report;
      const res = await replayOf(id, side.token);
      expect(res.status).toBe(200);
      const { replay } = res.body as BattleReplayResponse;
      expect(replay.report).toEqual(stored);
      expect(replay.phases.flatMap((ph) => ph.lines)).toEqual(stored.combatLog);
      const last = replay.phases.at(-1)!;
      expect(last.attackerLosses).toEqual(stored.attackerCasualties);
      expect(last.defenderLosses).toEqual(stored.defenderCasualties);
      expect(last.landTaken).toBe(stored.landCaptured + stored.landDestroyed);
      expect(last.plunder).toEqual(stored.resourcesGained);
      expect(replay.phases[0]!.kind).toBe(isMissileAttack(attackType) ? "launch" : "forces");
    }
  });

  it("the news items of both sides name the battle, so the news screen opens its replay", async () => {
    const p = await pair("rpnews");
    const id = await fight("standard_strike", p);
    for (const side of [p.a, p.d]) {
      const news = await t.api("GET", "/news?type=war", undefined, side.token);
      const items = news.body.data.filter((n: { kind: string }) => n.kind.startsWith("battle_"));
      expect(items.map((n: { battleId: number }) => n.battleId)).toEqual([id]);
    }
  });

  it("units that deserted while the attack was prepared open the log, in the replay too", async () => {
    // no cash and a large army: upkeep cannot be paid during the attack's turns
    const p = await pair("rpdes", { cash: 0, troops: 40_000 });
    const id = await fight("standard_strike", p);
    const stored: BattleReportJson = (await t.api("GET", `/battle-reports/${id}`, undefined, p.a.token)).body.report;
    expect(stored.combatLog[0]).toBe(DESERTION_LINE);
    expect((await replayOf(id, p.a.token)).body.replay.report).toEqual(stored);
  });

  it("refuses a third player (403), an unknown battle (404), bad ids (400), and a battle without stored inputs (409)", async () => {
    const p = await pair("rpref");
    const id = await fight("standard_strike", p);
    const other = await registerPlayer(t, "rpOther");
    expect(await replayOf(id, other.token)).toMatchObject({ status: 403, body: { success: false, error: "Only the two sides of a battle can replay it" } });
    expect(await replayOf(99_999_999, p.a.token)).toMatchObject({ status: 404, body: { success: false, error: "Battle report not found" } });
    expect((await replayOf(0, p.a.token)).status).toBe(400);
    expect((await t.api("GET", `/battle-reports/abc/replay`, undefined, p.a.token)).status).toBe(400);
    await sql("UPDATE battles SET replay_input = NULL WHERE id = $1", [id]);
    expect(await replayOf(id, p.a.token)).toMatchObject({ status: 409, body: { success: false, error: "This battle was fought before replays were recorded" } });
  });

  it("a rerun that no longer gives the stored report is refused, not shown wrong", async () => {
    const p = await pair("rpdiv");
    const id = await fight("standard_strike", p);
    // another seed: the same inputs now decide differently
    await sql("UPDATE battles SET seed = seed # 1234567 WHERE id = $1", [id]);
    expect(await replayOf(id, p.d.token)).toMatchObject({ status: 409, body: { success: false, error: "This battle was fought under earlier rules and cannot be replayed" } });
  });
});
