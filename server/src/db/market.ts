import type { ListingJson, OrderExecutionJson, PublicListingJson, PublicStandingOrderJson, StandingOrderJson, StoreTransactionJson, TransactionJson, TransactionSummaryJson } from "@game/schema/api";
import {
  EXECUTIONS_SHOWN,
  GOVERNMENT_STORE_NAME,
  HISTORY_PERIODS,
  MARKET_ITEM_NAMES,
  MARKET_ITEM_TYPES,
  RECENT_STORE_TRANSACTIONS,
  type BookOrder,
  type BookSummary,
  type HistoryPeriod,
  type HistorySortField,
  type HourBucket,
  type ListingStatus,
  type MarketItemType,
  type MarketType,
  type OrderPriority,
  type StandingOrderStatus,
  type TransactionType,
} from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";
import type { AuditHolding } from "./auditHolding.js";

/**
 * Queries of the markets: listings, standing orders, trades and store stock. Every write here
 * runs inside a runCountriesAction step (or the tick) under the owner's country lock: a listing
 * is written only while its seller is locked, an order only while its buyer is, so market rows
 * never deadlock once countries are locked in ascending order.
 */

type Queryable = Db | DbClient;

export interface ListingRow {
  id: number;
  seller_id: number;
  seller_name: string;
  item_type: MarketItemType;
  quantity: number;
  listed_quantity: number;
  price_per_unit: number;
  held_quantity: number;
  status: ListingStatus;
  listed_at: Date;
  expires_at: Date;
  closed_at: Date | null;
}

export interface OrderRow {
  id: number;
  buyer_id: number;
  buyer_name: string;
  item_type: MarketItemType;
  max_price: number;
  quantity_wanted: number;
  quantity_filled: number;
  total_budget: number;
  budget_used: number;
  held_cash: number;
  status: StandingOrderStatus;
  paused: boolean;
  priority: OrderPriority;
  priority_fee: number;
  auto_renew: boolean;
  renewed_from: number | null;
  created_at: Date;
  process_after: Date;
  expires_at: Date;
  last_activity: Date;
  closed_at: Date | null;
}

export interface TradeRow {
  id: number;
  item_type: MarketItemType;
  quantity: number;
  price_per_unit: number;
  total: number;
  fee: number;
  market_type: MarketType;
  buyer_id: number | null;
  seller_id: number | null;
  buyer_name: string | null;
  seller_name: string | null;
  listing_id: number | null;
  order_id: number | null;
  created_at: Date;
}

const LISTING_COLUMNS = "l.id, l.seller_id, c.name AS seller_name, l.item_type, l.quantity, l.listed_quantity, l.price_per_unit, l.held_quantity, l.status, l.listed_at, l.expires_at, l.closed_at";
const ORDER_COLUMNS =
  "o.id, o.buyer_id, c.name AS buyer_name, o.item_type, o.max_price, o.quantity_wanted, o.quantity_filled, o.total_budget, o.budget_used, o.held_cash, o.status, o.paused, o.priority, o.priority_fee, o.auto_renew, o.renewed_from, o.created_at, o.process_after, o.expires_at, o.last_activity, o.closed_at";
const TRADE_COLUMNS = "id, item_type, quantity, price_per_unit, total, fee, market_type, buyer_id, seller_id, buyer_name, seller_name, listing_id, order_id, created_at";

// ---------------------------------------------------------------------------------------
// JSON

export function toPublicListingJson(row: ListingRow): PublicListingJson {
  return {
    id: row.id,
    sellerId: row.seller_id,
    sellerName: row.seller_name,
    itemType: row.item_type,
    quantity: row.quantity,
    pricePerUnit: row.price_per_unit,
    totalPrice: row.quantity * row.price_per_unit,
    listedAt: row.listed_at.getTime(),
    expiresAt: row.expires_at.getTime(),
    status: row.status,
  };
}

export function toListingJson(row: ListingRow, viewerCountryId: number | null): ListingJson {
  return { ...toPublicListingJson(row), isOwnListing: row.seller_id === viewerCountryId };
}

export function toPublicOrderJson(row: OrderRow): PublicStandingOrderJson {
  return {
    id: row.id,
    buyerId: row.buyer_id,
    buyerName: row.buyer_name,
    itemType: row.item_type,
    quantity: row.quantity_wanted - row.quantity_filled,
    maxPrice: row.max_price,
    totalBudget: row.total_budget,
    createdAt: row.created_at.getTime(),
    status: row.status,
    priority: row.priority,
  };
}

