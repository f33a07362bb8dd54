import { z } from "zod";
import type { PublicListingJson, PublicStandingOrderJson } from "../api/market.js";
import type { MarketItemType, MarketType } from "../rules/market.js";

/**
 * The market's live updates. Listings and orders are not in the world state (every client
 * would pay for every change); a client that opens the Market sends `marketWatch {watching:
 * true}` and from then receives `marketChanged` messages carrying each change, which it applies
 * to what it fetched over REST. docs/architecture.md, "The market's live updates", says why.
 */
export const MarketMessage = {
  /** client -> server: start or stop receiving market changes ({@link MarketWatch}) */
  marketWatch: "marketWatch",
  /** server -> watching clients: what one market action changed ({@link MarketChangedPayload}) */
  marketChanged: "marketChanged",
} as const;

export const marketWatchSchema = z.object({
  watching: z.boolean({ error: "watching must be true or false" }),
});
export type MarketWatch = z.infer<typeof marketWatchSchema>;

/** A trade as everyone may see it: no buyer or seller (who traded with whom is theirs). */
export interface PublicTradeJson {
  itemType: MarketItemType;
  quantity: number;
  pricePerUnit: number;
  marketType: MarketType;
  /** epoch ms */
  at: number;
}

/**
 * One market action's changes for one item: listings added or changed (quantity left, status),
 * listings gone (sold out, cancelled, expired), the same for the public order book, and the
 * trades it made (analytics and price tickers).
 */
export interface MarketChangedPayload {
  itemType: MarketItemType;
  listings: PublicListingJson[];
  removedListingIds: number[];
  orders: PublicStandingOrderJson[];
  removedOrderIds: number[];
  trades: PublicTradeJson[];
}
