import { useId, useState } from "react";
import type { StoreItemJson } from "@game/schema/api";
import {
  MILITARY_STORE_PRICE_PCT_PER_LEVEL,
  STORE_FOOD_DEMAND_PER_ACRE,
  STORE_MESSAGES,
  STORE_REFILL_MS,
  STORE_STOCK_PURCHASES,
  checkStoreBuy,
  checkStoreSell,
  quickBuyAmounts,
  quickSellAmounts,
  storeStockCapacity,
  type CountryState,
} from "@game/schema/rules";
import { marketApi, useStore } from "../../api/market";
import { Loading, Panel, Stat, Tabs } from "../../components/ui";
import { fmt, money, monthDayTimeText } from "../../components/format";
import { ActionMessage, useMarketAction } from "./common";
import { useConfirmAction } from "../../components/confirm";

type Category = "military" | "resources";

/**
 * Government Store (spec): available cash and the military tech discount badge; tabs Military
 * Units and Resources; on the military tab a banner with the purchase discount and sell bonus;
 * item cards with owned, buy and sell price, quick-buy and quick-sell; 'Currently Unavailable'
 * and 'Available on Express servers only'; the last 5 store transactions. Each card also says
 * how much the store still buys today (its demand, designed: docs/rules.md "Government store"),
 * and a quick-sell beyond it is disabled with the reason.
 */
export function GovernmentStore({ countryId, country }: { countryId: number; country: CountryState }) {
  const store = useStore(countryId);
  const [category, setCategory] = useState<Category>("military");
  const action = useMarketAction(countryId);
  const confirmAction = useConfirmAction();
  if (store.isPending) return <Loading text="Loading private market..." />;
  if (store.error) return <div className="alert error">{store.error.message}</div>;
  const data = store.data;
  const discount = data.militaryTechDiscountPct;
  const trade = (side: "buy" | "sell", item: StoreItemJson, quantity: number) =>
    confirmAction(`${side === "buy" ? "Buy" : "Sell"} ${fmt(quantity)} ${item.name.toLowerCase()} for ${money(quantity * (side === "buy" ? item.price.buy : item.price.sell))}?`) &&
    action.run(
      `${side}-${item.id}-${quantity}`,
      () => marketApi.storeTrade(side, countryId, item.id, quantity),
      (r) => `${side === "buy" ? "Bought" : "Sold"} ${fmt(r.transaction.quantity)} ${item.name.toLowerCase()} for ${money(r.transaction.totalCost)}.`,
    );
  return (
    <div className="stack" data-testid="government-store">
      <div className="row between">
        <div>
          <span className="label">Available cash</span>{" "}
          <span className="big-number" data-testid="store-cash">
            {money(country.cash)}
          </span>
        </div>
        {discount > 0 ? <span className="badge ok">Military tech discount {discount}%</span> : null}
      </div>
      <Tabs<Category>
        label="Store category"
        value={category}
        onChange={setCategory}
        tabs={[
          { id: "military", label: "Military Units" },
          { id: "resources", label: "Resources" },
        ]}
      />
      {category === "military" ? (
        <div className="alert info small">
          Purchase discount: {discount}% · Sell price bonus: +{discount}% ({MILITARY_STORE_PRICE_PCT_PER_LEVEL}% per military tech level)
        </div>
      ) : null}
      <ActionMessage message={action.message} />
      <div className="grid">
        {data.items
          .filter((i) => i.category === category)
          .map((item) => (
            <StoreCard key={item.id} item={item} country={country} busy={action.busy} onTrade={(side, q) => void trade(side, item, q)} />
          ))}
      </div>
      <Panel title="Recent Transactions">
        {data.recentTransactions.length === 0 ? (
          <p className="muted">No store transactions yet</p>
        ) : (
          data.recentTransactions.map((t) => (
            <div key={t.id} className="stat">
              <span className="k">
                {monthDayTimeText(t.timestamp)} · {t.transactionType === "buy" ? "Bought" : "Sold"} {fmt(t.quantity)} {t.itemName}
              </span>
              <span className="v">{money(t.totalCost)}</span>
            </div>
          ))
        )}
      </Panel>
    </div>
  );
}

