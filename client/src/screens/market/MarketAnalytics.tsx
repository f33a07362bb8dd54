import { useState } from "react";
import { useQueries } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MarketAnalyticsJson } from "@game/schema/api";
import { DEFAULT_MARKET_ITEM, MARKET_ITEM_TYPES, STORE_ITEMS, type MarketItemType } from "@game/schema/rules";
import { marketApi, marketKeys, useAnalytics } from "../../api/market";
import { Loading, Panel, Stat, Tabs } from "../../components/ui";
import { capitalize, decimalUpTo1, fmt, money, timeOfDay } from "../../components/format";
import { ItemSelect, itemName } from "./common";

type AnalyticsTab = "overview" | "trends" | "opportunities" | "comparison";

const CHART = { grid: "#2e3a2a", axis: "#a3ad97", price: "#cfe08f", volume: "#45553e", buy: "#86cf7c", sell: "#e8b44f" };
const tooltipStyle = { background: "#161d15", border: "1px solid #45553e", color: "#e6eadf" };
const priceText = (n: number | null) => (n === null ? "—" : `$${decimalUpTo1(n)}`);
const pctText = (n: number | null) => (n === null ? "—" : `${n > 0 ? "+" : ""}${n.toFixed(1)}%`);

/**
 * Market Analytics (spec): tabs Market Overview, Trends & Predictions, Trading Opportunities,
 * Item Comparison; an item selector; 'Market Status: ACTIVE'. Every figure and chart comes from
 * the server's analytics of recorded trades and the open book (GET /market/analytics/{item}).
 */
export function MarketAnalytics() {
  const [item, setItem] = useState<MarketItemType>(DEFAULT_MARKET_ITEM);
  const [tab, setTab] = useState<AnalyticsTab>("overview");
  const analytics = useAnalytics(item);
  return (
    <div className="stack" data-testid="market-analytics">
      <div className="row between">
        <span className="badge ok" data-testid="market-status">
          Market Status: ACTIVE
        </span>
        <label className="row small" htmlFor="analytics-item">
          <span className="label">Item</span>
          <ItemSelect id="analytics-item" value={item} onChange={(v) => v && setItem(v)} />
        </label>
      </div>
      <Tabs<AnalyticsTab>
        label="Analytics"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "overview", label: "Market Overview" },
          { id: "trends", label: "Trends & Predictions" },
          { id: "opportunities", label: "Trading Opportunities" },
          { id: "comparison", label: "Item Comparison" },
        ]}
      />
      {tab === "comparison" ? (
        <Comparison />
      ) : analytics.isPending ? (
        <Loading text="Loading market analytics..." />
      ) : analytics.error ? (
        <div className="alert error">{analytics.error.message}</div>
      ) : tab === "overview" ? (
        <Overview data={analytics.data} />
      ) : tab === "trends" ? (
        <Trends data={analytics.data} />
      ) : (
        <Opportunities data={analytics.data} />
      )}
    </div>
  );
}

function Overview({ data }: { data: MarketAnalyticsJson }) {
  const points = data.priceHistory.map((p) => ({ ...p, hour: timeOfDay(p.timestamp) }));
  const traded = points.filter((p) => p.price !== null).length;
  const depth = [
    { side: "Buy orders", orders: data.marketDepth.buyOrders, volume: data.marketDepth.buyVolume },
    { side: "Listings", orders: data.marketDepth.sellOrders, volume: data.marketDepth.sellVolume },
  ];
  return (
    <>
      <div className="grid">
        <Panel title={itemName(data.itemType)}>
          <Stat label="Current price" value={<span data-testid="analytics-current">{priceText(data.currentPrice)}</span>} />
          <Stat label="24h average" value={priceText(data.averagePrice)} />
          <Stat label="24h change" value={<span className={data.priceChange24h >= 0 ? "ok" : "bad"}>{`${priceText(data.priceChange24h)} (${pctText(data.priceChangePercent)})`}</span>} />
          <Stat label="24h high / low" value={`${priceText(data.highPrice24h)} / ${priceText(data.lowPrice24h)}`} />
        </Panel>
        <Panel title="Activity">
          <Stat label="24h volume" value={<span data-testid="analytics-volume">{fmt(data.volume24h)}</span>} />
          <Stat label="Volume change" value={pctText(data.volumeChange)} />
          <Stat label="Trades (24h)" value={fmt(data.trades24h)} />
          <Stat label="Open listings / standing orders" value={`${fmt(data.totalListings)} / ${fmt(data.totalStandingOrders)}`} />
          <Stat label="Volatility index" value={`${data.volatilityIndex.toFixed(1)}%`} />
          <Stat label="Liquidity" value={<span className={`badge ${data.liquidityRating === "high" ? "ok" : data.liquidityRating === "low" ? "bad" : "warn"}`}>{data.liquidityRating}</span>} />
        </Panel>
      </div>
      <Panel title="Price and volume, last 24 hours">
        {traded === 0 ? <p className="muted small">No trades in the last 24 hours: the chart fills as trades happen.</p> : null}
        <div style={{ width: "100%", height: 260 }} data-testid="price-chart" data-points={traded}>
          <ResponsiveContainer>
            <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke={CHART.grid} />
              <XAxis dataKey="hour" stroke={CHART.axis} fontSize={11} interval="preserveStartEnd" />
              <YAxis yAxisId="price" stroke={CHART.axis} fontSize={11} domain={["auto", "auto"]} />
              <YAxis yAxisId="volume" orientation="right" stroke={CHART.axis} fontSize={11} />
              <Tooltip contentStyle={tooltipStyle} />
              <Legend />
              <Bar yAxisId="volume" dataKey="volume" name="Volume" fill={CHART.volume} isAnimationActive={false} />
              <Line yAxisId="price" dataKey="price" name="Price" stroke={CHART.price} strokeWidth={2} dot={{ r: 4, fill: CHART.price }} connectNulls isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </Panel>
      <Panel title="Market depth">
        <div style={{ width: "100%", height: 200 }} data-testid="depth-chart">
          <ResponsiveContainer>
            <BarChart data={depth} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 16 }}>
              <CartesianGrid stroke={CHART.grid} />
              <XAxis type="number" stroke={CHART.axis} fontSize={11} />
              <YAxis type="category" dataKey="side" stroke={CHART.axis} fontSize={11} width={80} />
              <Tooltip contentStyle={tooltipStyle} />
              <Bar dataKey="volume" name="Units" fill={CHART.buy} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Panel>
    </>
  );
}

