import type { CountryState, GovernmentType, RuleRejection, TechLevels } from "./country.js";
import { reject } from "./country.js";
import { checkSpyCapacity } from "./espionage.js";
import { computeAllianceEffects, type BonusPurchase } from "./alliance.js";
import { computeDiplomaticEffects } from "./diplomacy.js";
import { GOVERNMENTS } from "./governments.js";
import { computeTechEffects } from "./research.js";

/**
 * Markets: the public market (listings with escrow, a 5% fee the seller pays), the government
 * store (fixed prices, finite stock per country), standing orders (buy orders that escrow their
 * budget and fill from listings), transaction history and the analytics computed from trades.
 * Pure: time (`now`, epoch ms) is an argument. docs/rules.md, "Markets", gives the reasons.
 */

// ---------------------------------------------------------------------------------------
// Items

/** Item types traded (spec, document 3 section 1), in the spec's order. */
export const MARKET_ITEM_TYPES = ["troops", "jets", "turrets", "tanks", "spies", "food", "oil"] as const;
export type MarketItemType = (typeof MARKET_ITEM_TYPES)[number];

/** True when `value` is one of the seven item types. */
export function isMarketItemType(value: unknown): value is MarketItemType {
  return typeof value === "string" && (MARKET_ITEM_TYPES as readonly string[]).includes(value);
}

/** Display names. */
export const MARKET_ITEM_NAMES: Readonly<Record<MarketItemType, string>> = {
  troops: "Troops",
  jets: "Jets",
  turrets: "Turrets",
  tanks: "Tanks",
  spies: "Spies",
  food: "Food",
  oil: "Oil",
};

/** The spec's default item of the standing-order form and the item selectors. */
export const DEFAULT_MARKET_ITEM: MarketItemType = "troops";

/** How many of an item a country holds (every item is a CountryState field of the same name). */
export function holdingOf(country: Pick<CountryState, MarketItemType>, item: MarketItemType): number {
  return country[item];
}

/** The country with `delta` more (or fewer) of an item. */
export function withHolding<T extends CountryState>(country: T, item: MarketItemType, delta: number): T {
  return { ...country, [item]: country[item] + delta };
}

// ---------------------------------------------------------------------------------------
// Government store

export type StoreCategory = "military" | "resources";

/** A store item (spec: id, name, description, category, basePrice, maxPurchase, techBonus, expressOnly). */
export interface StoreItemDefinition {
  id: MarketItemType;
  name: string;
  description: string;
  category: StoreCategory;
  /** dollars per unit before tech and government */
  basePrice: { buy: number; sell: number };
  /** largest quantity per transaction; null = no limit given (oil, never in stock here) */
  maxPurchase: number | null;
  /** military tech changes its prices (military units only) */
  techBonus: boolean;
  /** only on Express servers: never in stock on this server */
  expressOnly: boolean;
}

/**
 * The spec's store (document 3 section 9): base prices buy/sell, max purchase per
 * transaction; oil express-only; tech bonus on military units only.
 */
export const STORE_ITEMS: Readonly<Record<MarketItemType, StoreItemDefinition>> = {
  spies: { id: "spies", name: "Spies", description: "Agents for intelligence operations", category: "military", basePrice: { buy: 144, sell: 36 }, maxPurchase: 1_000, techBonus: true, expressOnly: false },
  troops: { id: "troops", name: "Troops", description: "Infantry, the backbone of attack and defense", category: "military", basePrice: { buy: 144, sell: 36 }, maxPurchase: 10_000, techBonus: true, expressOnly: false },
  jets: { id: "jets", name: "Jets", description: "Air power for strikes", category: "military", basePrice: { buy: 192, sell: 48 }, maxPurchase: 500, techBonus: true, expressOnly: false },
  turrets: { id: "turrets", name: "Turrets", description: "Fixed defenses", category: "military", basePrice: { buy: 210, sell: 52 }, maxPurchase: 800, techBonus: true, expressOnly: false },
  tanks: { id: "tanks", name: "Tanks", description: "Heavy armor", category: "military", basePrice: { buy: 588, sell: 147 }, maxPurchase: 300, techBonus: true, expressOnly: false },
  food: { id: "food", name: "Food", description: "Bushels to feed your people and army", category: "resources", basePrice: { buy: 360, sell: 29 }, maxPurchase: 50_000, techBonus: false, expressOnly: false },
  oil: { id: "oil", name: "Oil", description: "Barrels for jets, tanks and industry", category: "resources", basePrice: { buy: 400, sell: 60 }, maxPurchase: null, techBonus: false, expressOnly: true },
};

/** The store's display order (the spec's price list order). */
export const STORE_ITEM_ORDER: readonly MarketItemType[] = ["spies", "troops", "jets", "turrets", "tanks", "food", "oil"];

/** The store's user-visible texts (spec). */
export const STORE_MESSAGES = {
  insufficientFunds: "Insufficient funds for this purchase",
  insufficientInventory: "Insufficient inventory to sell",
  unavailable: "Currently Unavailable",
  expressOnly: "Available on Express servers only",
  /** selling when the store's demand for the item is used up (designed, issue 27) */
  noDemand: (itemName: string) => `The Government Store buys no more ${itemName} today`,
  /** selling more than the store still buys (designed, issue 27) */
  beyondDemand: (itemName: string, demand: number) => `The Government Store buys only ${demand.toLocaleString("en-US")} more ${itemName} today`,
} as const;

/**
 * A day of the store's stock, as a multiple of the max purchase: each country's store holds
 * 5 max purchases of every item and refills linearly to full over STORE_REFILL_MS.
 */
export const STORE_STOCK_PURCHASES = 5;
/** Time for an empty stock to refill completely (ms): one day. */
export const STORE_REFILL_MS = 86_400_000;

/** The stock a country's store holds when full (0 for express-only items). */
export function storeStockCapacity(item: MarketItemType): number {
  const def = STORE_ITEMS[item];
  if (def.expressOnly || def.maxPurchase === null) return 0;
  return def.maxPurchase * STORE_STOCK_PURCHASES;
}

/**
 * Stock left for a country at `now`. The store keeps one instant per item, `fullAt`, when the
 * stock is full again (null: never bought, full); the missing part refills linearly, so
 * stock = capacity - ceil((fullAt - now) x capacity / STORE_REFILL_MS), at least 0.
 */
