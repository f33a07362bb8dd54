import { useId, useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SeasonProgressResponse, SeasonSeriesJson } from "@game/schema/api";
import { routes } from "@game/schema/routes";
import { callRoute } from "../../api/http";
import { Loading, Panel } from "../../components/ui";
import { fmt } from "../../components/format";

const METRICS = [
  { id: "networth", label: "Networth" },
  { id: "land", label: "Land" },
  { id: "rank", label: "Rank" },
] as const;
type Metric = (typeof METRICS)[number]["id"];

const OWN_COLOR = "#cfe08f";
/** The top 10's lines: muted, told apart by hue; the player's own line stands out. */
const TOP_COLORS = ["#6fa8dc", "#e8b44f", "#c27ba0", "#76a5af", "#f6b26b", "#8e7cc3", "#93c47d", "#e06666", "#a2c4c9", "#b4a7d6"];
const tooltipStyle = { background: "#161d15", border: "1px solid #45553e", color: "#e6eadf" };

function useSeasonProgress() {
  return useQuery({
    queryKey: ["season-progress"],
    queryFn: (): Promise<Omit<SeasonProgressResponse, "success">> => callRoute(routes.seasonProgress),
    staleTime: 60_000,
  });
}

const valueText = (metric: Metric, v: number | undefined) => (v === undefined ? "—" : metric === "rank" ? `#${v}` : metric === "land" ? `${fmt(v)} acres` : fmt(v));

/**
 * Your season as a chart (issue 30): the own country's networth, land or rank day by day from
 * the daily snapshots, with today's top 10 beside it, and the same numbers as a table.
 */
export function SeasonChart() {
  const progress = useSeasonProgress();
  const [metric, setMetric] = useState<Metric>("networth");
  const [withTop, setWithTop] = useState(true);
  const selectId = useId();

  const { rows, lines } = useMemo(() => {
    const data = progress.data;
    if (!data) return { rows: [], lines: [] as { series: SeasonSeriesJson; key: string; color: string; own: boolean }[] };
    const others = data.top.filter((s) => s.countryId !== data.own?.countryId);
    const lines = [
      ...(data.own ? [{ series: data.own, key: `c${data.own.countryId}`, color: OWN_COLOR, own: true }] : []),
      ...(withTop ? others.map((s, i) => ({ series: s, key: `c${s.countryId}`, color: TOP_COLORS[i % TOP_COLORS.length]!, own: false })) : []),
    ];
    const dates = [...new Set(lines.flatMap((l) => l.series.points.map((p) => p.date)))].sort();
    const rows = dates.map((date) => {
      const row: Record<string, string | number> = { date };
      for (const l of lines) {
        const p = l.series.points.find((x) => x.date === date);
        if (p) row[l.key] = p[metric];
      }
      return row;
    });
    return { rows, lines };
  }, [progress.data, metric, withTop]);

  if (progress.isPending) return <Loading text="Loading your season..." />;
  if (progress.error) return <div className="alert error">{progress.error.message}</div>;
  const own = progress.data.own;

  return (
    <Panel title={`Your season: ${progress.data.seasonName}`} testId="season-chart-panel">
      <div className="row" style={{ gap: "1rem", marginBottom: "0.6rem" }}>
        <div className="field inline" style={{ margin: 0 }}>
          <label htmlFor={selectId}>Show</label>
          <select id={selectId} value={metric} onChange={(e) => setMetric(e.target.value as Metric)} data-testid="season-metric">
            {METRICS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <label className="row small" style={{ gap: "0.4rem" }}>
          <input type="checkbox" checked={withTop} onChange={(e) => setWithTop(e.target.checked)} data-testid="season-with-top" />
          Today&apos;s top 10 beside it
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="muted small" data-testid="season-chart-empty">
          No daily snapshot yet this season: the first is taken at the turn of the day (UTC).
        </p>
      ) : (
        <div
          className="season-chart"
          data-testid="season-chart"
          data-points={own?.points.length ?? 0}
          role="img"
          aria-label={`${METRICS.find((m) => m.id === metric)!.label} over the season, day by day; the table below gives the same numbers`}
        >
          <ResponsiveContainer>
            <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#2e3a2a" />
              <XAxis dataKey="date" stroke="#a3ad97" fontSize={11} interval="preserveStartEnd" />
              <YAxis stroke="#a3ad97" fontSize={11} reversed={metric === "rank"} allowDecimals={false} domain={metric === "rank" ? [1, "auto"] : ["auto", "auto"]} width={64} tickFormatter={(v: number) => fmt(v)} />
              <Tooltip contentStyle={tooltipStyle} formatter={(v) => valueText(metric, Number(v))} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {lines.map((l) => (
                <Line
                  key={l.key}
                  dataKey={l.key}
                  name={l.own ? `${l.series.name} (you)` : l.series.name}
                  stroke={l.color}
                  strokeWidth={l.own ? 3 : 1.2}
                  strokeOpacity={l.own ? 1 : 0.75}
                  dot={l.own ? { r: 3, className: "own-dot" } : false}
                  isAnimationActive={false}
                  connectNulls
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      {own && own.points.length > 0 && (
        <div className="table-wrap" style={{ marginTop: "0.75rem" }} tabIndex={0} role="region" aria-label="Your season, day by day">
          <table className="table" data-testid="season-table">
            <caption className="sr-only">{own.name}, day by day</caption>
            <thead>
              <tr>
                <th>Day</th>
                <th className="n">Networth</th>
                <th className="n">Land</th>
                <th className="n">Rank</th>
              </tr>
            </thead>
            <tbody>
              {own.points.map((p) => (
                <tr key={p.date} data-testid={`season-row-${p.date}`}>
                  <td>{p.date}</td>
                  <td className="n">{fmt(p.networth)}</td>
                  <td className="n">{fmt(p.land)}</td>
                  <td className="n">#{p.rank}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
