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
  type HistoryPeriod,
  type ListingStatus,
  type MarketAnalytics,
  type MarketFeeInputs,
  type MarketItemType,
  type MarketType,
  type OrderPriority,
  type StandingOrderStatus,
  type StoreCategory,
  type TransactionType,
} from "../rules/market.js";
import { idSchema, limitSchema } from "./common.js";
import type { OwnCountryJson } from "./countries.js";

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

/** A listing as everyone sees it (spec: market listing). */
export interface PublicListingJson {
  id: number;
  sellerId: number;
  sellerName: string;
  itemType: MarketItemType;
  /** units still for sale */
  quantity: number;
  pricePerUnit: number;
  totalPrice: number;
  listedAt: number;
  expiresAt: number;
  status: ListingStatus;
}

/** A listing for one viewer: own listings are marked (spec: 'Your Listing'). */
export interface ListingJson extends PublicListingJson {
  isOwnListing: boolean;
}

/** An active order as the public book shows it (spec: public-market standing order). */
export interface PublicStandingOrderJson {
  id: number;
  buyerId: number;
  buyerName: string;
  itemType: MarketItemType;
  /** units still wanted */
  quantity: number;
  maxPrice: number;
  totalBudget: number;
  createdAt: number;
  status: StandingOrderStatus;
  priority: OrderPriority;
}

/** One fill of an order (spec: order execution). */
export interface OrderExecutionJson {
  id: number;
  orderId: number;
  sellerId: number;
  sellerName: string;
  quantity: number;
  pricePerUnit: number;
  totalCost: number;
  executedAt: number;
}

/** The owner's view of an order (spec: standing order, store version). */
export interface StandingOrderJson {
  id: number;
  buyerId: number;
  buyerName: string;
  itemType: MarketItemType;
  maxPrice: number;
  quantityWanted: number;
  quantityFilled: number;
  totalBudget: number;
  budgetUsed: number;
  /** budget still in escrow */
  heldBudget: number;
  priorityFee: number;
  status: StandingOrderStatus;
  /** pending because of Pause */
  paused: boolean;
  createdAt: number;
  processAfter: number;
  expiresAt: number;
  lastActivity: number;
  autoRenew: boolean;
  priority: OrderPriority;
  /** the order this one renewed, if any */
  renewedFromId: number | null;
  /** the latest fills, newest first (spec: up to 3 shown) */
  executions: OrderExecutionJson[];
}

/** A trade from one country's side (spec: market transaction). */
export interface TransactionJson {
  id: number;
  buyerId: number | null;
  buyerName: string;
  sellerId: number | null;
  sellerName: string;
  itemType: MarketItemType;
  quantity: number;
  pricePerUnit: number;
  totalAmount: number;
  /** the fee this side paid: the seller pays it, the buyer pays none */
  marketFee: number;
  /** buy: what left the treasury (= total); sell: what arrived (total - fee) */
  netAmount: number;
  marketType: MarketType;
  timestamp: number;
  transactionType: TransactionType;
  isOwnTransaction: boolean;
  /** the other side's name, or 'Government Store' */
  counterparty: string;
}

/** The history's summary panel, over every row the filters match. */
export interface TransactionSummaryJson {
  count: number;
  /** units bought and sold */
  unitsBought: number;
  unitsSold: number;
  /** dollars paid for purchases, dollars received from sales (after fees) */
  spent: number;
  earned: number;
  fees: number;
  /** earned - spent */
  net: number;
}

export interface TransactionsResponse {
  success: true;
  data: TransactionJson[];
  summary: TransactionSummaryJson;
}

/** A store item for one country (spec: private market / store item). */
export interface StoreItemJson {
  id: MarketItemType;
  name: string;
  description: string;
  category: StoreCategory;
  basePrice: { buy: number; sell: number };
  /** this country's prices (military tech, government) */
  price: { buy: number; sell: number };
  inStock: boolean;
  stock: number;
  /** when the stock is full again (epoch ms), null when full */
  fullAt: number | null;
  maxPurchase: number | null;
  techBonus: boolean;
  expressOnly: boolean;
  owned: number;
}

/** A store trade (spec: store transaction). */
export interface StoreTransactionJson {
  id: number;
  itemId: MarketItemType;
  itemName: string;
  quantity: number;
  pricePerUnit: number;
  totalCost: number;
  transactionType: TransactionType;
  timestamp: number;
}

export interface StoreJson {
  cash: number;
  /** military tech discount on buying (and bonus on selling) military units, percent */
  militaryTechDiscountPct: number;
  items: StoreItemJson[];
  /** the last store trades (spec: 5) */
  recentTransactions: StoreTransactionJson[];
  /**
   * The own country as a public-market seller, for the sell preview to run the server's rules
   * on the server's inputs: its open listings (every item; `checkCreateListing`) and its half of
   * the fee inputs (`computeMarketFeeModifiers`; no trade agreement, the buyer is not known).
   */
  seller: { openListings: number; feeInputs: MarketFeeInputs };
}

export interface ListingsResponse {
  success: true;
  data: ListingJson[];
}

export interface CreateListingResponse {
  success: true;
  /** the listing after any standing orders it filled at once (status 'sold' if they took it all) */
  listing: ListingJson;
  /** fills against standing orders, in the order they happened */
  fills: TransactionJson[];
  country: OwnCountryJson;
}

export interface BuyListingResponse {
  success: true;
  transaction: TransactionJson;
  /** what is left of the listing */
  listing: ListingJson;
  country: OwnCountryJson;
}

export interface CancelListingResponse {
  success: true;
  listing: ListingJson;
  country: OwnCountryJson;
}

export interface StoreResponse {
  success: true;
  data: StoreJson;
}

export interface StoreTradeResponse {
  success: true;
  transaction: StoreTransactionJson;
  store: StoreJson;
  country: OwnCountryJson;
}

export interface StandingOrdersResponse {
  success: true;
  data: StandingOrderJson[];
}

export interface OrderBookResponse {
  success: true;
  data: PublicStandingOrderJson[];
}

export interface StandingOrderResponse {
  success: true;
  order: StandingOrderJson;
  country: OwnCountryJson;
}

export type MarketAnalyticsJson = MarketAnalytics;

export interface MarketAnalyticsResponse {
  success: true;
  data: MarketAnalyticsJson;
}