export function computeStoreStock(item: MarketItemType, fullAt: number | null, now: number): number {
  const capacity = storeStockCapacity(item);
  if (capacity === 0) return 0;
  if (fullAt === null || fullAt <= now) return capacity;
  const deficit = Math.ceil(((fullAt - now) * capacity) / STORE_REFILL_MS);
  return Math.max(0, capacity - deficit);
}

/** The store's `fullAt` after `quantity` more are taken at `now` (each unit takes REFILL/capacity ms to come back). */
export function applyStoreStockPurchase(item: MarketItemType, fullAt: number | null, quantity: number, now: number): number {
  const capacity = storeStockCapacity(item);
  if (capacity === 0) throw new RangeError(`${item} has no stock`);
  const from = fullAt === null ? now : Math.max(fullAt, now);
  return from + Math.ceil((quantity * STORE_REFILL_MS) / capacity);
}

/**
 * Bushels of food a day the store buys from a country, per acre it holds (designed, issue 27).
 * The store's demand is the mirror of its stock: a bounded quantity per country, refilled
 * linearly over STORE_REFILL_MS. Food scales with land, so a large country is not punished for
 * its size while a farm-heavy build is capped: at full build the AI's mixes grow a surplus of
 * about 48 (farmer), 40 (trader), 24 (turtle), 23 (researcher) and below 0 (raider) bushels per
 * acre a day, and much less while their land is being built (docs/rules.md "Store demand").
 */
export const STORE_FOOD_DEMAND_PER_ACRE = 10;

/**
 * How much of an item the store buys from a country in a full day: food
 * STORE_FOOD_DEMAND_PER_ACRE x land; military units as much as its stock holds (the store
 * buys back a day what it sells a day); nothing of express-only items.
 */
export function storeDemandCapacity(item: MarketItemType, land: number): number {
  const def = STORE_ITEMS[item];
  if (def.expressOnly) return 0;
  if (def.techBonus) return storeStockCapacity(item);
  return Math.max(0, Math.floor(land)) * STORE_FOOD_DEMAND_PER_ACRE;
}

/**
 * What the store still buys of an item from a country at `now`: the same refill as the stock
 * with the capacity of its demand. `fullAt` is when the demand is whole again (null: never
 * sold, whole); demand = capacity - ceil((fullAt - now) x capacity / STORE_REFILL_MS), at
 * least 0. A country whose land grows mid-day keeps the share of the day it has used.
 */
export function computeStoreDemand(item: MarketItemType, land: number, fullAt: number | null, now: number): number {
  const capacity = storeDemandCapacity(item, land);
  if (capacity === 0) return 0;
  if (fullAt === null || fullAt <= now) return capacity;
  const deficit = Math.ceil(((fullAt - now) * capacity) / STORE_REFILL_MS);
  return Math.max(0, capacity - deficit);
}

/** The demand's `fullAt` after the country sells `quantity` at `now` (each unit takes REFILL/capacity ms to come back). */
export function applyStoreDemandSale(item: MarketItemType, land: number, fullAt: number | null, quantity: number, now: number): number {
  const capacity = storeDemandCapacity(item, land);
  if (capacity === 0) throw new RangeError(`the store buys no ${item}`);
  const from = fullAt === null ? now : Math.max(fullAt, now);
  return from + Math.ceil((quantity * STORE_REFILL_MS) / capacity);
}

/** Store prices for one country: what it pays per unit and what it receives per unit. */
export interface StorePrices {
  buy: number;
  sell: number;
}

/** The military tech discount on buying (= bonus on selling), percent: 1 per military level. */
export function computeMilitaryTechDiscountPct(tech: TechLevels): number {
  return computeTechEffects(tech).storePricePct;
}

/**
 * A country's store prices. Items with the tech bonus (military units): buy =
 * ceil(base x (100 - military level)% x government military purchase%), sell =
 * floor(base x (100 + military level)%); other items at base. The country never gains from
 * rounding.
 */
export function computeStorePrices(item: MarketItemType, country: { tech: TechLevels; governmentType: GovernmentType }): StorePrices {
  const def = STORE_ITEMS[item];
  if (!def.techBonus) return { ...def.basePrice };
  const tech = computeMilitaryTechDiscountPct(country.tech);
  const gov = GOVERNMENTS[country.governmentType].militaryPurchaseCostPct;
  return {
    buy: Math.ceil((def.basePrice.buy * (100 - tech) * gov) / 10_000),
    sell: Math.floor((def.basePrice.sell * (100 + tech)) / 100),
  };
}

/** Quick-buy amounts of the spec: 1, 10, 100, 1000, only those up to the max purchase. */
export const QUICK_BUY_AMOUNTS = [1, 10, 100, 1_000] as const;

export function quickBuyAmounts(maxPurchase: number | null): number[] {
  return QUICK_BUY_AMOUNTS.filter((a) => maxPurchase === null || a <= maxPurchase);
}

/** Quick-sell amounts of the spec: 1, 10, 100, a quarter and half of the owned count; unique, above 0, not above owned, at most 4. */
export function quickSellAmounts(owned: number): number[] {
  const out: number[] = [];
  for (const a of [1, 10, 100, Math.floor(owned / 4), Math.floor(owned / 2)]) {
    if (a > 0 && a <= owned && !out.includes(a)) out.push(a);
  }
  return out.slice(0, 4);
}

/** The store's view of a purchase the rules check. */
export interface StoreTradeInput {
  item: MarketItemType;
  quantity: number;
  /** stock left now (computeStoreStock) */
  stock: number;
}

/**
 * Whether a country may buy from the store (spec order: quantity above 0, item in stock,
 * total cost at most cash; 'Insufficient funds for this purchase').
 */
