import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS, MARKET_ITEM_NAMES, MARKET_TYPE_NAMES, type MarketItemType } from "@game/schema/rules";
import type { TransactionJson } from "@game/schema/api";
import { MarketMessage, WorldMessage } from "@game/schema/messages";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";

/**
 * The market's REST contract (the spec's paths and fallbacks kept, the rest in the same style)
 * and its live updates through the world room. Services and the audit are tested in
 * services/market.test.ts.
 */

let t: TestServer;
type Player = Awaited<ReturnType<typeof registerPlayer>>;
let seller: Player;
let buyer: Player;
let stranger: Player;
const clients: WorldTestClient[] = [];

beforeAll(async () => {
  t = await startTestServer();
  [seller, buyer, stranger] = await Promise.all([registerPlayer(t, "msel"), registerPlayer(t, "mbuy"), registerPlayer(t, "mstr")]);
  await t.server.database.pool.query("UPDATE countries SET cash = 5000000, troops = 5000, food = 100000 WHERE id = ANY($1::bigint[])", [[seller.countryId, buyer.countryId]]);
});
afterAll(async () => {
  for (const c of clients) await c.leave();
  await t?.close();
});

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const list = (p: Player, itemType: MarketItemType, quantity: number, pricePerUnit: number) => t.api("POST", "/market/listings", { countryId: p.countryId, itemType, quantity, pricePerUnit }, p.token);
const buy = (p: Player, id: number, quantity?: number) => t.api("POST", `/market/listings/${id}/buy`, { countryId: p.countryId, quantity }, p.token);

describe("public market routes", () => {
  it("list, see it flagged as own for the seller only, buy it, see it gone", async () => {
    const created = await list(seller, "troops", 100, 120);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, listing: { quantity: 100, pricePerUnit: 120, totalPrice: 12_000, isOwnListing: true, status: "open" }, fills: [] });
    expect(created.body.listing.expiresAt - created.body.listing.listedAt).toBe(7 * 86_400_000);
    const id = created.body.listing.id;

    const asSeller = await t.api("GET", "/market/listings?itemType=troops", undefined, seller.token);
    const asBuyer = await t.api("GET", "/market/listings?itemType=troops", undefined, buyer.token);
    expect(asSeller.body.data.find((l: any) => l.id === id)).toMatchObject({ isOwnListing: true, sellerName: seller.body.countryName });
    expect(asBuyer.body.data.find((l: any) => l.id === id)).toMatchObject({ isOwnListing: false });
    expect((await t.api("GET", "/market/listings?itemType=jets", undefined, buyer.token)).body.data.some((l: any) => l.id === id)).toBe(false);

    const bought = await buy(buyer, id);
    expect(bought.status).toBe(200);
    expect(bought.body.transaction).toMatchObject({ quantity: 100, totalAmount: 12_000, transactionType: "buy", marketType: "public", sellerId: seller.countryId });
    expect(bought.body.listing).toMatchObject({ quantity: 0, status: "sold" });
    expect((await t.api("GET", "/market/listings", undefined, buyer.token)).body.data.some((l: any) => l.id === id)).toBe(false);
    expect(await buy(buyer, id)).toMatchObject({ status: 409, body: { success: false, error: "This listing is no longer available", code: "market/listing_unavailable" } });
  });

  it.each([
    [{ itemType: "gold", quantity: 1, pricePerUnit: 100 }, "Unknown item type"],
    [{ itemType: "troops", quantity: 1.5, pricePerUnit: 100 }, "quantity must be a whole number"],
    [{ itemType: "troops", quantity: 0, pricePerUnit: 100 }, "Quantity must be at least 1"],
    [{ itemType: "troops", quantity: 1, pricePerUnit: 0 }, "Price must be above 0"],
    [{ itemType: "troops", quantity: 1, pricePerUnit: 10_000 }, "Price for Troops must be between $29 and $360"],
    [{ itemType: "troops", quantity: 10_000_000, pricePerUnit: 100 }, "Insufficient inventory to sell"],
  ])("POST /market/listings %o answers 400: %s", async (body, error) => {
    const res = await t.api("POST", "/market/listings", { countryId: seller.countryId, ...body }, seller.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error });
  });

  it("refuses other people's countries (403), missing records (404), no token (401); never a 500", async () => {
    expect((await t.api("POST", "/market/listings", { countryId: seller.countryId, itemType: "troops", quantity: 1, pricePerUnit: 100 }, buyer.token)).status).toBe(403);
    expect((await t.api("GET", `/market/store/${seller.countryId}`, undefined, buyer.token)).status).toBe(403);
    expect((await t.api("GET", `/market/transactions/${seller.countryId}`, undefined, buyer.token)).status).toBe(403);
    expect((await t.api("GET", `/market/standing-orders/${seller.countryId}`, undefined, buyer.token)).status).toBe(403);
    expect((await t.api("GET", "/market/listings")).status).toBe(401);
    expect((await buy(buyer, 987_654_321)).status).toBe(404);
    expect((await t.api("POST", "/market/listings/abc/buy", { countryId: buyer.countryId }, buyer.token)).body).toMatchObject({ error: "Invalid id" });
    expect((await t.api("POST", "/market/standing-orders/1/explode", {}, buyer.token)).body).toMatchObject({ error: "Unknown standing order action" });
    expect((await t.api("GET", "/market/analytics/gold", undefined, buyer.token)).body).toMatchObject({ error: "Unknown item type" });
    expect((await t.api("GET", `/market/transactions/${buyer.countryId}?period=1y`, undefined, buyer.token)).body).toMatchObject({ error: "period must be 24h, 7d, 30d or all" });
    const { body } = await list(seller, "food", 10, 100);
    expect(await t.api("DELETE", `/market/listings/${body.listing.id}`, undefined, stranger.token)).toMatchObject({ status: 403, body: { code: "market/not_your_listing" } });
    const cancelled = await t.api("DELETE", `/market/listings/${body.listing.id}`, undefined, seller.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.listing.status).toBe("cancelled");
  });
});

