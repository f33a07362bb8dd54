/**
 * Markets: public listings (goods in escrow), standing orders (budget in escrow), every trade
 * (public, government store, standing-order fill) and each country's store stock.
 * Escrow is explicit: `held_quantity` and `held_cash` are what the market holds on a country's
 * behalf, so the conservation audit sums them (db/audit.ts, AUDIT_HOLDINGS).
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE market_listings (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  seller_id       bigint NOT NULL REFERENCES countries (id),
  item_type       text NOT NULL CHECK (item_type IN ('troops', 'jets', 'turrets', 'tanks', 'spies', 'food', 'oil')),
  -- units still for sale
  quantity        bigint NOT NULL CHECK (quantity >= 0),
  listed_quantity bigint NOT NULL CHECK (listed_quantity > 0),
  price_per_unit  bigint NOT NULL CHECK (price_per_unit > 0),
  -- units in escrow: the quantity while open, and after expiry until the goods are returned
  held_quantity   bigint NOT NULL CHECK (held_quantity >= 0),
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sold', 'cancelled', 'expired')),
  listed_at       timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  closed_at       timestamptz,
  CHECK (status <> 'open' OR held_quantity = quantity)
);
-- The book a buyer and the matcher read: cheapest first, then oldest.
CREATE INDEX market_listings_book ON market_listings (item_type, price_per_unit, listed_at, id) WHERE status = 'open';
CREATE INDEX market_listings_seller ON market_listings (seller_id) WHERE status = 'open';
CREATE INDEX market_listings_expiry ON market_listings (expires_at) WHERE status = 'open';
-- Expired listings whose goods have not gone back yet (the settlement sweep).
CREATE INDEX market_listings_unreturned ON market_listings (id) WHERE status = 'expired' AND held_quantity > 0;

CREATE TABLE standing_orders (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  buyer_id        bigint NOT NULL REFERENCES countries (id),
  item_type       text NOT NULL CHECK (item_type IN ('troops', 'jets', 'turrets', 'tanks', 'spies', 'food', 'oil')),
  max_price       bigint NOT NULL CHECK (max_price > 0),
  quantity_wanted bigint NOT NULL CHECK (quantity_wanted > 0),
  quantity_filled bigint NOT NULL DEFAULT 0 CHECK (quantity_filled >= 0 AND quantity_filled <= quantity_wanted),
  total_budget    bigint NOT NULL CHECK (total_budget > 0),
  budget_used     bigint NOT NULL DEFAULT 0 CHECK (budget_used >= 0),
  -- budget in escrow: the unused budget while open, and after expiry until it is refunded
  held_cash       bigint NOT NULL CHECK (held_cash >= 0),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'partial', 'fulfilled', 'cancelled', 'expired')),
  -- pending because of Pause (waits for Activate, not for the clock)
  paused          boolean NOT NULL DEFAULT false,
  priority        text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high')),
  priority_rank   smallint GENERATED ALWAYS AS (CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END) STORED,
  -- paid up front for high priority and destroyed (a documented sink)
  priority_fee    bigint NOT NULL DEFAULT 0 CHECK (priority_fee >= 0),
  auto_renew      boolean NOT NULL DEFAULT false,
  renewed_from    bigint REFERENCES standing_orders (id),
  created_at      timestamptz NOT NULL,
  process_after   timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  last_activity   timestamptz NOT NULL,
  closed_at       timestamptz
);
-- The queue a new listing meets: priority, then oldest.
CREATE INDEX standing_orders_queue ON standing_orders (item_type, priority_rank, created_at, id) WHERE status IN ('active', 'partial');
CREATE INDEX standing_orders_buyer ON standing_orders (buyer_id, created_at DESC);
CREATE INDEX standing_orders_activation ON standing_orders (process_after) WHERE status = 'pending' AND NOT paused;
CREATE INDEX standing_orders_expiry ON standing_orders (expires_at) WHERE status IN ('pending', 'active', 'partial');
CREATE INDEX standing_orders_unrefunded ON standing_orders (id) WHERE status = 'expired' AND held_cash > 0;

CREATE TABLE market_trades (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_type       text NOT NULL,
  quantity        bigint NOT NULL CHECK (quantity > 0),
  price_per_unit  bigint NOT NULL CHECK (price_per_unit > 0),
  total           bigint NOT NULL,
  -- destroyed; paid by the seller (0 in the store)
  fee             bigint NOT NULL DEFAULT 0 CHECK (fee >= 0),
  market_type     text NOT NULL CHECK (market_type IN ('public', 'private', 'standing_order')),
  -- NULL: the Government Store on that side
  buyer_id        bigint REFERENCES countries (id),
  seller_id       bigint REFERENCES countries (id),
  buyer_name      text,
  seller_name     text,
  listing_id      bigint REFERENCES market_listings (id),
  order_id        bigint REFERENCES standing_orders (id),
  created_at      timestamptz NOT NULL,
  CHECK (buyer_id IS NOT NULL OR seller_id IS NOT NULL)
);
CREATE INDEX market_trades_buyer ON market_trades (buyer_id, created_at DESC) WHERE buyer_id IS NOT NULL;
CREATE INDEX market_trades_seller ON market_trades (seller_id, created_at DESC) WHERE seller_id IS NOT NULL;
-- Analytics read market prices only (store trades are at fixed prices).
CREATE INDEX market_trades_item_time ON market_trades (item_type, created_at) WHERE market_type <> 'private';
CREATE INDEX market_trades_order ON market_trades (order_id, created_at DESC) WHERE order_id IS NOT NULL;

-- A country's government store stock: when each item is full again (no row: full).
CREATE TABLE market_store_stock (
  country_id  bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  item_type   text NOT NULL,
  full_at     timestamptz NOT NULL,
  PRIMARY KEY (country_id, item_type)
);
`;