export function checkStoreBuy(country: CountryState, input: StoreTradeInput): RuleRejection | null {
  const def = STORE_ITEMS[input.item];
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) return reject("market/invalid_quantity", "Quantity must be at least 1");
  if (def.expressOnly) return reject("market/express_only", STORE_MESSAGES.expressOnly);
  if (def.maxPurchase !== null && input.quantity > def.maxPurchase) {
    return reject("market/max_purchase", `Maximum purchase is ${def.maxPurchase.toLocaleString("en-US")} ${def.name.toLowerCase()} per transaction`);
  }
  if (input.stock <= 0) return reject("market/out_of_stock", STORE_MESSAGES.unavailable);
  if (input.quantity > input.stock) return reject("market/insufficient_stock", `Only ${input.stock.toLocaleString("en-US")} ${def.name.toLowerCase()} in stock`);
  if (input.item === "spies") {
    const capacity = checkSpyCapacity(country, input.quantity);
    if (capacity) return capacity;
  }
  const cost = input.quantity * computeStorePrices(input.item, country).buy;
  if (cost > country.cash) return reject("market/insufficient_funds", STORE_MESSAGES.insufficientFunds);
  return null;
}

/** The store's view of a sale the rules check. */
export interface StoreSaleInput {
  item: MarketItemType;
  quantity: number;
  /** what the store still buys of the item from this country now (computeStoreDemand) */
  demand: number;
}

/**
 * Whether a country may sell to the store: quantity above 0, at most owned ('Insufficient
 * inventory to sell'), at most what the store still buys from it today (its demand).
 */
export function checkStoreSell(country: CountryState, input: StoreSaleInput): RuleRejection | null {
  const def = STORE_ITEMS[input.item];
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) return reject("market/invalid_quantity", "Quantity must be at least 1");
  if (def.expressOnly) return reject("market/express_only", STORE_MESSAGES.expressOnly);
  if (input.quantity > holdingOf(country, input.item)) return reject("market/insufficient_inventory", STORE_MESSAGES.insufficientInventory);
  const name = def.name.toLowerCase();
  if (input.demand <= 0) return reject("market/no_demand", STORE_MESSAGES.noDemand(name));
  if (input.quantity > input.demand) return reject("market/beyond_demand", STORE_MESSAGES.beyondDemand(name, input.demand));
  return null;
}

/** A store trade's outcome for the country (call the check first). */
export interface StoreTradeOutcome<T extends CountryState> {
  next: T;
  pricePerUnit: number;
  total: number;
}

export function applyStoreBuy<T extends CountryState>(country: T, item: MarketItemType, quantity: number): StoreTradeOutcome<T> {
  const pricePerUnit = computeStorePrices(item, country).buy;
  const total = pricePerUnit * quantity;
  return { next: { ...withHolding(country, item, quantity), cash: country.cash - total }, pricePerUnit, total };
}

export function applyStoreSell<T extends CountryState>(country: T, item: MarketItemType, quantity: number): StoreTradeOutcome<T> {
  const pricePerUnit = computeStorePrices(item, country).sell;
  const total = pricePerUnit * quantity;
  return { next: { ...withHolding(country, item, -quantity), cash: country.cash + total }, pricePerUnit, total };
}

// ---------------------------------------------------------------------------------------
// Public market

/** Listing lifetime (spec: 7 days), ms. */
export const LISTING_LIFETIME_MS = 7 * 86_400_000;
/** The lowest listing price, percent of the store's base buy price (QM Promisance's 0.2x). */
export const PRICE_MIN_PCT = 20;
/** The highest listing price, percent of the store's base buy price (QM Promisance's 2.5x). */
export const PRICE_MAX_PCT = 250;
/** Open listings one country may have at once. */
export const MAX_OPEN_LISTINGS = 20;
/** Largest quantity in one listing, order or purchase (keeps every total a safe integer). */
export const MAX_MARKET_QUANTITY = 1_000_000_000;

/** The public market's fee on a purchase, basis points of the total (spec: 5%). */
export const MARKET_FEE_BPS = 500;

/**
 * Something that lowers the fee (an alliance's market discount, diplomacy's trade relation:
 * "2% market fee reduction" = 200). The fee stays a pure function of the trade and its modifiers.
 */
export interface FeeModifier {
  source: string;
  /** basis points off the fee rate (100 = one percentage point) */
  reductionBps: number;
}

/** Public market fee: floor(total x (5% - reductions)), never below 0 (spec: 5%, rounded down). */
export function computeMarketFee(total: number, modifiers: readonly FeeModifier[] = []): number {
  return Math.floor((total * computeMarketFeeBps(modifiers)) / 10_000);
}

/**
 * What a public trade's fee reductions depend on: the seller's alliance's Market Discount
 * purchases (the seller pays the fee) and whether a trade agreement joins seller and buyer.
 * The server reads them inside the trade; the sell preview gets the seller's half from the
 * store's answer (`StoreJson.seller`), with no agreement, since the buyer is not known yet.
 */
export interface MarketFeeInputs {
  /** the seller's alliance's `market_discount` purchases (none outside an alliance) */
  sellerDiscountPurchases: readonly BonusPurchase[];
  /** an active trade agreement between seller and buyer */
  tradeAgreement: boolean;
}

/**
 * The fee modifiers of a public trade at `now` (epoch ms): the Market Discount in force takes
 * its percent of MARKET_FEE_BPS (10% a level: 50 basis points), a trade agreement its points
 * (2 points: 200 basis points). The trade (server) and the sell preview (client) both call it.
 */
export function computeMarketFeeModifiers(inputs: MarketFeeInputs, now: number): FeeModifier[] {
  const modifiers: FeeModifier[] = [];
  const discountPct = computeAllianceEffects(inputs.sellerDiscountPurchases, now).marketFeeReductionPct;
  if (discountPct > 0) modifiers.push({ source: "alliance:market_discount", reductionBps: Math.floor((MARKET_FEE_BPS * discountPct) / 100) });
  const agreement = computeDiplomaticEffects(inputs.tradeAgreement ? ["trade"] : []);
  if (agreement.marketFeeReductionPts > 0) modifiers.push({ source: "diplomacy:trade", reductionBps: agreement.marketFeeReductionPts * 100 });
  return modifiers;
}

/** The fee rate after modifiers, basis points (what computeMarketFee charges). */
export function computeMarketFeeBps(modifiers: readonly FeeModifier[] = []): number {
  const reduction = modifiers.reduce((sum, m) => sum + Math.max(0, m.reductionBps), 0);
  return Math.max(0, MARKET_FEE_BPS - reduction);
}

