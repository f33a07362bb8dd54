import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwaySummaryResponse } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";

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
