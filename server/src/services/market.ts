import type {
  BuyListingRequest,
  CreateListingRequest,
  CreateStandingOrderBody,
  ListingJson,
  MarketAnalyticsJson,
  PublicStandingOrderJson,
  StandingOrderJson,
  StoreItemJson,
  StoreJson,
  StoreTradeRequest,
  TransactionJson,
  TransactionSummaryJson,
} from "@game/schema/api";
import type { MarketChangedPayload, NoticePayload } from "@game/schema/messages";
import {
  LARGE_TRADE_NEWS_VALUE,
  LISTING_LIFETIME_MS,
  MARKET_ITEM_NAMES,
  MATCHING_ORDER_STATUSES,
  STANDING_ORDER_ACTIVATION_MS,
  STANDING_ORDER_LIFETIME_MS,
  STORE_ITEMS,
  STORE_ITEM_ORDER,
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
  computeMarketAnalytics,
  computeMilitaryTechDiscountPct,
  computeOrderFill,
  computeStoreDemand,
  computeStorePrices,
  computeStoreStock,
  holdingOf,
  matchingStatus,
  planListingFills,
  storeDemandCapacity,
  toTransactionsCsv,
  withHolding,
  MARKET_MESSAGES,
  type CountryState,
  type MarketItemType,
  type RuleRejection,
} from "@game/schema/rules";
import { findCountryById, findCountryByUserId, rowToState, toOwnCountryJson, type CountryRow } from "../db/countries.js";
import {
  bookSummary,
  buyersWithUnrefundedOrders,
  cheapestCrossingListing,
  countOpenListings,
  countOpenOrders,
  findCrossingOrders,
  findListing,
  findOrder,
  insertListing,
  insertOrder,
  lastTradePrice,
  latestExecutions,
  listHistory,
  listOpenListings,
  listOrderBook,
  listOwnOrders,
  lockListing,
  lockOrders,
  lockUnrefundedOrders,
  lockUnreturnedListings,
  orderToBook,
  ordersWithCrossingListings,
  readStoreClocks,
  recentStoreTrades,
  recordPurchase,
  recordStoreTrade,
  saveListing,
  saveOrder,
  sellersWithUnreturnedListings,
  takeFromListing,
  toListingJson,
  toOrderJson,
  toPublicListingJson,
  toPublicOrderJson,
  toStoreTransactionJson,
  toTransactionJson,
  tradeBuckets,
  type HistoryFilters,
  type StoreClocks,
  type ListingRow,
  type OrderRow,
  type TradeRow,
} from "../db/market.js";
import { AppError, forbidden, notFound, tooManyRequests, unavailable } from "../errors.js";
import { countryTopic, WORLD_TOPIC } from "../events.js";
import { runCountriesAction, type ActionContext, type ActionTransaction, type LockedCountry } from "./actions.js";
import { recordNews } from "./news.js";
import { creditTrade, marketFeeInputs, marketFeeModifiers } from "./allianceMarket.js";
import type { ServiceContext } from "./context.js";
import { ownCountryWith, type CountryOwner } from "./countries.js";

/**
 * The markets' actions. Each is one runCountriesAction: the countries involved are locked in
 * ascending id order first, then the market rows they own (a listing under its seller, an order
 * under its buyer), so no two market actions deadlock. Goods of a listing and the budget of a
 * standing order are in escrow (held_quantity, held_cash) from the moment they leave the
 * country until they are traded or go back; the conservation audit counts them.
 */

const fmt = (n: number) => n.toLocaleString("en-US");

/** A rule's rejection as the answer: 409 when the listing went away meanwhile (a race), else 400. */
function marketError(rejection: RuleRejection): AppError {
  return new AppError(rejection.code === "market/listing_unavailable" ? 409 : 400, rejection.message, rejection.code);
}

/** Thrown inside a step when standing orders of countries not locked must fill: the action runs again with them. */
class MoreCountriesNeeded extends Error {
  constructor(readonly ids: number[]) {
    super("more countries needed");
  }
}

/** Attempts of a listing whose matching orders keep changing buyers between the read and the locks. */
const LISTING_ATTEMPTS = 5;
/** Most fills one order takes in one matching pass (each is its own transaction). */
const MAX_FILLS_PER_PASS = 200;

/**
 * What one action changed in the market, per item: collected in the step and emitted after
 * commit as `marketChanged` world events (forwarded to clients watching the market).
 */
class MarketChanges {
  private readonly items = new Map<MarketItemType, MarketChangedPayload>();

  private of(item: MarketItemType): MarketChangedPayload {
    let change = this.items.get(item);
    if (!change) this.items.set(item, (change = { itemType: item, listings: [], removedListingIds: [], orders: [], removedOrderIds: [], trades: [] }));
    return change;
  }

  listing(row: ListingRow): void {
    const c = this.of(row.item_type);
    c.listings = c.listings.filter((l) => l.id !== row.id);
    c.removedListingIds = c.removedListingIds.filter((id) => id !== row.id);
    if (row.status === "open") c.listings.push(toPublicListingJson(row));
    else c.removedListingIds.push(row.id);
  }