export function toExecutionJson(row: TradeRow): OrderExecutionJson {
  return {
    id: row.id,
    orderId: row.order_id!,
    sellerId: row.seller_id!,
    sellerName: row.seller_name ?? "",
    quantity: row.quantity,
    pricePerUnit: row.price_per_unit,
    totalCost: row.total,
    executedAt: row.created_at.getTime(),
  };
}

export function toOrderJson(row: OrderRow, executions: TradeRow[] = []): StandingOrderJson {
  return {
    id: row.id,
    buyerId: row.buyer_id,
    buyerName: row.buyer_name,
    itemType: row.item_type,
    maxPrice: row.max_price,
    quantityWanted: row.quantity_wanted,
    quantityFilled: row.quantity_filled,
    totalBudget: row.total_budget,
    budgetUsed: row.budget_used,
    heldBudget: row.held_cash,
    priorityFee: row.priority_fee,
    status: row.status,
    paused: row.paused,
    createdAt: row.created_at.getTime(),
    processAfter: row.process_after.getTime(),
    expiresAt: row.expires_at.getTime(),
    lastActivity: row.last_activity.getTime(),
    autoRenew: row.auto_renew,
    priority: row.priority,
    renewedFromId: row.renewed_from,
    executions: executions.map(toExecutionJson),
  };
}

/** A trade from `countryId`'s side: the seller pays the fee, the buyer's net is what it paid. */
export function toTransactionJson(row: TradeRow, countryId: number): TransactionJson {
  const side: TransactionType = row.buyer_id === countryId ? "buy" : "sell";
  const buyerName = row.buyer_id === null ? GOVERNMENT_STORE_NAME : (row.buyer_name ?? "");
  const sellerName = row.seller_id === null ? GOVERNMENT_STORE_NAME : (row.seller_name ?? "");
  return {
    id: row.id,
    buyerId: row.buyer_id,
    buyerName,
    sellerId: row.seller_id,
    sellerName,
    itemType: row.item_type,
    quantity: row.quantity,
    pricePerUnit: row.price_per_unit,
    totalAmount: row.total,
    marketFee: side === "sell" ? row.fee : 0,
    netAmount: side === "sell" ? row.total - row.fee : row.total,
    marketType: row.market_type,
    timestamp: row.created_at.getTime(),
    transactionType: side,
    isOwnTransaction: true,
    counterparty: side === "buy" ? sellerName : buyerName,
  };
}

export function toStoreTransactionJson(row: TradeRow, countryId: number): StoreTransactionJson {
  return {
    id: row.id,
    itemId: row.item_type,
    itemName: MARKET_ITEM_NAMES[row.item_type],
    quantity: row.quantity,
    pricePerUnit: row.price_per_unit,
    totalCost: row.total,
    transactionType: row.buyer_id === countryId ? "buy" : "sell",
    timestamp: row.created_at.getTime(),
  };
}

// ---------------------------------------------------------------------------------------
// Listings

/** Open listings, cheapest first then oldest (one item, or all). */
export async function listOpenListings(db: Queryable, itemType: MarketItemType | undefined, limit: number): Promise<ListingRow[]> {
  const { rows } = await db.query<ListingRow>(
    `SELECT ${LISTING_COLUMNS} FROM market_listings l JOIN countries c ON c.id = l.seller_id
      WHERE l.status = 'open' AND ($1::text IS NULL OR l.item_type = $1)
      ORDER BY l.item_type, l.price_per_unit, l.listed_at, l.id LIMIT $2`,
    [itemType ?? null, limit],
  );
  return rows;
}

/** A listing (no lock): who sells it, before the countries are locked. */
export async function findListing(db: Queryable, id: number): Promise<ListingRow | undefined> {
  const { rows } = await db.query<ListingRow>({
    name: "market_find_listing",
    text: `SELECT ${LISTING_COLUMNS} FROM market_listings l JOIN countries c ON c.id = l.seller_id WHERE l.id = $1`,
    values: [id],
  });
  return rows[0];
}

