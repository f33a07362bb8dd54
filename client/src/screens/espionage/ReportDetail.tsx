import type { ReactNode } from "react";
import type { IntelligenceReportJson } from "@game/schema/api";
import { ESPIONAGE_MESSAGES, MISSION_TYPES, SPY_OPERATIONS, weLostText, type Intelligence, plural } from "@game/schema/rules";
import { Stat } from "../../components/ui";
import { fmt, titleCase } from "../../components/format";

/** The display name of an operation of either centre. */
export function operationName(id: string): string {
  return (SPY_OPERATIONS as Record<string, { name: string }>)[id]?.name ?? (MISSION_TYPES as Record<string, { name: string }>)[id]?.name ?? titleCase(id.replace(/_/g, " "));
}

export const CONFIDENCE_BADGE: Record<string, string> = { verified: "ok", high: "ok", medium: "warn", low: "bad" };

const when = (ms: number) => new Date(ms).toLocaleString();
const list = (items: string[]) => (items.length ? items.join(", ") : "none");

/** One report's intelligence (or the 'Operation Failed' panel), as the detail panel shows it. */
export function ReportDetail({ report, actions }: { report: IntelligenceReportJson; actions?: ReactNode }) {
  return (
    <div className={`stack ${report.expired ? "faint" : ""}`} data-testid="report-detail">
      <div className="row between">
        <strong>
          {operationName(report.operationType)}: {report.targetCountryName}
        </strong>
        {report.confidenceLevel && <span className={`badge ${CONFIDENCE_BADGE[report.confidenceLevel]}`}>{report.confidenceLevel}</span>}
      </div>
      <div className="small muted">
        {when(report.operationDate)} · {report.spiesUsed} spies · {titleCase(report.targetGovernment)}
        {!report.isOwn && ` · shared by ${report.ownerName}`}
      </div>
      {report.expired && (
        <div className="alert warn" role="note">
          {ESPIONAGE_MESSAGES.expired}
        </div>
      )}
      {report.detected && report.success && <div className="small warn">{ESPIONAGE_MESSAGES.detected}</div>}
      {!report.success ? (
        <div className="alert error" data-testid="operation-failed">
          <strong>{ESPIONAGE_MESSAGES.operationFailed}</strong>
          {report.detected && <div>{ESPIONAGE_MESSAGES.counterIntel}</div>}
          {report.spiesLost > 0 && <div>{weLostText(report.spiesLost)}</div>}
        </div>
      ) : report.intelligence ? (
        <IntelligenceView intel={report.intelligence} />
      ) : (
        <p className="muted">{ESPIONAGE_MESSAGES.noData}</p>
      )}
      <div className="small faint">
        Expires {when(report.expiresAt)} · tags: {report.tags.join(", ")} · seed {report.seed}
      </div>
      {actions}
    </div>
  );
}

function IntelligenceView({ intel }: { intel: Intelligence }) {
  if ("general" in intel) {
    const g = intel.general;
    return (
      <div data-testid="intel-general">
        <Stat label="Population" value={fmt(g.population)} />
        <Stat label="Land" value={`${fmt(g.landAcres)} acres`} />
        <Stat label="Estimated networth" value={fmt(g.estimatedNetworth)} />
        <Stat label="Happiness" value={`${g.happiness}%`} />
        <Stat label="Government stability" value={`${g.governmentStability}%`} />
        <Stat label="Economic status" value={titleCase(g.economicStatus)} />
        <Stat label="Last active" value={when(g.lastActive)} />
        <Stat label="Recent events" value={list(g.recentEvents)} />
      </div>
    );
  }
  if ("military" in intel) {
    const m = intel.military;
    return (
      <div data-testid="intel-military">
        {(["troops", "jets", "turrets", "tanks", "spies"] as const).map((u) => (
          <Stat key={u} label={titleCase(u)} value={fmt(m.estimatedUnits[u])} testId={`intel-${u}`} />
        ))}
        <Stat label="Readiness" value={`${m.militaryReadiness}%`} />
        <Stat label="Defense status" value={m.defenseStatus} />
        <Stat label="Military tech" value={m.militaryTech} />
        <Stat label="War capability" value={titleCase(m.warCapability)} />
        <Stat label="Battles (24 h)" value={m.recentCombat} />
        <Stat label="Strengths" value={list(m.strengths)} />
        <Stat label="Vulnerabilities" value={list(m.vulnerabilities)} />
        {m.technology && (
          <Stat
            label="Technology"
            value={Object.entries(m.technology)
              .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`)
              .join(", ")}
          />
        )}
      </div>
    );
  }
  if ("market" in intel) {
    const m = intel.market;
    return (
      <div data-testid="intel-market">
        <Stat label="Purchases (7 days)" value={`$${fmt(m.recentPurchases)}`} />
        <Stat label="Sales (7 days)" value={`$${fmt(m.recentSales)}`} />
        <Stat label="Standing orders" value={m.standingOrders} />
        <Stat label="Market activity" value={titleCase(m.marketActivity)} />
        <Stat label="Trading patterns" value={list(m.tradingPatterns)} />
        <Stat label="Cash flow per turn" value={`$${fmt(m.cashFlow)}`} />
        <Stat label="Surplus" value={list(m.resourceSurplus)} />
        <Stat label="Needs" value={list(m.resourceNeeds)} />
      </div>
    );
  }
  if ("alliance" in intel) {
    const a = intel.alliance;
    return (
      <div data-testid="intel-alliance">
        <Stat label="Alliance" value={a.allianceName ? `${a.allianceName} [${a.allianceTag}]` : "none"} />
        <Stat label="Rank" value={a.allianceRank ?? "-"} />
        <Stat label="Members" value={a.memberCount} />
        <Stat label="Reputation" value={fmt(a.allianceReputation)} />
        <Stat label="Relations" value={list(a.diplomaticRelations.map((r) => `${r.type} with ${r.partner}`))} />
        <Stat label="Known allies" value={list(a.knownAllies)} />
        <Stat label="Known enemies" value={list(a.knownEnemies)} />
        <Stat label="Recent activity" value={list(a.recentAllianceActivity)} />
      </div>
    );
  }
  const s = intel.sabotage;
  return (
    <div data-testid="intel-sabotage">
      <Stat label="Buildings destroyed" value={`${fmt(s.buildingsDestroyed)}${s.building ? ` ${s.building.replace(/_/g, " ")}` : ""}`} />
      <Stat label="Oil destroyed" value={plural(s.oilDestroyed, "barrel")} />
      {s.buildingsDestroyed === 0 && s.oilDestroyed === 0 && <p className="small muted">The target was on alert: nothing was destroyed.</p>}
    </div>
  );
}
