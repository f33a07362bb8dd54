import { useState } from "react";
import { CartesianGrid, Legend, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { TransactionsQuery } from "@game/schema/api";
import { HISTORY_PERIOD_IDS, HISTORY_SORT_FIELDS, MARKET_TYPES, type HistoryPeriod, type HistorySortField, type MarketItemType, type MarketType, type TransactionType } from "@game/schema/rules";
import { marketApi, useHistory } from "../../api/market";
import { ApiError } from "../../api/http";
import { ActionButton, Loading, Panel, Stat } from "../../components/ui";
import { capitalize, fmt, money, monthDayTimeText, signedMoney } from "../../components/format";
import { ItemSelect, distinctTimeTicks, itemName, marketTypeName } from "./common";

const PERIOD_LABELS: Record<HistoryPeriod, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", all: "All time" };

/**
 * Transaction History (spec): filters (period, item, market type, transaction type, sort and
 * direction), a summary, the list, Export CSV (the same rows, as the server writes them) and a
 * price chart of the listed trades.
 */
export function TransactionHistory({ countryId }: { countryId: number }) {
  const [period, setPeriod] = useState<HistoryPeriod>("7d");
  const [item, setItem] = useState<MarketItemType | "">("");
  const [marketType, setMarketType] = useState<MarketType | "">("");
  const [transactionType, setTransactionType] = useState<TransactionType | "">("");
  const [sort, setSort] = useState<HistorySortField>("timestamp");
  const [direction, setDirection] = useState<"asc" | "desc">("desc");
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const query: TransactionsQuery = {
    period,
    itemType: item || undefined,
    marketType: marketType || undefined,
    transactionType: transactionType || undefined,
    sort,
    direction,
  };
  const history = useHistory(countryId, query);

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const { blob, fileName } = await marketApi.exportCsv(countryId, query);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = fileName;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (err) {
      setExportError(err instanceof ApiError ? err.message : "Failed to export market transactions");
    } finally {
      setExporting(false);
    }
  };

  const rows = history.data?.data ?? [];
  const summary = history.data?.summary;
  return (
    <div className="stack" data-testid="transaction-history">
      <Panel title="Filters">
        <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(140px, 1fr))", gap: "0.6rem" }}>
          <Filter label="Period" id="h-period">
            <select id="h-period" value={period} onChange={(e) => setPeriod(e.target.value as HistoryPeriod)}>
              {HISTORY_PERIOD_IDS.map((p) => (
                <option key={p} value={p}>
                  {PERIOD_LABELS[p]}
                </option>
              ))}
            </select>
          </Filter>
          <Filter label="Item" id="h-item">
            <ItemSelect id="h-item" value={item} onChange={setItem} allowAll />
          </Filter>
          <Filter label="Market" id="h-market">
            <select id="h-market" value={marketType} onChange={(e) => setMarketType(e.target.value as MarketType | "")}>
              <option value="">All markets</option>
              {MARKET_TYPES.map((m) => (
                <option key={m} value={m}>
                  {marketTypeName(m)}
                </option>
              ))}
            </select>
          </Filter>
          <Filter label="Type" id="h-type">
            <select id="h-type" value={transactionType} onChange={(e) => setTransactionType(e.target.value as TransactionType | "")}>
              <option value="">Buys and sells</option>
              <option value="buy">Buys</option>
              <option value="sell">Sells</option>
            </select>
          </Filter>
          <Filter label="Sort by" id="h-sort">
            <select id="h-sort" value={sort} onChange={(e) => setSort(e.target.value as HistorySortField)}>
              {HISTORY_SORT_FIELDS.map((f) => (
                <option key={f} value={f}>
                  {capitalize(f)}
                </option>
              ))}
            </select>
          </Filter>
          <Filter label="Direction" id="h-dir">
            <select id="h-dir" value={direction} onChange={(e) => setDirection(e.target.value as "asc" | "desc")}>
              <option value="desc">Descending</option>
              <option value="asc">Ascending</option>
            </select>
          </Filter>
        </div>
        <div className="row between">
          <span className="faint small">{PERIOD_LABELS[period]}</span>
          <ActionButton variant="" disabledReason={rows.length === 0 ? "Nothing to export" : null} busy={exporting} busyLabel="Exporting..." onClick={() => void exportCsv()}>
            Export CSV
          </ActionButton>
        </div>
        {exportError ? <div className="alert error">{exportError}</div> : null}
      </Panel>

      {history.isPending ? (
        <Loading text="Loading transactions..." />
      ) : history.error ? (
        <div className="alert error">{history.error.message}</div>
      ) : (
        <>
          {summary ? (
            <Panel title="Summary">
              <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(180px, 1fr))", gap: "0 1rem" }}>
                <Stat label="Transactions" value={fmt(summary.count)} />
                <Stat label="Units bought" value={fmt(summary.unitsBought)} />
                <Stat label="Units sold" value={fmt(summary.unitsSold)} />
                <Stat label="Spent" value={money(summary.spent)} />
                <Stat label="Earned (after fees)" value={money(summary.earned)} />
                <Stat label="Fees paid" value={money(summary.fees)} />
                <Stat label="Net" value={<span className={summary.net >= 0 ? "ok" : "bad"}>{signedMoney(summary.net)}</span>} />
              </div>
            </Panel>
          ) : null}
          {rows.length === 0 ? (
            <p className="muted center">No transactions found for the selected filters</p>
          ) : (
            <>
              <Panel title="Price history">
                <div style={{ width: "100%", height: 220 }} data-testid="history-chart" data-points={rows.length}>
                  <ResponsiveContainer>
                    <ScatterChart margin={{ top: 8, right: 12, bottom: 8, left: 0 }}>
                      <CartesianGrid stroke="#2e3a2a" />
                      <XAxis
                        dataKey="timestamp"
                        type="number"
                        domain={["auto", "auto"]}
                        ticks={distinctTimeTicks(
                          rows.map((r) => r.timestamp),
                          monthDayTimeText,
                        )}
                        tickFormatter={(v: number) => monthDayTimeText(v)}
                        stroke="#a3ad97"
                        fontSize={11}
                        name="Date"
                      />
                      <YAxis dataKey="pricePerUnit" type="number" stroke="#a3ad97" fontSize={11} name="Price" />
                      <Tooltip formatter={(v) => String(v)} labelFormatter={() => ""} contentStyle={{ background: "#161d15", border: "1px solid #45553e" }} />
                      <Legend />
                      <Scatter name="Buys" data={rows.filter((r) => r.transactionType === "buy")} fill="#86cf7c" isAnimationActive={false} />
                      <Scatter name="Sells" data={rows.filter((r) => r.transactionType === "sell")} fill="#e8b44f" isAnimationActive={false} />
                    </ScatterChart>
                  </ResponsiveContainer>
                </div>
              </Panel>
              <div className="table-wrap">
                <table className="table" data-testid="history-rows">
                  <thead>
                    <tr>
                      <th>Date</th>
                      <th>Type</th>
                      <th>Item</th>
                      <th className="n">Quantity</th>
                      <th className="n">Price</th>
                      <th className="n">Total</th>
                      <th className="n">Fees</th>
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
                        <td>{itemName(r.itemType)}</td>
                        <td className="n">{fmt(r.quantity)}</td>
                        <td className="n">{money(r.pricePerUnit)}</td>
                        <td className="n">{money(r.totalAmount)}</td>
                        <td className="n">{money(r.marketFee)}</td>
                        <td className="n">{money(r.netAmount)}</td>
                        <td>{marketTypeName(r.marketType)}</td>
                        <td>{r.counterparty}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </>
      )}
    </div>
  );
}

function Filter({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className="field" style={{ marginBottom: "0.4rem" }}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
