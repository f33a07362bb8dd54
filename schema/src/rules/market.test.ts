import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { emptyTechLevels, startingCountry, type CountryState, type GovernmentType } from "./country.js";
import { checkTraining } from "./espionage.js";
import {
  MARKET_ITEM_TYPES,
  STORE_ITEMS,
  STORE_FOOD_DEMAND_PER_ACRE,
  STORE_REFILL_MS,
  analyticsHourStart,
  applyCreateListing,
  applyCreateStandingOrder,
  applyOrderFill,
  applyPublicTrade,
  applyStoreBuy,
  applyStoreDemandSale,
  applyStoreSell,
  applyStoreStockPurchase,
  checkActivateOrder,
  checkBuyListing,
  checkCancelOrder,
  checkCreateListing,
  checkCreateStandingOrder,
  checkPauseOrder,
  checkStoreBuy,
  checkStoreSell,
  compareListings,
  compareOrders,
  computeMarketAnalytics,
  computeMarketFee,
  computeOrderFill,
  computePriceBounds,
  computePriorityFee,
  computeStoreDemand,
  computeStorePrices,
  computeStoreStock,
  formatActivationCountdown,
  planListingFills,
  quickBuyAmounts,
  quickSellAmounts,
  storeDemandCapacity,
  storeStockCapacity,
  toTransactionsCsv,
  transactionsCsvFileName,
  type BookOrder,
  type BookSummary,
  type HourBucket,
  type MarketItemType,
} from "./market.js";

const country = (patch: Partial<CountryState> = {}): CountryState => ({ ...startingCountry(), ...patch });
const withMilitaryTech = (level: number, governmentType: GovernmentType = "monarchy") => ({ tech: { ...emptyTechLevels(), military: level }, governmentType });

