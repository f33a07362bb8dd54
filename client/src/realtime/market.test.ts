import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import type { ListingJson, PublicListingJson, PublicStandingOrderJson } from "@game/schema/api";
import type { MarketChangedPayload } from "@game/schema/messages";
import { marketKeys } from "../api/market";
import { applyListingsChange, applyMarketChange, applyOrderBookChange } from "./market";

const listing = (id: number, price: number, listedAt: number, sellerId = 2, quantity = 10): PublicListingJson => ({
  id,
  sellerId,
  sellerName: `Seller ${sellerId}`,
  itemType: "troops",
  quantity,
  pricePerUnit: price,
  totalPrice: price * quantity,
  listedAt,
  expiresAt: listedAt + 7 * 86_400_000,
  status: "open",
});
const own = (l: PublicListingJson, ownCountryId: number): ListingJson => ({ ...l, isOwnListing: l.sellerId === ownCountryId });
const change = (patch: Partial<MarketChangedPayload>): MarketChangedPayload => ({ itemType: "troops", listings: [], removedListingIds: [], orders: [], removedOrderIds: [], trades: [], ...patch });
const order = (id: number, priority: PublicStandingOrderJson["priority"], createdAt: number): PublicStandingOrderJson => ({
  id,
  buyerId: 9,
  buyerName: "Buyer",
  itemType: "troops",
  quantity: 5,
  maxPrice: 100,
  totalBudget: 500,
  createdAt,
  status: "active",
  priority,
});

describe("live market changes", () => {
  const base = [own(listing(1, 100, 10), 7), own(listing(2, 120, 5), 7)];

  it("a new listing is inserted in book order (cheapest, then oldest) and flagged as the viewer's own", () => {
    const next = applyListingsChange(base, change({ listings: [listing(3, 110, 20, 7)] }), 7)!;
    expect(next.map((l) => l.id)).toEqual([1, 3, 2]);
    expect(next.find((l) => l.id === 3)!.isOwnListing).toBe(true);
    expect(applyListingsChange(base, change({ listings: [listing(4, 100, 1)] }), 7)!.map((l) => l.id)).toEqual([4, 1, 2]);
  });

  it("a partial purchase updates the quantity; a sold, cancelled or expired listing disappears", () => {
    expect(applyListingsChange(base, change({ listings: [listing(1, 100, 10, 2, 4)] }), 7)!.find((l) => l.id === 1)!.quantity).toBe(4);
    expect(applyListingsChange(base, change({ removedListingIds: [1] }), 7)!.map((l) => l.id)).toEqual([2]);
  });

  it("nothing cached, nothing changed: the same value comes back", () => {
    expect(applyListingsChange(undefined, change({ listings: [listing(3, 1, 1)] }), 7)).toBeUndefined();
    expect(applyListingsChange(base, change({ trades: [{ itemType: "troops", quantity: 1, pricePerUnit: 1, marketType: "public", at: 1 }] }), 7)).toBe(base);
  });

  it("the order book keeps queue order: high priority first, then oldest", () => {
    const book = [order(1, "medium", 1), order(2, "low", 0)];
    expect(applyOrderBookChange(book, change({ orders: [order(3, "high", 5)] }))!.map((o) => o.id)).toEqual([3, 1, 2]);
    expect(applyOrderBookChange(book, change({ removedOrderIds: [1] }))!.map((o) => o.id)).toEqual([2]);
  });

  it("applies to the caches of the change's item only, and marks that item's analytics stale", async () => {
    const client = new QueryClient();
    client.setQueryData(marketKeys.listings("troops"), base);
    client.setQueryData(marketKeys.listings("jets"), []);
    client.setQueryData(marketKeys.analytics("troops"), { stale: false });
    applyMarketChange(client, change({ listings: [listing(5, 90, 1)], trades: [{ itemType: "troops", quantity: 1, pricePerUnit: 90, marketType: "public", at: 1 }] }), 7);
    expect(client.getQueryData<ListingJson[]>(marketKeys.listings("troops"))!.map((l) => l.id)).toEqual([5, 1, 2]);
    expect(client.getQueryData(marketKeys.listings("jets"))).toEqual([]);
    expect(client.getQueryState(marketKeys.analytics("troops"))!.isInvalidated).toBe(true);
  });
});
