import { useState } from "react";
import { GOVERNMENTS, TECHNOLOGIES, checkResearchAllocation, type TechnologyId, type TechnologyStatus } from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import { useApplyCountry, useResearchStatus, manageApi } from "../../api/manage";
import { ActionButton, Loading, Panel, Stat } from "../../components/ui";
import { fmt } from "../../components/format";

/** The category selector: all, or one of the card states. */
type Filter = "all" | "available" | "maxed" | "locked";

const STATE_BADGE: Record<TechnologyStatus["state"], string> = { maxed: "ok", available: "", locked: "bad" };

/**
 * Research and Development (spec document 3): the country's labs, points per turn, government,
 * unspent points and what they can buy; eleven technology cards with effects, cost and turns;
 * select a card, then confirm to spend the points on its next level (POST /research/allocate).
 */
export function ResearchScreen() {
  const { country, countryError, countryState } = useGame();
  const status = useResearchStatus(country?.id);
  const applyCountry = useApplyCountry();
  const [filter, setFilter] = useState<Filter>("all");
  const [selected, setSelected] = useState<TechnologyId | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  if (!country || !countryState) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  if (status.isPending) return <Loading text="Loading research status..." />;
  if (status.isError) return <div className="alert error">{status.error.message}</div>;
  const data = status.data;
  const cards = data.technologies.filter((t) => filter === "all" || t.state === filter);
  const chosen = data.technologies.find((t) => t.id === selected) ?? null;
  // the points shown are the server's; the check uses the same rule the server applies
  const state = { ...countryState, researchPoints: data.currentResearchPoints, tech: data.technologyLevels };
  const rejection = chosen && chosen.cost !== null ? checkResearchAllocation(state, { [chosen.id]: chosen.cost }) : null;
  const affordable = data.technologies.filter((t) => t.state === "available" && t.cost !== null && t.cost <= data.currentResearchPoints);

  const confirm = async () => {
    if (!chosen || chosen.cost === null) return;
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await manageApi.allocate(country.id, { [chosen.id]: chosen.cost });
      applyCountry(outcome.country);
      const result = outcome.turnResult?.researchResults?.[0];
      setMessage({ kind: "ok", text: result?.description ?? `${chosen.name} researched.` });
      setSelected(null);
    } catch (err) {
      setMessage({ kind: "error", text: err instanceof Error ? err.message : "Research allocation failed" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" data-testid="research">
      <div className="page-header">
        <h1>Research and Development</h1>
      </div>
      <div className="grid">
        <Panel title="Laboratories">
          <Stat label="Research labs" value={fmt(data.researchLabs)} testId="research-labs" />
          <Stat label="Points per turn" value={fmt(data.pointsPerTurn)} testId="research-ppt" />
          <Stat label="Government" value={GOVERNMENTS[country.governmentType].name} />
          {data.researchLabs === 0 && <p className="reason">Research requires at least one research lab (Build).</p>}
        </Panel>
        <Panel title="Research Points">
          <Stat label="Unspent points" value={fmt(data.currentResearchPoints)} testId="research-points" />
          <Stat label="Levels they can buy now" value={affordable.length === 0 ? "none" : affordable.map((t) => t.name).join(", ")} />
          <p className="small muted">Labs add points each turn you spend. Points are spent on whole levels of a technology; what is left stays in the pool for the next one.</p>
        </Panel>
      </div>
      <div className="row" role="group" aria-label="Category">
        {(["all", "available", "maxed", "locked"] as const).map((f) => (
          <button key={f} type="button" className={`btn small ${filter === f ? "primary" : ""}`} aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {f === "all" ? "All categories" : f[0]!.toUpperCase() + f.slice(1)}
          </button>
        ))}
      </div>
      <div className="attack-cards" data-testid="tech-cards">
        {cards.map((t) => (
          <button key={t.id} type="button" className={`attack-card ${selected === t.id ? "selected" : ""}`} aria-pressed={selected === t.id} data-testid={`tech-${t.id}`} data-state={t.state} onClick={() => setSelected(t.id)}>
            <span className="row between">
              <strong>{t.name}</strong>
              <span className={`badge ${STATE_BADGE[t.state]}`}>{t.state}</span>
            </span>
            <span className="small">
              Level {t.level} / {t.maxLevel}
            </span>
            {t.effects.map((e) => (
              <span key={e} className="small muted">
                {e}
              </span>
            ))}
            <span className="small">
              {t.cost === null ? "Maximum level reached" : `Next level: ${fmt(t.cost)} points${t.turns === null ? "" : t.turns === 0 ? " · points in hand" : ` · ${fmt(t.turns)} more ${t.turns === 1 ? "turn" : "turns"} of lab output`}`}
            </span>
            <span className="small faint">Government multiplier x{t.governmentMultiplier}</span>
            {t.state === "locked" && <span className="small reason">Requires {t.prerequisites.map((p) => TECHNOLOGIES[p].name).join(", ")}</span>}
          </button>
        ))}
      </div>
      <Panel title="Selected Research">
        {chosen ? (
          <div className="stack" style={{ gap: "0.5rem" }}>
            <Stat label="Technology" value={chosen.name} />
            <Stat label="Level" value={`${chosen.level} -> ${Math.min(chosen.level + 1, chosen.maxLevel)}`} />
            <Stat label="Cost" value={chosen.cost === null ? "-" : `${fmt(chosen.cost)} points`} />
            <Stat label="Turns at current output" value={chosen.turns === null ? "-" : chosen.turns === 0 ? "0: the points are in hand" : fmt(chosen.turns)} testId="research-turns" />
            <ActionButton onClick={confirm} busy={busy} busyLabel="RESEARCHING..." disabledReason={chosen.cost === null ? `${chosen.name} is at its maximum level` : (rejection?.message ?? null)} data-testid="research-confirm">
              CONFIRM RESEARCH
            </ActionButton>
          </div>
        ) : (
          <p className="muted">Select a technology card, then confirm.</p>
        )}
        {message && (
          <div className={`alert ${message.kind === "ok" ? "info" : "error"}`} role="status" data-testid="research-message" style={{ marginTop: "0.6rem" }}>
            {message.text}
          </div>
        )}
      </Panel>
    </div>
  );
}
