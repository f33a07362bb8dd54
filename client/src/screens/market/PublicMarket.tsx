import { useState } from "react";
import {
  DEFAULT_MARKET_ITEM,
  LISTING_LIFETIME_MS,
  MARKET_MESSAGES,
  MAX_OPEN_LISTINGS,
  checkBuyListing,
  checkCreateListing,
  computeDiplomaticEffects,
  computeMarketFeeBps,
  computeMarketFeeModifiers,
  computePriceBounds,
  computeTradeAmounts,
  holdingOf,
  type CountryState,
  type MarketItemType,
} from "@game/schema/rules";
import type { ListingJson } from "@game/schema/api";
import { marketApi, useHistory, useListings, useOrderBook, useStore } from "../../api/market";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { bpsPercent, daysText, fmt, money, monthDayTimeText } from "../../components/format";
import { useNow } from "../../components/Clock";
import { useConfirmAction } from "../../components/confirm";
import { ActionMessage, ItemSelect, itemName, marketTypeName, useMarketAction, wholeNumber } from "./common";

type PublicTab = "buy" | "sell" | "orders" | "history";

interface Props {
  countryId: number;
  country: CountryState;
}

/** Public Market (spec): tabs Buy, Sell, Standing Orders, History, with an item selector. */
export function PublicMarket({ countryId, country }: Props) {
  const [item, setItem] = useState<MarketItemType>(DEFAULT_MARKET_ITEM);
  const [tab, setTab] = useState<PublicTab>("buy");
  const action = useMarketAction(countryId);
  return (
    <div className="stack" data-testid="public-market">
      <div className="row between">
        <Tabs<PublicTab>
          label="Public market"
          value={tab}
          onChange={setTab}
          tabs={[
            { id: "buy", label: "Buy" },
            { id: "sell", label: "Sell" },
            { id: "orders", label: "Standing Orders" },
            { id: "history", label: "History" },
          ]}
        />
        <label className="row small" htmlFor="public-item">
          <span className="label">Item</span>
          <ItemSelect id="public-item" value={item} onChange={(v) => v && setItem(v)} />
        </label>
      </div>
      <ActionMessage message={action.message} />
      {tab === "buy" && <BuyTab item={item} countryId={countryId} country={country} action={action} />}
      {tab === "sell" && <SellTab item={item} countryId={countryId} country={country} action={action} />}
      {tab === "orders" && <OrderBookTab item={item} />}
      {tab === "history" && <HistoryTab item={item} countryId={countryId} />}
    </div>
  );
}

type Action = ReturnType<typeof useMarketAction>;

/** How many of a listing `cash` pays for (a partial buy: docs/rules.md, "Markets"), at most the listing. */
export function affordableQuantity(l: Pick<ListingJson, "quantity" | "pricePerUnit">, cash: number): number {
  return Math.max(0, Math.min(l.quantity, Math.floor(cash / Math.max(1, l.pricePerUnit))));
}

