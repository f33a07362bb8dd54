import { z } from "zod";
import {
  DEFAULT_HISTORY_PERIOD,
  DEFAULT_MARKET_ITEM,
  DEFAULT_ORDER_PRIORITY,
  HISTORY_PERIOD_IDS,
  HISTORY_SORT_FIELDS,
  MARKET_ITEM_TYPES,
  MARKET_TYPES,
  ORDER_PRIORITIES,
  TRANSACTION_TYPES,
  LISTING_STATUSES,
  STANDING_ORDER_STATUSES,
  type HistoryPeriod,
  type MarketAnalytics,
  type StoreCategory,
} from "../rules/market.js";
import { idSchema, limitSchema } from "./common.js";
import { ownCountryJsonSchema } from "./countryViews.js";
import { marketFeeInputsSchema, num } from "./rulesJson.js";

/** The spec's fallback messages of the market calls (document 3 section 8), and ours for the calls it adds. */
export const MARKET_FALLBACK = {
  listings: "Failed to get market listings",
  standingOrders: "Failed to get standing orders",
  transactions: "Failed to get market transactions",
  createListing: "Failed to create market listing",
  buyListing: "Market purchase failed",
  cancelListing: "Failed to cancel market listing",
  store: "Failed to get the government store",
  storeBuy: "Store purchase failed",
  storeSell: "Store sale failed",
  createOrder: "Failed to create standing order",
  controlOrder: "Failed to update standing order",
  export: "Failed to export market transactions",
  analytics: "Failed to get market analytics",
} as const;

export const itemTypeSchema = z.enum(MARKET_ITEM_TYPES, { error: "Unknown item type" });

/** A whole number the rules then range-check with the spec's messages. */
function wholeNumber(field: string) {
  return z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(-1_000_000_000_000, `${field} is out of range`)
    .max(1_000_000_000_000, `${field} is out of range`);
}

/** GET /api/market/listings?itemType=&limit= */
export const listingsQuerySchema = z.object({
  itemType: itemTypeSchema.optional(),
  limit: limitSchema(100, 500),
});

/** GET /api/market/standing-orders?itemType= (the public book of active orders) */
export const orderBookQuerySchema = listingsQuerySchema;

/** POST /api/market/listings */
export const createListingRequestSchema = z.object({
  countryId: idSchema,
  itemType: itemTypeSchema,
  quantity: wholeNumber("quantity"),
  pricePerUnit: wholeNumber("pricePerUnit"),
});
export type CreateListingRequest = z.infer<typeof createListingRequestSchema>;

/** POST /api/market/listings/{id}/buy: quantity defaults to the whole listing. */
export const buyListingRequestSchema = z.object({
  countryId: idSchema,
  quantity: wholeNumber("quantity").optional(),
});
export type BuyListingRequest = z.infer<typeof buyListingRequestSchema>;

/** Bodies of calls on one's own listing or order (DELETE listing, order pause/activate/cancel): the country is optional, the caller's own. */
export const ownRecordRequestSchema = z.object({ countryId: idSchema.optional() });

/** POST /api/market/store/buy and /sell */
export const storeTradeRequestSchema = z.object({
  countryId: idSchema,
  itemId: itemTypeSchema,
  quantity: wholeNumber("quantity"),
});
export type StoreTradeRequest = z.infer<typeof storeTradeRequestSchema>;

/** POST /api/market/standing-orders (spec: default item troops, default priority medium) */
export const createStandingOrderRequestSchema = z.object({
  countryId: idSchema,
  itemType: itemTypeSchema.default(DEFAULT_MARKET_ITEM),
  quantity: wholeNumber("quantity"),
  maxPrice: wholeNumber("maxPrice"),
  priority: z.enum(ORDER_PRIORITIES, { error: "priority must be low, medium or high" }).default(DEFAULT_ORDER_PRIORITY),
  autoRenew: z.boolean({ error: "autoRenew must be true or false" }).default(false),
});
/** What the client sends (defaults may be left out). */
export type CreateStandingOrderRequest = z.input<typeof createStandingOrderRequestSchema>;
/** The body after parsing, defaults filled in. */
export type CreateStandingOrderBody = z.output<typeof createStandingOrderRequestSchema>;

