import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { auditTotals, conservationErrors, diffTotals, type Audited, type AuditTotals } from "../db/audit.js";
import { marketSinks } from "../db/market.js";
import { AppError } from "../errors.js";
import { WORLD_TOPIC, type WorldEvent } from "../events.js";
import { runTick, tickNumberAt } from "../tick/index.js";
import { buyListing, cancelListing, controlOrder, createListing, createStandingOrder, getOwnOrders, getStore, matchCrossingOrders, settleExpired, storeTrade } from "./market.js";

/**
 * The market's actions against a real Postgres: every test compares the conservation audit
 * (cash, goods and units in countries plus the market's escrow) before and after, and the only
 * money allowed to disappear is the documented sinks (trade fees, high-priority fees) and what
 * the government store takes or pays.
 */

let t: TestServer;
type Player = Awaited<ReturnType<typeof registerPlayer>>;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const ctx = () => t.server.ctx;

type Audit = AuditTotals & { sinks: number };

async function audit(): Promise<Audit> {
  const totals = await auditTotals(t.server.database.pool);
  const s = await marketSinks(t.server.database.pool);
  return { ...totals, sinks: s.fees + s.priorityFees };
}

/**
 * The audit after market actions (conservationErrors of db/audit.ts): nothing created or lost
 * except the documented sinks (fees), plus `extra` (what the test itself set, or the store's
 * trades). The turns the ticks hand out are a documented source of their own.
 */
function expectConserved(before: Audit, after: Audit, extra: Partial<Record<Audited, number>> = {}): void {
  const delta = diffTotals(before, after);
  const documented: Partial<Record<Audited, number | bigint>> = { ...extra, turns: delta.turns, stored_turns: delta.stored_turns };
  documented.cash = (extra.cash ?? 0) - (after.sinks - before.sinks);
  expect(conservationErrors(before, after, documented)).toEqual([]);
}

async function country(id: number) {
  const { rows } = await sql("SELECT * FROM countries WHERE id = $1", [id]);
  return rows[0];
}

async function setCountry(id: number, values: Record<string, number>) {
  const sets = Object.keys(values).map((k, i) => `${k} = $${i + 2}`);
  await sql(`UPDATE countries SET ${sets.join(", ")} WHERE id = $1`, [id, ...Object.values(values)]);
}

async function players(n: number, prefix: string): Promise<Player[]> {
  const out: Player[] = [];
  for (let i = 0; i < n; i += 10) out.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => registerPlayer(t, prefix)))));
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

/** Tick numbers in the past, one per call, so each runTick applies a new tick. */
let nextTick = 0;
async function tick() {
  if (nextTick === 0) nextTick = tickNumberAt(Date.now(), t.server.ctx.config.turnIntervalMs) - 500;
  return runTick(t.server.ctx, nextTick++);
}