  order(row: OrderRow): void {
    const c = this.of(row.item_type);
    c.orders = c.orders.filter((o) => o.id !== row.id);
    c.removedOrderIds = c.removedOrderIds.filter((id) => id !== row.id);
    if (MATCHING_ORDER_STATUSES.includes(row.status)) c.orders.push(toPublicOrderJson(row));
    else c.removedOrderIds.push(row.id);
  }

  trade(row: TradeRow): void {
    this.of(row.item_type).trades.push({ itemType: row.item_type, quantity: row.quantity, pricePerUnit: row.price_per_unit, marketType: row.market_type, at: row.created_at.getTime() });
  }

  emit(emit: ActionTransaction["emit"]): void {
    for (const change of this.items.values()) emit(WORLD_TOPIC, { type: "marketChanged", change });
  }
}

function notice(tx: Pick<ActionTransaction, "emit">, countryId: number, n: Omit<NoticePayload, "at" | "view"> & { at: Date }): void {
  tx.emit(countryTopic(countryId), { type: "notice", countryId, notice: { ...n, at: n.at.getTime(), view: "market" } });
}

/** Next states of the countries a step changed (the others are not written). */
class StateSet {
  readonly states = new Map<number, CountryState>();
  private readonly changed = new Set<number>();

  constructor(readonly countries: ReadonlyMap<number, LockedCountry>) {
    for (const [id, c] of countries) this.states.set(id, c.state);
  }

  get(id: number): CountryState {
    const s = this.states.get(id);
    if (!s) throw new Error(`country ${id} is not locked by this action`);
    return s;
  }

  set(id: number, state: CountryState): void {
    this.states.set(id, state);
    this.changed.add(id);
  }

  name(id: number): string {
    return this.countries.get(id)!.row.name;
  }

  next(): Map<number, CountryState> {
    return new Map([...this.changed].map((id) => [id, this.states.get(id)!]));
  }
}

/** A trade between countries worth LARGE_TRADE_NEWS_VALUE or more is world news, in the trade's transaction. */
async function recordLargeTrade(tx: ActionTransaction, trade: TradeRow): Promise<void> {
  if (trade.total < LARGE_TRADE_NEWS_VALUE) return;
  await recordNews(tx, { kind: "large_trade", params: { item: trade.item_type, quantity: trade.quantity, totalValue: trade.total, buyer: null, seller: null } });
}

// ---------------------------------------------------------------------------------------
// Fills of standing orders (shared by a new listing and the matcher)

/**
 * One fill: `quantity` of the listing to the order's buyer at the listing's price, paid from
 * the order's escrow; the seller receives total - fee. A fulfilled order refunds what it did
 * not spend and, with auto-renew, places itself again. Both countries must be locked.
 */
async function executeFill(tx: ActionTransaction, changes: MarketChanges, states: StateSet, order: OrderRow, listing: ListingRow, quantity: number): Promise<{ order: OrderRow; listing: ListingRow; trade: TradeRow }> {
  const item = listing.item_type;
  const fill = applyOrderFill(
    states.get(order.buyer_id),
    states.get(listing.seller_id),
    { quantityWanted: order.quantity_wanted, quantityFilled: order.quantity_filled, heldCash: order.held_cash },
    item,
    quantity,
    listing.price_per_unit,
    await marketFeeModifiers(tx.client, listing.seller_id, order.buyer_id, tx.now),
  );
  states.set(order.buyer_id, fill.buyer);
  states.set(listing.seller_id, fill.seller);
  const nextListing = takeFromListing(listing, quantity, tx.now);
  const nextOrder: OrderRow = {
    ...order,
    quantity_filled: fill.quantityFilled,
    budget_used: order.budget_used + fill.amounts.total,
    held_cash: fill.heldCash,
    status: fill.fulfilled ? "fulfilled" : "partial",
    last_activity: tx.now,
    closed_at: fill.fulfilled ? tx.now : null,
  };
  const trade = await recordPurchase(tx.client, nextListing, {
    item,
    quantity,
    pricePerUnit: listing.price_per_unit,
    total: fill.amounts.total,
    fee: fill.amounts.fee,
    marketType: "standing_order",
    buyerId: order.buyer_id,
    sellerId: listing.seller_id,
    buyerName: order.buyer_name,
    sellerName: listing.seller_name,
    listingId: listing.id,
    orderId: order.id,
    at: tx.now,
  });
  await saveOrder(tx.client, nextOrder);
  await recordLargeTrade(tx, trade);
  await creditTrade(tx, { id: trade.id, total: trade.total, buyerId: trade.buyer_id, sellerId: trade.seller_id });
  changes.trade(trade);
  changes.order(nextOrder);
  const name = MARKET_ITEM_NAMES[item].toLowerCase();
  notice(tx, order.buyer_id, {
    id: `market-fill-${trade.id}`,
    kind: "order_filled",
    severity: "success",
    title: fill.fulfilled ? "Standing order fulfilled" : "Standing order filled",
    body: `Bought ${fmt(quantity)} ${name} from ${listing.seller_name} at $${fmt(listing.price_per_unit)} (${fmt(fill.quantityFilled)}/${fmt(order.quantity_wanted)}).${fill.refund > 0 ? ` $${fmt(fill.refund)} of unused budget returned.` : ""}`,
    at: tx.now,
    refId: order.id,
  });
  notice(tx, listing.seller_id, {
    id: `market-sale-${trade.id}`,
    kind: "market_sale",
    severity: "success",
    title: "Market sale",
    body: `${order.buyer_name}'s standing order bought ${fmt(quantity)} ${name} at $${fmt(listing.price_per_unit)}: $${fmt(fill.amounts.sellerReceives)} after the $${fmt(fill.amounts.fee)} fee.`,
    at: tx.now,
    refId: listing.id,
  });
  if (fill.fulfilled && order.auto_renew) await renewOrder(tx, states, nextOrder);
  return { order: nextOrder, listing: nextListing, trade };
}