function StoreCard({ item, country, busy, onTrade }: { item: StoreItemJson; country: CountryState; busy: string | null; onTrade(side: "buy" | "sell", quantity: number): void }) {
  const capacity = storeStockCapacity(item.id);
  return (
    <section className="panel" data-testid={`store-item-${item.id}`}>
      <div className="row between">
        <h3 style={{ margin: 0 }}>{item.name}</h3>
        {!item.inStock ? <span className="badge bad">{STORE_MESSAGES.unavailable}</span> : null}
      </div>
      <p className="faint small">{item.description}</p>
      {item.expressOnly ? <p className="reason">{STORE_MESSAGES.expressOnly}</p> : null}
      <Stat label="Owned" value={fmt(item.owned)} />
      <Stat label="Buy price" value={<span data-testid={`buy-price-${item.id}`}>{money(item.price.buy)}</span>} />
      <Stat label="Sell price" value={money(item.price.sell)} />
      {!item.expressOnly ? (
        <>
          <Stat label="In stock" value={`${fmt(item.stock)} / ${fmt(capacity)}`} />
          <Stat label="Store buys today" value={<span data-testid={`demand-${item.id}`}>{`${fmt(item.demand)} / ${fmt(item.demandCapacity)}`}</span>} />
          <p className="faint small" data-testid={`demand-help-${item.id}`}>
            {demandHelp(item)}
          </p>
          <Stat label="Max purchase" value={item.maxPurchase === null ? "—" : fmt(item.maxPurchase)} />
          <div className="label" style={{ marginTop: "0.6rem" }}>
            Quick buy
          </div>
          <QuickButtons
            amounts={quickBuyAmounts(item.maxPurchase)}
            refusal={(q) => checkStoreBuy(country, { item: item.id, quantity: q, stock: item.stock })?.message}
            busy={busy}
            busyKey={(q) => `buy-${item.id}-${q}`}
            label={(q) => `+${fmt(q)}`}
            variant=""
            onClick={(q) => onTrade("buy", q)}
          />
          <div className="label" style={{ marginTop: "0.6rem" }}>
            Quick sell
          </div>
          {quickSellAmounts(item.owned).length === 0 ? <span className="faint small">Nothing to sell</span> : null}
          <QuickButtons
            amounts={quickSellAmounts(item.owned)}
            refusal={(q) => checkStoreSell(country, { item: item.id, quantity: q, demand: item.demand })?.message}
            busy={busy}
            busyKey={(q) => `sell-${item.id}-${q}`}
            label={(q) => `−${fmt(q)}`}
            variant="ghost"
            onClick={(q) => onTrade("sell", q)}
          />
        </>
      ) : null}
    </section>
  );
}

/** Hours over which the store's stock and demand refill. */
const REFILL_HOURS = STORE_REFILL_MS / 3_600_000;

/** What the store buys of an item a day, from the rule's own constants (storeDemandCapacity). */
function demandHelp(item: StoreItemJson): string {
  if (item.techBonus) {
    return `The store buys back up to ${fmt(item.demandCapacity)} ${item.name.toLowerCase()} a day (what it stocks: ${STORE_STOCK_PURCHASES} max purchases), refilled over ${REFILL_HOURS} hours.`;
  }
  return `The store buys up to ${fmt(STORE_FOOD_DEMAND_PER_ACRE)} bushels a day per acre of your land, refilled over ${REFILL_HOURS} hours; sell the rest on the Public Market.`;
}

/** A row of quick-trade buttons; each refused one is disabled, and the reasons are said once under the row. */
function QuickButtons(props: {
  amounts: number[];
  refusal(quantity: number): string | undefined;
  busy: string | null;
  busyKey(quantity: number): string;
  label(quantity: number): string;
  variant: "" | "ghost";
  onClick(quantity: number): void;
}) {
  const buttons = props.amounts.map((q) => ({ q, reason: props.refusal(q) }));
  const reasons = [...new Set(buttons.flatMap((b) => (b.reason ? [b.reason] : [])))];
  // each disabled button points at the line that says why (screen readers read it with the button)
  const idPrefix = useId();
  const reasonId = (reason: string) => `${idPrefix}-reason-${reasons.indexOf(reason)}`;
  return (
    <>
      <div className="row">
        {buttons.map(({ q, reason }) => {
          const key = props.busyKey(q);
          return (
            <button
              key={q}
              type="button"
              className={`btn small ${props.variant}`}
              disabled={Boolean(reason) || props.busy !== null}
              title={reason}
              aria-describedby={reason ? reasonId(reason) : undefined}
              aria-busy={props.busy === key || undefined}
              data-testid={key}
              onClick={() => props.onClick(q)}
            >
              {props.busy === key ? "..." : props.label(q)}
            </button>
          );
        })}
      </div>
      {reasons.map((r) => (
        <span key={r} id={reasonId(r)} className="reason" role="note">
          {r}
        </span>
      ))}
    </>
  );
}