function BuyTab({ item, countryId, country, action }: Props & { item: MarketItemType; action: Action }) {
  const confirmAction = useConfirmAction();
  const listings = useListings(item);
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const now = useNow(60_000);
  if (listings.isPending) return <Loading text="Loading market interface..." />;
  if (listings.error) return <div className="alert error">{listings.error.message}</div>;
  if (listings.data.length === 0)
    return (
      <p className="muted center" data-testid="no-listings">
        No {item} listings available
      </p>
    );
  const buy = (l: ListingJson, quantity: number) =>
    confirmAction(`Buy ${fmt(quantity)} ${item} for ${money(quantity * l.pricePerUnit)}?`) &&
    action.run(
      `buy-${l.id}`,
      () => marketApi.buyListing(countryId, l.id, quantity),
      (r) => `Bought ${fmt(r.transaction.quantity)} ${item} for ${money(r.transaction.totalAmount)}.`,
    );
  const cancel = (l: ListingJson) =>
    action.run(
      `cancel-${l.id}`,
      () => marketApi.cancelListing(countryId, l.id),
      () => `Listing cancelled: ${fmt(l.quantity)} ${item} returned.`,
    );
  return (
    <div className="table-wrap">
      <table className="table listings-table" data-testid="listings">
        <thead>
          <tr>
            <th>Seller</th>
            <th className="n">Quantity</th>
            <th className="n">Price</th>
            <th className="n">Total</th>
            <th className="n">Expires</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {listings.data.map((l) => {
            const text = amounts[l.id] ?? "";
            // a listing may be bought in part: by default as much as the cash pays for
            const affordable = affordableQuantity(l, country.cash);
            const quantity = text === "" ? Math.max(1, affordable) : wholeNumber(text);
            const refusal = l.isOwnListing ? null : checkBuyListing(country, countryId, { sellerId: l.sellerId, item, quantity: l.quantity, pricePerUnit: l.pricePerUnit, status: l.status }, quantity);
            return (
              <tr key={l.id} className={l.isOwnListing ? "me" : undefined} data-testid={`listing-${l.id}`}>
                <td data-label="Seller">
                  {l.sellerName} {l.isOwnListing ? <span className="badge warn">{MARKET_MESSAGES.yourListing}</span> : null}
                </td>
                <td className="n" data-label="Quantity">
                  {fmt(l.quantity)}
                </td>
                <td className="n" data-label="Price">
                  {money(l.pricePerUnit)}
                </td>
                <td className="n" data-label="Total">
                  {money(l.totalPrice)}
                </td>
                <td className="n" data-label="Expires">
                  {daysText(l.expiresAt - now)} d
                </td>
                <td data-label="">
                  {l.isOwnListing ? (
                    <ActionButton variant="ghost" className="small" busy={action.busy === `cancel-${l.id}`} busyLabel="Cancelling..." onClick={() => void cancel(l)}>
                      Cancel
                    </ActionButton>
                  ) : (
                    <div className="row" style={{ flexWrap: "nowrap", alignItems: "flex-start" }}>
                      <input
                        className="input"
                        aria-label={`Quantity to buy from ${l.sellerName}`}
                        inputMode="numeric"
                        placeholder={String(Math.max(1, affordable))}
                        value={text}
                        onChange={(e) => setAmounts((a) => ({ ...a, [l.id]: e.target.value }))}
                        data-testid={`buy-quantity-${l.id}`}
                      />
                      <ActionButton className="small" disabledReason={refusal?.message} busy={action.busy === `buy-${l.id}`} busyLabel="Buying..." disabled={action.busy !== null} onClick={() => void buy(l, quantity)}>
                        {quantity > 0 && quantity < l.quantity ? `Buy ${fmt(quantity)}` : "Buy"}
                      </ActionButton>
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SellTab({ item, countryId, country, action }: Props & { item: MarketItemType; action: Action }) {
  const listings = useListings(item);
  const [quantityText, setQuantityText] = useState("");
  const bounds = computePriceBounds(item);
  const [priceText, setPriceText] = useState("");
  const quantity = wholeNumber(quantityText);
  const price = wholeNumber(priceText);
  const own = (listings.data ?? []).filter((l) => l.isOwnListing);
  // The server's inputs, from the store's answer: the open listings of every item (this list
  // shows this item's) and the seller's half of the fee inputs (the buyer is not known yet).
  const seller = useStore(countryId).data?.seller;
  const now = useNow(60_000);
  const modifiers = seller ? computeMarketFeeModifiers(seller.feeInputs, now) : [];
  const refusal = checkCreateListing(country, { item, quantity, pricePerUnit: price, openListings: seller?.openListings ?? 0 });
  const trade = Number.isFinite(quantity) && Number.isFinite(price) ? computeTradeAmounts(quantity, price, modifiers) : null;
  const agreementPts = computeDiplomaticEffects(["trade"]).marketFeeReductionPts;
  const submit = async () => {
    const result = await action.run(
      "list",
      () => marketApi.createListing(countryId, item, quantity, price),
      (r) =>
        r.fills.length > 0
          ? `Listed ${fmt(quantity)} ${item}; standing orders bought ${fmt(r.fills.reduce((s, f) => s + f.quantity, 0))} at once.`
          : `Listed ${fmt(quantity)} ${item} at ${money(price)} each for ${daysText(LISTING_LIFETIME_MS)} days.`,
    );
    if (result) {
      setQuantityText("");
      setPriceText("");
    }
  };
  return (
    <div className="grid two">
      <Panel title={`Sell ${itemName(item)}`}>
        <Stat label="You own" value={fmt(holdingOf(country, item))} />
        <Stat label="Price range" value={`${money(bounds.min)} – ${money(bounds.max)}`} />
        <div className="field" style={{ marginTop: "0.75rem" }}>
          <label htmlFor="sell-quantity">Quantity</label>
          <input id="sell-quantity" className="input" inputMode="numeric" value={quantityText} onChange={(e) => setQuantityText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="sell-price">Price per unit ($)</label>
          <input id="sell-price" className="input" inputMode="numeric" value={priceText} onChange={(e) => setPriceText(e.target.value)} />
        </div>
        {trade ? (
          <>
            <Stat label="Total" value={money(trade.total)} />
            <Stat label={`Market fee (${bpsPercent(computeMarketFeeBps(modifiers))}, paid on sale)`} value={money(trade.fee)} testId="sell-fee" />
            <Stat label="You receive" value={money(trade.sellerReceives)} />
          </>
        ) : null}
        <p className="hint" data-testid="sell-hint">
          Listed goods leave your country at once and come back if you cancel or after {daysText(LISTING_LIFETIME_MS)} days. At most {MAX_OPEN_LISTINGS} open listings
          {seller ? ` (you have ${fmt(seller.openListings)})` : ""}. A trade agreement with the buyer takes {agreementPts} more points off the fee.
        </p>
        <ActionButton block disabledReason={quantityText === "" && priceText === "" ? "Enter a quantity and a price" : refusal?.message} busy={action.busy === "list"} busyLabel="Listing..." onClick={() => void submit()}>
          Create Listing
        </ActionButton>
      </Panel>
      <Panel title="Your listings">
        {own.length === 0 ? (
          <p className="muted">You have no {item} listed.</p>
        ) : (
          own.map((l) => (
            <div key={l.id} className="row between" style={{ borderBottom: "1px dashed var(--border)", padding: "0.35rem 0" }}>
              <span className="num">
                {fmt(l.quantity)} at {money(l.pricePerUnit)}
              </span>
              <ActionButton
                variant="ghost"
                className="small"
                busy={action.busy === `cancel-${l.id}`}
                onClick={() =>
                  void action.run(
                    `cancel-${l.id}`,
                    () => marketApi.cancelListing(countryId, l.id),
                    () => "Listing cancelled.",
                  )
                }
              >
                Cancel
              </ActionButton>
            </div>
          ))
        )}
      </Panel>
    </div>
  );
}

function OrderBookTab({ item }: { item: MarketItemType }) {
  const book = useOrderBook(item);
  if (book.isPending) return <Loading text="Loading market interface..." />;
  if (book.error) return <div className="alert error">{book.error.message}</div>;
  if (book.data.length === 0) return <p className="muted center">No standing orders for {item}</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="order-book">
        <thead>
          <tr>
            <th>Buyer</th>
            <th className="n">Wants</th>
            <th className="n">Max price</th>
            <th className="n">Budget</th>
            <th>Status</th>
            <th>Placed</th>
          </tr>
        </thead>
        <tbody>
          {book.data.map((o) => (
            <tr key={o.id}>
              <td>{o.buyerName}</td>
              <td className="n">{fmt(o.quantity)}</td>
              <td className="n">{money(o.maxPrice)}</td>
              <td className="n">{money(o.totalBudget)}</td>
              <td>
                <span className="badge ok">{o.status}</span> <span className="faint small">{o.priority}</span>
              </td>
              <td>{monthDayTimeText(o.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HistoryTab({ item, countryId }: { item: MarketItemType; countryId: number }) {
  const history = useHistory(countryId, { period: "all", itemType: item, limit: 100 });
  if (history.isPending) return <Loading text="Loading market interface..." />;
  if (history.error) return <div className="alert error">{history.error.message}</div>;
  const rows = history.data.data.filter((r) => r.marketType !== "private");
  if (rows.length === 0) return <p className="muted center">No transaction history</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="public-history">
        <thead>
          <tr>
            <th>Date</th>
            <th>Type</th>
            <th className="n">Quantity</th>
            <th className="n">Price</th>
            <th className="n">Net</th>
            <th>Market</th>
            <th>Counterparty</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{monthDayTimeText(r.timestamp)}</td>
              <td className={r.transactionType === "buy" ? "ok" : "warn"}>{r.transactionType === "buy" ? "Buy" : "Sell"}</td>
              <td className="n">{fmt(r.quantity)}</td>
              <td className="n">{money(r.pricePerUnit)}</td>
              <td className="n">{money(r.netAmount)}</td>
              <td>{marketTypeName(r.marketType)}</td>
              <td>{r.counterparty}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