/**
 * Auto-renew: a fulfilled order places the same order again (pending for 2 hours, budget and
 * priority fee escrowed anew) when the buyer can pay for it; otherwise it tells the player why.
 */
async function renewOrder(tx: ActionTransaction, states: StateSet, order: OrderRow): Promise<void> {
  const buyer = states.get(order.buyer_id);
  const rejection = checkCreateStandingOrder(buyer, {
    item: order.item_type,
    quantity: order.quantity_wanted,
    maxPrice: order.max_price,
    priority: order.priority,
    openOrders: await countOpenOrders(tx.client, order.buyer_id),
  });
  if (rejection) {
    notice(tx, order.buyer_id, { id: `market-renew-${order.id}`, kind: "order_not_renewed", severity: "warning", title: "Standing order not renewed", body: rejection.message, at: tx.now, refId: order.id });
    return;
  }
  const { next, budget, priorityFee } = applyCreateStandingOrder(buyer, order.quantity_wanted, order.max_price, order.priority);
  states.set(order.buyer_id, next);
  await insertOrder(tx.client, {
    buyerId: order.buyer_id,
    buyerName: order.buyer_name,
    item: order.item_type,
    maxPrice: order.max_price,
    quantity: order.quantity_wanted,
    budget,
    priority: order.priority,
    priorityFee,
    autoRenew: true,
    renewedFrom: order.id,
    createdAt: tx.now,
    processAfter: new Date(tx.now.getTime() + STANDING_ORDER_ACTIVATION_MS),
    expiresAt: new Date(tx.now.getTime() + STANDING_ORDER_LIFETIME_MS),
  });
}

const orderView = (o: OrderRow) => ({ quantityWanted: o.quantity_wanted, quantityFilled: o.quantity_filled, heldCash: o.held_cash, maxPrice: o.max_price });

// ---------------------------------------------------------------------------------------
// Public market

/** Open listings for a viewer, cheapest first (one item or all); own listings flagged. */
export async function getListings(ctx: ServiceContext, viewerCountryId: number | null, itemType: MarketItemType | undefined, limit: number): Promise<ListingJson[]> {
  return (await listOpenListings(ctx.db, itemType, limit)).map((row) => toListingJson(row, viewerCountryId));
}

/**
 * Lists goods: they leave the seller at once (escrow), and in the same transaction active
 * standing orders fill from the listing in queue order at its price. The buyers of those
 * orders are locked with the seller; if the orders that can fill change between the first
 * read and the locks, the action runs again with the new buyers.
 */
/**
 * Listings a user may create or cancel per minute, together (issue 28): each one is pushed to
 * every client watching the market, and one player ran 97 a second. 30 a minute is a listing
 * every 2 s, more than a player managing a market by hand makes; docs/reliability.md.
 * Standing orders take from the same budget (creating one, and pausing, activating or
 * cancelling it): each changes the public order book, pushed to the same clients, so a
 * player refused for listings could otherwise churn the market through orders.
 */
export const LISTING_CHURN_LIMIT = { name: "market-listing-churn", points: 30, durationSeconds: 60 } as const;

/** Takes one of the user's market changes (listings and standing orders) of this minute, or answers 429 with Retry-After. */
async function takeListingChange(ctx: ServiceContext, userId: number): Promise<void> {
  const refused = await ctx.limiter.define(LISTING_CHURN_LIMIT).tryTake(String(userId));
  if (refused) throw tooManyRequests("Too many market changes, wait a moment", "market/rate_limited", refused.retryAfterSeconds);
}