/** GET /api/market/transactions/{countryId} and its export.csv: the spec's filters. */
export const transactionsQuerySchema = z.object({
  period: z.enum(HISTORY_PERIOD_IDS as [HistoryPeriod, ...HistoryPeriod[]], { error: "period must be 24h, 7d, 30d or all" }).default(DEFAULT_HISTORY_PERIOD),
  itemType: itemTypeSchema.optional(),
  marketType: z.enum(MARKET_TYPES, { error: "marketType must be public, private or standing_order" }).optional(),
  transactionType: z.enum(TRANSACTION_TYPES, { error: "transactionType must be buy or sell" }).optional(),
  sort: z.enum(HISTORY_SORT_FIELDS, { error: "sort must be timestamp, amount, quantity or price" }).default("timestamp"),
  direction: z.enum(["asc", "desc"], { error: "direction must be asc or desc" }).default("desc"),
  limit: limitSchema(500, 5_000),
});
export type TransactionsQuery = z.input<typeof transactionsQuerySchema>;
export type TransactionsFilters = z.output<typeof transactionsQuerySchema>;

/** GET /api/market/analytics/{itemType} */
export const analyticsParamsSchema = z.object({ itemType: itemTypeSchema });

// ---------------------------------------------------------------------------------------
// Answers. Times are epoch milliseconds.

const listingStatusSchema = z.enum(LISTING_STATUSES);
const standingOrderStatusSchema = z.enum(STANDING_ORDER_STATUSES);
const storeCategorySchema = z.enum(["military", "resources"] as const satisfies readonly StoreCategory[]);

/** A listing as everyone sees it (spec: market listing). */
export const publicListingJsonSchema = z.object({
  id: num,
  sellerId: num,
  sellerName: z.string(),
  itemType: z.enum(MARKET_ITEM_TYPES),
  /** units still for sale */
  quantity: num,
  pricePerUnit: num,
  totalPrice: num,
  listedAt: num,
  expiresAt: num,
  status: listingStatusSchema,
});
export type PublicListingJson = z.infer<typeof publicListingJsonSchema>;

/** A listing for one viewer: own listings are marked (spec: 'Your Listing'). */
export const listingJsonSchema = publicListingJsonSchema.extend({
  isOwnListing: z.boolean(),
});
export type ListingJson = z.infer<typeof listingJsonSchema>;

/** An active order as the public book shows it (spec: public-market standing order). */
export const publicStandingOrderJsonSchema = z.object({
  id: num,
  buyerId: num,
  buyerName: z.string(),
  itemType: z.enum(MARKET_ITEM_TYPES),
  /** units still wanted */
  quantity: num,
  maxPrice: num,
  totalBudget: num,
  createdAt: num,
  status: standingOrderStatusSchema,
  priority: z.enum(ORDER_PRIORITIES),
});
export type PublicStandingOrderJson = z.infer<typeof publicStandingOrderJsonSchema>;

/** One fill of an order (spec: order execution). */
export const orderExecutionJsonSchema = z.object({
  id: num,
  orderId: num,
  sellerId: num,
  sellerName: z.string(),
  quantity: num,
  pricePerUnit: num,
  totalCost: num,
  executedAt: num,
});
export type OrderExecutionJson = z.infer<typeof orderExecutionJsonSchema>;

/** The owner's view of an order (spec: standing order, store version). */
export const standingOrderJsonSchema = z.object({
  id: num,
  buyerId: num,
  buyerName: z.string(),
  itemType: z.enum(MARKET_ITEM_TYPES),
  maxPrice: num,
  quantityWanted: num,
  quantityFilled: num,
  totalBudget: num,
  budgetUsed: num,
  /** budget still in escrow */
  heldBudget: num,
  priorityFee: num,
  status: standingOrderStatusSchema,
  /** pending because of Pause */
  paused: z.boolean(),
  createdAt: num,
  processAfter: num,
  expiresAt: num,
  lastActivity: num,
  autoRenew: z.boolean(),
  priority: z.enum(ORDER_PRIORITIES),
  /** the order this one renewed, if any */
  renewedFromId: num.nullable(),
  /** the latest fills, newest first (spec: up to 3 shown) */
  executions: z.array(orderExecutionJsonSchema),
});
export type StandingOrderJson = z.infer<typeof standingOrderJsonSchema>;

