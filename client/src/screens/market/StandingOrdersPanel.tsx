import { useState } from "react";
import type { StandingOrderJson } from "@game/schema/api";
import {
  DEFAULT_MARKET_ITEM,
  DEFAULT_ORDER_PRIORITY,
  EXECUTIONS_SHOWN,
  HIGH_PRIORITY_FEE_BPS,
  MATCHING_ORDER_STATUSES,
  OPEN_ORDER_STATUSES,
  ORDER_PRIORITIES,
  STANDING_ORDER_ACTIVATION_MS,
  checkActivateOrder,
  checkCreateStandingOrder,
  computeOrderBudget,
  computePriceBounds,
  computePriorityFee,
  formatActivationCountdown,
  type CountryState,
  type MarketItemType,
  type OrderPriority,
  type StandingOrderStatus,
} from "@game/schema/rules";
import { marketApi, useOwnOrders } from "../../api/market";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { bpsPercent, capitalize, fmt, hoursText, money, monthDayTimeText } from "../../components/format";
import { useNow } from "../../components/Clock";
import { ActionMessage, ItemSelect, itemName, useMarketAction, wholeNumber } from "./common";

type Filter = "all" | "active" | "pending" | "completed";
const FILTERS: Record<Filter, (s: StandingOrderStatus) => boolean> = {
  all: () => true,
  active: (s) => s === "active" || s === "partial",
  pending: (s) => s === "pending",
  completed: (s) => s === "fulfilled" || s === "cancelled" || s === "expired",
};

/**
 * Standing Orders (spec): filter tabs with counts, a create form (budget = quantity x max
 * price), order cards with progress, budget, the last 3 executions, Pause/Activate and Cancel.
 */
export function StandingOrdersPanel({ countryId, country }: { countryId: number; country: CountryState }) {
  const orders = useOwnOrders(countryId);
  const [filter, setFilter] = useState<Filter>("all");
  const action = useMarketAction(countryId);
  const list = orders.data ?? [];
  const count = (f: Filter) => list.filter((o) => FILTERS[f](o.status)).length;
  const openOrders = list.filter((o) => OPEN_ORDER_STATUSES.includes(o.status)).length;
  return (
    <div className="stack" data-testid="standing-orders">
      <CreateOrderForm countryId={countryId} country={country} openOrders={openOrders} action={action} />
      <ActionMessage message={action.message} />
      <Tabs<Filter> label="Order filter" value={filter} onChange={setFilter} tabs={(["all", "active", "pending", "completed"] as const).map((f) => ({ id: f, label: `${capitalize(f)} (${count(f)})` }))} />
      {orders.isPending ? (
        <Loading text="Loading standing orders..." />
      ) : orders.error ? (
        <div className="alert error">{orders.error.message}</div>
      ) : list.filter((o) => FILTERS[filter](o.status)).length === 0 ? (
        <p className="muted center">No standing orders match your filter</p>
      ) : (
        <div className="grid">
          {list
            .filter((o) => FILTERS[filter](o.status))
            .map((o) => (
              <OrderCard key={o.id} order={o} countryId={countryId} action={action} />
            ))}
        </div>
      )}
    </div>
  );
}

type Action = ReturnType<typeof useMarketAction>;

/** The new-order form; its fee and delay texts come from HIGH_PRIORITY_FEE_BPS and STANDING_ORDER_ACTIVATION_MS. */
export function CreateOrderForm({ countryId, country, openOrders, action }: { countryId: number; country: CountryState; openOrders: number; action: Action }) {
  const [item, setItem] = useState<MarketItemType>(DEFAULT_MARKET_ITEM);
  const [quantityText, setQuantityText] = useState("");
  const [maxPriceText, setMaxPriceText] = useState("");
  const [priority, setPriority] = useState<OrderPriority>(DEFAULT_ORDER_PRIORITY);
  const [autoRenew, setAutoRenew] = useState(false);
  const quantity = wholeNumber(quantityText);
  const maxPrice = wholeNumber(maxPriceText);
  const bounds = computePriceBounds(item);
  const valid = Number.isFinite(quantity) && Number.isFinite(maxPrice);
  const budget = valid ? computeOrderBudget(quantity, maxPrice) : 0;
  const fee = computePriorityFee(budget, priority);
  const refusal = checkCreateStandingOrder(country, { item, quantity, maxPrice, priority, openOrders });
  const submit = async () => {
    const done = await action.run(
      "create-order",
      () => marketApi.createOrder({ countryId, itemType: item, quantity, maxPrice, priority, autoRenew }),
      (r) => `Standing order placed: ${fmt(r.order.quantityWanted)} ${item} at up to ${money(r.order.maxPrice)}. ${formatActivationCountdown(r.order.processAfter, Date.now())}.`,
    );
    if (done) {
      // The spec's form resets after creation.
      setItem(DEFAULT_MARKET_ITEM);
      setQuantityText("");
      setMaxPriceText("");
      setPriority(DEFAULT_ORDER_PRIORITY);
      setAutoRenew(false);
    }
  };
  return (
    <Panel title="New standing order">
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))", gap: "0.6rem" }}>
        <div className="field">
          <label htmlFor="order-item">Item</label>
          <ItemSelect id="order-item" value={item} onChange={(v) => v && setItem(v)} />
        </div>
        <div className="field">
          <label htmlFor="order-quantity">Quantity</label>
          <input id="order-quantity" className="input" inputMode="numeric" value={quantityText} onChange={(e) => setQuantityText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="order-price">Max price ($)</label>
          <input id="order-price" className="input" inputMode="numeric" placeholder={`${bounds.min}–${bounds.max}`} value={maxPriceText} onChange={(e) => setMaxPriceText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="order-priority">Priority</label>
          <select id="order-priority" value={priority} onChange={(e) => setPriority(e.target.value as OrderPriority)}>
            {ORDER_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {capitalize(p)}
                {p === "high" ? ` (fills first, ${bpsPercent(HIGH_PRIORITY_FEE_BPS)} fee)` : ""}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label className="row small" style={{ marginBottom: "0.6rem" }}>
        <input type="checkbox" checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} /> Auto-renew: place it again when fulfilled, keep it alive when it would expire
      </label>
      <Stat label="Budget (quantity × max price)" value={<span data-testid="order-budget">{money(budget)}</span>} />
      {fee > 0 ? <Stat label={`High priority fee (${bpsPercent(HIGH_PRIORITY_FEE_BPS)}, not refunded)`} value={money(fee)} testId="order-priority-fee" /> : null}
      <p className="hint" data-testid="order-hint">
        The budget leaves your treasury now; the order waits {hoursText(STANDING_ORDER_ACTIVATION_MS)}, then buys from the cheapest listings at their price. What it does not spend comes back.
      </p>
      <ActionButton block disabledReason={quantityText === "" && maxPriceText === "" ? "Enter a quantity and a max price" : refusal?.message} busy={action.busy === "create-order"} busyLabel="Placing..." onClick={() => void submit()}>
        Create Standing Order
      </ActionButton>
    </Panel>
  );
}