export async function createListing(ctx: ServiceContext, userId: number, body: CreateListingRequest): Promise<{ listing: ListingJson; fills: TransactionJson[]; country: ReturnType<typeof toOwnCountryJson> }> {
  await takeListingChange(ctx, userId);
  const sellerId = body.countryId;
  const item = body.itemType;
  let known: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const planned = planListingFills({ sellerId, quantity: body.quantity, pricePerUnit: body.pricePerUnit }, await findCrossingOrders(ctx.db, item, body.pricePerUnit, sellerId));
    const ids = [...new Set([sellerId, ...planned.map((f) => f.buyerId), ...known])];
    try {
      const { result, rows } = await runCountriesAction(ctx, {
        name: "market_list",
        actor: { userId, countryId: sellerId },
        countryIds: ids,
        async step(countries, tx) {
          const states = new StateSet(countries);
          const changes = new MarketChanges();
          const seller = countries.get(sellerId)!;
          const rejection = checkCreateListing(seller.state, { item, quantity: body.quantity, pricePerUnit: body.pricePerUnit, openListings: await countOpenListings(tx.client, sellerId) });
          if (rejection) throw marketError(rejection);
          states.set(sellerId, applyCreateListing(seller.state, item, body.quantity));
          let listing = await insertListing(tx.client, {
            sellerId,
            sellerName: seller.row.name,
            item,
            quantity: body.quantity,
            pricePerUnit: body.pricePerUnit,
            listedAt: tx.now,
            expiresAt: new Date(tx.now.getTime() + LISTING_LIFETIME_MS),
          });
          const plan = planListingFills({ sellerId, quantity: listing.quantity, pricePerUnit: listing.price_per_unit }, await findCrossingOrders(tx.client, item, listing.price_per_unit, sellerId));
          const missing = plan.map((f) => f.buyerId).filter((id) => !countries.has(id));
          if (missing.length > 0) throw new MoreCountriesNeeded([...countries.keys(), ...missing]);
          // The buyers are locked: their orders can be locked and re-read, then filled in queue order.
          const orders = await lockOrders(
            tx.client,
            plan.map((f) => f.orderId),
          );
          const fills: TradeRow[] = [];
          for (const order of planListingFills({ sellerId, quantity: listing.quantity, pricePerUnit: listing.price_per_unit }, [...orders.values()].filter((o) => MATCHING_ORDER_STATUSES.includes(o.status)).map(orderToBook))) {
            const row = orders.get(order.orderId)!;
            const quantity = computeOrderFill(orderView(row), { quantity: listing.quantity, pricePerUnit: listing.price_per_unit });
            if (quantity <= 0) continue;
            const done = await executeFill(tx, changes, states, row, listing, quantity);
            listing = done.listing;
            fills.push(done.trade);
          }
          changes.listing(listing);
          changes.emit(tx.emit);
          return {
            next: states.next(),
            result: { listing: toListingJson(listing, sellerId), fills: fills.map((t) => toTransactionJson(t, sellerId)) },
          };
        },
      });
      return { ...result, country: toOwnCountryJson(rows.get(sellerId)!) };
    } catch (err) {
      if (!(err instanceof MoreCountriesNeeded)) throw err;
      if (attempt >= LISTING_ATTEMPTS) throw unavailable("The market is busy, please try again", "market/busy");
      known = err.ids;
    }
  }
}

/**
 * Buys from a listing (all of it unless a quantity is given): buyer and seller locked in id
 * order, then the listing; the buyer pays the total, the seller receives it minus the 5% fee,
 * which is destroyed. Of many buyers racing for one listing, the first to lock the seller buys;
 * the others find it gone (409).
 */
export async function buyListing(ctx: ServiceContext, userId: number, listingId: number, body: BuyListingRequest): Promise<{ transaction: TransactionJson; listing: ListingJson; country: ReturnType<typeof toOwnCountryJson> }> {
  const buyerId = body.countryId;
  const seen = await findListing(ctx.db, listingId);
  if (!seen) throw notFound("Listing not found", "market/listing_not_found");
  if (seen.seller_id === buyerId) throw marketError({ code: "market/own_listing", message: MARKET_MESSAGES.ownListing });
  const { result, rows } = await runCountriesAction(ctx, {
    name: "market_buy",
    actor: { userId, countryId: buyerId },
    countryIds: [buyerId, seen.seller_id],
    async step(countries, tx) {
      const listing = (await lockListing(tx.client, listingId))!;
      const buyer = countries.get(buyerId)!;
      const quantity = body.quantity ?? listing.quantity;
      const rejection = checkBuyListing(buyer.state, buyerId, { sellerId: listing.seller_id, item: listing.item_type, quantity: listing.quantity, pricePerUnit: listing.price_per_unit, status: listing.status }, quantity);
      if (rejection) throw marketError(rejection);
      const seller = countries.get(listing.seller_id)!;
      const trade = applyPublicTrade(buyer.state, seller.state, listing.item_type, quantity, listing.price_per_unit, await marketFeeModifiers(tx.client, listing.seller_id, buyerId, tx.now));
      const after = takeFromListing(listing, quantity, tx.now);
      const row = await recordPurchase(tx.client, after, {
        item: listing.item_type,
        quantity,
        pricePerUnit: listing.price_per_unit,
        total: trade.amounts.total,
        fee: trade.amounts.fee,
        marketType: "public",
        buyerId,
        sellerId: listing.seller_id,
        buyerName: buyer.row.name,
        sellerName: seller.row.name,
        listingId,
        orderId: null,
        at: tx.now,
      });
      await recordLargeTrade(tx, row);
      await creditTrade(tx, { id: row.id, total: row.total, buyerId, sellerId: listing.seller_id });
      const changes = new MarketChanges();
      changes.listing(after);
      changes.trade(row);
      changes.emit(tx.emit);
      notice(tx, listing.seller_id, {
        id: `market-sale-${row.id}`,
        kind: "market_sale",
        severity: "success",
        title: "Market sale",
        body: `${buyer.row.name} bought ${fmt(quantity)} ${MARKET_ITEM_NAMES[listing.item_type].toLowerCase()} at $${fmt(listing.price_per_unit)}: $${fmt(trade.amounts.sellerReceives)} after the $${fmt(trade.amounts.fee)} fee.`,
        at: tx.now,
        refId: listingId,
      });
      return {
        next: new Map([
          [buyerId, trade.buyer],
          [listing.seller_id, trade.seller],
        ]),
        result: { transaction: toTransactionJson(row, buyerId), listing: toListingJson(after, buyerId) },
      };
    },
  });
  return { ...result, country: toOwnCountryJson(rows.get(buyerId)!) };
}