/** A listing locked for this transaction (its seller must be locked already). */
export async function lockListing(client: DbClient, id: number): Promise<ListingRow | undefined> {
  const { rows } = await client.query<ListingRow>({
    name: "market_lock_listing",
    text: `SELECT ${LISTING_COLUMNS} FROM market_listings l JOIN countries c ON c.id = l.seller_id WHERE l.id = $1 FOR UPDATE OF l`,
    values: [id],
  });
  return rows[0];
}

export async function countOpenListings(client: Queryable, sellerId: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM market_listings WHERE seller_id = $1 AND status = 'open'", [sellerId]);
  return rows[0]!.n;
}

export async function insertListing(client: DbClient, listing: { sellerId: number; sellerName: string; item: MarketItemType; quantity: number; pricePerUnit: number; listedAt: Date; expiresAt: Date }): Promise<ListingRow> {
  const { rows } = await client.query<Omit<ListingRow, "seller_name">>(
    `INSERT INTO market_listings (seller_id, item_type, quantity, listed_quantity, price_per_unit, held_quantity, listed_at, expires_at)
     VALUES ($1, $2, $3, $3, $4, $3, $5, $6)
     RETURNING id, seller_id, item_type, quantity, listed_quantity, price_per_unit, held_quantity, status, listed_at, expires_at, closed_at`,
    [listing.sellerId, listing.item, listing.quantity, listing.pricePerUnit, listing.listedAt, listing.expiresAt],
  );
  return { ...rows[0]!, seller_name: listing.sellerName };
}

/** The listing's escrow after `taken` units left it (sold): closed as sold at 0. */
export function takeFromListing(row: ListingRow, taken: number, now: Date): ListingRow {
  const quantity = row.quantity - taken;
  return { ...row, quantity, held_quantity: row.held_quantity - taken, status: quantity === 0 ? "sold" : row.status, closed_at: quantity === 0 ? now : row.closed_at };
}

export async function saveListing(client: DbClient, row: ListingRow): Promise<void> {
  await client.query({
    name: "market_save_listing",
    text: "UPDATE market_listings SET quantity = $2, held_quantity = $3, status = $4, closed_at = $5 WHERE id = $1",
    values: [row.id, row.quantity, row.held_quantity, row.status, row.closed_at],
  });
}

// ---------------------------------------------------------------------------------------
// Standing orders

/**
 * Active orders a listing at `price` can fill, in queue order (priority, then oldest), the
 * seller's own left out; read without locks to learn which buyers to lock.
 */
export async function findCrossingOrders(db: Queryable, item: MarketItemType, price: number, sellerId: number, limit = 200): Promise<BookOrder[]> {
  const { rows } = await db.query<{ id: number; buyer_id: number; priority: OrderPriority; created_at: Date; quantity_wanted: number; quantity_filled: number; held_cash: number; max_price: number }>(
    `SELECT id, buyer_id, priority, created_at, quantity_wanted, quantity_filled, held_cash, max_price FROM standing_orders
      WHERE item_type = $1 AND status IN ('active', 'partial') AND max_price >= $2 AND buyer_id <> $3
      ORDER BY priority_rank, created_at, id LIMIT $4`,
    [item, price, sellerId, limit],
  );
  return rows.map(toBookOrder);
}

function toBookOrder(r: { id: number; buyer_id: number; priority: OrderPriority; created_at: Date; quantity_wanted: number; quantity_filled: number; held_cash: number; max_price: number }): BookOrder {
  return {
    id: r.id,
    buyerId: r.buyer_id,
    priority: r.priority,
    createdAt: r.created_at.getTime(),
    quantityWanted: r.quantity_wanted,
    quantityFilled: r.quantity_filled,
    heldCash: r.held_cash,
    maxPrice: r.max_price,
  };
}

export function orderToBook(row: OrderRow): BookOrder {
  return toBookOrder(row);
}

/** Orders locked for this transaction (their buyers must be locked already), by id. */
export async function lockOrders(client: DbClient, ids: readonly number[]): Promise<Map<number, OrderRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM standing_orders o JOIN countries c ON c.id = o.buyer_id WHERE o.id = ANY($1::bigint[]) ORDER BY o.id FOR UPDATE OF o`, [ids]);
  return new Map(rows.map((r) => [r.id, r]));
}

export async function findOrder(db: Queryable, id: number): Promise<OrderRow | undefined> {
  const { rows } = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM standing_orders o JOIN countries c ON c.id = o.buyer_id WHERE o.id = $1`, [id]);
  return rows[0];
}

