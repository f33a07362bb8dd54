import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwaySummaryResponse } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { addMember, foundAlliance, type TestPlayer } from "../test/alliances.js";

/**
 * The away summary (issue 30): what happened to a player's country since its last visit, from
 * the news and records the server keeps; bad input is a 400.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const summary = (token: string, since: string) => t.api("GET", `/news/away-summary?since=${encodeURIComponent(since)}`, undefined, token);

describe("away summary", () => {
  it("counts the attacks a defender suffered while away, with the battle, and the attacker's own", async () => {
    const a = await registerPlayer(t, "awayA");
    const d = await registerPlayer(t, "awayD");
    await setCountry(t.server.database.pool, a.countryId, { troops: 5_000, tanks: 300, cash: 5_000_000, turns: 150, land: 800, population: 8_000 });
    await setCountry(t.server.database.pool, d.countryId, { troops: 500, turrets: 50, land: 800, population: 8_000 });
    const left = new Date(Date.now() - 1_000).toISOString();
    const launched = await t.api("POST", "/attack/launch", { countryId: a.countryId, targetCountryId: d.countryId, attackType: "standard_strike", units: { troops: 4_000, tanks: 200 } }, a.token);
    expect(launched.status).toBe(200);
    const report = launched.body.report;

    const res = await summary(d.token, left);
    expect(res.status).toBe(200);
    const s = res.body as AwaySummaryResponse;
    const won = report.outcome === "attacker_victory";
    expect(s).toMatchObject({ attacksReceived: 1, attacksRepelled: won ? 0 : 1, landLost: report.landCaptured, attacksMade: 0, spyDetections: 0, tradesFilled: 0, defenseRequests: 0 });
    expect(s.battles).toEqual([{ battleId: report.id, role: "defender", opponentName: report.attackerName, attackType: "standard_strike", won: !won, land: report.landCaptured, at: report.timestamp }]);
    expect(s.items.map((i) => i.battleId)).toContain(report.id);
    expect(s.rankNow).toBeGreaterThan(0);

    const mine = (await summary(a.token, left)).body as AwaySummaryResponse;
    expect(mine).toMatchObject({ attacksReceived: 0, attacksMade: 1, attacksWon: won ? 1 : 0, landGained: report.landCaptured });

    // nothing since after the battle
    const later = (await summary(d.token, new Date(Date.now() + 1_000).toISOString())).body as AwaySummaryResponse;
    expect(later).toMatchObject({ attacksReceived: 0, battles: [] });
  });

  it("counts the seller's listings bought while it was away, not the purchases it made itself", async () => {
    const seller = await registerPlayer(t, "awayS");
    const buyer = await registerPlayer(t, "awayB");
    await t.server.database.pool.query("UPDATE countries SET cash = 5000000, troops = 5000 WHERE id = ANY($1::bigint[])", [[seller.countryId, buyer.countryId]]);
    const left = new Date(Date.now() - 1_000).toISOString();
    const listed = await t.api("POST", "/market/listings", { countryId: seller.countryId, itemType: "troops", quantity: 100, pricePerUnit: 120 }, seller.token);
    expect(listed.status).toBe(200);
    const bought = await t.api("POST", `/market/listings/${listed.body.listing.id}/buy`, { countryId: buyer.countryId }, buyer.token);
    expect(bought.status).toBe(200);
    expect((await summary(seller.token, left)).body).toMatchObject({ tradesFilled: 1, tradeValue: 12_000 });
    expect((await summary(buyer.token, left)).body).toMatchObject({ tradesFilled: 0, tradeValue: 0 });
  });

  it("counts the allies' defense requests and the alliance's operations since the last visit, not the player's own request, older ones, cancelled ones or another alliance's", async () => {
    const armed = async (prefix: string, patch: Record<string, number> = {}): Promise<TestPlayer> => {
      const p = await registerPlayer(t, prefix);
      await setCountry(t.server.database.pool, p.countryId, { troops: 5_000, tanks: 300, jets: 100, turrets: 200, cash: 5_000_000, turns: 150, land: 800, population: 8_000, ...patch });
      return p;
    };
    const sql = (text: string, values: unknown[]) => t.server.database.pool.query(text, values);
    const [owner, early, ally, target, rival] = await Promise.all([armed("awayO"), armed("awayE"), armed("awayM"), armed("awayT", { troops: 800, tanks: 20, jets: 5, turrets: 100 }), armed("awayR")]);
    const alliance = await foundAlliance(t, owner);
    await addMember(t, owner, early);
    await addMember(t, owner, ally);
    await foundAlliance(t, rival);
    const ask = async (p: TestPlayer) => {
      const res = await t.api("POST", "/alliance/defense-requests", { urgency: "high", supportNeeded: { military: true } }, p.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.requestId as number;
    };
    const plan = async (p: TestPlayer, name: string) => {
      const res = await t.api(
        "POST",
        "/alliance/operations",
        { name, operationType: "coordinated_attack", targetCountryId: target.countryId, scheduledFor: Date.now(), requirements: { minParticipants: 2, maxParticipants: 4, minTotalForce: 1_000 } },
        p.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.operationId as number;
    };

    // Before the visit ended: one ally's request and one planned operation (moved an hour back).
    const old = await ask(early);
    const oldOperation = await plan(owner, "Old plan");
    await sql("UPDATE alliance_defense_requests SET requested_at = now() - interval '1 hour' WHERE id = $1", [old]);
    await sql("UPDATE alliance_operations SET created_at = now() - interval '1 hour' WHERE id = $1", [oldOperation]);
    const left = new Date(Date.now() - 10 * 60_000).toISOString();

    // While away: an ally asks for help, the player itself asks, another alliance asks.
    await ask(ally);
    await ask(owner);
    await ask(rival);
    // Operations: one launched and completed, one still being planned, one called off, and one in the other alliance.
    const done = await plan(owner, "Hammer");
    for (const p of [owner, ally]) {
      const joined = await t.api("POST", `/alliance/operations/${done}/respond`, { response: "join", contribution: { troops: 2_000, tanks: 100, jets: 50 } }, p.token);
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    }
    const launched = await t.api("POST", `/alliance/operations/${done}/launch`, {}, owner.token);
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.outcome.battleReportIds.length).toBeGreaterThan(0);
    await plan(owner, "Anvil");
    const dropped = await plan(owner, "Called off");
    expect((await t.api("POST", `/alliance/operations/${dropped}/cancel`, {}, owner.token)).status).toBe(200);
    await plan(rival, "Elsewhere");
    expect((await sql("SELECT count(*)::int AS n FROM alliance_operations WHERE alliance_id = $1", [alliance.id])).rows[0].n).toBe(4);

    const counts = async (p: TestPlayer) => {
      const res = await summary(p.token, left);
      expect(res.status).toBe(200);
      const s = res.body as AwaySummaryResponse;
      return { defenseRequests: s.defenseRequests, allianceOperations: s.allianceOperations };
    };
    // the owner: the ally's request only (not its own, not the one from before, not the rival's);
    // the completed operation once and the one being planned (not the cancelled one, the old one or the rival's)
    expect(await counts(owner)).toEqual({ defenseRequests: 1, allianceOperations: 2 });
    // the early member: both requests made while it was away (the ally's and the owner's)
    expect(await counts(early)).toEqual({ defenseRequests: 2, allianceOperations: 2 });
    expect(await counts(ally)).toEqual({ defenseRequests: 1, allianceOperations: 2 });
    // the other alliance: nothing of the first one's
    expect(await counts(rival)).toEqual({ defenseRequests: 0, allianceOperations: 1 });
    // a country in no alliance: nothing
    expect(await counts(target)).toEqual({ defenseRequests: 0, allianceOperations: 0 });
    // since after all of it: nothing
    const later = (await summary(owner.token, new Date(Date.now() + 1_000).toISOString())).body as AwaySummaryResponse;
    expect(later).toMatchObject({ defenseRequests: 0, allianceOperations: 0 });
  });

  it("looks back 30 days at most; bad input is a 400, no token a 401", async () => {
    const p = await registerPlayer(t, "awayQ");
    const old = (await summary(p.token, "2000-01-01T00:00:00Z")).body as AwaySummaryResponse;
    expect(Date.parse(old.until) - Date.parse(old.since)).toBeLessThanOrEqual(30 * 86_400_000 + 1_000);
    for (const bad of ["yesterday", ""]) {
      expect(await summary(p.token, bad)).toMatchObject({ status: 400, body: { success: false, error: "since must be an ISO 8601 date and time" } });
    }
    expect((await t.api("GET", "/news/away-summary", undefined, p.token)).status).toBe(400);
    expect((await t.api("GET", `/news/away-summary?since=${new Date().toISOString()}`)).status).toBe(401);
  });
});