/** The caller's own country, refusing a countryId that is not theirs. */
async function callerCountry(ctx: ServiceContext, userId: number, countryId: number | undefined): Promise<CountryRow> {
  const own = await findCountryByUserId(ctx.db, userId);
  if (!own) throw new AppError(404, "You have no country", "country/none");
  if (countryId !== undefined && countryId !== own.id) throw forbidden();
  return own;
}

/** Takes a listing off the market: what is left of it goes back to the seller. */
export async function cancelListing(ctx: ServiceContext, userId: number, listingId: number, countryId?: number): Promise<{ listing: ListingJson; country: ReturnType<typeof toOwnCountryJson> }> {
  await takeListingChange(ctx, userId);
  const own = await callerCountry(ctx, userId, countryId);
  const seen = await findListing(ctx.db, listingId);
  if (!seen) throw notFound("Listing not found", "market/listing_not_found");
  if (seen.seller_id !== own.id) throw forbidden(MARKET_MESSAGES.notYourListing, "market/not_your_listing");
  const { result, rows } = await runCountriesAction(ctx, {
    name: "market_cancel_listing",
    actor: { userId, countryId: own.id },
    countryIds: [own.id],
    async step(countries, tx) {
      const listing = (await lockListing(tx.client, listingId))!;
      if (listing.status !== "open") throw marketError({ code: "market/listing_unavailable", message: MARKET_MESSAGES.listingUnavailable });
      const seller = countries.get(own.id)!;
      const next = withHolding(seller.state, listing.item_type, listing.held_quantity);
      const after: ListingRow = { ...listing, quantity: 0, held_quantity: 0, status: "cancelled", closed_at: tx.now };
      await saveListing(tx.client, after);
      const changes = new MarketChanges();
      changes.listing(after);
      changes.emit(tx.emit);
      return { next: new Map([[own.id, next]]), result: { listing: toListingJson({ ...after, quantity: listing.quantity }, own.id) } };
    },
  });
  return { ...result, country: toOwnCountryJson(rows.get(own.id)!) };
}

// ---------------------------------------------------------------------------------------
// Government store

function storeItems(state: CountryState, clocks: StoreClocks, now: number): StoreItemJson[] {
  return STORE_ITEM_ORDER.map((id) => {
    const def = STORE_ITEMS[id];
    const fullAt = clocks.stock.get(id) ?? null;
    const stock = computeStoreStock(id, fullAt, now);
    const demandFullAt = clocks.demand.get(id) ?? null;
    return {
      id,
      name: def.name,
      description: def.description,
      category: def.category,
      basePrice: { ...def.basePrice },
      price: computeStorePrices(id, state),
      inStock: stock > 0,
      stock,
      fullAt: fullAt !== null && fullAt > now ? fullAt : null,
      demand: computeStoreDemand(id, state.land, demandFullAt, now),
      demandCapacity: storeDemandCapacity(id, state.land),
      demandFullAt: demandFullAt !== null && demandFullAt > now ? demandFullAt : null,
      maxPurchase: def.maxPurchase,
      techBonus: def.techBonus,
      expressOnly: def.expressOnly,
      owned: holdingOf(state, id),
    };
  });
}

