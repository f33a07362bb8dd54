import "@colyseus/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, DELETE_ACCOUNT_CONFIRMATION } from "@game/schema/api";
import { SESSION_CLOSE_SIGNED_OUT } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { addMember, foundAlliance } from "../test/alliances.js";
import { AUDITED, auditTotals, conservationErrors, type Audited } from "../db/audit.js";

let t: TestServer;
const open: WorldTestClient[] = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;

async function login(email: string, password: string) {
  return t.api("POST", "/auth/login", { email, password });
}

async function world(token: string) {
  const c = await joinWorld(t.baseUrl, token);
  open.push(c);
  let code: number | undefined;
  c.room.onLeave((closeCode: number) => (code = closeCode));
  return Object.assign(c, { leftWith: () => code });
}

describe("POST /auth/change-password", () => {
  it("checks the current password and the new one's length, then revokes and closes every other session but this one", async () => {
    const p = await registerPlayer(t, "cp");
    const other = (await login(p.body.email, "secret123")).body.token as string;
    const otherRoom = await world(other);
    const ownRoom = await world(p.token);

    const wrong = await t.api("POST", "/auth/change-password", { currentPassword: "nope-nope", newPassword: "longenough1" }, p.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, error: ACCOUNT_MESSAGES.wrongPassword });
    const short = await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "short" }, p.token);
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("Password must be at least 8 characters");
    expect((await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "secret123" }, p.token)).body.error).toBe(ACCOUNT_MESSAGES.samePassword);
    expect((await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "a\u0000bcdefgh" }, p.token)).status).toBe(400);
    expect((await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "longenough1" })).status).toBe(401);

    const changed = await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "longenough1" }, p.token);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.message).toBe(ACCOUNT_MESSAGES.passwordChanged);

    await eventually(() => otherRoom.leftWith() === SESSION_CLOSE_SIGNED_OUT, "the other session's room to close");
    expect(ownRoom.leftWith()).toBeUndefined();
    expect((await t.api("GET", "/user/me", undefined, other)).status).toBe(401);
    expect((await t.api("GET", "/user/me", undefined, p.token)).status).toBe(200);
    expect((await login(p.body.email, "secret123")).status).toBe(401);
    const fresh = await login(p.body.email, "longenough1");
    expect(fresh.status).toBe(200);
    expect((await t.api("GET", "/user/me", undefined, fresh.body.token)).status).toBe(200);
  });

  it("throttles password re-entries per user: 5 wrong answers, then 429 even with the right one", async () => {
    const p = await registerPlayer(t, "ct");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await t.api("POST", "/auth/change-password", { currentPassword: `wrong-${i}`, newPassword: "longenough1" }, p.token)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await t.api("POST", "/auth/change-password", { currentPassword: "secret123", newPassword: "longenough1" }, p.token)).status).toBe(429);
  });
});

describe("GET /account/export", () => {
  it("answers everything about the player, without secrets, with the date in the file name", async () => {
    const p = await registerPlayer(t, "ex");
    const buyer = await registerPlayer(t, "eb");
    await sql("UPDATE countries SET troops = 5000, cash = 5000000 WHERE id = ANY($1::bigint[])", [[p.countryId, buyer.countryId]]);
    const listing = await t.api("POST", "/market/listings", { countryId: p.countryId, itemType: "troops", quantity: 10, pricePerUnit: 100 }, p.token);
    expect(listing.status).toBe(200);
    expect((await t.api("POST", `/market/listings/${listing.body.listing.id}/buy`, { countryId: buyer.countryId, quantity: 4 }, buyer.token)).status).toBe(200);
    expect((await t.api("POST", "/chat/send", { channel: "general", content: "hello export" }, p.token)).status).toBe(201);
    const alliance = await foundAlliance(t, p);

    const res = await fetch(`${t.baseUrl}/api/account/export`, { headers: { authorization: `Bearer ${p.token}` } });
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`attachment; filename="nation-game-export-[\\w-]+-${today}\\.json"`));
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.filename).toContain(today);
    const data = body.export;
    expect(data).toMatchObject({ format: "nation-game-account-export", version: 1, account: { id: p.user.id, email: p.body.email, username: p.body.username } });
    expect(data.country).toMatchObject({ id: p.countryId, name: p.body.countryName });
    expect(data.marketListings).toHaveLength(1);
    expect(data.trades).toHaveLength(1);
    expect(data.trades[0]).toMatchObject({ quantity: 4, seller_id: p.countryId, buyer_id: buyer.countryId });
    expect(data.chatMessages.map((m: { content: string }) => m.content)).toContain("hello export");
    expect(data.allianceMembership).toHaveLength(1);
    expect(data.alliance).toMatchObject({ id: alliance.id, name: alliance.name, role: "owner" });
    expect(Array.isArray(data.newsRead)).toBe(true);
    expect(Array.isArray(data.battleReports)).toBe(true);
    // No secrets: not the password hash, not the token state.
    expect(text).not.toMatch(/password_hash|argon2|tokens_kept_jti/);
    // Nothing of another player.
    expect(text).not.toContain(buyer.body.email);
    expect((await t.api("GET", "/account/export")).status).toBe(401);
  });

  it("GET /account/stats counts real trades, messages and battles", async () => {
    const p = await registerPlayer(t, "st");
    expect((await t.api("POST", "/chat/send", { channel: "general", content: "one" }, p.token)).status).toBe(201);
    const stats = await t.api("GET", "/account/stats", undefined, p.token);
    expect(stats.status).toBe(200);
    expect(stats.body.stats).toMatchObject({ chatMessages: 1, trades: { count: 0, volume: 0 }, battles: { fought: 0, won: 0, lost: 0 }, accountAgeDays: 0, country: { id: p.countryId } });
  });
});

