import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { GOVERNMENTS, RANKING_PERIODS, RANKING_PERIOD_DEFAULT, compareRank, isGovernmentType, isRankedInPeriod, type RankingPeriod } from "@game/schema/rules";
import type { SeasonStatsJson } from "@game/schema/api";
import type { RankingRowSnapshot } from "@game/schema/messages";
import { useGame } from "../../game/GameContext";
import { useRankings, useSeason } from "../../realtime/hooks";
import { routes } from "@game/schema/routes";
import { callRoute } from "../../api/http";
import { Loading, Panel, Stat, Tabs } from "../../components/ui";
import { shellApi, shellKeys } from "../../api/shell";
import { AllianceRankings } from "../alliances/AllianceRankings";
import { dateText, fmt, titleCase } from "../../components/format";

export const RANKING_METRICS = [
  { id: "networth", label: "Networth" },
  { id: "land", label: "Land" },
  { id: "military", label: "Military Force" },
  { id: "population", label: "Population" },
  { id: "wars_won", label: "Wars Won" },
] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number]["id"];

export interface RankedRow {
  row: RankingRowSnapshot;
  rank: number;
  value: number;
  isMe: boolean;
}

/** A ranking row as the shared ranking rules read it (`value` is the networth). */
const asRanked = (r: RankingRowSnapshot) => ({ networth: r.value, lastActive: r.lastActive, countryId: r.countryId });

/**
 * The countries list: the rows the shared rules rank in the period (isRankedInPeriod:
 * networth above 0, active within it), matching the search (country, player or alliance
 * name, case-insensitive), sorted by the metric descending then in rank order; the current
 * country is appended if missing.
 */
export function rankCountries(
  rows: RankingRowSnapshot[],
  options: {
    metric: RankingMetric;
    period: RankingPeriod;
    search: string;
    now: number;
    ownCountryId: number | null;
    own?: RankingRowSnapshot | null;
    victories?: Map<number, number>;
  },
): RankedRow[] {
  const value = (r: RankingRowSnapshot) => (options.metric === "land" ? r.land : options.metric === "wars_won" ? (options.victories?.get(r.countryId) ?? 0) : r.value);
  const q = options.search.trim().toLowerCase();
  const matches = (r: RankingRowSnapshot) => !q || r.countryName.toLowerCase().includes(q) || r.playerName.toLowerCase().includes(q) || r.allianceName.toLowerCase().includes(q);
  const eligible = rows.filter((r) => isRankedInPeriod(asRanked(r), options.period, options.now, options.ownCountryId));
  const sorted = [...eligible].sort((a, b) => value(b) - value(a) || compareRank(asRanked(a), asRanked(b)));
  const ranked = sorted.map((row, i) => ({ row, rank: i + 1, value: value(row), isMe: row.countryId === options.ownCountryId }));
  const shown = ranked.filter((r) => matches(r.row));
  if (options.own && !ranked.some((r) => r.isMe) && matches(options.own)) {
    shown.push({ row: options.own, rank: 0, value: value(options.own), isMe: true });
  }
  return shown;
}

function useSeasonScores() {
  return useQuery({
    queryKey: ["season-scores"],
    queryFn: async () => (await callRoute(routes.seasonScores, { query: {} })).data as SeasonStatsJson,
    staleTime: 60_000,
    retry: false,
  });
}

/** The season chart and recharts load when its tab is opened. */
const SeasonChart = lazy(() => import("./SeasonChart").then((m) => ({ default: m.SeasonChart })));