/** A trade from one country's side (spec: market transaction). */
export const transactionJsonSchema = z.object({
  id: num,
  buyerId: num.nullable(),
  buyerName: z.string(),
  sellerId: num.nullable(),
  sellerName: z.string(),
  itemType: z.enum(MARKET_ITEM_TYPES),
  quantity: num,
  pricePerUnit: num,
  totalAmount: num,
  /** the fee this side paid: the seller pays it, the buyer pays none */
  marketFee: num,
  /** buy: what left the treasury (= total); sell: what arrived (total - fee) */
  netAmount: num,
  marketType: z.enum(MARKET_TYPES),
  timestamp: num,
  transactionType: z.enum(TRANSACTION_TYPES),
  isOwnTransaction: z.boolean(),
  /** the other side's name, or 'Government Store' */
  counterparty: z.string(),
});
export type TransactionJson = z.infer<typeof transactionJsonSchema>;

/** The history's summary panel, over every row the filters match. */
export const transactionSummaryJsonSchema = z.object({
  count: num,
  /** units bought and sold */
  unitsBought: num,
  unitsSold: num,
  /** dollars paid for purchases, dollars received from sales (after fees) */
  spent: num,
  earned: num,
  fees: num,
  /** earned - spent */
  net: num,
});
export type TransactionSummaryJson = z.infer<typeof transactionSummaryJsonSchema>;

export const transactionsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(transactionJsonSchema),
  summary: transactionSummaryJsonSchema,
});
export type TransactionsResponse = z.infer<typeof transactionsResponseSchema>;

/** A store item for one country (spec: private market / store item). */
export const storeItemJsonSchema = z.object({
  id: z.enum(MARKET_ITEM_TYPES),
  name: z.string(),
  description: z.string(),
  category: storeCategorySchema,
  basePrice: z.object({ buy: num, sell: num }),
  /** this country's prices (military tech, government) */
  price: z.object({ buy: num, sell: num }),
  inStock: z.boolean(),
  stock: num,
  /** when the stock is full again (epoch ms), null when full */
  fullAt: num.nullable(),
  /** how many the store still buys from this country now (its demand; 0 for express-only items) */
  demand: num,
  /** how many it buys in a whole day (storeDemandCapacity: food per acre of land, a unit's stock) */
  demandCapacity: num,
  /** when the demand is whole again (epoch ms), null when whole */
  demandFullAt: num.nullable(),
  maxPurchase: num.nullable(),
  techBonus: z.boolean(),
  expressOnly: z.boolean(),
  owned: num,
});
export type StoreItemJson = z.infer<typeof storeItemJsonSchema>;

/** A store trade (spec: store transaction). */
export const storeTransactionJsonSchema = z.object({
  id: num,
  itemId: z.enum(MARKET_ITEM_TYPES),
  itemName: z.string(),
  quantity: num,
  pricePerUnit: num,
  totalCost: num,
  transactionType: z.enum(TRANSACTION_TYPES),
  timestamp: num,
});
export type StoreTransactionJson = z.infer<typeof storeTransactionJsonSchema>;

export const storeJsonSchema = z.object({
  cash: num,
  /** military tech discount on buying (and bonus on selling) military units, percent */
  militaryTechDiscountPct: num,
  items: z.array(storeItemJsonSchema),
  /** the last store trades (spec: 5) */
  recentTransactions: z.array(storeTransactionJsonSchema),
  /**
   * The own country as a public-market seller, for the sell preview to run the server's rules
   * on the server's inputs: its open listings (every item; `checkCreateListing`) and its half of
   * the fee inputs (`computeMarketFeeModifiers`; no trade agreement, the buyer is not known).
   */
  seller: z.object({ openListings: num, feeInputs: marketFeeInputsSchema }),
});
export type StoreJson = z.infer<typeof storeJsonSchema>;

