import { useState } from "react";
import { BUILDING_DEFINITIONS, GOVERNMENTS, computeGovernmentFit, computeRecommendations, computeSituation, type Recommendation } from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import { manageApi, useApplyCountry } from "../../api/manage";
import { ActionButton, Loading, Panel, Stat, Tabs } from "../../components/ui";
import { isViewId, type Route } from "../shell/navigation";
import { useWarCostPerTurn } from "../military/warCost";

type AdvisorTab = "recommendations" | "situation" | "government";

const PRIORITY_BADGE = { high: "bad", medium: "warn", low: "" } as const;
const LEVEL_BADGE = { good: "ok", fair: "warn", poor: "bad" } as const;

/**
 * The Strategic Advisor (spec document 3; 'Advisor' and 'Bonus' in the menu): recommendations
 * from the country's real numbers by the shared rules (schema rules/advisor.ts), EXECUTE
 * performing the action (build, research, convert turns) or opening the view that does it;
 * the situation analysis; the government advisor.
 */
export function AdvisorScreen({ onNavigate }: { onNavigate(route: Route): void }) {
  const { country, countryState, countryError } = useGame();
  const [tab, setTab] = useState<AdvisorTab>("recommendations");
  if (!country || !countryState) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  return (
    <div className="stack" data-testid="advisor">
      <div className="page-header">
        <h1>Strategic Advisor</h1>
      </div>
      <Tabs
        label="Advisor sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "recommendations", label: "Recommendations" },
          { id: "situation", label: "Situation Analysis" },
          { id: "government", label: "Government Advisor" },
        ]}
      />
      {tab === "recommendations" && <Recommendations onNavigate={onNavigate} />}
      {tab === "situation" && <Situation />}
      {tab === "government" && <GovernmentAdvisor onNavigate={onNavigate} />}
    </div>
  );
}

function Recommendations({ onNavigate }: { onNavigate(route: Route): void }) {
  const { country, countryState, construct } = useGame();
  const applyCountry = useApplyCountry();
  const wars = useWarCostPerTurn();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "info" | "error"; text: string } | null>(null);
  if (!country || !countryState) return null;
  const recs = computeRecommendations(countryState, { allianceId: country.allianceId, warCostPerTurn: wars });

  const execute = async (r: Recommendation) => {
    const a = r.action;
    if (a.kind === "navigate") {
      if (isViewId(a.view)) onNavigate({ view: a.view, intent: a.intent });
      return;
    }
    setBusy(r.id);
    setMessage(null);
    try {
      if (a.kind === "build") {
        await construct({ [a.building]: a.quantity });
        setMessage({ kind: "info", text: `Built ${a.quantity} ${BUILDING_DEFINITIONS[a.building].name}.` });
      } else if (a.kind === "research") {
        const outcome = await manageApi.allocate(country.id, { [a.technology]: a.points });
        applyCountry(outcome.country);
        setMessage({ kind: "info", text: outcome.turnResult?.researchResults?.[0]?.description ?? "Research done." });
      } else {
        const outcome = await manageApi.convertStoredTurns(country.id, a.quantity);
        applyCountry(outcome.country);
        setMessage({ kind: "info", text: `${a.quantity} stored ${a.quantity === 1 ? "turn" : "turns"} converted.` });
      }
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "The action failed" });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack">
      {message && (
        <div className={`alert ${message.kind}`} role="status" data-testid="advisor-message">
          {message.text}
        </div>
      )}
      {recs.length === 0 && <p className="muted">Your country is in good shape: no recommendations right now.</p>}
      <div className="grid" data-testid="recommendations">
        {recs.map((r) => (
          <Panel key={r.id} title={r.title} actions={<span className={`badge ${PRIORITY_BADGE[r.priority]}`}>{r.priority}</span>} testId={`rec-${r.id}`}>
            <p>{r.description}</p>
            <ActionButton onClick={() => void execute(r)} busy={busy === r.id} busyLabel="WORKING..." disabled={busy !== null && busy !== r.id} data-testid={`execute-${r.id}`}>
              {r.actionLabel}
            </ActionButton>
          </Panel>
        ))}
      </div>
    </div>
  );
}

function Situation() {
  const { countryState } = useGame();
  const wars = useWarCostPerTurn();
  if (!countryState) return null;
  return (
    <div className="grid" data-testid="situation">
      {computeSituation(countryState, wars).map((s) => (
        <Panel key={s.id} title={s.title} actions={<span className={`badge ${LEVEL_BADGE[s.level]}`}>{s.label}</span>}>
          {s.figures.map((f) => (
            <Stat key={f.label} label={f.label} value={f.value} />
          ))}
        </Panel>
      ))}
    </div>
  );
}

function GovernmentAdvisor({ onNavigate }: { onNavigate(route: Route): void }) {
  const { country, countryState } = useGame();
  if (!country || !countryState) return null;
  const fits = computeGovernmentFit(countryState);
  const current = fits.find((f) => f.government === country.governmentType)!;
  const best = fits[0]!;
  return (
    <div className="stack" data-testid="government-advisor">
      <div className="grid">
        <Panel title="Current Government">
          <Stat label="Government" value={GOVERNMENTS[current.government].name} />
          <Stat label="Fit score" value={current.score} />
          <ul className="plain-list small">
            {GOVERNMENTS[current.government].bonusText.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </Panel>
        <Panel title="Best Fit For Your Country">
          <Stat label="Government" value={GOVERNMENTS[best.government].name} testId="best-government" />
          <Stat label="Fit score" value={best.score} />
          <p className="small">
            {best.government === current.government
              ? "Your current government already fits your country best."
              : `${GOVERNMENTS[best.government].name} scores ${best.score - current.score} more than ${GOVERNMENTS[current.government].name}: ${best.reasons.join(", ")}.`}
          </p>
          <ActionButton onClick={() => onNavigate({ view: "manage", intent: "government" })} disabledReason={best.government === current.government ? "Already the best fit" : null}>
            CHANGE GOVERNMENT
          </ActionButton>
        </Panel>
      </div>
      <Panel title="All Governments">
        {fits.map((f) => (
          <Stat key={f.government} label={`${GOVERNMENTS[f.government].name}${f.government === current.government ? " (current)" : ""}`} value={`${f.score} · ${f.reasons.join(", ") || "neutral"}`} />
        ))}
      </Panel>
    </div>
  );
}
