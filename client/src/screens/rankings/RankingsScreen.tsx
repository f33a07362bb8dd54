import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { GOVERNMENTS, RANKING_PERIODS, RANKING_PERIOD_DEFAULT, compareRank, isGovernmentType, isRankedInPeriod, type RankingPeriod } from "@game/schema/rules";
import type { SeasonScoresResponse } from "@game/schema/api";
import type { RankingRowSnapshot } from "@game/schema/messages";
import { useAuth } from "../../auth/AuthContext";
import { useGame } from "../../game/GameContext";
import { useConnectionStatus, useRankings, useSeason } from "../../realtime/hooks";
import { useCountriesList } from "../../api/queries";
import { apiRequest } from "../../api/http";
import { Panel, Stat, Tabs } from "../../components/ui";
import { AllianceRankings } from "../alliances/AllianceRankings";
import { dateText, fmt, titleCase } from "../../components/format";
import { useNow } from "../../components/Clock";

export const RANKING_METRICS = [
  { id: "networth", label: "Networth" },
  { id: "land", label: "Land" },
  { id: "military", label: "Military Force", hidden: "Other countries' forces are secret" },
  { id: "population", label: "Population", hidden: "Other countries' population is secret" },
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
  const value = (r: RankingRowSnapshot) =>
    options.metric === "land" ? r.land : options.metric === "wars_won" ? (options.victories?.get(r.countryId) ?? 0) : r.value;
  const q = options.search.trim().toLowerCase();
  const matches = (r: RankingRowSnapshot) =>
    !q || r.countryName.toLowerCase().includes(q) || r.playerName.toLowerCase().includes(q) || r.allianceName.toLowerCase().includes(q);
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
    queryFn: async () => (await apiRequest<SeasonScoresResponse>("GET", "/season/scores", { fallback: "Failed to get season scores" })).data,
    staleTime: 60_000,
    retry: false,
  });
}

export function RankingsScreen({ focusSearch = false }: { focusSearch?: boolean }) {
  const [tab, setTab] = useState<"countries" | "alliances" | "achievements" | "historical">("countries");
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
          { id: "alliances", label: "Alliances" },
          { id: "achievements", label: "Achievements", disabledReason: "Coming soon..." },
          { id: "historical", label: "Historical", disabledReason: "Coming soon..." },
        ]}
      />
      {tab === "countries" ? <CountriesTab focusSearch={focusSearch} /> : <AllianceRankings />}
    </div>
  );
}