describe("government store", () => {
  it.each([
    ["spies", 144, 36, 1_000],
    ["troops", 144, 36, 10_000],
    ["jets", 192, 48, 500],
    ["turrets", 210, 52, 800],
    ["tanks", 588, 147, 300],
    ["food", 360, 29, 50_000],
    ["oil", 400, 60, null],
  ] as const)("%s: base buy %d, sell %d, max purchase %s (spec)", (item, buy, sell, max) => {
    expect(STORE_ITEMS[item].basePrice).toEqual({ buy, sell });
    expect(STORE_ITEMS[item].maxPurchase).toBe(max);
  });

  it("oil is express-only and never in stock; only military units carry the tech bonus", () => {
    expect(STORE_ITEMS.oil.expressOnly).toBe(true);
    expect(storeStockCapacity("oil")).toBe(0);
    expect(computeStoreStock("oil", null, 0)).toBe(0);
    expect(MARKET_ITEM_TYPES.filter((i) => STORE_ITEMS[i].techBonus)).toEqual(["troops", "jets", "turrets", "tanks", "spies"]);
  });

  it.each([
    // item, military level, government, buy, sell
    ["troops", 0, "monarchy", 144, 36],
    ["troops", 10, "monarchy", 130, 39], // ceil(129.6), floor(39.6)
    ["tanks", 20, "monarchy", 471, 176], // ceil(470.4), floor(176.4)
    ["jets", 5, "monarchy", 183, 50], // ceil(182.4), floor(50.4)
    ["troops", 0, "theocracy", 116, 36], // military costs -20%: ceil(115.2)
    ["troops", 10, "theocracy", 104, 39], // ceil(144 x 0.9 x 0.8 = 103.68)
    ["food", 20, "monarchy", 360, 29], // resources: no tech bonus
    ["oil", 20, "theocracy", 400, 60],
  ] as const)("%s with military tech %d under %s: buy %d, sell %d", (item, level, gov, buy, sell) => {
    expect(computeStorePrices(item, withMilitaryTech(level, gov))).toEqual({ buy, sell });
  });

  it("stock: five max purchases, refilled linearly over a day; fullAt remembers what was taken", () => {
    const t = 1_700_000_000_000;
    expect(storeStockCapacity("troops")).toBe(50_000);
    expect(computeStoreStock("troops", null, t)).toBe(50_000);
    const fullAt = applyStoreStockPurchase("troops", null, 10_000, t);
    expect(fullAt).toBe(t + (10_000 * STORE_REFILL_MS) / 50_000);
    expect(computeStoreStock("troops", fullAt, t)).toBe(40_000);
    expect(computeStoreStock("troops", fullAt, t + (fullAt - t) / 2)).toBe(45_000);
    expect(computeStoreStock("troops", fullAt, fullAt)).toBe(50_000);
    // A second purchase before the refill stacks on the first.
    const again = applyStoreStockPurchase("troops", fullAt, 40_000, t);
    expect(computeStoreStock("troops", again, t)).toBe(0);
    expect(computeStoreStock("troops", again, t + STORE_REFILL_MS)).toBe(50_000);
  });

  it("stock never goes above capacity or below 0, and taking q leaves at most stock - q (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom<MarketItemType>("troops", "jets", "turrets", "tanks", "spies", "food"), fc.nat(10 * STORE_REFILL_MS), fc.nat(3 * STORE_REFILL_MS), fc.nat(60_000), (item, fullOffset, now, q) => {
        const fullAt = fullOffset === 0 ? null : fullOffset;
        const stock = computeStoreStock(item, fullAt, now);
        expect(stock).toBeGreaterThanOrEqual(0);
        expect(stock).toBeLessThanOrEqual(storeStockCapacity(item));
        const take = Math.min(q, stock);
        const after = computeStoreStock(item, applyStoreStockPurchase(item, fullAt, take, now), now);
        expect(after).toBeLessThanOrEqual(stock - take);
      }),
    );
  });

  it.each([
    ["oil", 1, 50_000, "market/express_only", "Available on Express servers only"],
    ["troops", 0, 50_000, "market/invalid_quantity", "Quantity must be at least 1"],
    ["troops", 10_001, 50_000, "market/max_purchase", "Maximum purchase is 10,000 troops per transaction"],
    ["tanks", 301, 1_500, "market/max_purchase", "Maximum purchase is 300 tanks per transaction"],
    ["troops", 10, 0, "market/out_of_stock", "Currently Unavailable"],
    ["troops", 10, 5, "market/insufficient_stock", "Only 5 troops in stock"],
    ["troops", 1_000, 50_000, "market/insufficient_funds", "Insufficient funds for this purchase"], // 144,000 > 100,000
  ] as const)("buying %d %s with %d in stock is refused: %s", (item, quantity, stock, code, message) => {
    expect(checkStoreBuy(country(), { item, quantity, stock })).toEqual({ code, message });
  });

  it("the store applies the spy capacity rule of training, with its message (issue 30 #1: 100 spies sold to a 100-acre country)", () => {
    const small = country({ land: 100, spies: 0, cash: 1_000_000 });
    expect(checkStoreBuy(small, { item: "spies", quantity: 100, stock: 1_000 })).toEqual({ code: "espionage/capacity", message: "Spy capacity reached: at most 5 spies (5% of land)" });
    expect(checkStoreBuy(small, { item: "spies", quantity: 5, stock: 1_000 })).toBeNull();
    expect(checkStoreBuy({ ...small, spies: 5 }, { item: "spies", quantity: 1, stock: 1_000 })?.code).toBe("espionage/capacity");
    expect(checkTraining({ ...small, turns: 100 }, 100)).toEqual(checkStoreBuy(small, { item: "spies", quantity: 100, stock: 1_000 }));
  });

  it("a public market purchase of spies applies the same capacity rule", () => {
    const small = country({ land: 100, spies: 4, cash: 1_000_000 });
    const listing = { sellerId: 2, item: "spies" as const, quantity: 50, pricePerUnit: 100, status: "open" as const };
    expect(checkBuyListing(small, 1, listing, 2)).toEqual({ code: "espionage/capacity", message: "Spy capacity reached: at most 5 spies (5% of land)" });
    expect(checkBuyListing(small, 1, listing, 1)).toBeNull();
  });

  it("buying the max purchase with enough cash, and selling what is owned, are allowed", () => {
    const rich = country({ cash: 10_000_000 });
    expect(checkStoreBuy(rich, { item: "troops", quantity: 10_000, stock: 50_000 })).toBeNull();
    expect(checkStoreBuy(country(), { item: "troops", quantity: 694, stock: 50_000 })).toBeNull(); // 99,936 <= 100,000
    expect(checkStoreBuy(country(), { item: "troops", quantity: 695, stock: 50_000 })?.code).toBe("market/insufficient_funds");
    expect(checkStoreSell(country(), { item: "troops", quantity: 100, demand: 50_000 })).toBeNull();
    expect(checkStoreSell(country(), { item: "troops", quantity: 101, demand: 50_000 })).toEqual({ code: "market/insufficient_inventory", message: "Insufficient inventory to sell" });
    expect(checkStoreSell(country(), { item: "oil", quantity: 1, demand: 0 })?.code).toBe("market/express_only");
  });

  it("demand: food is STORE_FOOD_DEMAND_PER_ACRE bushels per acre a day, military units as much as the stock, oil none", () => {
    expect(STORE_FOOD_DEMAND_PER_ACRE).toBe(10);
    expect(storeDemandCapacity("food", 100)).toBe(1_000);
    expect(storeDemandCapacity("food", 2_500)).toBe(25_000);
    expect(storeDemandCapacity("food", 0)).toBe(0);
    for (const item of ["troops", "jets", "turrets", "tanks", "spies"] as const) expect(storeDemandCapacity(item, 100)).toBe(storeStockCapacity(item));
    expect(storeDemandCapacity("troops", 10_000)).toBe(50_000); // land does not scale the army's demand
    expect(storeDemandCapacity("oil", 1_000)).toBe(0);
    expect(computeStoreDemand("oil", 1_000, null, 0)).toBe(0);
  });

  it("demand refills linearly over a day like the stock; sales stack; land scales food's", () => {
    const t = 1_700_000_000_000;
    expect(computeStoreDemand("food", 1_000, null, t)).toBe(10_000);
    const fullAt = applyStoreDemandSale("food", 1_000, null, 4_000, t);
    expect(fullAt).toBe(t + (4_000 * STORE_REFILL_MS) / 10_000);
    expect(computeStoreDemand("food", 1_000, fullAt, t)).toBe(6_000);
    expect(computeStoreDemand("food", 1_000, fullAt, t + STORE_REFILL_MS / 10)).toBe(7_000);
    expect(computeStoreDemand("food", 1_000, fullAt, fullAt)).toBe(10_000);
    // A second sale before the refill stacks on the first: the day's 10,000 are used up.
    const again = applyStoreDemandSale("food", 1_000, fullAt, 6_000, t);
    expect(computeStoreDemand("food", 1_000, again, t)).toBe(0);
    expect(computeStoreDemand("food", 1_000, again, t + STORE_REFILL_MS / 2)).toBe(5_000);
    // Twice the land doubles the day's demand and keeps the share of the day already used.
    expect(computeStoreDemand("food", 2_000, fullAt, t)).toBe(12_000);
    // a sale on a larger country moves the clock less
    expect(applyStoreDemandSale("food", 2_000, null, 4_000, t) - t).toBe((fullAt - t) / 2);
  });

  it("demand never goes above capacity or below 0, and selling q leaves at most demand - q (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom<MarketItemType>("troops", "tanks", "food"), fc.integer({ min: 1, max: 20_000 }), fc.nat(10 * STORE_REFILL_MS), fc.nat(3 * STORE_REFILL_MS), fc.nat(300_000), (item, land, fullOffset, now, q) => {
        const fullAt = fullOffset === 0 ? null : fullOffset;
        const demand = computeStoreDemand(item, land, fullAt, now);
        expect(demand).toBeGreaterThanOrEqual(0);
        expect(demand).toBeLessThanOrEqual(storeDemandCapacity(item, land));
        const sold = Math.min(q, demand);
        if (sold === 0) return;
        expect(computeStoreDemand(item, land, applyStoreDemandSale(item, land, fullAt, sold, now), now)).toBeLessThanOrEqual(demand - sold);
      }),
    );
  });

  it.each([
    ["food", 5_000, 0, "market/no_demand", "The Government Store buys no more food today"],
    ["food", 5_000, 4_999, "market/beyond_demand", "The Government Store buys only 4,999 more food today"],
    ["troops", 100, 99, "market/beyond_demand", "The Government Store buys only 99 more troops today"],
    ["troops", 101, 50_000, "market/insufficient_inventory", "Insufficient inventory to sell"], // inventory before demand
  ] as const)("selling %d %s with a demand of %d is refused: %s", (item, quantity, demand, code, message) => {
    expect(checkStoreSell(country({ food: 10_000 }), { item, quantity, demand })).toEqual({ code, message });
  });

  it("selling exactly the demand is allowed", () => {
    expect(checkStoreSell(country({ food: 10_000 }), { item: "food", quantity: 5_000, demand: 5_000 })).toBeNull();
  });

  it("a store buy and sell move cash and goods at the country's prices", () => {
    const c = { ...country({ cash: 1_000_000 }), tech: { ...emptyTechLevels(), military: 10 } };
    const buy = applyStoreBuy(c, "troops", 100);
    expect(buy).toMatchObject({ pricePerUnit: 130, total: 13_000 });
    expect(buy.next.cash).toBe(987_000);
    expect(buy.next.troops).toBe(200);
    const sell = applyStoreSell(buy.next, "troops", 50);
    expect(sell).toMatchObject({ pricePerUnit: 39, total: 1_950 });
    expect(sell.next.troops).toBe(150);
  });

  it.each([
    [null, [1, 10, 100, 1_000]],
    [10_000, [1, 10, 100, 1_000]],
    [500, [1, 10, 100]],
    [300, [1, 10, 100]],
  ])("quick-buy amounts up to max purchase %s", (max, amounts) => {
    expect(quickBuyAmounts(max)).toEqual(amounts);
  });

  it.each([
    [0, []],
    [1, [1]],
    [3, [1]],
    [40, [1, 10, 20]],
    [100, [1, 10, 100, 25]],
    [1_000, [1, 10, 100, 250]],
  ])("quick-sell amounts for %d owned", (owned, amounts) => {
    expect(quickSellAmounts(owned)).toEqual(amounts);
  });
});

