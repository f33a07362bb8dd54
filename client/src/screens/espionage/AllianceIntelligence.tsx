import { useState } from "react";
import type { Country } from "../../api/country";
import { useSharedIntelligence } from "../../api/espionage";
import { Loading, Panel, Tabs } from "../../components/ui";
import { IntelligenceCenter } from "./IntelligenceCenter";
import { IntelligenceReports } from "./IntelligenceReports";
import { ReportDetail, operationName } from "./ReportDetail";
import { EspionageLiveUpdates } from "./liveUpdates";

type Sub = "operations" | "reports" | "shared";

/**
 * The alliances view's Intelligence Operations tab (spec document 3: sub-tabs Operations and
 * Reports, which belong to the military area): the Intelligence Center, the player's reports,
 * and the reports members shared with the alliance ("Share Intelligence").
 */
export function AllianceIntelligence({ country }: { country: Country }) {
  const [sub, setSub] = useState<Sub>("operations");
  return (
    <div className="stack" data-testid="alliance-intelligence">
      <EspionageLiveUpdates />
      <Tabs
        label="Intelligence views"
        value={sub}
        onChange={setSub}
        tabs={[
          { id: "operations", label: "Operations" },
          { id: "reports", label: "Reports" },
          { id: "shared", label: "Shared Intelligence" },
        ]}
      />
      {sub === "operations" && <IntelligenceCenter country={country} />}
      {sub === "reports" && <IntelligenceReports inAlliance={country.allianceId !== null} />}
      {sub === "shared" && <SharedIntelligence country={country} />}
    </div>
  );
}

function SharedIntelligence({ country }: { country: Country }) {
  const shared = useSharedIntelligence(country.allianceId !== null);
  const [selected, setSelected] = useState<number | null>(null);
  if (country.allianceId === null)
    return (
      <Panel>
        <p className="muted">Join an alliance to see the intelligence its members share.</p>
      </Panel>
    );
  if (shared.isPending) return <Loading text="Loading shared intelligence..." />;
  if (shared.error) return <div className="alert error">{(shared.error as Error).message}</div>;
  const reports = shared.data ?? [];
  const report = reports.find((r) => r.id === selected) ?? reports[0] ?? null;
  if (!report)
    return (
      <Panel title="Shared Intelligence">
        <p className="muted">No intelligence reports found</p>
      </Panel>
    );
  return (
    <div className="news-layout" data-testid="shared-intelligence">
      <ul className="news-list">
        {reports.map((r) => (
          <li key={r.id}>
            <button type="button" className={`news-item ${r.id === report.id ? "unread" : ""}`} style={r.expired ? { opacity: 0.55 } : undefined} onClick={() => setSelected(r.id)} data-testid="shared-row">
              <strong>{r.targetCountryName}</strong>
              <span className="small muted">
                {operationName(r.operationType)} · by {r.ownerName} · {new Date(r.operationDate).toLocaleString()}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Panel title="Report">
        <ReportDetail report={report} />
      </Panel>
    </div>
  );
}
