import { useCallback, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { OwnCountryJson } from "@game/schema/api";
import { MARKET_ITEM_NAMES, MARKET_ITEM_TYPES, MARKET_TYPE_NAMES, type MarketItemType, type MarketType } from "@game/schema/rules";
import { mapCountry } from "../../api/country";
import { queryKeys } from "../../api/queries";
import { marketKeys } from "../../api/market";
import { ApiError } from "../../api/http";

/** The item selector of the market screens (spec: default troops). */
export function ItemSelect({ value, onChange, id, allowAll }: { value: MarketItemType | ""; onChange(item: MarketItemType | ""): void; id: string; allowAll?: boolean }) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value as MarketItemType | "")} style={{ width: "auto", minWidth: 140 }}>
      {allowAll ? <option value="">All items</option> : null}
      {MARKET_ITEM_TYPES.map((item) => (
        <option key={item} value={item}>
          {MARKET_ITEM_NAMES[item]}
        </option>
      ))}
    </select>
  );
}

export const itemName = (item: MarketItemType) => MARKET_ITEM_NAMES[item];
export const marketTypeName = (type: MarketType) => MARKET_TYPE_NAMES[type];

/**
 * Runs a market call: while in flight `busy` names it; afterwards the answer's country goes
 * into the country cache, the player's own market data is refreshed, and the outcome is a
 * message for the screen (the server's words on failure).
 */
export function useMarketAction(countryId: number | null) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const run = useCallback(
    async <T extends { country?: OwnCountryJson }>(key: string, call: () => Promise<T>, success: (result: T) => string): Promise<T | null> => {
      setBusy(key);
      setMessage(null);
      try {
        const result = await call();
        if (countryId) {
          if (result.country) client.setQueryData(queryKeys.country(countryId), mapCountry(result.country));
          void client.invalidateQueries({ queryKey: marketKeys.ownOrders(countryId) });
          void client.invalidateQueries({ queryKey: marketKeys.historyAll(countryId) });
          void client.invalidateQueries({ queryKey: marketKeys.store(countryId) });
        }
        setMessage({ kind: "ok", text: success(result) });
        return result;
      } catch (err) {
        setMessage({ kind: "error", text: err instanceof ApiError ? err.message : "Something went wrong" });
        return null;
      } finally {
        setBusy(null);
      }
    },
    [client, countryId],
  );
  return { busy, message, run, clearMessage: () => setMessage(null) };
}

export function ActionMessage({ message }: { message: { kind: "ok" | "error"; text: string } | null }) {
  if (!message) return null;
  return (
    <div className={`alert ${message.kind === "ok" ? "info" : "error"}`} role={message.kind === "ok" ? "status" : "alert"} data-testid="market-message">
      {message.text}
    </div>
  );
}

/** A whole number from an input's text (NaN when not one). */
export function wholeNumber(text: string): number {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

/**
 * Ticks for a time axis that never repeat a label: up to `max` evenly spaced times between the
 * first and last point, keeping the first of each label (one point: one tick). Recharts' own
 * ticks repeated one date five times for a single trade (issue 30 #12).
 */
export function distinctTimeTicks(times: readonly number[], label: (t: number) => string, max = 5): number[] {
  if (times.length === 0) return [];
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const candidates = lo === hi ? [lo] : Array.from({ length: max }, (_, i) => Math.round(lo + ((hi - lo) * i) / (max - 1)));
  const seen = new Set<string>();
  return candidates.filter((t) => {
    const text = label(t);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}