export function RankingsScreen({ focusSearch = false, initialTab }: { focusSearch?: boolean; initialTab?: "season" }) {
  const [tab, setTab] = useState<"countries" | "season" | "alliances" | "achievements" | "historical">(initialTab ?? "countries");
  return (
    <div className="stack" data-testid="rankings">
      <div className="page-header">
        <h1>Rankings and Leaderboards</h1>
      </div>
      <Tabs
        label="Ranking tabs"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "countries", label: "Countries" },
          { id: "season", label: "Your Season" },
          { id: "alliances", label: "Alliances" },
          { id: "achievements", label: "Achievements" },
          { id: "historical", label: "Historical" },
        ]}
      />
      {tab === "countries" ? (
        <CountriesTab focusSearch={focusSearch} />
      ) : tab === "season" ? (
        <Suspense fallback={<Loading text="Loading your season..." />}>
          <SeasonChart />
        </Suspense>
      ) : tab === "alliances" ? (
        <AllianceRankings />
      ) : tab === "achievements" ? (
        <AchievementsTab />
      ) : (
        <HistoricalTab />
      )}
    </div>
  );
}

const periodLabel = (period: RankingPeriod) => (period === "all_time" ? "since the season began" : period === "daily" ? "since today's first snapshot" : `over the last ${RANKING_PERIODS.find((p) => p.id === period)!.days} days`);