export async function countOpenOrders(client: DbClient, buyerId: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM standing_orders WHERE buyer_id = $1 AND status IN ('pending', 'active', 'partial')", [buyerId]);
  return rows[0]!.n;
}

export async function insertOrder(
  client: DbClient,
  order: {
    buyerId: number;
    buyerName: string;
    item: MarketItemType;
    maxPrice: number;
    quantity: number;
    budget: number;
    priority: OrderPriority;
    priorityFee: number;
    autoRenew: boolean;
    renewedFrom: number | null;
    createdAt: Date;
    processAfter: Date;
    expiresAt: Date;
  },
): Promise<OrderRow> {
  const { rows } = await client.query<Omit<OrderRow, "buyer_name">>(
    `INSERT INTO standing_orders (buyer_id, item_type, max_price, quantity_wanted, total_budget, held_cash, priority, priority_fee, auto_renew, renewed_from, created_at, process_after, expires_at, last_activity)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11, $12, $10)
     RETURNING id, buyer_id, item_type, max_price, quantity_wanted, quantity_filled, total_budget, budget_used, held_cash, status, paused, priority, priority_fee, auto_renew, renewed_from, created_at, process_after, expires_at, last_activity, closed_at`,
    [order.buyerId, order.item, order.maxPrice, order.quantity, order.budget, order.priority, order.priorityFee, order.autoRenew, order.renewedFrom, order.createdAt, order.processAfter, order.expiresAt],
  );
  return { ...rows[0]!, buyer_name: order.buyerName };
}

export async function saveOrder(client: DbClient, row: OrderRow): Promise<void> {
  await client.query({
    name: "market_save_order",
    text: `UPDATE standing_orders SET quantity_filled = $2, budget_used = $3, held_cash = $4, status = $5, paused = $6, last_activity = $7, closed_at = $8, expires_at = $9
            WHERE id = $1`,
    values: [row.id, row.quantity_filled, row.budget_used, row.held_cash, row.status, row.paused, row.last_activity, row.closed_at, row.expires_at],
  });
}

/**
 * A country's orders, newest first, with up to EXECUTIONS_SHOWN fills each. The two reads do not
 * wait for each other (the fills select the same orders), so a view sends them in one round
 * trip (db/readBatch.ts).
 */