describe("POST /account/delete", () => {
  it("refuses without the typed confirmation or the password, and changes nothing", async () => {
    const p = await registerPlayer(t, "dr");
    const bad = await t.api("POST", "/account/delete", { confirmation: "delete my account", password: "secret123" }, p.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(ACCOUNT_MESSAGES.deleteConfirmation);
    const wrong = await t.api("POST", "/account/delete", { confirmation: DELETE_ACCOUNT_CONFIRMATION, password: "nope-nope" }, p.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(ACCOUNT_MESSAGES.deleteWrongPassword);
    expect(await sql("SELECT id FROM users WHERE id = $1", [p.user.id])).toHaveLength(1);
  });

  it("the account and country leave the world cleanly: listings and orders cancelled (the audit sees exactly the country's holdings and escrow leave), the owner's seat passes on, sessions close, the email registers again", async () => {
    const p = await registerPlayer(t, "dd");
    const member = await registerPlayer(t, "dm");
    const buyer = await registerPlayer(t, "dx");
    await sql("UPDATE countries SET troops = 5000, food = 100000, cash = 5000000 WHERE id = ANY($1::bigint[])", [[p.countryId, member.countryId, buyer.countryId]]);
    const alliance = await foundAlliance(t, p);
    await addMember(t, p, member);
    // An open listing (partly sold: the counterparty keeps its history), another open one, an order.
    const sold = await t.api("POST", "/market/listings", { countryId: p.countryId, itemType: "troops", quantity: 100, pricePerUnit: 100 }, p.token);
    expect(sold.status).toBe(200);
    expect((await t.api("POST", `/market/listings/${sold.body.listing.id}/buy`, { countryId: buyer.countryId, quantity: 30 }, buyer.token)).status).toBe(200);
    const food = await t.api("POST", "/market/listings", { countryId: p.countryId, itemType: "food", quantity: 500, pricePerUnit: 100 }, p.token);
    expect(food.status, JSON.stringify(food.body)).toBe(200);
    const order = await t.api("POST", "/market/standing-orders", { countryId: p.countryId, itemType: "jets", quantity: 10, maxPrice: 100 }, p.token);
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const room = await world(p.token);
    const memberRoom = await world(member.token);

    const [country] = await sql(`SELECT ${AUDITED.join(", ")} FROM countries WHERE id = $1`, [p.countryId]);
    const [escrow] = await sql(
      `SELECT (SELECT coalesce(sum(held_quantity) FILTER (WHERE item_type = 'troops'), 0) FROM market_listings WHERE seller_id = $1)::text AS troops,
              (SELECT coalesce(sum(held_quantity) FILTER (WHERE item_type = 'food'), 0) FROM market_listings WHERE seller_id = $1)::text AS food,
              (SELECT coalesce(sum(held_cash), 0) FROM standing_orders WHERE buyer_id = $1)::text AS cash`,
      [p.countryId],
    );
    expect(BigInt(escrow.troops)).toBe(70n);
    expect(BigInt(escrow.food)).toBe(500n);
    expect(BigInt(escrow.cash)).toBe(1000n);
    const documented = Object.fromEntries(AUDITED.map((q) => [q, -BigInt(country[q]) - BigInt(escrow[q] ?? 0)])) as Record<Audited, bigint>;
    const before = await auditTotals(t.server.database.pool);

    const deleted = await t.api("POST", "/account/delete", { confirmation: DELETE_ACCOUNT_CONFIRMATION, password: "secret123" }, p.token);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ listingsCancelled: 2, ordersCancelled: 1, allianceLeft: true, allianceDisbanded: false });

    expect(conservationErrors(before, await auditTotals(t.server.database.pool), documented)).toEqual([]);
    expect(await sql("SELECT id FROM users WHERE id = $1", [p.user.id])).toEqual([]);
    expect(await sql("SELECT id FROM countries WHERE id = $1", [p.countryId])).toEqual([]);
    expect(await sql("SELECT id FROM market_listings WHERE seller_id = $1", [p.countryId])).toEqual([]);
    // The buyer keeps its trade, under the seller's name.
    const trades = await sql("SELECT seller_id, seller_name, buyer_id, quantity FROM market_trades WHERE buyer_id = $1", [buyer.countryId]);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ seller_id: null, seller_name: p.body.countryName });
    expect(Number(trades[0].quantity)).toBe(30);
    // The owner's seat passed to the member.
    const [seat] = await sql("SELECT role FROM alliance_members WHERE country_id = $1 AND alliance_id = $2", [member.countryId, alliance.id]);
    expect(seat.role).toBe("owner");
    // Sessions closed, token refused; the member's session untouched.
    await eventually(() => room.leftWith() === SESSION_CLOSE_SIGNED_OUT, "the deleted player's session to close");
    expect(memberRoom.leftWith()).toBeUndefined();
    expect((await t.api("GET", "/user/me", undefined, p.token)).status).toBe(401);
    // The email, username and country name register again.
    const again = await t.api("POST", "/auth/register", p.body);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("the last member's deletion disbands the alliance", async () => {
    const p = await registerPlayer(t, "dl");
    const alliance = await foundAlliance(t, p);
    const deleted = await t.api("POST", "/account/delete", { confirmation: DELETE_ACCOUNT_CONFIRMATION, password: "secret123" }, p.token);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ allianceLeft: true, allianceDisbanded: true });
    const [row] = await sql("SELECT disbanded_at FROM alliances WHERE id = $1", [alliance.id]);
    expect(row.disbanded_at).not.toBeNull();
  });
});
