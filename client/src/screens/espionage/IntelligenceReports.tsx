import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { IntelligenceReportJson, ReportSort } from "@game/schema/api";
import { ESPIONAGE_MESSAGES, type IntelType } from "@game/schema/rules";
import { espionageApi, espionageKeys, useIntelligenceReports, type ReportsFilter } from "../../api/espionage";
import { ActionButton, Loading, Panel } from "../../components/ui";
import { CONFIDENCE_BADGE, ReportDetail, operationName } from "./ReportDetail";

const PAGE = 20;

/**
 * Intelligence Reports (spec): search by target name or tag, type filter, sort by date, target
 * or confidence, 'Showing X of Y reports', a list (expired reports dimmed with 'Intelligence
 * expired') and a detail panel ('Operation Failed' for failed operations). The owner can
 * share a report with its alliance.
 */
export function IntelligenceReports({ emptyText = "No intelligence reports found", inAlliance }: { emptyText?: string; inAlliance: boolean }) {
  const [filter, setFilter] = useState<ReportsFilter>({ search: "", type: "all", sort: "date", page: 1, limit: PAGE });
  const [selected, setSelected] = useState<number | null>(null);
  const query = useIntelligenceReports(filter);
  const reports = query.data?.reports ?? [];
  const total = query.data?.total ?? 0;
  const report = reports.find((r) => r.id === selected) ?? reports[0] ?? null;
  const set = <K extends keyof ReportsFilter>(k: K, v: ReportsFilter[K]) => setFilter((f) => ({ ...f, [k]: v, page: k === "page" ? (v as number) : 1 }));
  const pages = Math.max(1, Math.ceil(total / filter.limit));

  return (
    <div className="stack" data-testid="intelligence-reports">
      <Panel title="Intelligence Reports">
        <div className="target-filters">
          <div className="field">
            <label htmlFor="ir-search">Search</label>
            <input id="ir-search" className="input" placeholder="Target name or tag" value={filter.search} maxLength={100} onChange={(e) => set("search", e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="ir-type">Type</label>
            <select id="ir-type" value={filter.type} onChange={(e) => set("type", e.target.value as "all" | IntelType)}>
              {["all", "general", "alliance", "market", "military"].map((v) => (
                <option key={v} value={v}>
                  {v === "all" ? "All" : v[0]!.toUpperCase() + v.slice(1)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ir-sort">Sort</label>
            <select id="ir-sort" value={filter.sort} onChange={(e) => set("sort", e.target.value as ReportSort)}>
              <option value="date">Date</option>
              <option value="target">Target</option>
              <option value="confidence">Confidence</option>
            </select>
          </div>
        </div>
        <p className="small muted" data-testid="reports-count">
          Showing {reports.length} of {total} reports
        </p>
      </Panel>
      {query.isPending ? (
        <Loading text="Loading intelligence reports..." />
      ) : query.error ? (
        <div className="alert error" role="alert">
          {(query.error as Error).message}
        </div>
      ) : reports.length === 0 ? (
        <Panel>
          <p className="muted center" data-testid="reports-empty">
            {filter.search || filter.type !== "all" ? "No intelligence reports found" : emptyText}
          </p>
        </Panel>
      ) : (
        <div className="news-layout">
          <div className="stack">
            <ul className="news-list" data-testid="report-list">
              {reports.map((r) => (
                <li key={r.id}>
                  <ReportRow report={r} selected={report?.id === r.id} onClick={() => setSelected(r.id)} />
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <div className="row">
                <button type="button" className="btn ghost" disabled={filter.page <= 1} onClick={() => set("page", filter.page - 1)}>
                  Previous
                </button>
                <span className="small muted">
                  Page {filter.page} of {pages}
                </span>
                <button type="button" className="btn ghost" disabled={filter.page >= pages} onClick={() => set("page", filter.page + 1)}>
                  Next
                </button>
              </div>
            )}
          </div>
          <Panel title="Report">{report ? <ReportDetail report={report} actions={<ShareButton report={report} inAlliance={inAlliance} />} /> : <p className="muted">{ESPIONAGE_MESSAGES.noData}</p>}</Panel>
        </div>
      )}
    </div>
  );
}

function ReportRow({ report, selected, onClick }: { report: IntelligenceReportJson; selected: boolean; onClick(): void }) {
  return (
    <button
      type="button"
      className={`news-item ${selected ? "unread" : ""} ${report.expired ? "faint" : ""}`}
      style={report.expired ? { opacity: 0.55 } : undefined}
      onClick={onClick}
      data-testid="report-row"
      data-expired={report.expired || undefined}
    >
      <div className="row between">
        <strong>{report.targetCountryName}</strong>
        {report.success ? report.confidenceLevel && <span className={`badge ${CONFIDENCE_BADGE[report.confidenceLevel]}`}>{report.confidenceLevel}</span> : <span className="badge bad">failed</span>}
      </div>
      <span className="small muted">
        {operationName(report.operationType)} · {new Date(report.operationDate).toLocaleString()}
        {report.sharedWithAlliance && " · shared"}
      </span>
      {report.expired && <span className="small warn">{ESPIONAGE_MESSAGES.expired}</span>}
    </button>
  );
}

/** 'Share Intelligence': the owner shares a successful, unexpired report with its alliance. */
export function ShareButton({ report, inAlliance }: { report: IntelligenceReportJson; inAlliance: boolean }) {
  const queryClient = useQueryClient();
  const share = useMutation({ mutationFn: () => espionageApi.share(report.id), onSuccess: () => void queryClient.invalidateQueries({ queryKey: espionageKeys.all }) });
  if (!report.isOwn) return null;
  if (report.sharedWithAlliance) return <span className="small ok">Shared with your alliance</span>;
  const reason = !inAlliance ? "Join an alliance to share intelligence" : !report.success ? "A failed operation has no intelligence to share" : report.expired ? ESPIONAGE_MESSAGES.expired : null;
  return (
    <div className="stack" style={{ gap: "0.35rem" }}>
      <ActionButton variant="" disabledReason={reason} busy={share.isPending} busyLabel="Sharing..." onClick={() => share.mutate()} data-testid="share-intel">
        Share Intelligence
      </ActionButton>
      {share.error && (
        <div className="alert error" role="alert">
          {(share.error as Error).message}
        </div>
      )}
    </div>
  );
}