function OrderCard({ order, countryId, action }: { order: StandingOrderJson; countryId: number; action: Action }) {
  const now = useNow(30_000);
  const open = OPEN_ORDER_STATUSES.includes(order.status);
  const matching = MATCHING_ORDER_STATUSES.includes(order.status);
  const pct = Math.round((order.quantityFilled / order.quantityWanted) * 100);
  const activateRefusal = checkActivateOrder({ status: order.status, paused: order.paused, processAfter: order.processAfter }, now);
  const control = (c: "pause" | "activate" | "cancel") =>
    action.run(
      `${c}-${order.id}`,
      () => marketApi.controlOrder(countryId, order.id, c),
      (r) => orderControlMessage(c, r.order.status),
    );
  return (
    <section className="panel" data-testid={`order-${order.id}`}>
      <div className="row between">
        <h3 style={{ margin: 0 }}>
          {fmt(order.quantityWanted)} {itemName(order.itemType)}
        </h3>
        <span className={`badge ${matching ? "ok" : order.status === "pending" ? "warn" : ""}`} data-testid="order-status">
          {order.paused ? "paused" : order.status}
        </span>
      </div>
      {order.status === "pending" ? (
        <p className="small warn" data-testid="order-countdown">
          {order.paused ? "Paused" : formatActivationCountdown(order.processAfter, now)}
        </p>
      ) : null}
      <div className="bar" aria-label={`${pct}% filled`} style={{ margin: "0.4rem 0" }}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <Stat label="Filled" value={`${fmt(order.quantityFilled)} / ${fmt(order.quantityWanted)}`} />
      <Stat label="Max price" value={money(order.maxPrice)} />
      <Stat label="Budget used" value={`${money(order.budgetUsed)} / ${money(order.totalBudget)}`} />
      {open ? <Stat label="Budget held" value={money(order.heldBudget)} /> : null}
      <Stat label="Priority" value={`${capitalize(order.priority)}${order.autoRenew ? " · auto-renew" : ""}`} />
      <Stat label="Placed" value={monthDayTimeText(order.createdAt)} />
      {order.executions.length > 0 ? (
        <>
          <h4 style={{ marginTop: "0.6rem" }}>Recent executions</h4>
          {order.executions.slice(0, EXECUTIONS_SHOWN).map((e) => (
            <div key={e.id} className="small stat">
              <span className="k">
                {fmt(e.quantity)} from {e.sellerName} at {money(e.pricePerUnit)}
              </span>
              <span className="v">{monthDayTimeText(e.executedAt)}</span>
            </div>
          ))}
        </>
      ) : null}
      {open ? (
        <div className="row" style={{ marginTop: "0.6rem", alignItems: "flex-start" }}>
          {matching ? (
            <ActionButton className="small" variant="" busy={action.busy === `pause-${order.id}`} disabled={action.busy !== null} onClick={() => void control("pause")}>
              Pause
            </ActionButton>
          ) : (
            <ActionButton
              className="small"
              variant=""
              disabledReason={activateRefusal ? formatActivationCountdown(order.processAfter, now) : null}
              busy={action.busy === `activate-${order.id}`}
              disabled={action.busy !== null}
              onClick={() => void control("activate")}
            >
              Activate
            </ActionButton>
          )}
          <ActionButton className="small" variant="danger" busy={action.busy === `cancel-${order.id}`} disabled={action.busy !== null} onClick={() => void control("cancel")}>
            Cancel
          </ActionButton>
        </div>
      ) : null}
    </section>
  );
}

/** What a Pause, Activate or Cancel did, in words ("Order cancelled (cancelled)." said it twice). */
export function orderControlMessage(control: "pause" | "activate" | "cancel", status: string): string {
  const done = control === "cancel" ? "cancelled" : control === "pause" ? "paused" : "activated";
  return status === done ? `Order ${done}.` : `Order ${done}: now ${status}.`;
}