export const listingsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(listingJsonSchema),
});
export type ListingsResponse = z.infer<typeof listingsResponseSchema>;

export const createListingResponseSchema = z.object({
  success: z.literal(true),
  /** the listing after any standing orders it filled at once (status 'sold' if they took it all) */
  listing: listingJsonSchema,
  /** fills against standing orders, in the order they happened */
  fills: z.array(transactionJsonSchema),
  country: ownCountryJsonSchema,
});
export type CreateListingResponse = z.infer<typeof createListingResponseSchema>;

export const buyListingResponseSchema = z.object({
  success: z.literal(true),
  transaction: transactionJsonSchema,
  /** what is left of the listing */
  listing: listingJsonSchema,
  country: ownCountryJsonSchema,
});
export type BuyListingResponse = z.infer<typeof buyListingResponseSchema>;

export const cancelListingResponseSchema = z.object({
  success: z.literal(true),
  listing: listingJsonSchema,
  country: ownCountryJsonSchema,
});
export type CancelListingResponse = z.infer<typeof cancelListingResponseSchema>;

export const storeResponseSchema = z.object({
  success: z.literal(true),
  data: storeJsonSchema,
});
export type StoreResponse = z.infer<typeof storeResponseSchema>;

export const storeTradeResponseSchema = z.object({
  success: z.literal(true),
  transaction: storeTransactionJsonSchema,
  store: storeJsonSchema,
  country: ownCountryJsonSchema,
});
export type StoreTradeResponse = z.infer<typeof storeTradeResponseSchema>;

export const standingOrdersResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(standingOrderJsonSchema),
});
export type StandingOrdersResponse = z.infer<typeof standingOrdersResponseSchema>;

export const orderBookResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(publicStandingOrderJsonSchema),
});
export type OrderBookResponse = z.infer<typeof orderBookResponseSchema>;

export const standingOrderResponseSchema = z.object({
  success: z.literal(true),
  order: standingOrderJsonSchema,
  country: ownCountryJsonSchema,
});
export type StandingOrderResponse = z.infer<typeof standingOrderResponseSchema>;

const marketItemTypeSchema = z.enum(MARKET_ITEM_TYPES);

/** GET /market/analytics/{itemType}: the rules' MarketAnalytics. */
export const marketAnalyticsJsonSchema = z.object({
  itemType: marketItemTypeSchema,
  currentPrice: num.nullable(),
  averagePrice: num.nullable(),
  priceChange24h: num,
  priceChangePercent: num,
  volume24h: num,
  volumeChange: num.nullable(),
  highPrice24h: num.nullable(),
  lowPrice24h: num.nullable(),
  totalListings: num,
  totalStandingOrders: num,
  marketDepth: z.object({ buyOrders: num, sellOrders: num, buyVolume: num, sellVolume: num }),
  priceHistory: z.array(z.object({ timestamp: num, price: num.nullable(), volume: num })),
  volatilityIndex: num,
  liquidityRating: z.enum(["high", "medium", "low"]),
  trades24h: num,
  trend: z.object({
    itemType: marketItemTypeSchema,
    trend: z.enum(["bullish", "bearish", "sideways"]),
    strength: num,
    support: num.nullable(),
    resistance: num.nullable(),
    prediction7d: num.nullable(),
    factors: z.array(z.string()),
  }),
  opportunities: z.array(
    z.object({
      id: z.string(),
      type: z.enum(["undervalued", "overvalued", "arbitrage", "high_demand", "low_supply"]),
      itemType: marketItemTypeSchema,
      description: z.string(),
      potentialProfit: num,
      confidence: num,
      timeframe: z.string(),
      action: z.enum(["buy", "sell"]),
    }),
  ),
}) satisfies z.ZodType<MarketAnalytics>;
export type MarketAnalyticsJson = z.infer<typeof marketAnalyticsJsonSchema>;

export const marketAnalyticsResponseSchema = z.object({
  success: z.literal(true),
  data: marketAnalyticsJsonSchema,
});
export type MarketAnalyticsResponse = z.infer<typeof marketAnalyticsResponseSchema>;
