/**
 * The market's live updates on the world room: while the Market screen is open the client
 * watches the market (the "market" watch topic) and applies each `marketChanged`
 * message to what it fetched over REST, so new listings, purchases and fills appear without a
 * reload and without a refetch. Market notices about the player's own country (a sale, a fill,
 * an expiry) refresh the player's own market data and country.
 */
import { useCallback, useEffect, useRef } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ListingJson, PublicStandingOrderJson } from "@game/schema/api";
import { MarketMessage, type MarketChangedPayload } from "@game/schema/messages";
import { compareListings, compareOrders } from "@game/schema/rules";
import { marketKeys } from "../api/market";
import { queryKeys } from "../api/queries";
import { world } from "./worldRoom";
import { useConnectionStatus, useRefreshOnNotices } from "./hooks";

/** Notice kinds of the market (services/market.ts) that change the player's own market data. */
export const MARKET_NOTICE_KINDS = new Set(["market_sale", "order_filled", "listing_expired", "order_expired", "order_not_renewed"]);

/** A listings list after a change: removed ones out, new or changed ones in, cheapest first then oldest. */
export function applyListingsChange(list: ListingJson[] | undefined, change: MarketChangedPayload, ownCountryId: number | null): ListingJson[] | undefined {
  if (!list) return list;
  if (change.listings.length === 0 && change.removedListingIds.length === 0) return list;
  const touched = new Set([...change.removedListingIds, ...change.listings.map((l) => l.id)]);
  const next = list.filter((l) => !touched.has(l.id));
  for (const l of change.listings) if (l.status === "open" && l.quantity > 0) next.push({ ...l, isOwnListing: l.sellerId === ownCountryId });
  const key = (l: ListingJson) => ({ pricePerUnit: l.pricePerUnit, listedAt: l.listedAt, id: l.id });
  return next.sort((a, b) => compareListings(key(a), key(b)));
}

/** The public order book after a change, in queue order. */
export function applyOrderBookChange(list: PublicStandingOrderJson[] | undefined, change: MarketChangedPayload): PublicStandingOrderJson[] | undefined {
  if (!list) return list;
  if (change.orders.length === 0 && change.removedOrderIds.length === 0) return list;
  const touched = new Set([...change.removedOrderIds, ...change.orders.map((o) => o.id)]);
  const next = [...list.filter((o) => !touched.has(o.id)), ...change.orders];
  return next.sort(compareOrders);
}

/** Applies one marketChanged message to the caches. */
export function applyMarketChange(client: QueryClient, change: MarketChangedPayload, ownCountryId: number | null): void {
  client.setQueryData<ListingJson[]>(marketKeys.listings(change.itemType), (list) => applyListingsChange(list, change, ownCountryId));
  client.setQueryData<PublicStandingOrderJson[]>(marketKeys.orderBook(change.itemType), (list) => applyOrderBookChange(list, change));
  // Analytics are computed from trades and the book on the server: refetch (only if shown).
  void client.invalidateQueries({ queryKey: marketKeys.analytics(change.itemType) });
}

/** The player's own market data and country, after something happened to them. */
export function refreshOwnMarket(client: QueryClient, countryId: number): void {
  void client.invalidateQueries({ queryKey: marketKeys.ownOrders(countryId) });
  void client.invalidateQueries({ queryKey: marketKeys.store(countryId) });
  void client.invalidateQueries({ queryKey: marketKeys.historyAll(countryId) });
  void client.invalidateQueries({ queryKey: queryKeys.country(countryId) });
}

/** Keeps the market live while the calling screen is mounted. */
export function useMarketLive(countryId: number | null): void {
  const client = useQueryClient();
  const status = useConnectionStatus();
  const connectedBefore = useRef(false);

  useEffect(() => world.watch("market"), []);
  useEffect(() => {
    if (status !== "connected") return;
    // After a reconnection, anything missed while away is fetched again.
    if (connectedBefore.current) void client.invalidateQueries({ queryKey: marketKeys.all });
    connectedBefore.current = true;
  }, [status, client]);

  useEffect(() => world.on(MarketMessage.marketChanged, (change) => change && applyMarketChange(client, change, countryId)), [client, countryId]);

  const refreshOwn = useCallback(() => {
    if (countryId) refreshOwnMarket(client, countryId);
  }, [client, countryId]);
  useRefreshOnNotices(MARKET_NOTICE_KINDS, refreshOwn);
}
