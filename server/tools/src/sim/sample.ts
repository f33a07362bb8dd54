import { computeTaxRevenue } from "@game/schema/rules";
import type { Db } from "@game/server/db/pool";
import { COUNTRY_COLUMNS, rowToState, type CountryRow } from "@game/server/db/countries";

/**
 * What the simulator reads off the world at the end of each simulated day. Plain SQL over
 * the game's own tables: the same numbers the rankings, the market history and the battle
 * reports show players.
 */

export interface CountrySample {
  id: number;
  personality: string;
  government: string;
  networth: number;
  land: number;
  cash: number;
  /** gross income per turn spent: taxes and enterprise zones, before maintenance and upkeep */
  income: number;
}

export interface ItemTrade {
  item: string;
  /** units traded between countries (public, private and standing-order fills) */
  playerVolume: number;
  /** average price per unit between countries, null when nothing traded */
  playerPrice: number | null;
  /** units bought from or sold to the Government Store */
  storeVolume: number;
  storePrice: number | null;
}

export interface DaySample {
  day: number;
  /** every AI country at the end of the day, by id */
  countries: CountrySample[];
  /** ids of the ten highest networths, best first (ties by id, as the rankings) */
  top10: number[];
  /** battles resolved during the day */
  attacks: number;
  /** acres each defender lost during the day (captured plus destroyed), by country id */
  landLost: Record<number, number>;
  trades: ItemTrade[];
  /** cash of every country plus the budgets standing orders hold in escrow */
  moneySupply: number;
  /** bankruptcy news items of the day (an action whose turns ran out of cash) */
  bankruptcies: number;
  /** countries with a famine news item that day (food ran out in an action's turns) */
  famineCountries: number;
}

/** The world at `at` (end of day `day`), with the day's battles and trades since `from`. */
export async function sampleDay(db: Db, day: number, from: Date, at: Date): Promise<DaySample> {
  const [countries, battles, trades, money, troubles] = await Promise.all([
    db.query<CountryRow & { personality: string }>(
      `SELECT ${COUNTRY_COLUMNS.split(", ")
        .map((column) => `c.${column}`)
        .join(", ")}, a.personality
         FROM ai_countries a JOIN countries c ON c.id = a.country_id ORDER BY c.id`,
    ),
    db.query<{ defender_id: number; lost: number; hits: number }>(
      `SELECT defender_id, sum(land_captured + land_destroyed)::bigint AS lost, count(*)::int AS hits
         FROM battles WHERE created_at > $1 AND created_at <= $2 GROUP BY defender_id`,
      [from, at],
    ),
    db.query<{ item_type: string; store: boolean; volume: number; total: number }>(
      `SELECT item_type, (buyer_id IS NULL OR seller_id IS NULL) AS store, sum(quantity)::bigint AS volume, sum(total)::bigint AS total
         FROM market_trades WHERE created_at > $1 AND created_at <= $2 GROUP BY 1, 2`,
      [from, at],
    ),
    db.query<{ money: number }>("SELECT ((SELECT coalesce(sum(cash), 0) FROM countries) + (SELECT coalesce(sum(held_cash), 0) FROM standing_orders))::bigint AS money"),
    db.query<{ bankruptcies: number; famine_countries: number }>(
      `SELECT count(*) FILTER (WHERE kind = 'bankrupt')::int AS bankruptcies, count(DISTINCT country_id) FILTER (WHERE kind = 'starving')::int AS famine_countries
         FROM news_items WHERE category = 'personal' AND kind IN ('bankrupt', 'starving') AND created_at > $1 AND created_at <= $2`,
      [from, at],
    ),
  ]);
  const rows = countries.rows.map((r) => ({
    id: Number(r.id),
    personality: r.personality,
    government: r.government_type,
    networth: Number(r.networth),
    land: Number(r.land),
    cash: Number(r.cash),
    income: computeTaxRevenue(rowToState(r)),
  }));
  const top10 = [...rows]
    .sort((a, b) => b.networth - a.networth || a.id - b.id)
    .slice(0, 10)
    .map((r) => r.id);
  const landLost: Record<number, number> = {};
  let attacks = 0;
  for (const b of battles.rows) {
    landLost[b.defender_id] = Number(b.lost);
    attacks += b.hits;
  }
  const byItem = new Map<string, ItemTrade>();
  for (const t of trades.rows) {
    const item = byItem.get(t.item_type) ?? { item: t.item_type, playerVolume: 0, playerPrice: null, storeVolume: 0, storePrice: null };
    const price = Number(t.volume) > 0 ? Number(t.total) / Number(t.volume) : null;
    if (t.store) {
      item.storeVolume = Number(t.volume);
      item.storePrice = price;
    } else {
      item.playerVolume = Number(t.volume);
      item.playerPrice = price;
    }
    byItem.set(t.item_type, item);
  }
  return {
    day,
    countries: rows,
    top10,
    attacks,
    landLost,
    trades: [...byItem.values()].sort((a, b) => a.item.localeCompare(b.item)),
    moneySupply: Number(money.rows[0]!.money),
    bankruptcies: troubles.rows[0]!.bankruptcies,
    famineCountries: troubles.rows[0]!.famine_countries,
  };
}