/** The store as one country sees it: its prices, its stock, what it still buys, its last 5 store trades, and its terms as a public-market seller. */
export async function getStore(ctx: ServiceContext, owner: CountryOwner & { countryId: number }): Promise<StoreJson> {
  // One round trip: the row with the store's four reads (services/countries.ts ownCountryWith).
  // The seller's half of the fee inputs: with itself as the buyer no trade agreement matches.
  const {
    country: row,
    values: [clocks, recent, openListings, feeInputs],
  } = await ownCountryWith(ctx, owner, (db, countryId) => [readStoreClocks(db, countryId), recentStoreTrades(db, countryId), countOpenListings(db, countryId), marketFeeInputs(db, countryId, countryId)] as const);
  const countryId = row.id;
  const state = rowToState(row);
  return {
    cash: state.cash,
    militaryTechDiscountPct: computeMilitaryTechDiscountPct(state.tech),
    items: storeItems(state, clocks, ctx.clock.now()),
    recentTransactions: recent.map((t) => toStoreTransactionJson(t, countryId)),
    seller: { openListings, feeInputs },
  };
}

/**
 * Buys from or sells to the government store at the country's prices, no fee. A purchase
 * takes from the country's own stock, a sale from the store's demand for the item (both
 * refilled over a day); each moves its clock in the trade's transaction, under the country's
 * row lock (runCountriesAction), so parallel trades of one country queue and none oversteps.
 */
export async function storeTrade(ctx: ServiceContext, userId: number, side: "buy" | "sell", body: StoreTradeRequest) {
  const countryId = body.countryId;
  const item = body.itemId;
  const { result, rows } = await runCountriesAction(ctx, {
    name: side === "buy" ? "market_store_buy" : "market_store_sell",
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(countries, tx) {
      const { state, row } = countries.get(countryId)!;
      const now = tx.now.getTime();
      const clocks = await readStoreClocks(tx.client, countryId);
      let outcome;
      const clock: { stockFullAt: number | null; demandFullAt: number | null } = { stockFullAt: null, demandFullAt: null };
      if (side === "buy") {
        const stock = computeStoreStock(item, clocks.stock.get(item) ?? null, now);
        const rejection = checkStoreBuy(state, { item, quantity: body.quantity, stock });
        if (rejection) throw marketError(rejection);
        outcome = applyStoreBuy(state, item, body.quantity);
        clock.stockFullAt = applyStoreStockPurchase(item, clocks.stock.get(item) ?? null, body.quantity, now);
      } else {
        const demand = computeStoreDemand(item, state.land, clocks.demand.get(item) ?? null, now);
        const rejection = checkStoreSell(state, { item, quantity: body.quantity, demand });
        if (rejection) throw marketError(rejection);
        outcome = applyStoreSell(state, item, body.quantity);
        clock.demandFullAt = applyStoreDemandSale(item, state.land, clocks.demand.get(item) ?? null, body.quantity, now);
      }
      const trade = await recordStoreTrade(tx.client, countryId, clock, {
        item,
        quantity: body.quantity,
        pricePerUnit: outcome.pricePerUnit,
        total: outcome.total,
        fee: 0,
        marketType: "private",
        buyerId: side === "buy" ? countryId : null,
        sellerId: side === "sell" ? countryId : null,
        buyerName: side === "buy" ? row.name : null,
        sellerName: side === "sell" ? row.name : null,
        listingId: null,
        orderId: null,
        at: tx.now,
      });
      return { next: new Map([[countryId, outcome.next]]), result: toStoreTransactionJson(trade, countryId) };
    },
  });
  return { transaction: result, store: await getStore(ctx, { userId, countryId }), country: toOwnCountryJson(rows.get(countryId)!) };
}

// ---------------------------------------------------------------------------------------
// Standing orders

/** A country's own orders, newest first, each with its latest fills; the owner's row and both reads in one round trip. */
export async function getOwnOrders(ctx: ServiceContext, owner: CountryOwner & { countryId: number }): Promise<StandingOrderJson[]> {
  const {
    values: [orders],
  } = await ownCountryWith(ctx, owner, (db, id) => [listOwnOrders(db, id)] as const, { countryId: owner.countryId });
  return orders.map(({ order, executions }) => toOrderJson(order, executions));
}

/** The public book: active and partial orders (what they still want, at what max price). */
export async function getOrderBook(ctx: ServiceContext, itemType: MarketItemType | undefined, limit: number): Promise<PublicStandingOrderJson[]> {
  return (await listOrderBook(ctx.db, itemType, limit)).map(toPublicOrderJson);
}

async function orderJson(ctx: ServiceContext, orderId: number): Promise<StandingOrderJson> {
  const row = (await findOrder(ctx.db, orderId))!;
  return toOrderJson(row, (await latestExecutions(ctx.db, [orderId])).get(orderId) ?? []);
}