describe("public market", () => {
  it.each([
    [1_999, 99],
    [20, 1],
    [19, 0],
    [0, 0],
    [1_000_000, 50_000],
  ])("fee on %d is %d (5%, rounded down)", (total, fee) => {
    expect(computeMarketFee(total)).toBe(fee);
  });

  it("fee modifiers lower the rate (a 2% diplomacy reduction: 3%) and never below 0", () => {
    expect(computeMarketFee(1_000, [{ source: "trade_relation", reductionBps: 200 }])).toBe(30);
    expect(
      computeMarketFee(1_000, [
        { source: "a", reductionBps: 300 },
        { source: "b", reductionBps: 300 },
      ]),
    ).toBe(0);
  });

  it.each([
    ["troops", 29, 360],
    ["spies", 29, 360],
    ["jets", 39, 480],
    ["turrets", 42, 525],
    ["tanks", 118, 1_470],
    ["food", 72, 900],
    ["oil", 80, 1_000],
  ] as const)("%s listing price bounds $%d..$%d (0.2x..2.5x the store's base buy price)", (item, min, max) => {
    expect(computePriceBounds(item)).toEqual({ min, max });
  });

  it.each([
    [{ quantity: 0, pricePerUnit: 100 }, "market/invalid_quantity", "Quantity must be at least 1"],
    [{ quantity: 101, pricePerUnit: 100 }, "market/insufficient_inventory", "Insufficient inventory to sell"],
    [{ quantity: 10, pricePerUnit: 0 }, "market/invalid_price", "Price must be above 0"],
    [{ quantity: 10, pricePerUnit: 28 }, "market/price_out_of_bounds", "Price for Troops must be between $29 and $360"],
    [{ quantity: 10, pricePerUnit: 361 }, "market/price_out_of_bounds", "Price for Troops must be between $29 and $360"],
    [{ quantity: 10, pricePerUnit: 100, openListings: 20 }, "market/too_many_listings", "You can have at most 20 open listings"],
  ])("listing %o is refused: %s", (input, code, message) => {
    expect(checkCreateListing(country(), { item: "troops", openListings: 0, ...input })).toEqual({ code, message });
  });

  it("a listing within the bounds and holdings is allowed and escrows the goods at once", () => {
    expect(checkCreateListing(country(), { item: "troops", quantity: 100, pricePerUnit: 360, openListings: 19 })).toBeNull();
    expect(applyCreateListing(country(), "troops", 60).troops).toBe(40);
  });

  const listing = { sellerId: 2, item: "troops" as const, quantity: 50, pricePerUnit: 100, status: "open" as const };
  it.each([
    [{ ...listing, status: "sold" as const }, 1, 10, "market/listing_unavailable", "This listing is no longer available"],
    [{ ...listing, quantity: 0 }, 1, 10, "market/listing_unavailable", "This listing is no longer available"],
    [listing, 2, 10, "market/own_listing", "You cannot buy your own listing"],
    [listing, 1, 51, "market/insufficient_listing", "Only 50 left in this listing"],
    [{ ...listing, pricePerUnit: 360, quantity: 500 }, 1, 278, "market/insufficient_funds", "Insufficient funds for this purchase"],
  ])("buying from %o as country %d, %d units, is refused: %s", (l, buyerId, quantity, code, message) => {
    expect(checkBuyListing(country(), buyerId, l, quantity)).toEqual({ code, message });
  });

  it("a purchase conserves goods and loses exactly the fee, which the seller pays (property)", () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 29, max: 360 }), fc.nat(10_000), (buyerCash, sellerCash, q, price, escrow) => {
        const buyer = country({ cash: buyerCash + q * price });
        const seller = country({ cash: sellerCash });
        const { buyer: b, seller: s, amounts } = applyPublicTrade(buyer, seller, "troops", q, price);
        expect(b.cash + s.cash).toBe(buyer.cash + seller.cash - amounts.fee);
        expect(b.troops + s.troops + (escrow + 0)).toBe(buyer.troops + seller.troops + q + escrow);
        expect(amounts.fee).toBe(Math.floor((q * price) / 20));
        expect(b.cash).toBe(buyer.cash - q * price);
        expect(s.cash).toBe(seller.cash + q * price - amounts.fee);
      }),
    );
  });

  it("listings are met cheapest first, then oldest", () => {
    const ls = [
      { id: 1, pricePerUnit: 120, listedAt: 5 },
      { id: 2, pricePerUnit: 100, listedAt: 9 },
      { id: 3, pricePerUnit: 100, listedAt: 3 },
      { id: 4, pricePerUnit: 100, listedAt: 3 },
    ];
    expect([...ls].sort(compareListings).map((l) => l.id)).toEqual([3, 4, 2, 1]);
  });
});