function CountriesTab({ focusSearch }: { focusSearch: boolean }) {
  const { country } = useGame();
  const rankings = useRankings();
  const season = useSeason();
  const [search, setSearch] = useState("");
  const [metric, setMetric] = useState<RankingMetric>("networth");
  const [period, setPeriod] = useState<RankingPeriod>(RANKING_PERIOD_DEFAULT);
  const [playersOnly, setPlayersOnly] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const ranking = useQuery({
    queryKey: shellKeys.metric(metric, period, playersOnly),
    queryFn: () => shellApi.metricRanking(metric, period, 100, playersOnly),
    refetchInterval: 30_000,
    staleTime: 10_000,
  });
  const scores = useSeasonScores();
  useEffect(() => {
    if (focusSearch) searchRef.current?.focus();
  }, [focusSearch]);

  const q = search.trim().toLowerCase();
  const data = ranking.data;
  const listed = [...(data?.rows ?? []), ...(data?.own ? [data.own] : [])];
  const rows = listed.filter((r) => !q || r.countryName.toLowerCase().includes(q) || r.playerName.toLowerCase().includes(q) || r.allianceTag.toLowerCase().includes(q));
  const metricLabel = RANKING_METRICS.find((m) => m.id === metric)!.label;
  const ownRow = listed.find((r) => r.countryId === country?.id) ?? null;
  const top = rankings[0];
  const alliances = new Set(rankings.map((r) => r.allianceTag).filter(Boolean));
  const estimated = data?.rows[0]?.estimated ?? false;

  return (
    <div className="stack">
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(180px, 1fr))" }}>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="ranking-search">Search</label>
          <input id="ranking-search" ref={searchRef} className="input" type="search" placeholder="Country, player or alliance" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="ranking-metric">Metric</label>
          <select id="ranking-metric" value={metric} onChange={(e) => setMetric(e.target.value as RankingMetric)}>
            {RANKING_METRICS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="ranking-period">Period</label>
          <select id="ranking-period" value={period} onChange={(e) => setPeriod(e.target.value as RankingPeriod)}>
            {RANKING_PERIODS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <label className="row small" style={{ gap: "0.5rem", alignSelf: "end" }}>
          <input type="checkbox" data-testid="rankings-players-only" checked={playersOnly} onChange={(e) => setPlayersOnly(e.target.checked)} /> Players only (no AI countries)
        </label>
      </div>
      <p className="hint" style={{ margin: 0 }}>
        Ranked by {metricLabel.toLowerCase()}; change {periodLabel(period)}.{playersOnly ? " Players only: ranks among players, AI countries left out." : ""}
        {estimated ? " Population and military force are public as estimates (two significant digits); exact numbers stay secret." : ""} Refreshes every 30 seconds.
      </p>

      <div className="table-wrap" tabIndex={0} role="region" aria-label="Country rankings table">
        <table className="table" data-testid="rankings-table">
          <thead>
            <tr>
              <th className="n">#</th>
              <th>Country</th>
              <th className="hide-sm">Player</th>
              <th className="hide-sm">Government</th>
              <th className="n">{metricLabel}</th>
              <th className="n">Change</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={6} className="muted center">
                  {ranking.isPending ? "Loading rankings..." : ranking.isError ? ranking.error.message : "No countries match."}
                </td>
              </tr>
            )}
            {rows.map((row) => {
              const isMe = row.countryId === country?.id;
              return (
                <tr key={row.countryId} className={isMe ? "me" : undefined} data-testid={isMe ? "ranking-me" : "ranking-row"}>
                  <td className="n">{row.rank}</td>
                  <td>
                    <span role="img" className={`conn ${row.isOnline ? "connected" : ""}`} title={row.isOnline ? "Online" : "Offline"} aria-label={row.isOnline ? "Online" : "Offline"} /> {row.countryName}
                    {row.allianceTag && <span className="faint"> [{row.allianceTag}]</span>}
                    {row.isAi && " "}
                    {row.isAi && (
                      <span className="badge" title="A country played by the computer" data-testid="ranking-ai">
                        AI
                      </span>
                    )}
                  </td>
                  <td className="hide-sm">{row.playerName}</td>
                  <td className="hide-sm">{isGovernmentType(row.governmentType) ? GOVERNMENTS[row.governmentType].name : titleCase(row.governmentType)}</td>
                  <td className="n">
                    {row.estimated ? "≈ " : ""}
                    {fmt(row.value)}
                  </td>
                  <td className={`n ${row.trend === "up" ? "ok" : row.trend === "down" ? "bad" : "faint"}`}>
                    {row.trend === "up" ? "▲" : row.trend === "down" ? "▼" : "•"} {row.change !== 0 ? fmt(Math.abs(row.change)) : ""}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <div className="grid">
        <Panel title="Season Statistics">
          <Stat label="Season" value={season?.name || scores.data?.season || "Loading..."} />
          <Stat label="Status" value={season?.active ?? "—"} />
          <Stat label="Started" value={season?.startsAt ? dateText(season.startsAt) : "—"} />
          <Stat label="Ends" value={season?.endsAt ? dateText(season.endsAt) : "—"} />
          {/* the countries the list ranks: AI countries too, unless players only (issue 30, #23) */}
          <Stat label={playersOnly ? "Ranked players" : "Ranked countries"} value={fmt((playersOnly ? scores.data?.rankedPlayers : scores.data?.rankedCountries) ?? rankings.length)} testId="ranked-countries" />
          <Stat label="Active alliances" value={fmt(scores.data?.activeAlliances ?? alliances.size)} />
          {scores.data && <Stat label="Wars" value={fmt(scores.data.warsTotal)} />}
          <Stat label="Top player" value={top ? `${top.playerName || top.countryName} (${fmt(top.value)})` : "—"} />
          {scores.data?.topAlliance && <Stat label="Top alliance" value={`[${scores.data.topAlliance.tag}] ${scores.data.topAlliance.name}`} />}
        </Panel>
        <Panel title="Your Statistics">
          {country ? (
            <>
              <Stat label={`Your rank (${metricLabel.toLowerCase()})`} value={ownRow ? `#${ownRow.rank}` : "Unranked"} testId="your-rank" />
              <Stat label="Networth" value={fmt(country.networth)} />
              <Stat label="Land" value={`${fmt(country.landAcres)} acres`} />
              <Stat label="Victories" value={fmt(country.victories)} />
              <Stat label="Defeats" value={fmt(country.defeats)} />
              <Stat label={`Change ${periodLabel(period)}`} value={ownRow ? `${ownRow.change > 0 ? "+" : ""}${fmt(ownRow.change)}` : "—"} />
            </>
          ) : (
            <p className="muted">Loading...</p>
          )}
        </Panel>
      </div>
    </div>
  );
}

const RARITY_BADGE = { common: "", rare: "warn", legendary: "ok" } as const;

function AchievementsTab() {
  const q = useQuery({ queryKey: shellKeys.achievements, queryFn: shellApi.achievements, refetchInterval: 60_000 });
  if (q.isPending) return <Loading text="Loading achievements..." />;
  if (q.isError) return <div className="panel error">{q.error.message}</div>;
  return (
    <div className="stack" data-testid="achievements">
      <p className="hint" style={{ margin: 0 }}>
        Earned once per season, checked every turn. Holders count this season's countries.
      </p>
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))" }}>
        {q.data.achievements.map((a) => (
          <Panel key={a.id} title={a.name} actions={<span className={`badge ${RARITY_BADGE[a.rarity]}`}>{a.rarity}</span>} testId={`achievement-${a.id}`}>
            <p style={{ marginTop: 0 }}>{a.description}</p>
            <Stat label="Holders" value={fmt(a.holders)} />
            <Stat label="You" value={a.earnedAt ? `Earned ${dateText(Date.parse(a.earnedAt))}` : "Not yet"} />
          </Panel>
        ))}
      </div>
      <Panel title="Latest awards">
        {q.data.recent.length === 0 ? (
          <p className="muted">No achievement awarded this season yet.</p>
        ) : (
          <ul className="stack" style={{ gap: "0.3rem", paddingLeft: "1.1rem", margin: 0 }}>
            {q.data.recent.map((r) => (
              <li key={`${r.countryId}-${r.achievementId}`}>
                <strong>{r.countryName}</strong> earned {r.name} <span className="faint">{dateText(Date.parse(r.awardedAt))}</span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

function HistoricalTab() {
  const history = useQuery({ queryKey: shellKeys.seasonHistory, queryFn: shellApi.seasonHistory });
  const [open, setOpen] = useState<number | null>(null);
  const scores = useQuery({ queryKey: shellKeys.seasonScores(open ?? 0), queryFn: () => shellApi.seasonScores(open!), enabled: open !== null });
  if (history.isPending) return <Loading text="Loading past seasons..." />;
  if (history.isError) return <div className="panel error">{history.error.message}</div>;
  if (history.data.length === 0) return <div className="panel center muted">No season has ended yet. Final scores are archived when the current season ends.</div>;
  return (
    <div className="stack" data-testid="historical">
      {history.data.map((s) => (
        <Panel
          key={s.id}
          title={s.name}
          testId={`season-${s.id}`}
          actions={
            <button type="button" className="btn small" onClick={() => setOpen(open === s.id ? null : s.id)} aria-expanded={open === s.id}>
              {open === s.id ? "Hide scores" : "Final scores"}
            </button>
          }
        >
          <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))" }}>
            <Stat label="Played" value={`${dateText(Date.parse(s.startDate))} – ${dateText(Date.parse(s.endDate))}`} />
            <Stat label="Countries" value={fmt(s.players)} />
            <Stat label="Winner" value={s.winner ? `${s.winner.countryName}${s.winner.playerName ? ` (${s.winner.playerName})` : ""}` : "—"} />
            <Stat label="Winning networth" value={s.winner ? fmt(s.winner.networth) : "—"} />
          </div>
          {open === s.id && (
            <div className="table-wrap" style={{ marginTop: "0.6rem" }} tabIndex={0} role="region" aria-label="Season scores table">
              <table className="table">
                <thead>
                  <tr>
                    <th className="n">#</th>
                    <th>Country</th>
                    <th className="hide-sm">Player</th>
                    <th className="n">Networth</th>
                    <th className="n hide-sm">Land</th>
                    <th className="n hide-sm">Wins</th>
                  </tr>
                </thead>
                <tbody>
                  {(scores.data?.scores ?? []).map((r) => (
                    <tr key={r.rank}>
                      <td className="n">{r.rank}</td>
                      <td>
                        {r.countryName}
                        {r.allianceTag && <span className="faint"> [{r.allianceTag}]</span>}
                      </td>
                      <td className="hide-sm">{r.playerName || <span className="faint">AI</span>}</td>
                      <td className="n">{fmt(r.networth)}</td>
                      <td className="n hide-sm">{fmt(r.land)}</td>
                      <td className="n hide-sm">{fmt(r.victories)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {scores.isPending && <p className="muted">Loading...</p>}
            </div>
          )}
        </Panel>
      ))}
    </div>
  );
}