describe("government store routes", () => {
  it("GET /market/store/{countryId}: the spec's items with this country's prices, stock and max purchase; buy and sell", async () => {
    await t.server.database.pool.query("UPDATE countries SET military_tech = 5 WHERE id = $1", [buyer.countryId]);
    const store = await t.api("GET", `/market/store/${buyer.countryId}`, undefined, buyer.token);
    expect(store.status).toBe(200);
    expect(store.body.data.items.map((i: any) => i.id)).toEqual(["spies", "troops", "jets", "turrets", "tanks", "food", "oil"]);
    expect(store.body.data.militaryTechDiscountPct).toBe(5);
    expect(store.body.data.items.find((i: any) => i.id === "jets")).toMatchObject({ price: { buy: 183, sell: 50 }, maxPurchase: 500, stock: 2_500, inStock: true });
    expect(store.body.data.items.find((i: any) => i.id === "oil")).toMatchObject({ inStock: false, stock: 0, expressOnly: true });
    const bought = await t.api("POST", "/market/store/buy", { countryId: buyer.countryId, itemId: "jets", quantity: 100 }, buyer.token);
    expect(bought.body).toMatchObject({ success: true, transaction: { itemName: "Jets", quantity: 100, pricePerUnit: 183, totalCost: 18_300 } });
    expect(bought.body.store.items.find((i: any) => i.id === "jets").stock).toBe(2_400);
    expect(await t.api("POST", "/market/store/buy", { countryId: buyer.countryId, itemId: "oil", quantity: 1 }, buyer.token)).toMatchObject({ status: 400, body: { error: "Available on Express servers only" } });
    expect(await t.api("POST", "/market/store/buy", { countryId: buyer.countryId, itemId: "jets", quantity: 501 }, buyer.token)).toMatchObject({ status: 400, body: { error: "Maximum purchase is 500 jets per transaction" } });
    expect(await t.api("POST", "/market/store/sell", { countryId: buyer.countryId, itemId: "tanks", quantity: 1_000 }, buyer.token)).toMatchObject({ status: 400, body: { error: "Insufficient inventory to sell" } });
    const poor = await registerPlayer(t, "mpoor");
    expect(await t.api("POST", "/market/store/buy", { countryId: poor.countryId, itemId: "tanks", quantity: 300 }, poor.token)).toMatchObject({ status: 400, body: { error: "Insufficient funds for this purchase" } });
  });

  it("the store buys at most its demand: the answer says how much per item, a sale beyond it is a 400 with the message (issue 27, sixth stop)", async () => {
    const seller = await registerPlayer(t, "mdemand");
    // 100 acres: 1,000 bushels a day
    await t.server.database.pool.query("UPDATE countries SET land = 100, food = 5000 WHERE id = $1", [seller.countryId]);
    const store = await t.api("GET", `/market/store/${seller.countryId}`, undefined, seller.token);
    expect(store.body.data.items.find((i: any) => i.id === "food")).toMatchObject({ demand: 1_000, demandCapacity: 1_000, demandFullAt: null });
    const sold = await t.api("POST", "/market/store/sell", { countryId: seller.countryId, itemId: "food", quantity: 600 }, seller.token);
    expect(sold.status).toBe(200);
    expect(sold.body.store.items.find((i: any) => i.id === "food").demand).toBe(400);
    expect(await t.api("POST", "/market/store/sell", { countryId: seller.countryId, itemId: "food", quantity: 401 }, seller.token)).toMatchObject({
      status: 400,
      body: { success: false, error: "The Government Store buys only 400 more food today", code: "market/beyond_demand" },
    });
  });
});