/** The money of one public trade: the buyer pays `total`; the seller receives `total - fee`. */
export interface TradeAmounts {
  total: number;
  fee: number;
  sellerReceives: number;
}

export function computeTradeAmounts(quantity: number, pricePerUnit: number, modifiers: readonly FeeModifier[] = []): TradeAmounts {
  const total = quantity * pricePerUnit;
  const fee = computeMarketFee(total, modifiers);
  return { total, fee, sellerReceives: total - fee };
}

/** Listing price bounds for an item: [ceil(20%), floor(250%)] of the store's base buy price. */
export function computePriceBounds(item: MarketItemType): { min: number; max: number } {
  const base = STORE_ITEMS[item].basePrice.buy;
  return { min: Math.ceil((base * PRICE_MIN_PCT) / 100), max: Math.floor((base * PRICE_MAX_PCT) / 100) };
}

const money = (n: number) => `$${n.toLocaleString("en-US")}`;

function checkQuantity(quantity: number): RuleRejection | null {
  if (!Number.isSafeInteger(quantity) || quantity < 1) return reject("market/invalid_quantity", "Quantity must be at least 1");
  if (quantity > MAX_MARKET_QUANTITY) return reject("market/invalid_quantity", `Quantity must be at most ${MAX_MARKET_QUANTITY.toLocaleString("en-US")}`);
  return null;
}

function checkPrice(item: MarketItemType, price: number, what: string): RuleRejection | null {
  if (!Number.isSafeInteger(price) || price < 1) return reject("market/invalid_price", `${what} must be above 0`);
  const { min, max } = computePriceBounds(item);
  if (price < min || price > max) return reject("market/price_out_of_bounds", `${what} for ${MARKET_ITEM_NAMES[item]} must be between ${money(min)} and ${money(max)}`);
  return null;
}

/** What a new listing needs checked. */
export interface ListingInput {
  item: MarketItemType;
  quantity: number;
  pricePerUnit: number;
  /** the seller's open listings now */
  openListings: number;
}

/** Whether a country may list goods (spec: quantity above 0 and at most owned; price above 0; and the bounds). */
export function checkCreateListing(country: CountryState, input: ListingInput): RuleRejection | null {
  const q = checkQuantity(input.quantity);
  if (q) return q;
  if (input.quantity > holdingOf(country, input.item)) return reject("market/insufficient_inventory", STORE_MESSAGES.insufficientInventory);
  const p = checkPrice(input.item, input.pricePerUnit, "Price");
  if (p) return p;
  if (input.openListings >= MAX_OPEN_LISTINGS) return reject("market/too_many_listings", `You can have at most ${MAX_OPEN_LISTINGS} open listings`);
  return null;
}

/** The seller's country once the listed goods are in escrow (they leave at once). */
export function applyCreateListing<T extends CountryState>(country: T, item: MarketItemType, quantity: number): T {
  return withHolding(country, item, -quantity);
}

/** The listing as the purchase rules see it. */
export interface ListingForSale {
  sellerId: number;
  item: MarketItemType;
  /** quantity still for sale */
  quantity: number;
  pricePerUnit: number;
  status: ListingStatus;
}