export async function listOwnOrders(db: Queryable, buyerId: number, limit = 200): Promise<Array<{ order: OrderRow; executions: TradeRow[] }>> {
  const [orders, fills] = await Promise.all([
    db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM standing_orders o JOIN countries c ON c.id = o.buyer_id WHERE o.buyer_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT $2`, [buyerId, limit]),
    db.query<TradeRow>(
      `SELECT ${TRADE_COLUMNS} FROM (
         SELECT t.*, row_number() OVER (PARTITION BY order_id ORDER BY created_at DESC, id DESC) AS n
           FROM market_trades t WHERE order_id IN (SELECT id FROM standing_orders WHERE buyer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)
       ) x WHERE n <= $3 ORDER BY order_id, created_at DESC, id DESC`,
      [buyerId, limit, EXECUTIONS_SHOWN],
    ),
  ]);
  const executions = new Map<number, TradeRow[]>();
  for (const row of fills.rows) {
    const list = executions.get(row.order_id!) ?? [];
    list.push(row);
    executions.set(row.order_id!, list);
  }
  return orders.rows.map((order) => ({ order, executions: executions.get(order.id) ?? [] }));
}

/** The latest fills of each order (newest first, at most EXECUTIONS_SHOWN). */
export async function latestExecutions(db: Queryable, orderIds: readonly number[]): Promise<Map<number, TradeRow[]>> {
  const out = new Map<number, TradeRow[]>();
  if (orderIds.length === 0) return out;
  const { rows } = await db.query<TradeRow>(
    `SELECT ${TRADE_COLUMNS} FROM (
       SELECT t.*, row_number() OVER (PARTITION BY order_id ORDER BY created_at DESC, id DESC) AS n
         FROM market_trades t WHERE order_id = ANY($1::bigint[])
     ) x WHERE n <= $2 ORDER BY order_id, created_at DESC, id DESC`,
    [orderIds, EXECUTIONS_SHOWN],
  );
  for (const row of rows) {
    const list = out.get(row.order_id!) ?? [];
    list.push(row);
    out.set(row.order_id!, list);
  }
  return out;
}

/** The public book: active and partial orders (one item, or all), in queue order. */
export async function listOrderBook(db: Queryable, itemType: MarketItemType | undefined, limit: number): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM standing_orders o JOIN countries c ON c.id = o.buyer_id
      WHERE o.status IN ('active', 'partial') AND ($1::text IS NULL OR o.item_type = $1)
      ORDER BY o.item_type, o.priority_rank, o.created_at, o.id LIMIT $2`,
    [itemType ?? null, limit],
  );
  return rows;
}

// ---------------------------------------------------------------------------------------
// Trades

export interface NewTrade {
  item: MarketItemType;
  quantity: number;
  pricePerUnit: number;
  total: number;
  fee: number;
  marketType: MarketType;
  buyerId: number | null;
  sellerId: number | null;
  buyerName: string | null;
  sellerName: string | null;
  listingId: number | null;
  orderId: number | null;
  at: Date;
}

export async function insertTrade(client: DbClient, t: NewTrade): Promise<TradeRow> {
  const { rows } = await client.query<TradeRow>({
    name: "market_insert_trade",
    text: `INSERT INTO market_trades (item_type, quantity, price_per_unit, total, fee, market_type, buyer_id, seller_id, buyer_name, seller_name, listing_id, order_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${TRADE_COLUMNS}`,
    values: [t.item, t.quantity, t.pricePerUnit, t.total, t.fee, t.marketType, t.buyerId, t.sellerId, t.buyerName, t.sellerName, t.listingId, t.orderId, t.at],
  });
  return rows[0]!;
}

/**
 * A public purchase's two writes in one round trip: the listing's new quantity and escrow, and
 * the trade. @returns the trade
 */
export async function recordPurchase(client: DbClient, listing: ListingRow, trade: NewTrade): Promise<TradeRow> {
  const { rows } = await client.query<TradeRow>({
    name: "market_record_purchase",
    text: `WITH l AS (UPDATE market_listings SET quantity = $14, held_quantity = $15, status = $16, closed_at = $17 WHERE id = $11 RETURNING id)
           INSERT INTO market_trades (item_type, quantity, price_per_unit, total, fee, market_type, buyer_id, seller_id, buyer_name, seller_name, listing_id, order_id, created_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, l.id, $12, $13 FROM l RETURNING ${TRADE_COLUMNS}`,
    values: [
      trade.item,
      trade.quantity,
      trade.pricePerUnit,
      trade.total,
      trade.fee,
      trade.marketType,
      trade.buyerId,
      trade.sellerId,
      trade.buyerName,
      trade.sellerName,
      listing.id,
      trade.orderId,
      trade.at,
      listing.quantity,
      listing.held_quantity,
      listing.status,
      listing.closed_at,
    ],
  });
  if (!rows[0]) throw new Error(`listing ${listing.id} vanished under its lock`);
  return rows[0];
}

/** Filters of the history (spec: period, item, market type, transaction type, sort, direction). */
export interface HistoryFilters {
  period: HistoryPeriod;
  itemType?: MarketItemType;
  marketType?: MarketType;
  transactionType?: TransactionType;
  sort: HistorySortField;
  direction: "asc" | "desc";
  limit: number;
}

const SORT_COLUMNS: Record<HistorySortField, string> = { timestamp: "created_at", amount: "total", quantity: "quantity", price: "price_per_unit" };

function historyWhere(countryId: number, f: HistoryFilters, now: number): { sql: string; values: unknown[] } {
  const values: unknown[] = [countryId];
  const where: string[] = [];
  if (f.transactionType === "buy") where.push("buyer_id = $1");
  else if (f.transactionType === "sell") where.push("seller_id = $1");
  else where.push("(buyer_id = $1 OR seller_id = $1)");
  const span = HISTORY_PERIODS[f.period];
  if (span !== null) {
    values.push(new Date(now - span));
    where.push(`created_at >= $${values.length}`);
  }
  if (f.itemType) {
    values.push(f.itemType);
    where.push(`item_type = $${values.length}`);
  }
  if (f.marketType) {
    values.push(f.marketType);
    where.push(`market_type = $${values.length}`);
  }
  return { sql: where.join(" AND "), values };
}

/** One country's trades under the filters, sorted, and the summary over all of them. */
export async function listHistory(db: Queryable, countryId: number, f: HistoryFilters, now: number): Promise<{ rows: TradeRow[]; summary: TransactionSummaryJson }> {
  const { sql, values } = historyWhere(countryId, f, now);
  const dir = f.direction === "asc" ? "ASC" : "DESC";
  const [list, sums] = await Promise.all([
    db.query<TradeRow>(`SELECT ${TRADE_COLUMNS} FROM market_trades WHERE ${sql} ORDER BY ${SORT_COLUMNS[f.sort]} ${dir}, id ${dir} LIMIT ${Number(f.limit)}`, values),
    db.query<{ count: number; units_bought: number; units_sold: number; spent: number; earned: number; fees: number }>(
      `SELECT count(*)::int AS count,
              coalesce(sum(quantity) FILTER (WHERE buyer_id = $1), 0)::bigint AS units_bought,
              coalesce(sum(quantity) FILTER (WHERE seller_id = $1), 0)::bigint AS units_sold,
              coalesce(sum(total) FILTER (WHERE buyer_id = $1), 0)::bigint AS spent,
              coalesce(sum(total - fee) FILTER (WHERE seller_id = $1), 0)::bigint AS earned,
              coalesce(sum(fee) FILTER (WHERE seller_id = $1), 0)::bigint AS fees
         FROM market_trades WHERE ${sql}`,
      values,
    ),
  ]);
  const s = sums.rows[0]!;
  return {
    rows: list.rows,
    summary: { count: s.count, unitsBought: s.units_bought, unitsSold: s.units_sold, spent: s.spent, earned: s.earned, fees: s.fees, net: s.earned - s.spent },
  };
}

/** The last store trades of a country, newest first. */
export async function recentStoreTrades(db: Queryable, countryId: number, limit = RECENT_STORE_TRANSACTIONS): Promise<TradeRow[]> {
  const { rows } = await db.query<TradeRow>(
    `SELECT ${TRADE_COLUMNS} FROM (
       (SELECT * FROM market_trades WHERE buyer_id = $1 AND market_type = 'private' ORDER BY created_at DESC, id DESC LIMIT $2)
       UNION ALL
       (SELECT * FROM market_trades WHERE seller_id = $1 AND market_type = 'private' ORDER BY created_at DESC, id DESC LIMIT $2)
     ) t ORDER BY created_at DESC, id DESC LIMIT $2`,
    [countryId, limit],
  );
  return rows;
}

// ---------------------------------------------------------------------------------------
// Store stock and demand

/** When each item of a country's store is full again: its stock (what it sells) and its demand (what it buys); absent: full. */
export interface StoreClocks {
  stock: Map<MarketItemType, number>;
  demand: Map<MarketItemType, number>;
}

/** A country's store clocks, both tables in one statement. */
export async function readStoreClocks(db: Queryable, countryId: number): Promise<StoreClocks> {
  const { rows } = await db.query<{ kind: "stock" | "demand"; item_type: MarketItemType; full_at: Date }>(
    `SELECT 'stock' AS kind, item_type, full_at FROM market_store_stock WHERE country_id = $1
     UNION ALL
     SELECT 'demand' AS kind, item_type, full_at FROM market_store_demand WHERE country_id = $1`,
    [countryId],
  );
  const clocks: StoreClocks = { stock: new Map(), demand: new Map() };
  for (const r of rows) clocks[r.kind].set(r.item_type, r.full_at.getTime());
  return clocks;
}

/**
 * A store trade's writes in one round trip: the stock's new full time (a purchase) or the
 * demand's (a sale), and the trade. The caller holds the country's row lock, which every
 * writer of both tables holds, so the read-then-write of a clock cannot interleave.
 */
export async function recordStoreTrade(client: DbClient, countryId: number, clock: { stockFullAt: number | null; demandFullAt: number | null }, trade: NewTrade): Promise<TradeRow> {
  const at = (ms: number | null) => (ms === null ? null : new Date(ms));
  const { rows } = await client.query<TradeRow>({
    name: "market_record_store_trade",
    text: `WITH s AS (
             INSERT INTO market_store_stock (country_id, item_type, full_at) SELECT $12, $1, $13 WHERE $13::timestamptz IS NOT NULL
             ON CONFLICT (country_id, item_type) DO UPDATE SET full_at = EXCLUDED.full_at RETURNING 1),
           d AS (
             INSERT INTO market_store_demand (country_id, item_type, full_at) SELECT $12, $1, $14 WHERE $14::timestamptz IS NOT NULL
             ON CONFLICT (country_id, item_type) DO UPDATE SET full_at = EXCLUDED.full_at RETURNING 1)
           INSERT INTO market_trades (item_type, quantity, price_per_unit, total, fee, market_type, buyer_id, seller_id, buyer_name, seller_name, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${TRADE_COLUMNS}`,
    values: [trade.item, trade.quantity, trade.pricePerUnit, trade.total, trade.fee, trade.marketType, trade.buyerId, trade.sellerId, trade.buyerName, trade.sellerName, trade.at, countryId, at(clock.stockFullAt), at(clock.demandFullAt)],
  });
  return rows[0]!;
}

// ---------------------------------------------------------------------------------------
// Analytics

/** Hourly buckets of market trades (public and standing orders) since `since`. */
export async function tradeBuckets(db: Queryable, item: MarketItemType, since: Date): Promise<HourBucket[]> {
  const { rows } = await db.query<{ hour: number; volume: number; value: number; value_squares: string; high: number; low: number; trades: number }>(
    `SELECT (floor(extract(epoch FROM created_at) / 3600) * 3600000)::bigint AS hour,
            sum(quantity)::bigint AS volume, sum(total)::bigint AS value,
            sum(quantity::numeric * price_per_unit * price_per_unit)::text AS value_squares,
            max(price_per_unit) AS high, min(price_per_unit) AS low, count(*)::int AS trades
       FROM market_trades WHERE item_type = $1 AND market_type <> 'private' AND created_at >= $2
      GROUP BY 1`,
    [item, since],
  );
  return rows.map((r) => ({ hour: Number(r.hour), volume: r.volume, value: r.value, valueSquares: Number(r.value_squares), high: r.high, low: r.low, trades: r.trades }));
}

/** The last market trade's price at or before `at` (null: none). */
export async function lastTradePrice(db: Queryable, item: MarketItemType, at: Date | null): Promise<number | null> {
  const { rows } = await db.query<{ price_per_unit: number }>(
    `SELECT price_per_unit FROM market_trades WHERE item_type = $1 AND market_type <> 'private' AND ($2::timestamptz IS NULL OR created_at <= $2)
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [item, at],
  );
  return rows[0]?.price_per_unit ?? null;
}

/** The open book of an item: listings and active orders, counts, volumes, best prices. */
export async function bookSummary(db: Queryable, item: MarketItemType): Promise<BookSummary> {
  const { rows } = await db.query<{ sell_orders: number; sell_volume: number; best_ask: number | null; best_ask_quantity: number | null; buy_orders: number; buy_volume: number; best_bid: number | null }>(
    `SELECT s.sell_orders, s.sell_volume, a.price_per_unit AS best_ask, a.quantity AS best_ask_quantity, b.buy_orders, b.buy_volume, b.best_bid
       FROM (SELECT count(*)::int AS sell_orders, coalesce(sum(quantity), 0)::bigint AS sell_volume FROM market_listings WHERE item_type = $1 AND status = 'open') s
       LEFT JOIN LATERAL (SELECT price_per_unit, quantity FROM market_listings WHERE item_type = $1 AND status = 'open' ORDER BY price_per_unit, listed_at, id LIMIT 1) a ON true
       CROSS JOIN (SELECT count(*)::int AS buy_orders, coalesce(sum(quantity_wanted - quantity_filled), 0)::bigint AS buy_volume, max(max_price) AS best_bid
                     FROM standing_orders WHERE item_type = $1 AND status IN ('active', 'partial')) b`,
    [item],
  );
  const r = rows[0]!;
  return { sellOrders: r.sell_orders, sellVolume: r.sell_volume, bestAsk: r.best_ask, bestAskQuantity: r.best_ask_quantity ?? 0, buyOrders: r.buy_orders, buyVolume: r.buy_volume, bestBid: r.best_bid };
}

// ---------------------------------------------------------------------------------------
// Escrow, for the conservation audit

/**
 * What the market holds for countries: goods of open listings (and of expired ones until
 * returned), and the unused budgets of standing orders (and of expired ones until refunded).
 */
export const MARKET_HOLDINGS: AuditHolding[] = [
  {
    name: "market_listings",
    sql: `SELECT ${MARKET_ITEM_TYPES.map((i) => `coalesce(sum(held_quantity) FILTER (WHERE item_type = '${i}'), 0)::bigint AS ${i}`).join(", ")} FROM market_listings WHERE held_quantity > 0`,
  },
  { name: "standing_orders", sql: "SELECT coalesce(sum(held_cash), 0)::bigint AS cash FROM standing_orders WHERE held_cash > 0" },
];

/** Money the market destroyed: trade fees and high-priority fees (the documented sinks). */
export async function marketSinks(db: Queryable): Promise<{ fees: number; priorityFees: number }> {
  const { rows } = await db.query<{ fees: number; priority_fees: number }>("SELECT (SELECT coalesce(sum(fee), 0)::bigint FROM market_trades) AS fees, (SELECT coalesce(sum(priority_fee), 0)::bigint FROM standing_orders) AS priority_fees");
  return { fees: rows[0]!.fees, priorityFees: rows[0]!.priority_fees };
}

/** The cheapest open listing an order can take (price at most its max, not its own buyer's), no lock. */
export async function cheapestCrossingListing(db: Queryable, item: MarketItemType, maxPrice: number, buyerId: number): Promise<ListingRow | undefined> {
  const { rows } = await db.query<ListingRow>(
    `SELECT ${LISTING_COLUMNS} FROM market_listings l JOIN countries c ON c.id = l.seller_id
      WHERE l.status = 'open' AND l.item_type = $1 AND l.price_per_unit <= $2 AND l.seller_id <> $3
      ORDER BY l.price_per_unit, l.listed_at, l.id LIMIT 1`,
    [item, maxPrice, buyerId],
  );
  return rows[0];
}

/** Active orders that some open listing can fill now, in queue order (the sweep after activation). */
export async function ordersWithCrossingListings(db: Queryable, limit = 1_000): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT o.id FROM standing_orders o
      WHERE o.status IN ('active', 'partial') AND EXISTS (
        SELECT 1 FROM market_listings l
         WHERE l.status = 'open' AND l.item_type = o.item_type AND l.price_per_unit <= o.max_price AND l.seller_id <> o.buyer_id)
      ORDER BY o.priority_rank, o.created_at, o.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Sellers with expired listings whose goods are still in escrow. */
export async function sellersWithUnreturnedListings(db: Queryable, limit = 1_000): Promise<number[]> {
  const { rows } = await db.query<{ seller_id: number }>("SELECT DISTINCT seller_id FROM market_listings WHERE status = 'expired' AND held_quantity > 0 LIMIT $1", [limit]);
  return rows.map((r) => r.seller_id);
}

/** Buyers with expired orders whose budget is still in escrow. */
export async function buyersWithUnrefundedOrders(db: Queryable, limit = 1_000): Promise<number[]> {
  const { rows } = await db.query<{ buyer_id: number }>("SELECT DISTINCT buyer_id FROM standing_orders WHERE status = 'expired' AND held_cash > 0 LIMIT $1", [limit]);
  return rows.map((r) => r.buyer_id);
}

/** A seller's expired listings still holding goods, locked (the seller must be locked). */
export async function lockUnreturnedListings(client: DbClient, sellerId: number): Promise<ListingRow[]> {
  const { rows } = await client.query<ListingRow>(
    `SELECT ${LISTING_COLUMNS} FROM market_listings l JOIN countries c ON c.id = l.seller_id
      WHERE l.seller_id = $1 AND l.status = 'expired' AND l.held_quantity > 0 ORDER BY l.id FOR UPDATE OF l`,
    [sellerId],
  );
  return rows;
}

/** A buyer's expired orders still holding budget, locked (the buyer must be locked). */
export async function lockUnrefundedOrders(client: DbClient, buyerId: number): Promise<OrderRow[]> {
  const { rows } = await client.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM standing_orders o JOIN countries c ON c.id = o.buyer_id
      WHERE o.buyer_id = $1 AND o.status = 'expired' AND o.held_cash > 0 ORDER BY o.id FOR UPDATE OF o`,
    [buyerId],
  );
  return rows;
}