/** Places a buy order: its budget (and a high priority's fee) leaves the buyer at once; pending for 2 hours. */
export async function createStandingOrder(ctx: ServiceContext, userId: number, body: CreateStandingOrderBody) {
  await takeListingChange(ctx, userId);
  const buyerId = body.countryId;
  const { result, rows } = await runCountriesAction(ctx, {
    name: "market_order_create",
    actor: { userId, countryId: buyerId },
    countryIds: [buyerId],
    async step(countries, tx) {
      const { state, row } = countries.get(buyerId)!;
      const rejection = checkCreateStandingOrder(state, { item: body.itemType, quantity: body.quantity, maxPrice: body.maxPrice, priority: body.priority, openOrders: await countOpenOrders(tx.client, buyerId) });
      if (rejection) throw marketError(rejection);
      const { next, budget, priorityFee } = applyCreateStandingOrder(state, body.quantity, body.maxPrice, body.priority);
      const order = await insertOrder(tx.client, {
        buyerId,
        buyerName: row.name,
        item: body.itemType,
        maxPrice: body.maxPrice,
        quantity: body.quantity,
        budget,
        priority: body.priority,
        priorityFee,
        autoRenew: body.autoRenew,
        renewedFrom: null,
        createdAt: tx.now,
        processAfter: new Date(tx.now.getTime() + STANDING_ORDER_ACTIVATION_MS),
        expiresAt: new Date(tx.now.getTime() + STANDING_ORDER_LIFETIME_MS),
      });
      return { next: new Map([[buyerId, next]]), result: toOrderJson(order) };
    },
  });
  return { order: result, country: toOwnCountryJson(rows.get(buyerId)!) };
}

export type OrderControl = "pause" | "activate" | "cancel";

/**
 * Pause (active or partial -> pending, paused), Activate (pending -> active or partial, then
 * matched at once), Cancel (any open order; the unused budget goes back).
 */
export async function controlOrder(ctx: ServiceContext, userId: number, orderId: number, control: OrderControl, countryId?: number) {
  await takeListingChange(ctx, userId);
  const own = await callerCountry(ctx, userId, countryId);
  const seen = await findOrder(ctx.db, orderId);
  if (!seen) throw notFound("Standing order not found", "market/order_not_found");
  if (seen.buyer_id !== own.id) throw forbidden("You can only change your own standing orders", "market/not_your_order");
  const { rows } = await runCountriesAction(ctx, {
    name: `market_order_${control}`,
    actor: { userId, countryId: own.id },
    countryIds: [own.id],
    async step(countries, tx) {
      const order = (await lockOrders(tx.client, [orderId])).get(orderId)!;
      const view = { status: order.status, paused: order.paused, processAfter: order.process_after.getTime() };
      const rejection = control === "pause" ? checkPauseOrder(view) : control === "activate" ? checkActivateOrder(view, tx.now.getTime()) : checkCancelOrder(view);
      if (rejection) throw marketError(rejection);
      let next: CountryState | undefined;
      let after: OrderRow;
      if (control === "pause") after = { ...order, status: "pending", paused: true, last_activity: tx.now };
      else if (control === "activate") after = { ...order, status: matchingStatus(order.quantity_filled), paused: false, last_activity: tx.now };
      else {
        const state = countries.get(own.id)!.state;
        next = { ...state, cash: state.cash + order.held_cash };
        after = { ...order, status: "cancelled", paused: false, held_cash: 0, last_activity: tx.now, closed_at: tx.now };
      }
      await saveOrder(tx.client, after);
      const changes = new MarketChanges();
      changes.order(after);
      changes.emit(tx.emit);
      return { next: next ? new Map([[own.id, next]]) : new Map(), result: null };
    },
  });
  if (control === "activate") {
    // The order is active whatever happens next; if matching fails now, the next tick's sweep matches it.
    await matchOrder(ctx, orderId).catch((err) => ctx.logger.warn({ err, orderId }, "matching an activated standing order failed; the tick will retry"));
  }
  const country = control === "activate" ? await findCountryById(ctx.db, own.id) : rows.get(own.id);
  return { order: await orderJson(ctx, orderId), country: toOwnCountryJson(country!) };
}

/**
 * Fills an active order from the cheapest listings it can take, one transaction per fill
 * (buyer and seller locked in id order, then the order and the listing, everything re-checked
 * under the locks). Matching consumes what it matches, so running it twice fills nothing twice.
 * @returns fills made
 */
export async function matchOrder(ctx: ActionContext, orderId: number): Promise<number> {
  let fills = 0;
  for (let i = 0; i < MAX_FILLS_PER_PASS; i++) {
    const order = await findOrder(ctx.db, orderId);
    if (!order || !MATCHING_ORDER_STATUSES.includes(order.status)) break;
    const candidate = await cheapestCrossingListing(ctx.db, order.item_type, order.max_price, order.buyer_id);
    if (!candidate) break;
    const { result } = await runCountriesAction(ctx, {
      name: "market_fill",
      actor: null,
      countryIds: [order.buyer_id, candidate.seller_id],
      async step(countries, tx) {
        const locked = (await lockOrders(tx.client, [orderId])).get(orderId);
        const listing = await lockListing(tx.client, candidate.id);
        if (!locked || !listing || !MATCHING_ORDER_STATUSES.includes(locked.status) || listing.status !== "open" || listing.seller_id === locked.buyer_id) {
          return { next: new Map(), result: 0 };
        }
        const quantity = computeOrderFill(orderView(locked), { quantity: listing.quantity, pricePerUnit: listing.price_per_unit });
        if (quantity <= 0) return { next: new Map(), result: 0 };
        const states = new StateSet(countries);
        const changes = new MarketChanges();
        const done = await executeFill(tx, changes, states, locked, listing, quantity);
        changes.listing(done.listing);
        changes.emit(tx.emit);
        return { next: states.next(), result: 1 };
      },
    });
    fills += result;
  }
  return fills;
}