export const LISTING_STATUSES = ["open", "sold", "cancelled", "expired"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const MARKET_MESSAGES = {
  listingUnavailable: "This listing is no longer available",
  ownListing: "You cannot buy your own listing",
  yourListing: "Your Listing",
  notYourListing: "You can only cancel your own listings",
} as const;

/** Whether `buyerId` may buy `quantity` of a listing (own listings are marked 'Your Listing' and cannot be bought). */
export function checkBuyListing(buyer: CountryState, buyerId: number, listing: ListingForSale, quantity: number): RuleRejection | null {
  if (listing.status !== "open" || listing.quantity <= 0) return reject("market/listing_unavailable", MARKET_MESSAGES.listingUnavailable);
  if (listing.sellerId === buyerId) return reject("market/own_listing", MARKET_MESSAGES.ownListing);
  const q = checkQuantity(quantity);
  if (q) return q;
  if (quantity > listing.quantity) return reject("market/insufficient_listing", `Only ${listing.quantity.toLocaleString("en-US")} left in this listing`);
  if (listing.item === "spies") {
    const capacity = checkSpyCapacity(buyer, quantity);
    if (capacity) return capacity;
  }
  if (quantity * listing.pricePerUnit > buyer.cash) return reject("market/insufficient_funds", STORE_MESSAGES.insufficientFunds);
  return null;
}

/**
 * A public purchase: the buyer pays the total from cash and receives the goods from escrow;
 * the seller receives total - fee; the fee is destroyed. Returns both next states.
 */
export function applyPublicTrade<T extends CountryState>(buyer: T, seller: T, item: MarketItemType, quantity: number, pricePerUnit: number, modifiers: readonly FeeModifier[] = []): { buyer: T; seller: T; amounts: TradeAmounts } {
  const amounts = computeTradeAmounts(quantity, pricePerUnit, modifiers);
  return {
    buyer: { ...withHolding(buyer, item, quantity), cash: buyer.cash - amounts.total },
    seller: { ...seller, cash: seller.cash + amounts.sellerReceives },
    amounts,
  };
}

/**
 * A trade between countries worth at least this much (dollars) is world news (`large_trade`):
 * the news catalogue's "moderate" impact threshold, so the feed gets the trades that move an
 * economy, not every purchase. Who bought and who sold stays private (as in the live events).
 */
export const LARGE_TRADE_NEWS_VALUE = 100_000;

/** Listings in the order a buyer meets them: cheapest first, then oldest, then lowest id. */
export function compareListings(a: { pricePerUnit: number; listedAt: number; id: number }, b: { pricePerUnit: number; listedAt: number; id: number }): number {
  return a.pricePerUnit - b.pricePerUnit || a.listedAt - b.listedAt || a.id - b.id;
}

// ---------------------------------------------------------------------------------------
// Standing orders

/** Activation delay of a new order (spec: 2 hours), ms. */
export const STANDING_ORDER_ACTIVATION_MS = 2 * 3_600_000;
/** Lifetime of an order from its creation (designed: 7 days, like a listing), ms. */
export const STANDING_ORDER_LIFETIME_MS = 7 * 86_400_000;
/** Open (pending, active, partial) orders one country may have at once. */
export const MAX_OPEN_STANDING_ORDERS = 20;
/** Executions shown per order (spec: 3). */
export const EXECUTIONS_SHOWN = 3;
/** Recent store transactions shown (spec: 5). */
export const RECENT_STORE_TRANSACTIONS = 5;

export const STANDING_ORDER_STATUSES = ["pending", "active", "partial", "fulfilled", "cancelled", "expired"] as const;
export type StandingOrderStatus = (typeof STANDING_ORDER_STATUSES)[number];
/** Statuses whose order still holds its budget and can fill or be controlled. */
export const OPEN_ORDER_STATUSES: readonly StandingOrderStatus[] = ["pending", "active", "partial"];
/** Statuses that match listings. */
export const MATCHING_ORDER_STATUSES: readonly StandingOrderStatus[] = ["active", "partial"];

export const ORDER_PRIORITIES = ["low", "medium", "high"] as const;
export type OrderPriority = (typeof ORDER_PRIORITIES)[number];
/** Spec: default priority medium. */
export const DEFAULT_ORDER_PRIORITY: OrderPriority = "medium";
/** Queue rank: lower fills first. */
export const PRIORITY_RANK: Readonly<Record<OrderPriority, number>> = { high: 0, medium: 1, low: 2 };
/** A high-priority order pays this share of its budget up front (destroyed), basis points. */
export const HIGH_PRIORITY_FEE_BPS = 100;

/** The order's budget (spec: quantity x max price). */
export function computeOrderBudget(quantity: number, maxPrice: number): number {
  return quantity * maxPrice;
}

/** The up-front fee of an order: 1% of the budget (floor) for high priority, nothing otherwise. */
export function computePriorityFee(budget: number, priority: OrderPriority): number {
  return priority === "high" ? Math.floor((budget * HIGH_PRIORITY_FEE_BPS) / 10_000) : 0;
}

/** What a new standing order needs checked. */
export interface StandingOrderInput {
  item: MarketItemType;
  quantity: number;
  maxPrice: number;
  priority: OrderPriority;
  /** the buyer's open orders now */
  openOrders: number;
}

/** Whether a country may place an order: quantity and max price whole numbers of at least 1, max price within the listing bounds, budget (+ fee) affordable. */
export function checkCreateStandingOrder(country: CountryState, input: StandingOrderInput): RuleRejection | null {
  const q = checkQuantity(input.quantity);
  if (q) return q;
  const p = checkPrice(input.item, input.maxPrice, "Max price");
  if (p) return p;
  if (input.openOrders >= MAX_OPEN_STANDING_ORDERS) return reject("market/too_many_orders", `You can have at most ${MAX_OPEN_STANDING_ORDERS} open standing orders`);
  if (input.item === "spies") {
    const capacity = checkSpyCapacity(country, input.quantity);
    if (capacity) return capacity;
  }
  const budget = computeOrderBudget(input.quantity, input.maxPrice);
  if (budget + computePriorityFee(budget, input.priority) > country.cash) return reject("market/insufficient_funds", STORE_MESSAGES.insufficientFunds);
  return null;
}

/** The buyer once the budget is in escrow and the priority fee is paid. */
export function applyCreateStandingOrder<T extends CountryState>(country: T, quantity: number, maxPrice: number, priority: OrderPriority): { next: T; budget: number; priorityFee: number } {
  const budget = computeOrderBudget(quantity, maxPrice);
  const priorityFee = computePriorityFee(budget, priority);
  return { next: { ...country, cash: country.cash - budget - priorityFee }, budget, priorityFee };
}

/** An order as its controls and the matcher see it. */
export interface StandingOrderView {
  status: StandingOrderStatus;
  /** pending and stopped by Pause (waits for Activate, not for the clock) */
  paused: boolean;
  /** epoch ms the order may activate */
  processAfter: number;
  quantityWanted: number;
  quantityFilled: number;
  /** budget still held in escrow */
  heldCash: number;
  maxPrice: number;
}

/** The spec's countdown on a pending card: 'Active in: Xh Ym', or 'Active' when due. */
export function formatActivationCountdown(processAfter: number, now: number): string {
  const left = processAfter - now;
  if (left <= 0) return "Active";
  const minutes = Math.ceil(left / 60_000);
  return `Active in: ${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Pause: only a matching order (active or partial) can be paused; it goes back to pending, paused. */
export function checkPauseOrder(order: Pick<StandingOrderView, "status">): RuleRejection | null {
  if (!MATCHING_ORDER_STATUSES.includes(order.status)) return reject("market/not_active", "Only active orders can be paused");
  return null;
}

/**
 * Activate: a pending order becomes active (partial once something filled). A paused order may
 * come back at once; a new order still in its 2-hour delay may not skip it.
 */
export function checkActivateOrder(order: Pick<StandingOrderView, "status" | "paused" | "processAfter">, now: number): RuleRejection | null {
  if (order.status !== "pending") return reject("market/not_pending", "Only pending orders can be activated");
  if (!order.paused && order.processAfter > now) {
    return reject("market/activation_delay", `This order activates by itself (${formatActivationCountdown(order.processAfter, now)})`);
  }
  return null;
}

/** Cancel: only an open order (pending, active, partial); its unused budget goes back. */
export function checkCancelOrder(order: Pick<StandingOrderView, "status">): RuleRejection | null {
  if (!OPEN_ORDER_STATUSES.includes(order.status)) return reject("market/order_closed", "This order is already closed");
  return null;
}

/** The status a matching order shows: partial once something filled, else active. */
export function matchingStatus(quantityFilled: number): StandingOrderStatus {
  return quantityFilled > 0 ? "partial" : "active";
}

/**
 * How much of a listing an order takes: up to what it still wants, what the listing has and
 * what its held budget pays for at the listing's price; 0 when the price is above its max.
 */
export function computeOrderFill(order: Pick<StandingOrderView, "quantityWanted" | "quantityFilled" | "heldCash" | "maxPrice">, listing: { quantity: number; pricePerUnit: number }): number {
  if (listing.pricePerUnit > order.maxPrice) return 0;
  const wanted = order.quantityWanted - order.quantityFilled;
  return Math.max(0, Math.min(wanted, listing.quantity, Math.floor(order.heldCash / listing.pricePerUnit)));
}

/**
 * A fill of a standing order: the buyer receives the goods, the listing's price is paid from the
 * order's escrow, the seller receives total - fee. When the order is complete, the budget left
 * (bought below the max price) goes back to the buyer.
 */
export function applyOrderFill<T extends CountryState>(
  buyer: T,
  seller: T,
  order: Pick<StandingOrderView, "quantityWanted" | "quantityFilled" | "heldCash">,
  item: MarketItemType,
  quantity: number,
  pricePerUnit: number,
  modifiers: readonly FeeModifier[] = [],
): { buyer: T; seller: T; amounts: TradeAmounts; quantityFilled: number; heldCash: number; fulfilled: boolean; refund: number } {
  const amounts = computeTradeAmounts(quantity, pricePerUnit, modifiers);
  if (amounts.total > order.heldCash) throw new RangeError("fill exceeds the order's budget");
  const quantityFilled = order.quantityFilled + quantity;
  const fulfilled = quantityFilled >= order.quantityWanted;
  const left = order.heldCash - amounts.total;
  const refund = fulfilled ? left : 0;
  return {
    buyer: { ...withHolding(buyer, item, quantity), cash: buyer.cash + refund },
    seller: { ...seller, cash: seller.cash + amounts.sellerReceives },
    amounts,
    quantityFilled,
    heldCash: left - refund,
    fulfilled,
    refund,
  };
}

/** Orders in the order they fill: priority (high first), then oldest, then lowest id. */
export function compareOrders(a: { priority: OrderPriority; createdAt: number; id: number }, b: { priority: OrderPriority; createdAt: number; id: number }): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.createdAt - b.createdAt || a.id - b.id;
}

/** An order in the book, for planning fills. */
export interface BookOrder extends Pick<StandingOrderView, "quantityWanted" | "quantityFilled" | "heldCash" | "maxPrice"> {
  id: number;
  buyerId: number;
  priority: OrderPriority;
  createdAt: number;
}

/**
 * How a new listing fills matching orders: in queue order (compareOrders), each at the
 * listing's price, skipping the seller's own orders, until the listing is gone.
 */
export function planListingFills(listing: { sellerId: number; quantity: number; pricePerUnit: number }, orders: readonly BookOrder[]): Array<{ orderId: number; buyerId: number; quantity: number }> {
  const fills: Array<{ orderId: number; buyerId: number; quantity: number }> = [];
  let left = listing.quantity;
  for (const order of [...orders].sort(compareOrders)) {
    if (left <= 0) break;
    if (order.buyerId === listing.sellerId) continue;
    const quantity = computeOrderFill(order, { quantity: left, pricePerUnit: listing.pricePerUnit });
    if (quantity <= 0) continue;
    fills.push({ orderId: order.id, buyerId: order.buyerId, quantity });
    left -= quantity;
  }
  return fills;
}

// ---------------------------------------------------------------------------------------
// Transaction history

/** Where a trade happened (spec: public, private = Government Store, standing_order). */
export const MARKET_TYPES = ["public", "private", "standing_order"] as const;
export type MarketType = (typeof MARKET_TYPES)[number];
export const MARKET_TYPE_NAMES: Readonly<Record<MarketType, string>> = { public: "Public Market", private: "Government Store", standing_order: "Standing Order" };

export const TRANSACTION_TYPES = ["buy", "sell"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** History periods (spec: 24h, 7d default, 30d, all), ms (null = all). */
export const HISTORY_PERIODS = { "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000, all: null } as const;
export type HistoryPeriod = keyof typeof HISTORY_PERIODS;
export const HISTORY_PERIOD_IDS = Object.keys(HISTORY_PERIODS) as HistoryPeriod[];
export const DEFAULT_HISTORY_PERIOD: HistoryPeriod = "7d";

/** Sort fields (spec: timestamp default descending, amount, quantity, price). */
export const HISTORY_SORT_FIELDS = ["timestamp", "amount", "quantity", "price"] as const;
export type HistorySortField = (typeof HISTORY_SORT_FIELDS)[number];

/** The counterparty shown for store trades. */
export const GOVERNMENT_STORE_NAME = "Government Store";

/** The spec's CSV columns. */
export const CSV_COLUMNS = ["Date", "Type", "Item", "Quantity", "Price", "Total", "Fees", "Net", "Market", "Counterparty"] as const;

/** One history row as the CSV writes it (a TransactionJson carries at least these). */
export interface CsvTransaction {
  timestamp: number;
  transactionType: TransactionType;
  itemType: MarketItemType;
  quantity: number;
  pricePerUnit: number;
  totalAmount: number;
  marketFee: number;
  netAmount: number;
  marketType: MarketType;
  counterparty: string;
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV of history rows with the spec's columns; dates in ISO 8601 (UTC). */
export function toTransactionsCsv(rows: readonly CsvTransaction[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    lines.push(
      [new Date(r.timestamp).toISOString(), r.transactionType === "buy" ? "Buy" : "Sell", MARKET_ITEM_NAMES[r.itemType], r.quantity, r.pricePerUnit, r.totalAmount, r.marketFee, r.netAmount, MARKET_TYPE_NAMES[r.marketType], r.counterparty]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** The export's file name, by period (spec: "file named by time period"). */
export function transactionsCsvFileName(period: HistoryPeriod): string {
  return `market-transactions-${period}.csv`;
}

// ---------------------------------------------------------------------------------------
// Analytics

/** One hour of recorded public and standing-order trades (store trades are fixed prices, not market prices). */
export interface HourBucket {
  /** hour start, epoch ms */
  hour: number;
  /** units traded */
  volume: number;
  /** sum of quantity x price (dollars) */
  value: number;
  /** sum of quantity x price^2 (for the weighted variance) */
  valueSquares: number;
  high: number;
  low: number;
  trades: number;
}

/** The open book of one item. */
export interface BookSummary {
  /** open listings and the units they hold */
  sellOrders: number;
  sellVolume: number;
  /** cheapest open listing's price and quantity (null when none) */
  bestAsk: number | null;
  bestAskQuantity: number;
  /** active and partial standing orders and the units they still want */
  buyOrders: number;
  buyVolume: number;
  /** highest max price among them (null when none) */
  bestBid: number | null;
}

export interface AnalyticsInput {
  item: MarketItemType;
  now: number;
  /** hourly buckets of the last 7 days (any order; empty hours may be absent) */
  buckets: readonly HourBucket[];
  /** the last trade's price, null if the item never traded */
  lastPrice: number | null;
  /** the last trade's price at or before 24 h ago, null if none */
  priceDayAgo: number | null;
  book: BookSummary;
}

export type LiquidityRating = "high" | "medium" | "low";
export type TrendDirection = "bullish" | "bearish" | "sideways";
export type OpportunityType = "undervalued" | "overvalued" | "arbitrage" | "high_demand" | "low_supply";

export interface PricePoint {
  /** hour start, epoch ms */
  timestamp: number;
  /** volume-weighted price that hour; null when nothing traded */
  price: number | null;
  volume: number;
}

export interface MarketTrend {
  itemType: MarketItemType;
  trend: TrendDirection;
  /** percent difference between the 24 h and the 7-day average price (0..100) */
  strength: number;
  support: number | null;
  resistance: number | null;
  /** the 7-day line of daily average prices extended 7 days, within the listing bounds */
  prediction7d: number | null;
  factors: string[];
}

export interface MarketOpportunity {
  id: string;
  type: OpportunityType;
  itemType: MarketItemType;
  description: string;
  /** dollars per unit */
  potentialProfit: number;
  /** percent */
  confidence: number;
  timeframe: string;
  action: "buy" | "sell";
}

/** Everything the analytics screen shows for an item (spec: market analytics per item, trend, opportunities). */
export interface MarketAnalytics {
  itemType: MarketItemType;
  currentPrice: number | null;
  averagePrice: number | null;
  priceChange24h: number;
  priceChangePercent: number;
  volume24h: number;
  /** percent against the 24 h before; null when nothing traded then */
  volumeChange: number | null;
  highPrice24h: number | null;
  lowPrice24h: number | null;
  totalListings: number;
  totalStandingOrders: number;
  marketDepth: { buyOrders: number; sellOrders: number; buyVolume: number; sellVolume: number };
  priceHistory: PricePoint[];
  volatilityIndex: number;
  liquidityRating: LiquidityRating;
  trades24h: number;
  trend: MarketTrend;
  opportunities: MarketOpportunity[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Trades in 24 h for a high / medium liquidity rating. */
export const LIQUIDITY_HIGH_TRADES = 20;
export const LIQUIDITY_MEDIUM_TRADES = 5;
/** 24 h average this far (percent) from the 7-day average makes a trend. */
export const TREND_THRESHOLD_PCT = 2;
/** Price this far (percent) below / above the 7-day average is under- / overvalued. */
export const VALUE_GAP_PCT = 10;

const round1 = (n: number) => Math.round(n * 10) / 10;

interface Aggregate {
  volume: number;
  value: number;
  valueSquares: number;
  trades: number;
  high: number | null;
  low: number | null;
}

function aggregate(buckets: readonly HourBucket[]): Aggregate {
  const a: Aggregate = { volume: 0, value: 0, valueSquares: 0, trades: 0, high: null, low: null };
  for (const b of buckets) {
    a.volume += b.volume;
    a.value += b.value;
    a.valueSquares += b.valueSquares;
    a.trades += b.trades;
    a.high = a.high === null ? b.high : Math.max(a.high, b.high);
    a.low = a.low === null ? b.low : Math.min(a.low, b.low);
  }
  return a;
}

const vwap = (a: Aggregate) => (a.volume > 0 ? a.value / a.volume : null);

/** The hour (epoch ms) that contains `t`. */
export const analyticsHourStart = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

/**
 * Analytics of one item from hourly trade buckets and the open book (docs/rules.md, "Market
 * analytics", gives each formula).
 */
export function computeMarketAnalytics(input: AnalyticsInput): MarketAnalytics {
  const { item, now, book } = input;
  const currentHour = analyticsHourStart(now);
  const firstHour = currentHour - 23 * HOUR_MS;
  const day = input.buckets.filter((b) => b.hour >= firstHour && b.hour <= currentHour);
  const previousDay = input.buckets.filter((b) => b.hour >= firstHour - DAY_MS && b.hour < firstHour);
  const week = input.buckets.filter((b) => b.hour > currentHour - 7 * DAY_MS && b.hour <= currentHour);
  const d = aggregate(day);
  const p = aggregate(previousDay);
  const w = aggregate(week);
  const dayAverage = vwap(d);
  const weekAverage = vwap(w);

  const byHour = new Map(day.map((b) => [b.hour, b]));
  const priceHistory: PricePoint[] = [];
  for (let h = firstHour; h <= currentHour; h += HOUR_MS) {
    const b = byHour.get(h);
    priceHistory.push({ timestamp: h, price: b && b.volume > 0 ? round1(b.value / b.volume) : null, volume: b?.volume ?? 0 });
  }

  const reference = input.priceDayAgo ?? priceHistory.find((pt) => pt.price !== null)?.price ?? null;
  const current = input.lastPrice;
  const change = current !== null && reference !== null ? current - reference : 0;
  const changePct = current !== null && reference ? round1((change / reference) * 100) : 0;

  // Weighted standard deviation over mean of the day's trade prices, percent.
  let volatility = 0;
  if (d.volume > 0 && d.trades >= 2 && dayAverage) {
    const variance = Math.max(0, d.valueSquares / d.volume - dayAverage * dayAverage);
    volatility = round1((Math.sqrt(variance) / dayAverage) * 100);
  }
  const liquidityRating: LiquidityRating = d.trades >= LIQUIDITY_HIGH_TRADES ? "high" : d.trades >= LIQUIDITY_MEDIUM_TRADES ? "medium" : "low";

  const trend = computeTrend(item, dayAverage, weekAverage, week, book, w, currentHour);
  return {
    itemType: item,
    currentPrice: current,
    averagePrice: dayAverage === null ? null : round1(dayAverage),
    priceChange24h: round1(change),
    priceChangePercent: changePct,
    volume24h: d.volume,
    volumeChange: p.volume > 0 ? round1(((d.volume - p.volume) / p.volume) * 100) : null,
    highPrice24h: d.high,
    lowPrice24h: d.low,
    totalListings: book.sellOrders,
    totalStandingOrders: book.buyOrders,
    marketDepth: { buyOrders: book.buyOrders, sellOrders: book.sellOrders, buyVolume: book.buyVolume, sellVolume: book.sellVolume },
    priceHistory,
    volatilityIndex: volatility,
    liquidityRating,
    trades24h: d.trades,
    trend,
    opportunities: computeOpportunities(item, { current, weekAverage, volume24h: d.volume, trades7d: w.trades }, book),
  };
}

function computeTrend(item: MarketItemType, dayAverage: number | null, weekAverage: number | null, week: readonly HourBucket[], book: BookSummary, w: Aggregate, currentHour: number): MarketTrend {
  let trend: TrendDirection = "sideways";
  let strength = 0;
  const factors: string[] = [];
  if (dayAverage !== null && weekAverage !== null && weekAverage > 0) {
    const diffPct = ((dayAverage - weekAverage) / weekAverage) * 100;
    strength = Math.min(100, round1(Math.abs(diffPct)));
    if (diffPct > TREND_THRESHOLD_PCT) trend = "bullish";
    else if (diffPct < -TREND_THRESHOLD_PCT) trend = "bearish";
    factors.push(`24h average $${round1(dayAverage)} is ${round1(Math.abs(diffPct))}% ${diffPct >= 0 ? "above" : "below"} the 7-day average $${round1(weekAverage)}`);
  } else {
    factors.push(w.trades === 0 ? "No trades in the last 7 days" : "No trades in the last 24 hours");
  }
  if (book.sellOrders > 0) factors.push(`${book.sellOrders} open listing${book.sellOrders === 1 ? "" : "s"} offer ${book.sellVolume.toLocaleString("en-US")} units`);
  if (book.buyOrders > 0) factors.push(`${book.buyOrders} standing order${book.buyOrders === 1 ? "" : "s"} want ${book.buyVolume.toLocaleString("en-US")} units`);

  // Support: the best standing bid, else the 7-day low; resistance: the best ask, else the 7-day high.
  const support = book.bestBid ?? w.low;
  const resistance = book.bestAsk ?? w.high;

  // Least squares over daily average prices (day index 0 = today, -6 = six days ago), extended 7 days.
  const days = new Map<number, { volume: number; value: number }>();
  for (const b of week) {
    const dayIndex = -Math.floor((currentHour - b.hour) / DAY_MS);
    const e = days.get(dayIndex) ?? { volume: 0, value: 0 };
    e.volume += b.volume;
    e.value += b.value;
    days.set(dayIndex, e);
  }
  const points = [...days.entries()].filter(([, e]) => e.volume > 0).map(([x, e]) => ({ x, y: e.value / e.volume }));
  let prediction7d: number | null = null;
  if (points.length >= 2) {
    const n = points.length;
    const mx = points.reduce((s, p) => s + p.x, 0) / n;
    const my = points.reduce((s, p) => s + p.y, 0) / n;
    const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    const slope = sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
    const { min, max } = computePriceBounds(item);
    prediction7d = Math.round(Math.min(max, Math.max(min, my + slope * (7 - mx))));
  }
  return { itemType: item, trend, strength, support, resistance, prediction7d, factors };
}

function computeOpportunities(item: MarketItemType, stats: { current: number | null; weekAverage: number | null; volume24h: number; trades7d: number }, book: BookSummary): MarketOpportunity[] {
  const out: MarketOpportunity[] = [];
  const name = MARKET_ITEM_NAMES[item];
  const confidence = Math.min(95, 40 + 5 * stats.trades7d);
  const store = STORE_ITEMS[item];
  const add = (type: OpportunityType, action: "buy" | "sell", potentialProfit: number, description: string, timeframe: string, conf = confidence) =>
    out.push({ id: `${type}-${item}`, type, itemType: item, description, potentialProfit: Math.max(0, Math.floor(potentialProfit)), confidence: conf, timeframe, action });

  if (book.bestAsk !== null && stats.weekAverage !== null && book.bestAsk < stats.weekAverage * (1 - VALUE_GAP_PCT / 100)) {
    add("undervalued", "buy", stats.weekAverage - book.bestAsk, `${name} listed at $${book.bestAsk}, below the 7-day average $${round1(stats.weekAverage)}`, "7d");
  }
  if (stats.current !== null && stats.weekAverage !== null && stats.current > stats.weekAverage * (1 + VALUE_GAP_PCT / 100)) {
    add("overvalued", "sell", stats.current - stats.weekAverage, `${name} last traded at $${stats.current}, above the 7-day average $${round1(stats.weekAverage)}`, "7d");
  }
  if (!store.expressOnly && book.bestAsk !== null && book.bestAsk < store.basePrice.sell) {
    add("arbitrage", "buy", store.basePrice.sell - book.bestAsk, `${name} listed at $${book.bestAsk}; the Government Store buys at $${store.basePrice.sell}`, "now", 90);
  }
  if (!store.expressOnly && book.bestBid !== null) {
    const net = book.bestBid - computeMarketFee(book.bestBid);
    if (net > store.basePrice.buy) {
      add("arbitrage", "sell", net - store.basePrice.buy, `A standing order pays up to $${book.bestBid} for ${name.toLowerCase()}; the Government Store sells at $${store.basePrice.buy}`, "now", 90);
    }
  }
  if (book.buyVolume > 0 && book.buyVolume > 2 * book.sellVolume) {
    add(
      "high_demand",
      "sell",
      (book.bestBid ?? 0) - (book.bestAsk ?? store.basePrice.sell),
      `Standing orders want ${book.buyVolume.toLocaleString("en-US")} ${name.toLowerCase()}, listings offer ${book.sellVolume.toLocaleString("en-US")}`,
      "24h",
    );
  }
  if (book.sellOrders === 0 && stats.volume24h > 0) {
    add("low_supply", "sell", 0, `No ${name.toLowerCase()} listed after ${stats.volume24h.toLocaleString("en-US")} traded in 24 hours`, "24h");
  }
  // One arbitrage entry per direction keeps ids unique.
  const seen = new Set<string>();
  return out.filter((o) => {
    const key = `${o.id}-${o.action}`;
    if (seen.has(key)) return false;
    seen.add(key);
    o.id = key;
    return true;
  });
}