describe("standing order routes", () => {
  it("create (defaults troops and medium), see it in the owner's list, not in the public book while pending, cancel", async () => {
    const created = await t.api("POST", "/market/standing-orders", { countryId: buyer.countryId, quantity: 10, maxPrice: 100 }, buyer.token);
    expect(created.status).toBe(200);
    expect(created.body.order).toMatchObject({ itemType: "troops", priority: "medium", autoRenew: false, status: "pending", totalBudget: 1_000 });
    const own = await t.api("GET", `/market/standing-orders/${buyer.countryId}`, undefined, buyer.token);
    expect(own.body.data[0]).toMatchObject({ id: created.body.order.id, executions: [] });
    const book = await t.api("GET", "/market/standing-orders?itemType=troops", undefined, stranger.token);
    expect(book.body.data.some((o: any) => o.id === created.body.order.id)).toBe(false);
    const cancelled = await t.api("POST", `/market/standing-orders/${created.body.order.id}/cancel`, {}, buyer.token);
    expect(cancelled.body.order).toMatchObject({ status: "cancelled", heldBudget: 0 });
    expect((await t.api("POST", `/market/standing-orders/${created.body.order.id}/cancel`, {}, buyer.token)).status).toBe(400);
  });
});

describe("history, CSV and analytics", () => {
  it("the CSV export parsed back equals the history answer under the same filters, and is named by period", async () => {
    // A few trades both ways, public and store.
    const a = await list(seller, "food", 500, 90);
    await buy(buyer, a.body.listing.id, 200);
    await buy(buyer, a.body.listing.id, 300);
    const b = await list(buyer, "troops", 50, 200);
    await buy(seller, b.body.listing.id);
    await t.api("POST", "/market/store/sell", { countryId: buyer.countryId, itemId: "troops", quantity: 10 }, buyer.token);

    for (const query of ["", "?period=24h&sort=amount&direction=asc", "?transactionType=sell", "?itemType=food&marketType=public", "?period=all&sort=price"]) {
      const history = await t.api("GET", `/market/transactions/${buyer.countryId}${query}`, undefined, buyer.token);
      expect(history.status).toBe(200);
      const res = await fetch(`${t.baseUrl}/api/market/transactions/${buyer.countryId}/export.csv${query}`, { headers: { authorization: `Bearer ${buyer.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
      const period = new URLSearchParams(query).get("period") ?? "7d";
      expect(res.headers.get("content-disposition")).toContain(`market-transactions-${period}.csv`);
      const [header, ...rows] = parseCsv(await res.text());
      expect(header).toEqual([...CSV_COLUMNS]);
      const expected = (history.body.data as TransactionJson[]).map((tr) => [
        new Date(tr.timestamp).toISOString(),
        tr.transactionType === "buy" ? "Buy" : "Sell",
        MARKET_ITEM_NAMES[tr.itemType],
        String(tr.quantity),
        String(tr.pricePerUnit),
        String(tr.totalAmount),
        String(tr.marketFee),
        String(tr.netAmount),
        MARKET_TYPE_NAMES[tr.marketType],
        tr.counterparty,
      ]);
      expect(rows).toEqual(expected);
    }

    const all = await t.api("GET", `/market/transactions/${buyer.countryId}?period=all`, undefined, buyer.token);
    const rows = all.body.data as TransactionJson[];
    expect(rows.map((r) => r.timestamp)).toEqual([...rows.map((r) => r.timestamp)].sort((x, y) => y - x));
    const sale = rows.find((r) => r.transactionType === "sell" && r.marketType === "public")!;
    expect(sale).toMatchObject({ quantity: 50, pricePerUnit: 200, totalAmount: 10_000, marketFee: 500, netAmount: 9_500, counterparty: seller.body.countryName });
    expect(rows.find((r) => r.marketType === "private" && r.transactionType === "sell")).toMatchObject({ counterparty: "Government Store", marketFee: 0 });
    const s = all.body.summary;
    expect(s.count).toBe(rows.length);
    expect(s.spent).toBe(rows.filter((r) => r.transactionType === "buy").reduce((x, r) => x + r.netAmount, 0));
    expect(s.earned).toBe(rows.filter((r) => r.transactionType === "sell").reduce((x, r) => x + r.netAmount, 0));
    expect(s.net).toBe(s.earned - s.spent);
    const sells = await t.api("GET", `/market/transactions/${buyer.countryId}?transactionType=sell`, undefined, buyer.token);
    expect(sells.body.data.every((r: TransactionJson) => r.transactionType === "sell")).toBe(true);
    const byAmount = await t.api("GET", `/market/transactions/${buyer.countryId}?sort=amount&direction=asc`, undefined, buyer.token);
    const amounts = byAmount.body.data.map((r: TransactionJson) => r.totalAmount);
    expect(amounts).toEqual([...amounts].sort((x: number, y: number) => x - y));
    // The other side sees the same trade as a buy.
    const sellerSide = await t.api("GET", `/market/transactions/${seller.countryId}?itemType=troops&transactionType=buy`, undefined, seller.token);
    expect(sellerSide.body.data[0]).toMatchObject({ id: sale.id, transactionType: "buy", marketFee: 0, netAmount: 10_000, counterparty: buyer.body.countryName });
  });

  it("GET /market/analytics/{itemType} is computed from the recorded trades and the open book", async () => {
    const a = await list(seller, "food", 100, 80);
    await buy(buyer, a.body.listing.id, 40);
    const res = await t.api("GET", "/market/analytics/food", undefined, stranger.token);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.currentPrice).toBe(80);
    expect(data.priceHistory).toHaveLength(24);
    const { rows } = await t.server.database.pool.query("SELECT sum(quantity)::int AS q, sum(total)::bigint AS v, count(*)::int AS n FROM market_trades WHERE item_type = 'food' AND market_type <> 'private'");
    expect(data.volume24h).toBe(rows[0].q);
    expect(data.trades24h).toBe(rows[0].n);
    expect(data.averagePrice).toBe(Math.round((Number(rows[0].v) / rows[0].q) * 10) / 10);
    expect(data.priceHistory[23].volume).toBe(rows[0].q);
    expect(data.marketDepth).toMatchObject({ sellOrders: 1, sellVolume: 60 });
    expect(data.trend.resistance).toBe(80);
  });
});

describe("live market updates", () => {
  it("a client watching the market receives each change; a client that is not watching receives none", async () => {
    const watcher = await joinWorld(t.baseUrl, buyer.token);
    const idle = await joinWorld(t.baseUrl, stranger.token);
    clients.push(watcher, idle);
    await watcher.watch("market");
    // The watch is handled in order with the client's messages; a listing after it is seen.
    await eventually(async () => {
      const { body } = await list(seller, "troops", 1, 150);
      return (watcher.received.get(MarketMessage.marketChanged) ?? []).some((c: any) => c.listings.some((l: any) => l.id === body.listing.id));
    }, "the watcher to receive a new listing");
    const { body } = await list(seller, "tanks", 2, 600);
    const change = await eventually(() => (watcher.received.get(MarketMessage.marketChanged) ?? []).find((c: any) => c.listings.some((l: any) => l.id === body.listing.id)), "the tank listing");
    expect(change).toMatchObject({ itemType: "tanks", listings: [{ id: body.listing.id, quantity: 2, pricePerUnit: 600, sellerName: seller.body.countryName }], trades: [] });
    await buy(buyer, body.listing.id);
    await eventually(() => (watcher.received.get(MarketMessage.marketChanged) ?? []).some((c: any) => c.removedListingIds.includes(body.listing.id) && c.trades.length === 1), "the purchase");
    expect(idle.received.get(MarketMessage.marketChanged)).toBeUndefined();
    await watcher.watch();
    await new Promise((r) => setTimeout(r, 200));
    const count = watcher.received.get(MarketMessage.marketChanged)!.length;
    await list(seller, "troops", 1, 151);
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.received.get(MarketMessage.marketChanged)!.length).toBe(count);
    watcher.room.send(WorldMessage.watch, { topics: "market" } as any);
    await eventually(() => (watcher.received.get("error") ?? []).some((e: any) => e.code === "watch/invalid"), "the refusal of a bad watch message");
    expect([...watcher.schemaErrors, ...idle.schemaErrors]).toEqual([]);
  });
});