/** Every active order that an open listing can fill now, in queue order (after activation, and as a repair sweep). @returns fills made */
export async function matchCrossingOrders(ctx: ActionContext): Promise<number> {
  let fills = 0;
  for (const orderId of await ordersWithCrossingListings(ctx.db)) fills += await matchOrder(ctx, orderId);
  return fills;
}

/**
 * Returns the goods of expired listings and refunds the budgets of expired orders (the tick
 * marked them expired; each country's return is one action). Only what is still in escrow is
 * returned, so a second run returns nothing.
 * @returns countries settled
 */
export async function settleExpired(ctx: ActionContext): Promise<number> {
  let settled = 0;
  for (const sellerId of await sellersWithUnreturnedListings(ctx.db)) {
    await runCountriesAction(ctx, {
      name: "market_listing_returned",
      actor: null,
      countryIds: [sellerId],
      async step(countries, tx) {
        let state = countries.get(sellerId)!.state;
        const listings = await lockUnreturnedListings(tx.client, sellerId);
        for (const listing of listings) {
          state = withHolding(state, listing.item_type, listing.held_quantity);
          await saveListing(tx.client, { ...listing, held_quantity: 0 });
          notice(tx, sellerId, {
            id: `market-expired-listing-${listing.id}`,
            kind: "listing_expired",
            severity: "info",
            title: "Listing expired",
            body: `Your listing of ${fmt(listing.held_quantity)} ${MARKET_ITEM_NAMES[listing.item_type].toLowerCase()} at $${fmt(listing.price_per_unit)} expired; the goods are back.`,
            at: tx.now,
            refId: listing.id,
          });
        }
        return { next: listings.length > 0 ? new Map([[sellerId, state]]) : new Map(), result: null };
      },
    });
    settled += 1;
  }
  for (const buyerId of await buyersWithUnrefundedOrders(ctx.db)) {
    await runCountriesAction(ctx, {
      name: "market_order_refunded",
      actor: null,
      countryIds: [buyerId],
      async step(countries, tx) {
        let state = countries.get(buyerId)!.state;
        const orders = await lockUnrefundedOrders(tx.client, buyerId);
        for (const order of orders) {
          state = { ...state, cash: state.cash + order.held_cash };
          await saveOrder(tx.client, { ...order, held_cash: 0, last_activity: tx.now });
          notice(tx, buyerId, {
            id: `market-expired-order-${order.id}`,
            kind: "order_expired",
            severity: "info",
            title: "Standing order expired",
            body: `Your order for ${fmt(order.quantity_wanted - order.quantity_filled)} ${MARKET_ITEM_NAMES[order.item_type].toLowerCase()} expired; $${fmt(order.held_cash)} of budget returned.`,
            at: tx.now,
            refId: order.id,
          });
        }
        return { next: orders.length > 0 ? new Map([[buyerId, state]]) : new Map(), result: null };
      },
    });
    settled += 1;
  }
  return settled;
}

// ---------------------------------------------------------------------------------------
// History and analytics

export async function getHistory(ctx: ServiceContext, countryId: number, filters: HistoryFilters): Promise<{ data: TransactionJson[]; summary: TransactionSummaryJson }> {
  const { rows, summary } = await listHistory(ctx.db, countryId, filters, ctx.clock.now());
  return { data: rows.map((r) => toTransactionJson(r, countryId)), summary };
}

/** The history under the same filters as CSV (spec's columns). */
export async function exportHistoryCsv(ctx: ServiceContext, countryId: number, filters: HistoryFilters): Promise<string> {
  return toTransactionsCsv((await getHistory(ctx, countryId, filters)).data);
}

/** Analytics of one item from the last 7 days of market trades and the open book. */
export async function getAnalytics(ctx: ServiceContext, item: MarketItemType): Promise<MarketAnalyticsJson> {
  const now = ctx.clock.now();
  const since = new Date(analyticsHourStart(now) - 8 * 86_400_000);
  const [buckets, lastPrice, priceDayAgo, book] = await Promise.all([tradeBuckets(ctx.db, item, since), lastTradePrice(ctx.db, item, null), lastTradePrice(ctx.db, item, new Date(now - 86_400_000)), bookSummary(ctx.db, item)]);
  return computeMarketAnalytics({ item, now, buckets, lastPrice, priceDayAgo, book });
}