describe("public market", () => {
  it("50 parallel buyers on one listing, 100 runs: exactly one buys each time, cash and units conserved", async () => {
    // four sellers in turn: one seller's 100 listings in a few seconds would meet the listing
    // churn limit (30 a minute, issue 28), which is not what this race is about
    const [...everyone] = await players(54, "race");
    const sellers = everyone.slice(0, 4);
    const buyers = everyone.slice(4);
    for (const seller of sellers) await setCountry(seller!.countryId, { troops: 100_000 });
    for (const b of buyers) await setCountry(b!.countryId, { cash: 10_000_000 });
    for (let run = 0; run < 100; run++) {
      const seller = sellers[run % sellers.length]!;
      const before = await audit();
      const { listing } = await createListing(ctx(), seller.user.id, { countryId: seller.countryId, itemType: "troops", quantity: 10, pricePerUnit: 100 + run });
      const results = await Promise.allSettled(buyers.map((b) => buyListing(ctx(), b!.user.id, listing.id, { countryId: b!.countryId })));
      const bought = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
      expect(bought).toHaveLength(1);
      expect(refused.every((e) => e instanceof AppError && e.status === 409 && e.code === "market/listing_unavailable")).toBe(true);
      const after = await audit();
      expectConserved(before, after);
      expect(after.sinks - before.sinks).toBe(Math.floor((10 * (100 + run)) / 20));
    }
    const { rows } = await sql("SELECT count(*)::int AS n, sum(quantity)::int AS q FROM market_trades WHERE seller_id = ANY($1)", [sellers.map((s) => s!.countryId)]);
    expect(rows[0]).toEqual({ n: 100, q: 1_000 });
    for (const seller of sellers) expect((await country(seller!.countryId)).troops).toBe(99_750);
  }, 120_000);

  it("listing escrows the goods at once, cancel returns them, a partial buy leaves the rest listed", async () => {
    const [seller, buyer] = await players(2, "esc");
    const before = await audit();
    const { listing, country: afterList } = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "troops", quantity: 60, pricePerUnit: 150 });
    expect(Number(afterList.troops)).toBe(40);
    expect(listing).toMatchObject({ quantity: 60, status: "open", isOwnListing: true });
    const part = await buyListing(ctx(), buyer!.user.id, listing.id, { countryId: buyer!.countryId, quantity: 20 });
    expect(part.transaction).toMatchObject({ quantity: 20, pricePerUnit: 150, totalAmount: 3_000, marketFee: 0, netAmount: 3_000, transactionType: "buy", counterparty: afterList.name });
    expect(part.listing).toMatchObject({ quantity: 40, status: "open", isOwnListing: false });
    expect(Number(part.country.troops)).toBe(120);
    // The seller received 3000 minus the 5% fee (150), which is destroyed.
    expect((await country(seller!.countryId)).cash).toBe(100_000 + 2_850);
    const cancelled = await cancelListing(ctx(), seller!.user.id, listing.id);
    expect(Number(cancelled.country.troops)).toBe(80);
    expectConserved(before, await audit());
    expect((await refusal(buyListing(ctx(), buyer!.user.id, listing.id, { countryId: buyer!.countryId }))).code).toBe("market/listing_unavailable");
    expect((await refusal(cancelListing(ctx(), seller!.user.id, listing.id))).status).toBe(409);
  });

  it("refuses own listings, foreign cancels, out-of-bounds prices and more than owned, changing nothing", async () => {
    const [seller, other] = await players(2, "ref");
    const before = await audit();
    const { listing } = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "tanks", quantity: 5, pricePerUnit: 600 });
    expect(await refusal(buyListing(ctx(), seller!.user.id, listing.id, { countryId: seller!.countryId }))).toMatchObject({ status: 400, code: "market/own_listing", message: "You cannot buy your own listing" });
    expect(await refusal(cancelListing(ctx(), other!.user.id, listing.id))).toMatchObject({ status: 403, code: "market/not_your_listing" });
    expect(await refusal(createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "tanks", quantity: 1, pricePerUnit: 1_471 }))).toMatchObject({
      status: 400,
      message: "Price for Tanks must be between $118 and $1,470",
    });
    expect(await refusal(createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "tanks", quantity: 6, pricePerUnit: 600 }))).toMatchObject({ message: "Insufficient inventory to sell" });
    expect(await refusal(buyListing(ctx(), other!.user.id, listing.id, { countryId: other!.countryId, quantity: 6 }))).toMatchObject({ code: "market/insufficient_listing" });
    await setCountry(other!.countryId, { cash: 100 });
    expect(await refusal(buyListing(ctx(), other!.user.id, listing.id, { countryId: other!.countryId }))).toMatchObject({ message: "Insufficient funds for this purchase" });
    expect(await refusal(buyListing(ctx(), other!.user.id, 999_999_999, { countryId: other!.countryId }))).toMatchObject({ status: 404 });
    await cancelListing(ctx(), seller!.user.id, listing.id);
    // Only the cash set by the test moved.
    expectConserved(before, await audit(), { cash: 100 - 100_000 });
  });

  it("a trade of $100,000 or more is world news, written with the trade; a smaller one is not", async () => {
    const [seller, buyer] = await players(2, "news");
    await setCountry(seller!.countryId, { tanks: 1_000 });
    await setCountry(buyer!.countryId, { cash: 10_000_000 });
    const news = async () => (await sql("SELECT kind, category, title, params FROM news_items WHERE kind = 'large_trade' ORDER BY id")).rows;
    const before = (await news()).length;
    const small = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "tanks", quantity: 10, pricePerUnit: 600 });
    await buyListing(ctx(), buyer!.user.id, small.listing.id, { countryId: buyer!.countryId });
    expect(await news()).toHaveLength(before);
    const big = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "tanks", quantity: 200, pricePerUnit: 600 });
    await buyListing(ctx(), buyer!.user.id, big.listing.id, { countryId: buyer!.countryId });
    const items = await news();
    expect(items).toHaveLength(before + 1);
    expect(items.at(-1)).toMatchObject({ category: "global", title: "Large trade: 200 tanks for $120,000", params: { buyer: null, seller: null } });
  });

  it("publishes a marketChanged world event per action carrying the change (no buyer or seller in trades)", async () => {
    const [seller, buyer] = await players(2, "evt");
    const events: WorldEvent[] = [];
    const stop = t.server.ctx.events.subscribe(WORLD_TOPIC, (e: WorldEvent) => void (e.type === "marketChanged" && events.push(e)));
    await t.server.ctx.events.ready();
    try {
      await setCountry(seller!.countryId, { jets: 10 });
      const { listing } = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "jets", quantity: 4, pricePerUnit: 200 });
      await buyListing(ctx(), buyer!.user.id, listing.id, { countryId: buyer!.countryId, quantity: 1 });
      const forListing = () => events.filter((e) => e.type === "marketChanged" && (e.change.listings.some((l) => l.id === listing.id) || e.change.removedListingIds.includes(listing.id)));
      await expect.poll(() => forListing().length).toBe(2);
      const [added, bought] = forListing() as Array<Extract<WorldEvent, { type: "marketChanged" }>>;
      expect(added!.change.listings[0]).toMatchObject({ id: listing.id, quantity: 4, pricePerUnit: 200, sellerId: seller!.countryId });
      expect(bought!.change.listings[0]).toMatchObject({ id: listing.id, quantity: 3 });
      expect(bought!.change.trades).toEqual([{ itemType: "jets", quantity: 1, pricePerUnit: 200, marketType: "public", at: expect.any(Number) }]);
    } finally {
      stop();
    }
  });
});