function CountriesTab({ focusSearch }: { focusSearch: boolean }) {
  const { user } = useAuth();
  const { country } = useGame();
  const rankings = useRankings();
  const season = useSeason();
  const status = useConnectionStatus();
  const now = useNow(60_000);
  const [search, setSearch] = useState("");
  const [metric, setMetric] = useState<RankingMetric>("networth");
  const [period, setPeriod] = useState<RankingPeriod>(RANKING_PERIOD_DEFAULT);
  const searchRef = useRef<HTMLInputElement>(null);
  const countries = useCountriesList(metric === "wars_won");
  const scores = useSeasonScores();
  useEffect(() => {
    if (focusSearch) searchRef.current?.focus();
  }, [focusSearch]);

  const victories = useMemo(() => new Map((countries.data?.countries ?? []).map((c) => [c.id, Number(c.victories) || 0])), [countries.data]);
  const ownRow = rankings.find((r) => r.countryId === country?.id) ?? null;
  const ownSynthetic: RankingRowSnapshot | null = country
    ? ownRow ?? {
        id: String(country.id),
        rank: 0,
        countryId: country.id,
        countryName: country.name,
        playerName: user?.username ?? "",
        governmentType: country.governmentType,
        allianceName: "",
        allianceTag: "",
        value: country.networth,
        land: country.landAcres,
        change: 0,
        trend: "same",
        lastActive: now,
        isOnline: true,
      }
    : null;
  const rows = rankCountries(rankings, { metric, period, search, now, ownCountryId: country?.id ?? null, own: ownSynthetic, victories });
  const metricLabel = RANKING_METRICS.find((m) => m.id === metric)!.label;
  const top = rankings[0];
  const alliances = new Set(rankings.map((r) => r.allianceTag).filter(Boolean));

  return (
    <div className="stack">
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(180px, 1fr))" }}>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="ranking-search">Search</label>
          <input
            id="ranking-search"
            ref={searchRef}
            className="input"
            type="search"
            placeholder="Country, player or alliance"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="ranking-metric">Metric</label>
          <select id="ranking-metric" value={metric} onChange={(e) => setMetric(e.target.value as RankingMetric)}>
            {RANKING_METRICS.map((m) => (
              <option key={m.id} value={m.id} disabled={"hidden" in m} title={"hidden" in m ? m.hidden : undefined}>
                {m.label}
                {"hidden" in m ? " (secret)" : ""}
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
      </div>
      <p className="hint" style={{ margin: 0 }}>
        {period === "all_time" ? "All countries" : `Countries active in the last ${RANKING_PERIODS.find((p) => p.id === period)!.days === 1 ? "day" : `${RANKING_PERIODS.find((p) => p.id === period)!.days} days`}`}
        , ranked by {metricLabel.toLowerCase()}. Military force and population are secret. Change is places since today's first snapshot. Updates live.
      </p>

      <div className="table-wrap">
        <table className="table" data-testid="rankings-table">
          <thead>
            <tr>
              <th className="n">#</th>
              <th>Country</th>
              <th className="hide-sm">Player</th>
              <th className="hide-sm">Government</th>
              <th className="hide-sm">Alliance</th>
              <th className="n">{metricLabel}</th>
              <th className="n">Change</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="muted center">
                  {status === "connected" ? "No countries match." : "Connecting to the live rankings..."}
                </td>
              </tr>
            )}
            {rows.map(({ row, rank, value, isMe }) => (
              <tr key={row.id} className={isMe ? "me" : undefined} data-testid={isMe ? "ranking-me" : "ranking-row"}>
                <td className="n">{rank > 0 ? rank : "—"}</td>
                <td>
                  <span className={`conn ${row.isOnline ? "connected" : ""}`} title={row.isOnline ? "Online" : "Offline"} aria-label={row.isOnline ? "Online" : "Offline"} />{" "}
                  {row.countryName}
                  {row.allianceTag && <span className="faint"> [{row.allianceTag}]</span>}
                </td>
                <td className="hide-sm">{row.playerName || <span className="faint">AI</span>}</td>
                <td className="hide-sm">{isGovernmentType(row.governmentType) ? GOVERNMENTS[row.governmentType].name : titleCase(row.governmentType)}</td>
                <td className="hide-sm">{row.allianceName || <span className="faint">—</span>}</td>
                <td className="n">{fmt(value)}</td>
                <td className={`n ${row.trend === "up" ? "ok" : row.trend === "down" ? "bad" : "faint"}`}>
                  {row.trend === "up" ? "▲" : row.trend === "down" ? "▼" : "•"} {row.change !== 0 ? Math.abs(row.change) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="grid">
        <Panel title="Season Statistics">
          <Stat label="Season" value={season?.name || scores.data?.season || "Loading..."} />
          <Stat label="Status" value={season?.active ?? "—"} />
          <Stat label="Started" value={season?.startsAt ? dateText(season.startsAt) : "—"} />
          <Stat label="Ends" value={season?.endsAt ? dateText(season.endsAt) : "—"} />
          <Stat label="Ranked countries" value={fmt(scores.data?.totalPlayers ?? rankings.length)} />
          <Stat label="Active alliances" value={fmt(scores.data?.activeAlliances ?? alliances.size)} />
          {scores.data && <Stat label="Wars" value={fmt(scores.data.warsTotal)} />}
          <Stat label="Top player" value={top ? `${top.playerName || top.countryName} (${fmt(top.value)})` : "—"} />
          {scores.data?.topAlliance && <Stat label="Top alliance" value={`[${scores.data.topAlliance.tag}] ${scores.data.topAlliance.name}`} />}
        </Panel>
        <Panel title="Your Statistics">
          {country ? (
            <>
              <Stat label="Your rank" value={ownRow ? `#${ownRow.rank}` : "Unranked"} testId="your-rank" />
              <Stat label="Networth" value={fmt(country.networth)} />
              <Stat label="Land" value={`${fmt(country.landAcres)} acres`} />
              <Stat label="Victories" value={fmt(country.victories)} />
              <Stat label="Defeats" value={fmt(country.defeats)} />
              <Stat label="Change today" value={ownRow ? `${ownRow.change > 0 ? "+" : ""}${ownRow.change}` : "—"} />
            </>
          ) : (
            <p className="muted">Loading...</p>
          )}
        </Panel>
      </div>
    </div>
  );
}