describe("standing orders", () => {
  it("budget = quantity x max price; high priority pays 1% of it up front", () => {
    expect(computePriorityFee(100_000, "high")).toBe(1_000);
    expect(computePriorityFee(99, "high")).toBe(0);
    expect(computePriorityFee(100_000, "medium")).toBe(0);
    expect(computePriorityFee(100_000, "low")).toBe(0);
    const { next, budget, priorityFee } = applyCreateStandingOrder(country(), 500, 100, "high");
    expect([budget, priorityFee, next.cash]).toEqual([50_000, 500, 49_500]);
  });

  it.each([
    [{ quantity: 0, maxPrice: 100 }, "market/invalid_quantity"],
    [{ quantity: 10, maxPrice: 0 }, "market/invalid_price"],
    [{ quantity: 10, maxPrice: 361 }, "market/price_out_of_bounds"],
    [{ quantity: 1_000, maxPrice: 100 }, "market/insufficient_funds"], // 100,000 is affordable, +1% high is not
    [{ quantity: 10, maxPrice: 100, openOrders: 20 }, "market/too_many_orders"],
  ])("order %o is refused (%s)", (input, code) => {
    expect(checkCreateStandingOrder(country(), { item: "troops", priority: "high", openOrders: 0, ...input })?.code).toBe(code);
  });

  it("an order of exactly the cash at medium priority is allowed", () => {
    expect(checkCreateStandingOrder(country(), { item: "troops", quantity: 1_000, maxPrice: 100, priority: "medium", openOrders: 0 })).toBeNull();
    // A standing order for spies stops at the spy capacity like training and the store.
    expect(checkCreateStandingOrder(country({ land: 100, spies: 0 }), { item: "spies", quantity: 6, maxPrice: 100, priority: "medium", openOrders: 0 })?.code).toBe("espionage/capacity");
    expect(checkCreateStandingOrder(country({ land: 100, spies: 0 }), { item: "spies", quantity: 5, maxPrice: 100, priority: "medium", openOrders: 0 })).toBeNull();
  });

  it.each([
    [2 * 3_600_000, "Active in: 2h 0m"],
    [3_600_000 + 60_000 * 5 + 1, "Active in: 1h 6m"],
    [59_000, "Active in: 0h 1m"],
    [0, "Active"],
    [-5, "Active"],
  ])("countdown %d ms before activation: %s", (left, text) => {
    expect(formatActivationCountdown(1_000_000 + left, 1_000_000)).toBe(text);
  });

  it("controls: pause only active or partial; activate a paused order, never skip the first 2 hours; cancel only open orders", () => {
    expect(checkPauseOrder({ status: "active" })).toBeNull();
    expect(checkPauseOrder({ status: "partial" })).toBeNull();
    expect(checkPauseOrder({ status: "pending" })?.code).toBe("market/not_active");
    expect(checkActivateOrder({ status: "pending", paused: true, processAfter: 10_000 }, 0)).toBeNull();
    expect(checkActivateOrder({ status: "pending", paused: false, processAfter: 0 }, 0)).toBeNull();
    expect(checkActivateOrder({ status: "pending", paused: false, processAfter: 3_600_000 }, 0)).toEqual({
      code: "market/activation_delay",
      message: "This order activates by itself (Active in: 1h 0m)",
    });
    expect(checkActivateOrder({ status: "active", paused: false, processAfter: 0 }, 0)?.code).toBe("market/not_pending");
    for (const status of ["pending", "active", "partial"] as const) expect(checkCancelOrder({ status })).toBeNull();
    for (const status of ["fulfilled", "cancelled", "expired"] as const) expect(checkCancelOrder({ status })?.code).toBe("market/order_closed");
  });

  it.each([
    // wanted, filled, held, max, listing qty, price -> fill
    [100, 0, 10_000, 100, 500, 100, 100],
    [100, 60, 4_000, 100, 500, 80, 40],
    [100, 0, 10_000, 100, 30, 90, 30],
    [100, 0, 10_000, 100, 500, 101, 0], // above the max price
    [100, 100, 0, 100, 500, 50, 0],
  ])("order wanting %d (filled %d, held $%d, max $%d) takes %d at $%d: fills %d", (wanted, filled, held, max, qty, price, fill) => {
    expect(computeOrderFill({ quantityWanted: wanted, quantityFilled: filled, heldCash: held, maxPrice: max }, { quantity: qty, pricePerUnit: price })).toBe(fill);
  });

  it("a fill pays from escrow; completing the order refunds what the cheaper price left", () => {
    const buyer = country({ cash: 0 });
    const seller = country({ cash: 0 });
    const order = { quantityWanted: 100, quantityFilled: 40, heldCash: 6_000 };
    const r = applyOrderFill(buyer, seller, order, "troops", 60, 80);
    expect(r).toMatchObject({ quantityFilled: 100, fulfilled: true, refund: 1_200, heldCash: 0, amounts: { total: 4_800, fee: 240, sellerReceives: 4_560 } });
    expect(r.buyer).toMatchObject({ cash: 1_200, troops: 160 });
    expect(r.seller.cash).toBe(4_560);
    const partial = applyOrderFill(buyer, seller, order, "troops", 10, 80);
    expect(partial).toMatchObject({ fulfilled: false, refund: 0, heldCash: 5_200 });
  });

  it("cash in countries plus escrow falls by exactly the fee on every fill (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.nat(1_000), fc.integer({ min: 29, max: 360 }), fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 29, max: 360 }), (wanted, filledRaw, max, listingQty, priceRaw) => {
        const filled = Math.min(filledRaw, wanted - 1);
        const price = Math.min(priceRaw, max);
        const order = { quantityWanted: wanted, quantityFilled: filled, heldCash: (wanted - filled) * max, maxPrice: max };
        const q = computeOrderFill(order, { quantity: listingQty, pricePerUnit: price });
        expect(q).toBeGreaterThan(0);
        const b = country({ cash: 0 });
        const s = country({ cash: 0 });
        const r = applyOrderFill(b, s, order, "troops", q, price);
        expect(r.buyer.cash + r.seller.cash + r.heldCash).toBe(order.heldCash - r.amounts.fee);
        expect(r.heldCash).toBeGreaterThanOrEqual((wanted - r.quantityFilled) * price);
      }),
    );
  });

  const order = (id: number, buyerId: number, priority: BookOrder["priority"], createdAt: number, wanted = 100, max = 100): BookOrder => ({
    id,
    buyerId,
    priority,
    createdAt,
    quantityWanted: wanted,
    quantityFilled: 0,
    heldCash: wanted * max,
    maxPrice: max,
  });

  it("queue: high before medium before low, then oldest first", () => {
    const orders = [order(1, 10, "low", 1), order(2, 11, "medium", 5), order(3, 12, "high", 9), order(4, 13, "medium", 2)];
    expect([...orders].sort(compareOrders).map((o) => o.id)).toEqual([3, 4, 2, 1]);
  });

  it("a new listing fills orders in queue order, partially, at its price, never the seller's own, never above a max price", () => {
    const orders = [order(1, 10, "medium", 1, 100, 90), order(2, 5, "high", 0), order(3, 11, "medium", 2, 300), order(4, 12, "high", 3, 50, 100)];
    expect(planListingFills({ sellerId: 5, quantity: 200, pricePerUnit: 95 }, orders)).toEqual([
      { orderId: 4, buyerId: 12, quantity: 50 },
      { orderId: 3, buyerId: 11, quantity: 150 },
    ]);
  });

  it("planned fills never exceed the listing, an order's wish or its budget (property)", () => {
    const arbOrder = fc
      .record({
        id: fc.integer({ min: 1, max: 1_000 }),
        buyerId: fc.integer({ min: 1, max: 6 }),
        priority: fc.constantFrom("low", "medium", "high" as const),
        createdAt: fc.nat(1_000),
        quantityWanted: fc.integer({ min: 1, max: 500 }),
        quantityFilled: fc.constant(0),
        maxPrice: fc.integer({ min: 29, max: 360 }),
      })
      .map((o) => ({ ...o, heldCash: o.quantityWanted * o.maxPrice }) as BookOrder);
    fc.assert(
      fc.property(fc.uniqueArray(arbOrder, { selector: (o) => o.id, maxLength: 12 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 29, max: 360 }), (orders, sellerId, quantity, price) => {
        const fills = planListingFills({ sellerId, quantity, pricePerUnit: price }, orders);
        expect(fills.reduce((s, f) => s + f.quantity, 0)).toBeLessThanOrEqual(quantity);
        for (const f of fills) {
          const o = orders.find((x) => x.id === f.orderId)!;
          expect(o.buyerId).not.toBe(sellerId);
          expect(o.maxPrice).toBeGreaterThanOrEqual(price);
          expect(f.quantity).toBeLessThanOrEqual(o.quantityWanted);
          expect(f.quantity * price).toBeLessThanOrEqual(o.heldCash);
        }
      }),
    );
  });
});

