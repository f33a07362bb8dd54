import { useAllianceRankings } from "../../api/alliance";
import { fmt } from "../../components/format";

const TREND: Record<string, string> = { up: "▲", down: "▼", same: "–" };

/** The Alliances tab of Rankings (spec's alliance ranking row: GET /rankings/alliances). */
export function AllianceRankings() {
  const rankings = useAllianceRankings();
  if (rankings.isLoading) return <p className="muted">Loading alliance rankings...</p>;
  if (rankings.error) return <div className="alert error">{(rankings.error as Error).message}</div>;
  const rows = rankings.data ?? [];
  return (
    <div className="table-wrap">
      <table className="table" data-testid="alliance-rankings">
        <thead>
          <tr>
            <th className="n">#</th>
            <th>Alliance</th>
            <th className="n">Members</th>
            <th className="n hide-sm">Wars won</th>
            <th className="n">Total networth</th>
            <th className="n hide-sm">Average</th>
            <th className="n hide-sm">Bonus points</th>
            <th className="n">Trend</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} className="muted center">
                No alliances yet.
              </td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={r.allianceId}>
              <td className="n">{r.rank}</td>
              <td>
                [{r.allianceTag}] {r.allianceName}
              </td>
              <td className="n">{fmt(r.memberCount)}</td>
              <td className="n hide-sm">{fmt(r.warsWon)}</td>
              <td className="n">{fmt(r.totalNetworth)}</td>
              <td className="n hide-sm">{fmt(r.averageNetworth)}</td>
              <td className="n hide-sm">{fmt(r.bonusPoints)}</td>
              <td className={`n ${r.trend === "up" ? "ok" : r.trend === "down" ? "bad" : "muted"}`}>
                {TREND[r.trend]} {r.change !== 0 ? Math.abs(r.change) : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
