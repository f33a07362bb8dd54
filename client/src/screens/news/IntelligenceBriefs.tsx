import { useQuery } from "@tanstack/react-query";
import { routes } from "@game/schema/routes";
import { callRoute } from "../../api/http";
import { Loading, Panel } from "../../components/ui";
import { isViewId, type Route } from "../shell/navigation";
import { AVAILABLE_VIEWS } from "../shell/navigation";

const THREAT_BADGE = { critical: "bad", high: "warn", medium: "", low: "ok" } as const;

/** The player's intelligence briefs (GET /news/briefs), refreshed every minute. */
export function IntelligenceBriefs({ onNavigate }: { onNavigate(route: Route): void }) {
  const briefs = useQuery({
    queryKey: ["intelligence-briefs"],
    queryFn: async () => (await callRoute(routes.intelligenceBriefs)).briefs,
    refetchInterval: 60_000,
  });
  if (briefs.isPending) return <Loading text="Loading intelligence briefs..." />;
  if (briefs.isError) return <div className="alert error">{briefs.error.message}</div>;
  return (
    <div className="grid" data-testid="briefs">
      {briefs.data.map((b) => {
        const open = isViewId(b.view) && AVAILABLE_VIEWS.has(b.view);
        return (
          <Panel key={b.id} title={b.title} actions={<span className={`badge ${THREAT_BADGE[b.threat]}`}>{b.threat}</span>} testId={`brief-${b.id}`}>
            <p>{b.summary}</p>
            {b.details.length > 0 && (
              <ul className="plain-list small">
                {b.details.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
            <p className="small faint">Category: {b.category}</p>
            {open && isViewId(b.view) && (
              <button type="button" className="btn small" onClick={() => isViewId(b.view) && onNavigate({ view: b.view, intent: b.intent })}>
                Respond
              </button>
            )}
          </Panel>
        );
      })}
    </div>
  );
}
