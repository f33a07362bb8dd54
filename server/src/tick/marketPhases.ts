import type { MarketChangedPayload } from "@game/schema/messages";
import { STANDING_ORDER_LIFETIME_MS, type MarketItemType } from "@game/schema/rules";
import { toPublicOrderJson, type OrderRow } from "../db/market.js";
import { WORLD_TOPIC } from "../events.js";
import { matchCrossingOrders, settleExpired } from "../services/market.js";
import type { CollapsingPhase, TickPhaseContext } from "./tickPhase.js";

/**
 * The markets' timed work, as two collapsing phases (one run covers every tick applied
 * together: each compares with the latest tick's time):
 *
 * - `marketExpiry`: listings open past their 7 days and standing orders past their lifetime
 *   become `expired` (auto-renewing orders get another lifetime instead). Only the status
 *   changes here; the goods and budgets stay in escrow until the after-commit settlement
 *   returns them, one country per action.
 * - `standingOrderActivation`: pending orders whose 2 hours passed (not paused) become active;
 *   after commit every active order that an open listing can fill is matched.
 *
 * Both after-commit steps sweep durable state (what is still in escrow, what still crosses), so
 * a tick retried, run twice or interrupted after its commit never returns or matches anything
 * twice, and the next tick finishes what a crash left.
 */

function collect(ctx: TickPhaseContext): { of(item: MarketItemType): MarketChangedPayload; flush(): void } {
  const changes = new Map<MarketItemType, MarketChangedPayload>();
  return {
    of(item) {
      let c = changes.get(item);
      if (!c) changes.set(item, (c = { itemType: item, listings: [], removedListingIds: [], orders: [], removedOrderIds: [], trades: [] }));
      return c;
    },
    flush() {
      for (const change of changes.values()) ctx.emit(WORLD_TOPIC, { type: "marketChanged", change });
    },
  };
}

export const marketExpiryPhase: CollapsingPhase = {
  name: "marketExpiry",
  catchUp: "collapse",
  async run(ctx) {
    const at = new Date(ctx.at);
    const changes = collect(ctx);
    const listings = await ctx.client.query<{ id: number; item_type: MarketItemType }>(`UPDATE market_listings SET status = 'expired', closed_at = $1 WHERE status = 'open' AND expires_at <= $1 RETURNING id, item_type`, [at]);
    for (const l of listings.rows) changes.of(l.item_type).removedListingIds.push(l.id);
    // Auto-renew: another whole lifetime (or as many as the catch-up spans), nothing moves.
    const renewed = await ctx.client.query(
      `UPDATE standing_orders
          SET expires_at = expires_at + ($2::bigint * (floor(extract(epoch FROM ($1::timestamptz - expires_at)) * 1000 / $2)::bigint + 1)) * interval '1 millisecond',
              last_activity = $1
        WHERE auto_renew AND status IN ('pending', 'active', 'partial') AND expires_at <= $1`,
      [at, STANDING_ORDER_LIFETIME_MS],
    );
    const orders = await ctx.client.query<{ id: number; item_type: MarketItemType }>(
      `UPDATE standing_orders SET status = 'expired', paused = false, last_activity = $1, closed_at = $1
        WHERE NOT auto_renew AND status IN ('pending', 'active', 'partial') AND expires_at <= $1 RETURNING id, item_type`,
      [at],
    );
    for (const o of orders.rows) changes.of(o.item_type).removedOrderIds.push(o.id);
    changes.flush();
    return (listings.rowCount ?? 0) + (orders.rowCount ?? 0) + (renewed.rowCount ?? 0);
  },
  async afterCommit(ctx) {
    await settleExpired(ctx);
  },
};

export const standingOrderActivationPhase: CollapsingPhase = {
  name: "standingOrderActivation",
  catchUp: "collapse",
  async run(ctx) {
    const changes = collect(ctx);
    const activated = await ctx.client.query<OrderRow>(
      `UPDATE standing_orders o SET status = CASE WHEN o.quantity_filled > 0 THEN 'partial' ELSE 'active' END, last_activity = $1
         FROM countries c
        WHERE c.id = o.buyer_id AND o.status = 'pending' AND NOT o.paused AND o.process_after <= $1
       RETURNING o.*, c.name AS buyer_name`,
      [new Date(ctx.at)],
    );
    for (const o of activated.rows) changes.of(o.item_type).orders.push(toPublicOrderJson(o));
    changes.flush();
    return activated.rowCount ?? 0;
  },
  async afterCommit(ctx) {
    await matchCrossingOrders(ctx);
  },
};

/** The market's phases in order: expiry before activation, so an order past its life never activates. */
export const MARKET_PHASES = [marketExpiryPhase, standingOrderActivationPhase] as const;
