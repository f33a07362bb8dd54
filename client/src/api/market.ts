/**
 * The market's REST calls and react-query hooks. Every answer is typed by @game/schema/api;
 * live changes (listings, the order book, trades) are applied to these caches by
 * realtime/market.ts.
 */
import { useQuery } from "@tanstack/react-query";
import { MARKET_FALLBACK, type CreateStandingOrderRequest, type TransactionsQuery } from "@game/schema/api";
import type { MarketItemType } from "@game/schema/rules";
import { routes, routeUrl } from "@game/schema/routes";
import { callRoute, getToken, API_BASE, ApiError, HTTP_TIMEOUT_MS } from "./http";

export { MARKET_FALLBACK };

export const marketKeys = {
  all: ["market"] as const,
  listings: (item: MarketItemType) => ["market", "listings", item] as const,
  orderBook: (item: MarketItemType) => ["market", "order-book", item] as const,
  ownOrders: (countryId: number) => ["market", "own-orders", countryId] as const,
  store: (countryId: number) => ["market", "store", countryId] as const,
  history: (countryId: number, query: TransactionsQuery) => ["market", "history", countryId, query] as const,
  historyAll: (countryId: number) => ["market", "history", countryId] as const,
  analytics: (item: MarketItemType) => ["market", "analytics", item] as const,
};

export const marketApi = {
  async listings(item: MarketItemType) {
    return (await callRoute(routes.marketListings, { query: { itemType: item } })).data;
  },
  async orderBook(item: MarketItemType) {
    return (await callRoute(routes.orderBook, { query: { itemType: item } })).data;
  },
  createListing(countryId: number, itemType: MarketItemType, quantity: number, pricePerUnit: number) {
    return callRoute(routes.createListing, { countryId, itemType, quantity, pricePerUnit });
  },
  buyListing(countryId: number, listingId: number, quantity?: number) {
    return callRoute(routes.buyListing, { params: { id: listingId }, body: { countryId, quantity } });
  },
  cancelListing(countryId: number, listingId: number) {
    return callRoute(routes.cancelListing, { params: { id: listingId }, body: { countryId } });
  },
  async store(countryId: number) {
    return (await callRoute(routes.store, { params: { countryId } })).data;
  },
  storeTrade(side: "buy" | "sell", countryId: number, itemId: MarketItemType, quantity: number) {
    return callRoute(side === "buy" ? routes.storeBuy : routes.storeSell, { countryId, itemId, quantity });
  },
  async ownOrders(countryId: number) {
    return (await callRoute(routes.ownStandingOrders, { params: { countryId } })).data;
  },
  createOrder(body: CreateStandingOrderRequest & { countryId: number }) {
    return callRoute(routes.createStandingOrder, body);
  },
  controlOrder(countryId: number, orderId: number, control: "pause" | "activate" | "cancel") {
    return callRoute(routes.controlStandingOrder, { params: { id: orderId, control }, body: { countryId } });
  },
  history(countryId: number, query: TransactionsQuery) {
    return callRoute(routes.transactions, { params: { countryId }, query });
  },
  async analytics(item: MarketItemType) {
    return (await callRoute(routes.marketAnalytics, { params: { itemType: item } })).data;
  },
  /** The CSV export as a file (the server names it by period); a failure carries the server's message. */
  async exportCsv(countryId: number, query: TransactionsQuery): Promise<{ blob: Blob; fileName: string }> {
    const token = getToken();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), HTTP_TIMEOUT_MS);
    try {
      const res = await fetch(`${API_BASE}${routeUrl(routes.transactionsCsv, { params: { countryId }, query })}`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: "include",
        signal: controller.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
        throw new ApiError(body.error ?? MARKET_FALLBACK.export, res.status, routes.transactionsCsv.path, body.code ?? null);
      }
      const fileName = /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "market-transactions.csv";
      return { blob: await res.blob(), fileName };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(MARKET_FALLBACK.export, 0, routes.transactionsCsv.path);
    } finally {
      clearTimeout(timer);
    }
  },
};

const enabled = (id: number | null | undefined): id is number => typeof id === "number" && id > 0;

export function useListings(item: MarketItemType) {
  return useQuery({ queryKey: marketKeys.listings(item), queryFn: () => marketApi.listings(item) });
}

export function useOrderBook(item: MarketItemType) {
  return useQuery({ queryKey: marketKeys.orderBook(item), queryFn: () => marketApi.orderBook(item) });
}

export function useStore(countryId: number | null) {
  return useQuery({ queryKey: marketKeys.store(countryId ?? 0), queryFn: () => marketApi.store(countryId!), enabled: enabled(countryId) });
}

export function useOwnOrders(countryId: number | null) {
  return useQuery({ queryKey: marketKeys.ownOrders(countryId ?? 0), queryFn: () => marketApi.ownOrders(countryId!), enabled: enabled(countryId) });
}

export function useHistory(countryId: number | null, query: TransactionsQuery) {
  return useQuery({ queryKey: marketKeys.history(countryId ?? 0, query), queryFn: () => marketApi.history(countryId!, query), enabled: enabled(countryId) });
}

export function useAnalytics(item: MarketItemType) {
  return useQuery({ queryKey: marketKeys.analytics(item), queryFn: () => marketApi.analytics(item) });
}