describe("standing orders", () => {
  it("placed before listings exist: nothing matches while pending; on activation the cheapest fill first, partially; later listings fill on arrival; cancel returns the unused budget; a tick run twice matches nothing twice", async () => {
    const [buyer, s1, s2, s3] = await players(4, "so");
    const start = await audit();
    const placed = await createStandingOrder(ctx(), buyer!.user.id, { countryId: buyer!.countryId, itemType: "troops", quantity: 150, maxPrice: 150, priority: "medium", autoRenew: false });
    expect(placed.order).toMatchObject({ status: "pending", quantityWanted: 150, totalBudget: 22_500, heldBudget: 22_500, priorityFee: 0 });
    expect(placed.order.processAfter - placed.order.createdAt).toBe(2 * 3_600_000);
    expect(Number(placed.country.cash)).toBe(100_000 - 22_500);
    expectConserved(start, await audit());

    // Listings while the order is pending: none of them is touched.
    await createListing(ctx(), s1!.user.id, { countryId: s1!.countryId, itemType: "troops", quantity: 40, pricePerUnit: 140 });
    await createListing(ctx(), s2!.user.id, { countryId: s2!.countryId, itemType: "troops", quantity: 30, pricePerUnit: 100 });
    await createListing(ctx(), s2!.user.id, { countryId: s2!.countryId, itemType: "troops", quantity: 30, pricePerUnit: 151 }); // above the max price
    expect((await sql("SELECT count(*)::int AS n FROM market_trades WHERE buyer_id = $1", [buyer!.countryId])).rows[0].n).toBe(0);
    await matchCrossingOrders(ctx());
    expect((await getOwnOrders(ctx(), { userId: buyer!.user.id, countryId: buyer!.countryId }))[0]).toMatchObject({ status: "pending", quantityFilled: 0 });

    // The 2 hours pass; the tick activates it and the sweep fills it, cheapest first.
    await sql("UPDATE standing_orders SET process_after = now() - interval '30 days' WHERE buyer_id = $1", [buyer!.countryId]);
    const before = await audit();
    const applied = await tick();
    expect(applied.phases.standingOrderActivation).toBeGreaterThanOrEqual(1);
    const fills = (await sql("SELECT seller_id, quantity, price_per_unit, market_type FROM market_trades WHERE buyer_id = $1 ORDER BY id", [buyer!.countryId])).rows;
    expect(fills).toEqual([
      { seller_id: s2!.countryId, quantity: 30, price_per_unit: 100, market_type: "standing_order" },
      { seller_id: s1!.countryId, quantity: 40, price_per_unit: 140, market_type: "standing_order" },
    ]);
    const afterTick = await audit();
    expectConserved(before, afterTick);
    expect(afterTick.sinks - before.sinks).toBe(150 + 280);

    // The same tick again, and the sweep again: nothing matches twice.
    const again = await runTick(t.server.ctx, nextTick - 1);
    expect(again.applied).toEqual([]);
    expect(await matchCrossingOrders(ctx())).toBe(0);
    expect((await sql("SELECT count(*)::int AS n FROM market_trades WHERE buyer_id = $1", [buyer!.countryId])).rows[0].n).toBe(2);

    // A listing after activation fills at once, in the listing's own transaction, at its price.
    const listed = await createListing(ctx(), s3!.user.id, { countryId: s3!.countryId, itemType: "troops", quantity: 50, pricePerUnit: 120 });
    expect(listed.fills).toHaveLength(1);
    expect(listed.fills[0]).toMatchObject({ quantity: 50, pricePerUnit: 120, marketType: "standing_order", transactionType: "sell", marketFee: 300, netAmount: 5_700 });
    expect(listed.listing).toMatchObject({ quantity: 0, status: "sold" });
    const [order] = await getOwnOrders(ctx(), { userId: buyer!.user.id, countryId: buyer!.countryId });
    expect(order).toMatchObject({ status: "partial", quantityFilled: 120, budgetUsed: 3_000 + 5_600 + 6_000, heldBudget: 22_500 - 14_600 });
    expect(order!.executions.map((e) => e.pricePerUnit)).toEqual([120, 140, 100]);

    // Cancel: the unused budget goes back.
    const cashBefore = (await country(buyer!.countryId)).cash;
    const cancelled = await controlOrder(ctx(), buyer!.user.id, order!.id, "cancel");
    expect(cancelled.order).toMatchObject({ status: "cancelled", heldBudget: 0 });
    expect(Number(cancelled.country.cash)).toBe(cashBefore + 7_900);
    expect((await country(buyer!.countryId)).troops).toBe(100 + 120);
    expectConserved(start, await audit());
  });

  it("a listing whose fillable orders change between the first read and the locks runs again with the new buyers", async () => {
    const [seller, late] = await players(2, "retry");
    await setCountry(seller!.countryId, { jets: 10 });
    const placed = await createStandingOrder(ctx(), late!.user.id, { countryId: late!.countryId, itemType: "jets", quantity: 5, maxPrice: 300, priority: "medium", autoRenew: false });
    const before = await audit();
    // Hold the seller's row so the listing waits at its locks, after its first read of the book.
    const blocker = await t.server.database.pool.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT id FROM countries WHERE id = $1 FOR UPDATE", [seller!.countryId]);
      const listing = createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "jets", quantity: 5, pricePerUnit: 250 });
      await expect.poll(async () => (await sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n, { timeout: 10_000 }).toBeGreaterThan(0);
      // Meanwhile the order becomes active (as the tick would make it).
      await sql("UPDATE standing_orders SET status = 'active' WHERE id = $1", [placed.order.id]);
      await blocker.query("COMMIT");
      const result = await listing;
      expect(result.fills.map((f) => [f.buyerId, f.quantity, f.pricePerUnit])).toEqual([[late!.countryId, 5, 250]]);
      expect(result.listing.status).toBe("sold");
    } finally {
      blocker.release();
    }
    expectConserved(before, await audit());
  });

  it("queue: a high-priority order fills before an older medium one and pays 1% up front; the seller's own order is skipped", async () => {
    const [old, urgent, seller] = await players(3, "prio");
    const before = await audit();
    const a = await createStandingOrder(ctx(), old!.user.id, { countryId: old!.countryId, itemType: "food", quantity: 1_000, maxPrice: 80, priority: "medium", autoRenew: false });
    const b = await createStandingOrder(ctx(), urgent!.user.id, { countryId: urgent!.countryId, itemType: "food", quantity: 1_000, maxPrice: 80, priority: "high", autoRenew: false });
    const own = await createStandingOrder(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "food", quantity: 1_000, maxPrice: 90, priority: "high", autoRenew: false });
    expect(b.order.priorityFee).toBe(800);
    await sql("UPDATE standing_orders SET process_after = now() - interval '30 days' WHERE id = ANY($1::bigint[])", [[a.order.id, b.order.id, own.order.id]]);
    await tick();
    const listed = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "food", quantity: 1_500, pricePerUnit: 75 });
    expect(listed.fills.map((f) => [f.buyerId, f.quantity])).toEqual([
      [urgent!.countryId, 1_000],
      [old!.countryId, 500],
    ]);
    const after = await audit();
    expectConserved(before, after);
    expect(after.sinks - before.sinks).toBe(800 + 900 + Math.floor((1_500 * 75) / 20));
    // Clean up the open orders for the next tests' audits: cancel refunds.
    for (const [p, o] of [
      [old, a],
      [urgent, b],
      [seller, own],
    ] as const)
      await controlOrder(ctx(), p!.user.id, o.order.id, "cancel").catch(() => undefined);
  });

  it("pause stops matching, activate resumes and matches at once; activate cannot skip the first 2 hours", async () => {
    const [buyer, seller] = await players(2, "pause");
    const placed = await createStandingOrder(ctx(), buyer!.user.id, { countryId: buyer!.countryId, itemType: "turrets", quantity: 10, maxPrice: 300, priority: "low", autoRenew: false });
    expect(await refusal(controlOrder(ctx(), buyer!.user.id, placed.order.id, "activate"))).toMatchObject({ code: "market/activation_delay", message: "This order activates by itself (Active in: 2h 0m)" });
    expect(await refusal(controlOrder(ctx(), buyer!.user.id, placed.order.id, "pause"))).toMatchObject({ code: "market/not_active" });
    await sql("UPDATE standing_orders SET process_after = now() - interval '30 days' WHERE id = $1", [placed.order.id]);
    await tick();
    const paused = await controlOrder(ctx(), buyer!.user.id, placed.order.id, "pause");
    expect(paused.order).toMatchObject({ status: "pending", paused: true });
    const listed = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "turrets", quantity: 4, pricePerUnit: 250 });
    expect(listed.fills).toEqual([]);
    await tick(); // a paused order is not activated by the clock
    expect((await getOwnOrders(ctx(), { userId: buyer!.user.id, countryId: buyer!.countryId }))[0]).toMatchObject({ status: "pending", paused: true, quantityFilled: 0 });
    const resumed = await controlOrder(ctx(), buyer!.user.id, placed.order.id, "activate");
    expect(resumed.order).toMatchObject({ status: "partial", paused: false, quantityFilled: 4 });
    expect(Number(resumed.country.turrets)).toBe(104);
    await controlOrder(ctx(), buyer!.user.id, placed.order.id, "cancel");
  });

  it("auto-renew places the order again when it is fulfilled; expiry returns the budget once; other players cannot touch it", async () => {
    const [buyer, seller, stranger] = await players(3, "renew");
    // Room for 10 spies (capacity 5% of land), so the renewal of 5 more is within capacity.
    await setCountry(buyer!.countryId, { land: 200 });
    const start = await audit();
    const placed = await createStandingOrder(ctx(), buyer!.user.id, { countryId: buyer!.countryId, itemType: "spies", quantity: 5, maxPrice: 100, priority: "medium", autoRenew: true });
    expect(await refusal(controlOrder(ctx(), stranger!.user.id, placed.order.id, "cancel"))).toMatchObject({ status: 403 });
    await sql("UPDATE standing_orders SET process_after = now() - interval '30 days' WHERE id = $1", [placed.order.id]);
    await tick();
    await setCountry(seller!.countryId, { spies: 5 });
    const listed = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "spies", quantity: 5, pricePerUnit: 90 });
    expect(listed.fills).toHaveLength(1);
    const orders = await getOwnOrders(ctx(), { userId: buyer!.user.id, countryId: buyer!.countryId });
    expect(orders.map((o) => [o.status, o.renewedFromId])).toEqual([
      ["pending", placed.order.id],
      ["fulfilled", null],
    ]);
    // Fulfilled below the max price: the 50 unused went back; the renewal escrowed 500 anew.
    expect((await country(buyer!.countryId)).cash).toBe(100_000 - 500 + 50 - 500);

    // The renewal's life ends without auto-renew: it expires and its budget comes back, once.
    await sql("UPDATE standing_orders SET auto_renew = false, expires_at = now() - interval '30 days' WHERE id = $1", [orders[0]!.id]);
    await tick();
    expect((await getOwnOrders(ctx(), { userId: buyer!.user.id, countryId: buyer!.countryId }))[0]).toMatchObject({ status: "expired", heldBudget: 0 });
    expect((await country(buyer!.countryId)).cash).toBe(100_000 - 500 + 50);
    expect(await settleExpired(ctx())).toBe(0);
    expectConserved(start, await audit(), { spies: 5 });
  });

  it("an expired listing's goods come back through the tick, once, even if the settlement is run again", async () => {
    const [seller] = await players(1, "exp");
    const { listing } = await createListing(ctx(), seller!.user.id, { countryId: seller!.countryId, itemType: "troops", quantity: 70, pricePerUnit: 200 });
    const before = await audit();
    await sql("UPDATE market_listings SET expires_at = now() - interval '30 days' WHERE id = $1", [listing.id]);
    const result = await tick();
    expect(result.phases.marketExpiry).toBeGreaterThanOrEqual(1);
    expect((await country(seller!.countryId)).troops).toBe(100);
    expect((await sql("SELECT status, held_quantity FROM market_listings WHERE id = $1", [listing.id])).rows[0]).toEqual({ status: "expired", held_quantity: 0 });
    await settleExpired(ctx());
    await tick();
    expect((await country(seller!.countryId)).troops).toBe(100);
    expectConserved(before, await audit());
  });
});

