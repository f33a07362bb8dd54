import { z } from "zod";
import { LISTING_STATUSES, MARKET_ITEM_TYPES, MARKET_TYPES, ORDER_PRIORITIES, STANDING_ORDER_STATUSES } from "../rules/market.js";

/**
 * The market's live updates. Listings and orders are not in the world state (every client
 * would pay for every change); a client that opens the Market watches the "market" topic
 * (WorldMessage.watch) and from then receives `marketChanged` messages carrying each change,
 * which it applies to what it fetched over REST. docs/architecture.md, "The market's live
 * updates", says why.
 */
export const MarketMessage = {
  /** server -> watching clients: what one market action changed ({@link MarketChangedPayload}) */
  marketChanged: "marketChanged",
} as const;

const itemType = z.enum(MARKET_ITEM_TYPES);

/** A listing as everyone sees it (spec: market listing; GET /api/market/listings' PublicListingJson). */
export const publicListingSchema = z.object({
  id: z.number(),
  sellerId: z.number(),
  sellerName: z.string(),
  itemType,
  /** units still for sale */
  quantity: z.number(),
  pricePerUnit: z.number(),
  totalPrice: z.number(),
  listedAt: z.number(),
  expiresAt: z.number(),
  status: z.enum(LISTING_STATUSES),
});

/** An active order as the public book shows it (spec: public-market standing order). */
export const publicStandingOrderSchema = z.object({
  id: z.number(),
  buyerId: z.number(),
  buyerName: z.string(),
  itemType,
  /** units still wanted */
  quantity: z.number(),
  maxPrice: z.number(),
  totalBudget: z.number(),
  createdAt: z.number(),
  status: z.enum(STANDING_ORDER_STATUSES),
  priority: z.enum(ORDER_PRIORITIES),
});

/** A trade as everyone may see it: no buyer or seller (who traded with whom is theirs). */
export const publicTradeSchema = z.object({
  itemType,
  quantity: z.number(),
  pricePerUnit: z.number(),
  marketType: z.enum(MARKET_TYPES),
  /** epoch ms */
  at: z.number(),
});
export type PublicTradeJson = z.infer<typeof publicTradeSchema>;

/**
 * One market action's changes for one item: listings added or changed (quantity left, status),
 * listings gone (sold out, cancelled, expired), the same for the public order book, and the
 * trades it made (analytics and price tickers).
 */
export const marketChangedSchema = z.object({
  itemType,
  listings: z.array(publicListingSchema),
  removedListingIds: z.array(z.number()),
  orders: z.array(publicStandingOrderSchema),
  removedOrderIds: z.array(z.number()),
  trades: z.array(publicTradeSchema),
});
export type MarketChangedPayload = z.infer<typeof marketChangedSchema>;