describe("history CSV", () => {
  it("writes the spec's columns, quotes what needs quoting, names the file by period", () => {
    const csv = toTransactionsCsv([
      { timestamp: Date.UTC(2025, 0, 2, 3, 4, 5), transactionType: "sell", itemType: "troops", quantity: 10, pricePerUnit: 100, totalAmount: 1_000, marketFee: 50, netAmount: 950, marketType: "public", counterparty: 'Land of "Oz", North' },
      { timestamp: Date.UTC(2025, 0, 2), transactionType: "buy", itemType: "food", quantity: 5, pricePerUnit: 360, totalAmount: 1_800, marketFee: 0, netAmount: 1_800, marketType: "private", counterparty: "Government Store" },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "Date,Type,Item,Quantity,Price,Total,Fees,Net,Market,Counterparty",
      '2025-01-02T03:04:05.000Z,Sell,Troops,10,100,1000,50,950,Public Market,"Land of ""Oz"", North"',
      "2025-01-02T00:00:00.000Z,Buy,Food,5,360,1800,0,1800,Government Store,Government Store",
      "",
    ]);
    expect(transactionsCsvFileName("30d")).toBe("market-transactions-30d.csv");
  });
});

describe("analytics", () => {
  const now = Date.UTC(2025, 5, 10, 12, 30);
  const hour = analyticsHourStart(now);
  const bucket = (hoursAgo: number, trades: Array<[number, number]>): HourBucket => ({
    hour: hour - hoursAgo * 3_600_000,
    volume: trades.reduce((s, [q]) => s + q, 0),
    value: trades.reduce((s, [q, p]) => s + q * p, 0),
    valueSquares: trades.reduce((s, [q, p]) => s + q * p * p, 0),
    high: Math.max(...trades.map(([, p]) => p)),
    low: Math.min(...trades.map(([, p]) => p)),
    trades: trades.length,
  });
  const emptyBook: BookSummary = { sellOrders: 0, sellVolume: 0, bestAsk: null, bestAskQuantity: 0, buyOrders: 0, buyVolume: 0, bestBid: null };

  it("no trades: nulls, zero volume, 24 empty hourly points, sideways, low liquidity", () => {
    const a = computeMarketAnalytics({ item: "troops", now, buckets: [], lastPrice: null, priceDayAgo: null, book: emptyBook });
    expect(a).toMatchObject({ currentPrice: null, averagePrice: null, volume24h: 0, volumeChange: null, highPrice24h: null, lowPrice24h: null, volatilityIndex: 0, liquidityRating: "low" });
    expect(a.priceHistory).toHaveLength(24);
    expect(a.priceHistory.every((p) => p.price === null && p.volume === 0)).toBe(true);
    expect(a.priceHistory[23]!.timestamp).toBe(hour);
    expect(a.trend).toMatchObject({ trend: "sideways", strength: 0, support: null, resistance: null, prediction7d: null });
    expect(a.opportunities).toEqual([]);
  });

  it("averages, change, high and low, volume change and volatility from the day's trades", () => {
    const buckets = [
      bucket(0, [
        [10, 110],
        [30, 100],
      ]),
      bucket(5, [[20, 90]]),
      bucket(30, [[40, 80]]),
    ];
    const a = computeMarketAnalytics({ item: "troops", now, buckets, lastPrice: 110, priceDayAgo: 80, book: emptyBook });
    // VWAP over the day: (1100 + 3000 + 1800) / 60 = 98.33
    expect(a.averagePrice).toBe(98.3);
    expect(a.currentPrice).toBe(110);
    expect(a.priceChange24h).toBe(30);
    expect(a.priceChangePercent).toBe(37.5);
    expect([a.highPrice24h, a.lowPrice24h, a.volume24h, a.trades24h]).toEqual([110, 90, 60, 3]);
    expect(a.volumeChange).toBe(50); // 60 against 40 the day before
    // weighted variance: (10*110^2 + 30*100^2 + 20*90^2)/60 - 98.333^2 = 9716.67 - 9669.44 = 47.22; sd 6.87; /98.33 = 7.0%
    expect(a.volatilityIndex).toBe(7);
    expect(a.priceHistory[23]).toEqual({ timestamp: hour, price: 102.5, volume: 40 });
    expect(a.priceHistory[18]).toEqual({ timestamp: hour - 5 * 3_600_000, price: 90, volume: 20 });
    expect(a.liquidityRating).toBe("low");
  });

  it.each([
    [5, "medium"],
    [20, "high"],
  ] as const)("%d trades in a day rate liquidity %s", (n, rating) => {
    const buckets = Array.from({ length: n }, (_, i) => bucket(i % 20, [[1, 100]]));
    expect(computeMarketAnalytics({ item: "troops", now, buckets, lastPrice: 100, priceDayAgo: null, book: emptyBook }).liquidityRating).toBe(rating);
  });

  it("trend: the day's average against the week's; support and resistance from the book, a 7-day line for the prediction", () => {
    const rising = [bucket(24 * 6, [[10, 60]]), bucket(24 * 4, [[10, 70]]), bucket(24 * 2, [[10, 80]]), bucket(1, [[10, 100]])];
    const book: BookSummary = { sellOrders: 2, sellVolume: 300, bestAsk: 105, bestAskQuantity: 100, buyOrders: 1, buyVolume: 50, bestBid: 95 };
    const a = computeMarketAnalytics({ item: "troops", now, buckets: rising, lastPrice: 100, priceDayAgo: 80, book });
    expect(a.trend.trend).toBe("bullish");
    expect(a.trend.strength).toBe(29); // 100 against 77.5
    expect([a.trend.support, a.trend.resistance]).toEqual([95, 105]);
    // points (-6,60) (-4,70) (-2,80) (0,100): slope 6.5, mean x -3, mean y 77.5 -> at +7: 142.5 -> 143
    expect(a.trend.prediction7d).toBe(143);
    expect(a.trend.factors).toContain("2 open listings offer 300 units");
    const falling = computeMarketAnalytics({ item: "troops", now, buckets: [bucket(24 * 3, [[10, 100]]), bucket(2, [[10, 80]])], lastPrice: 80, priceDayAgo: 100, book: emptyBook });
    expect(falling.trend.trend).toBe("bearish");
    expect([falling.trend.support, falling.trend.resistance]).toEqual([80, 100]);
  });

  it("opportunities: undervalued listings, overpriced last trades, store arbitrage both ways, high demand, low supply", () => {
    const week = [bucket(48, [[100, 200]]), bucket(2, [[100, 200]])];
    const cheapAsk: BookSummary = { sellOrders: 1, sellVolume: 10, bestAsk: 30, bestAskQuantity: 10, buyOrders: 2, buyVolume: 500, bestBid: 180 };
    const a = computeMarketAnalytics({ item: "troops", now, buckets: week, lastPrice: 250, priceDayAgo: 200, book: cheapAsk });
    const byId = Object.fromEntries(a.opportunities.map((o) => [o.id, o]));
    expect(byId["undervalued-troops-buy"]).toMatchObject({ action: "buy", potentialProfit: 170 });
    expect(byId["overvalued-troops-sell"]).toMatchObject({ action: "sell", potentialProfit: 50 });
    expect(byId["arbitrage-troops-buy"]).toMatchObject({ potentialProfit: 6 }); // store buys at 36
    expect(byId["arbitrage-troops-sell"]).toMatchObject({ potentialProfit: 27 }); // 180 - 9 fee - 144
    expect(byId["high_demand-troops-sell"]).toBeDefined();
    const none = computeMarketAnalytics({ item: "troops", now, buckets: week, lastPrice: 200, priceDayAgo: 200, book: emptyBook });
    expect(none.opportunities.map((o) => o.type)).toEqual(["low_supply"]);
  });
});