describe("government store", () => {
  it("prices follow military tech; max purchase and stock are enforced; oil is out of stock; store trades move exactly their totals", async () => {
    const [p] = await players(1, "store");
    await setCountry(p!.countryId, { cash: 20_000_000, military_tech: 10 });
    const before = await audit();
    const bought = await storeTrade(ctx(), p!.user.id, "buy", { countryId: p!.countryId, itemId: "troops", quantity: 10_000 });
    expect(bought.transaction).toMatchObject({ itemId: "troops", quantity: 10_000, pricePerUnit: 130, totalCost: 1_300_000, transactionType: "buy" });
    const troops = bought.store.items.find((i) => i.id === "troops")!;
    expect(troops).toMatchObject({ price: { buy: 130, sell: 39 }, stock: 40_000, inStock: true, maxPurchase: 10_000, owned: 10_100 });
    expect(bought.store.militaryTechDiscountPct).toBe(10);
    expect(bought.store.items.find((i) => i.id === "food")!.price).toEqual({ buy: 360, sell: 29 });
    expect(await refusal(storeTrade(ctx(), p!.user.id, "buy", { countryId: p!.countryId, itemId: "troops", quantity: 10_001 }))).toMatchObject({ code: "market/max_purchase" });
    for (let i = 0; i < 4; i++) await storeTrade(ctx(), p!.user.id, "buy", { countryId: p!.countryId, itemId: "troops", quantity: 10_000 });
    // Five max purchases empty the day's stock (a few units may have come back while the test ran).
    expect((await getStore(ctx(), { userId: p!.user.id, countryId: p!.countryId })).items.find((i) => i.id === "troops")!.stock).toBeLessThan(100);
    await sql("UPDATE market_store_stock SET full_at = now() + interval '1 day' WHERE country_id = $1", [p!.countryId]);
    expect(await refusal(storeTrade(ctx(), p!.user.id, "buy", { countryId: p!.countryId, itemId: "troops", quantity: 1 }))).toMatchObject({ status: 400, code: "market/out_of_stock", message: "Currently Unavailable" });
    expect(await refusal(storeTrade(ctx(), p!.user.id, "buy", { countryId: p!.countryId, itemId: "oil", quantity: 1 }))).toMatchObject({ code: "market/express_only", message: "Available on Express servers only" });
    const sold = await storeTrade(ctx(), p!.user.id, "sell", { countryId: p!.countryId, itemId: "troops", quantity: 100 });
    expect(sold.transaction).toMatchObject({ pricePerUnit: 39, totalCost: 3_900, transactionType: "sell" });
    expect(sold.store.recentTransactions.map((r) => r.transactionType)).toEqual(["sell", "buy", "buy", "buy", "buy"]);
    expect(await refusal(storeTrade(ctx(), p!.user.id, "sell", { countryId: p!.countryId, itemId: "tanks", quantity: 11 }))).toMatchObject({ message: "Insufficient inventory to sell" });
    // The store is a documented source of units and sink of cash: exactly its trades' totals.
    expectConserved(before, await audit(), { cash: -5 * 1_300_000 + 3_900, troops: 50_000 - 100 });
  });

  it("buys at most its demand: beyond it a sale is refused with the message and nothing changes; the demand refills; parallel sales never overstep (issue 27, sixth stop)", async () => {
    // 100 acres: the store buys 1,000 bushels a day (STORE_FOOD_DEMAND_PER_ACRE), one coming back every 86.4 s
    const [p] = await players(1, "demand");
    const id = p!.countryId;
    await setCountry(id, { land: 100, food: 20_000 });
    const sell = (quantity: number, itemId: "food" | "troops" = "food") => storeTrade(ctx(), p!.user.id, "sell", { countryId: id, itemId, quantity });
    const before = await audit();
    const store = await getStore(ctx(), { userId: p!.user.id, countryId: id });
    expect(store.items.find((i) => i.id === "food")).toMatchObject({ demand: 1_000, demandCapacity: 1_000, demandFullAt: null });
    expect(store.items.find((i) => i.id === "troops")).toMatchObject({ demand: 50_000, demandCapacity: 50_000 });
    expect(store.items.find((i) => i.id === "oil")).toMatchObject({ demand: 0, demandCapacity: 0 });

    const sold = await sell(400);
    expect(sold.transaction).toMatchObject({ itemId: "food", quantity: 400, pricePerUnit: 29, totalCost: 11_600, transactionType: "sell" });
    const food = sold.store.items.find((i) => i.id === "food")!;
    expect(food.demand).toBe(600);
    expect(food.demandFullAt).toBeGreaterThan(Date.now());

    // half a day used: 500 left, 501 refused, and the refusal changes nothing
    await sql("UPDATE market_store_demand SET full_at = now() + interval '12 hours' WHERE country_id = $1 AND item_type = 'food'", [id]);
    const rowBefore = await country(id);
    const clockBefore = (await sql("SELECT full_at FROM market_store_demand WHERE country_id = $1", [id])).rows;
    const tradesBefore = (await sql("SELECT count(*)::int AS n FROM market_trades WHERE seller_id = $1", [id])).rows[0].n;
    expect(await refusal(sell(501))).toMatchObject({ status: 400, code: "market/beyond_demand", message: "The Government Store buys only 500 more food today" });
    const rowAfter = await country(id);
    expect({ food: rowAfter.food, cash: rowAfter.cash }).toEqual({ food: rowBefore.food, cash: rowBefore.cash });
    expect((await sql("SELECT full_at FROM market_store_demand WHERE country_id = $1", [id])).rows).toEqual(clockBefore);
    expect((await sql("SELECT count(*)::int AS n FROM market_trades WHERE seller_id = $1", [id])).rows[0].n).toBe(tradesBefore);
    await sell(500);
    expect(await refusal(sell(1))).toMatchObject({ status: 400, code: "market/no_demand", message: "The Government Store buys no more food today" });

    // a day later the demand is whole again
    await sql("UPDATE market_store_demand SET full_at = now() - interval '1 second' WHERE country_id = $1", [id]);
    await sell(1_000);

    // ten sales of 200 at once against a whole day's 1,000: exactly five go through
    await sql("DELETE FROM market_store_demand WHERE country_id = $1", [id]);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => sell(200)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toMatch(/^market\/(no|beyond)_demand$/);

    // units: the store buys back as many as it stocks a day (5 max purchases)
    const troopsHad = Number((await country(id)).troops);
    await setCountry(id, { troops: 60_000 });
    await sell(50_000, "troops");
    expect(await refusal(sell(1, "troops"))).toMatchObject({ code: "market/no_demand", message: "The Government Store buys no more troops today" });

    // the store paid exactly its trades' totals: 2,900 bushels and 50,000 troops at 29 and 36
    const troopsSet = 60_000 - troopsHad;
    expectConserved(before, await audit(), { cash: (400 + 500 + 1_000 + 5 * 200) * 29 + 50_000 * 36, food: -(400 + 500 + 1_000 + 5 * 200), troops: troopsSet - 50_000 });
  });
});
