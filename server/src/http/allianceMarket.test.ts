import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import type { StoreJson } from "@game/schema/api";
import { computeMarketFeeModifiers, computeTradeAmounts } from "@game/schema/rules";
import { addMember, foundAlliance, type TestPlayer } from "../test/alliances.js";

/**
 * Alliances and diplomacy in the market: the seller's Market Discount and a trade agreement
 * between the two lower the public fee; a trade earns each side's alliance 1 point per
 * $10,000; a trade between members is resources shared.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;

/** The seller lists `quantity` food at `price` (within $72-$900), the buyer buys it all: the trade row. */
async function trade(seller: TestPlayer, buyer: TestPlayer, price: number, quantity = 100) {
  await sql("UPDATE countries SET food = food + $2, cash = cash + 1000000 WHERE id = ANY($1::bigint[])", [[seller.countryId, buyer.countryId], quantity]);
  const listed = await t.api("POST", "/market/listings", { countryId: seller.countryId, itemType: "food", quantity, pricePerUnit: price }, seller.token);
  expect(listed.status, JSON.stringify(listed.body)).toBeLessThan(300);
  const bought = await t.api("POST", `/market/listings/${listed.body.listing.id}/buy`, { countryId: buyer.countryId }, buyer.token);
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  return (await sql("SELECT id, total, fee FROM market_trades WHERE listing_id = $1", [listed.body.listing.id]))[0] as { id: number; total: number; fee: number };
}

describe("alliances in the market", () => {
  it("the fee is 5% without modifiers, lower with the seller's Market Discount, lower again with a trade agreement", async () => {
    const [seller, buyer] = await Promise.all([registerPlayer(t, "ms"), registerPlayer(t, "mb")]);
    const plain = await trade(seller, buyer, 500);
    expect(plain).toMatchObject({ total: 50_000, fee: 2_500 });

    const alliance = await foundAlliance(t, seller);
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name) VALUES ($1, 'market_discount', 1, 300, 's'), ($1, 'market_discount', 2, 390, 's')", [alliance.id]);
    // Level 2: 20% off the 5% fee = 4% (400 basis points).
    expect(await trade(seller, buyer, 500)).toMatchObject({ total: 50_000, fee: 2_000 });

    // The buyer signs a trade agreement with the seller (one-sided): 2 points more off.
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: seller.countryId, relationType: "trade" }, buyer.token)).status).toBe(201);
    expect(await trade(seller, buyer, 500)).toMatchObject({ total: 50_000, fee: 1_000 });
  });

  it("the store's answer gives the sell preview the inputs the trade uses: open listings and the seller's fee inputs", async () => {
    const [seller, buyer] = await Promise.all([registerPlayer(t, "ps"), registerPlayer(t, "pb")]);
    const alliance = await foundAlliance(t, seller);
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name) VALUES ($1, 'market_discount', 1, 300, 's')", [alliance.id]);
    await sql("UPDATE countries SET food = food + 1000 WHERE id = $1", [seller.countryId]);
    expect((await t.api("POST", "/market/listings", { countryId: seller.countryId, itemType: "food", quantity: 10, pricePerUnit: 500 }, seller.token)).status).toBeLessThan(300);
    const answer = await t.api("GET", `/market/store/${seller.countryId}`, undefined, seller.token);
    expect(answer.status).toBe(200);
    const terms = answer.body.data.seller as StoreJson["seller"];
    expect(terms.openListings).toBe(1);
    expect(terms.feeInputs.tradeAgreement).toBe(false);
    // The preview's fee for 100 food at $500 is the fee the trade charges (level 1: 4.5%).
    const preview = computeTradeAmounts(100, 500, computeMarketFeeModifiers(terms.feeInputs, Date.now()));
    expect(await trade(seller, buyer, 500)).toMatchObject({ total: 50_000, fee: preview.fee });
    expect(preview.fee).toBe(2_250);
  });

  it("a trade earns each side's alliance a point per $10,000, once; between members it is resources shared", async () => {
    const [a, b, c] = await Promise.all([registerPlayer(t, "pa"), registerPlayer(t, "pb"), registerPlayer(t, "pc")]);
    const alliance = await foundAlliance(t, a);
    await addMember(t, a, b);
    const points = async () => Number((await sql("SELECT bonus_points FROM alliances WHERE id = $1", [alliance.id]))[0].bonus_points);
    const before = await points();
    const inside = await trade(a, b, 617, 200);
    expect(inside.total).toBe(123_400);
    // 12 points for each member's side.
    expect((await points()) - before).toBe(24);
    const shared = await sql("SELECT country_id, resources_shared FROM alliance_members WHERE alliance_id = $1 ORDER BY country_id", [alliance.id]);
    expect(shared.map((r) => r.resources_shared)).toEqual([123_400, 123_400]);
    // With an outsider: only this side's points, no sharing.
    await trade(c, a, 200);
    expect((await points()) - before).toBe(24 + 2);
    expect((await sql("SELECT count(*)::int AS n FROM alliance_point_ledger WHERE source = 'trade' AND alliance_id = $1", [alliance.id]))[0].n).toBe(3);
  });
});

describe("the read models count the bonuses a spent turn applies (issue 26: the income previews)", () => {
  it("GET /production/status answers the alliance's Economic Surge in force and counts it in the cash per turn", async () => {
    const [member, outsider] = await Promise.all([registerPlayer(t, "es"), registerPlayer(t, "eo")]);
    const alliance = await foundAlliance(t, member);
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name, expires_at) VALUES ($1, 'economic_surge', 1, 150, 's', now() + interval '12 hours')", [alliance.id]);
    const status = async (p: TestPlayer) => (await t.api("GET", `/production/status/${p.countryId}`, undefined, p.token)).body;
    const [withSurge, without] = [await status(member), await status(outsider)];
    expect(withSurge.bonuses).toEqual({ incomePct: 10, researchPct: 0 });
    expect(without.bonuses).toEqual({ incomePct: 0, researchPct: 0 });
    // Two fresh countries alike but for the surge: its 10% more taxes.
    expect(withSurge.productionPerTurn.cash).toBeGreaterThan(without.productionPerTurn.cash);
  });
});
