/**
 * The market's REST calls and react-query hooks. Every answer is typed by @game/schema/api;
 * live changes (listings, the order book, trades) are applied to these caches by
 * realtime/market.ts.
 */
import { useQuery } from "@tanstack/react-query";
import {
  MARKET_FALLBACK,
  type BuyListingResponse,
  type CancelListingResponse,
  type CreateListingResponse,
  type CreateStandingOrderRequest,
  type ListingsResponse,
  type MarketAnalyticsResponse,
  type OrderBookResponse,
  type StandingOrderResponse,
  type StandingOrdersResponse,
  type StoreResponse,
  type StoreTradeResponse,
  type TransactionsQuery,
  type TransactionsResponse,
} from "@game/schema/api";
import type { MarketItemType } from "@game/schema/rules";
import { apiRequest, getToken, API_BASE, ApiError, HTTP_TIMEOUT_MS } from "./http";

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

/** A query string from defined values. */
function qs(params: Record<string, unknown>): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : "";
}

export const marketApi = {
  async listings(item: MarketItemType) {
    return (await apiRequest<ListingsResponse>("GET", `/market/listings${qs({ itemType: item })}`, { fallback: MARKET_FALLBACK.listings })).data;
  },
  async orderBook(item: MarketItemType) {
    return (await apiRequest<OrderBookResponse>("GET", `/market/standing-orders${qs({ itemType: item })}`, { fallback: MARKET_FALLBACK.standingOrders })).data;
  },
  createListing(countryId: number, itemType: MarketItemType, quantity: number, pricePerUnit: number) {
    return apiRequest<CreateListingResponse>("POST", "/market/listings", { fallback: MARKET_FALLBACK.createListing, body: { countryId, itemType, quantity, pricePerUnit } });
  },
  buyListing(countryId: number, listingId: number, quantity?: number) {
    return apiRequest<BuyListingResponse>("POST", `/market/listings/${listingId}/buy`, { fallback: MARKET_FALLBACK.buyListing, body: { countryId, quantity } });
  },
  cancelListing(countryId: number, listingId: number) {
    return apiRequest<CancelListingResponse>("DELETE", `/market/listings/${listingId}`, { fallback: MARKET_FALLBACK.cancelListing, body: { countryId } });
  },
  async store(countryId: number) {
    return (await apiRequest<StoreResponse>("GET", `/market/store/${countryId}`, { fallback: MARKET_FALLBACK.store })).data;
  },
  storeTrade(side: "buy" | "sell", countryId: number, itemId: MarketItemType, quantity: number) {
    return apiRequest<StoreTradeResponse>("POST", `/market/store/${side}`, { fallback: side === "buy" ? MARKET_FALLBACK.storeBuy : MARKET_FALLBACK.storeSell, body: { countryId, itemId, quantity } });
  },
  async ownOrders(countryId: number) {
    return (await apiRequest<StandingOrdersResponse>("GET", `/market/standing-orders/${countryId}`, { fallback: MARKET_FALLBACK.standingOrders })).data;
  },
  createOrder(body: CreateStandingOrderRequest & { countryId: number }) {
    return apiRequest<StandingOrderResponse>("POST", "/market/standing-orders", { fallback: MARKET_FALLBACK.createOrder, body });
  },
  controlOrder(countryId: number, orderId: number, control: "pause" | "activate" | "cancel") {
    return apiRequest<StandingOrderResponse>("POST", `/market/standing-orders/${orderId}/${control}`, { fallback: MARKET_FALLBACK.controlOrder, body: { countryId } });
  },
  history(countryId: number, query: TransactionsQuery) {
    return apiRequest<TransactionsResponse>("GET", `/market/transactions/${countryId}${qs(query)}`, { fallback: MARKET_FALLBACK.transactions });
  },
  async analytics(item: MarketItemType) {
    return (await apiRequest<MarketAnalyticsResponse>("GET", `/market/analytics/${item}`, { fallback: MARKET_FALLBACK.analytics })).data;
  },
  /** The CSV export as a file (the server names it by period); a failure carries the server's message. */
  async exportCsv(countryId: number, query: TransactionsQuery): Promise<{ blob: Blob; fileName: string }> {
    const token = getToken();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), HTTP_TIMEOUT_MS);
    try {
      const res = await fetch(`${API_BASE}/market/transactions/${countryId}/export.csv${qs(query)}`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: "include",
        signal: controller.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
        throw new ApiError(body.error ?? MARKET_FALLBACK.export, res.status, "/market/transactions/export.csv", body.code ?? null);
      }
      const fileName = /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "market-transactions.csv";
      return { blob: await res.blob(), fileName };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(MARKET_FALLBACK.export, 0, "/market/transactions/export.csv");
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