function Trends({ data }: { data: MarketAnalyticsJson }) {
  const t = data.trend;
  return (
    <div className="grid">
      <Panel title={`${itemName(data.itemType)} trend`}>
        <Stat
          label="Trend"
          value={
            <span className={`badge ${t.trend === "bullish" ? "ok" : t.trend === "bearish" ? "bad" : ""}`} data-testid="trend">
              {t.trend}
            </span>
          }
        />
        <Stat label="Strength" value={`${t.strength.toFixed(1)}%`} />
        <Stat label="Support" value={priceText(t.support)} />
        <Stat label="Resistance" value={priceText(t.resistance)} />
        <Stat label="7-day prediction" value={priceText(t.prediction7d)} />
      </Panel>
      <Panel title="Factors">
        <ul className="small" style={{ margin: 0, paddingLeft: "1.1rem" }}>
          {t.factors.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
        <p className="hint">The trend compares the 24-hour average price with the 7-day average; the prediction extends the line through the last 7 days' daily averages.</p>
      </Panel>
    </div>
  );
}

function Opportunities({ data }: { data: MarketAnalyticsJson }) {
  if (data.opportunities.length === 0) return <p className="muted center">No trading opportunities for {data.itemType} right now</p>;
  return (
    <div className="grid">
      {data.opportunities.map((o) => (
        <Panel key={o.id} title={capitalize(o.type.replace("_", " "))}>
          <p>{o.description}</p>
          <Stat label="Action" value={<span className={`badge ${o.action === "buy" ? "ok" : "warn"}`}>{o.action}</span>} />
          <Stat label="Potential profit" value={`${money(o.potentialProfit)} per unit`} />
          <Stat label="Confidence" value={`${o.confidence}%`} />
          <Stat label="Timeframe" value={o.timeframe} />
        </Panel>
      ))}
    </div>
  );
}

function Comparison() {
  const results = useQueries({ queries: MARKET_ITEM_TYPES.map((item) => ({ queryKey: marketKeys.analytics(item), queryFn: () => marketApi.analytics(item) })) });
  if (results.some((r) => r.isPending)) return <Loading text="Loading market analytics..." />;
  const failed = results.find((r) => r.error);
  if (failed?.error) return <div className="alert error">{failed.error.message}</div>;
  const rows = results.map((r) => r.data!);
  const chart = rows.map((a) => ({ item: itemName(a.itemType), market: a.currentPrice ?? 0, store: STORE_ITEMS[a.itemType].basePrice.buy }));
  return (
    <>
      <Panel title="Market price against the store's base price">
        <div style={{ width: "100%", height: 240 }} data-testid="comparison-chart">
          <ResponsiveContainer>
            <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke={CHART.grid} />
              <XAxis dataKey="item" stroke={CHART.axis} fontSize={11} />
              <YAxis stroke={CHART.axis} fontSize={11} />
              <Tooltip contentStyle={tooltipStyle} />
              <Legend />
              <Bar dataKey="market" name="Last trade" fill={CHART.price} isAnimationActive={false} />
              <Bar dataKey="store" name="Store price" fill={CHART.volume} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Panel>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Item</th>
              <th className="n">Price</th>
              <th className="n">24h change</th>
              <th className="n">24h volume</th>
              <th className="n">Listings</th>
              <th className="n">Orders</th>
              <th>Liquidity</th>
              <th>Trend</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.itemType}>
                <td>{itemName(a.itemType)}</td>
                <td className="n">{priceText(a.currentPrice)}</td>
                <td className="n">{pctText(a.priceChangePercent)}</td>
                <td className="n">{fmt(a.volume24h)}</td>
                <td className="n">{fmt(a.totalListings)}</td>
                <td className="n">{fmt(a.totalStandingOrders)}</td>
                <td>{a.liquidityRating}</td>
                <td>{a.trend.trend}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
