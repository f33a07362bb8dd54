import { useEffect, useRef } from "react";
import { BUILDING_DEFINITIONS, type BuildingType } from "@game/schema/rules";
import type { ActionResultIcon, TurnResultJson } from "@game/schema/api";
import type { TurnCard } from "../game/GameContext";
import { fmt, money, signed, signedMoney, titleCase } from "./format";

/** Each popup card dismisses itself after this long (spec: 10 s). */
export const POPUP_AUTO_DISMISS_MS = 10_000;
/** Cards shown at once (the newest); an older card shows, and starts its timer, when a newer one goes. */
export const POPUP_MAX_CARDS = 3;

function buildingName(type: string): string {
  return type in BUILDING_DEFINITIONS ? BUILDING_DEFINITIONS[type as BuildingType].name : titleCase(type);
}

const ICON_GLYPH: Record<ActionResultIcon, string> = {
  checkmark: "✓",
  "trending-down": "↘",
  zap: "⚡",
  "trending-up": "↗",
};

/** The TURN RESULTS REPORT modal (military styling by default, as the fixed theme). */
export function TurnResultsReport({ result, open, onClose, variant = "military" }: { result: TurnResultJson | null; open: boolean; onClose(): void; variant?: "military" | "normal" }) {
  const continueRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    continueRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  if (!open || !result) return null;
  const e = result.economicEffects;
  const showOil = e.oilProduced > 0 || e.oilConsumed > 0;
  const mil = result.militaryProduced;
  const milTotal = mil ? mil.troops + mil.jets + mil.tanks + mil.turrets : 0;
  const title = variant === "military" ? "TURN RESULTS REPORT" : "Turn Results";
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className={`modal ${variant}`} role="dialog" aria-modal="true" aria-labelledby="turn-report-title" onClick={(ev) => ev.stopPropagation()} data-testid="turn-report">
        <header>
          <div>
            <h2 id="turn-report-title">{title}</h2>
            {variant === "military" && <div className="sub">STRATEGIC OPERATIONS DIVISION</div>}
          </div>
          <button type="button" className="icon-btn" aria-label="Close report" onClick={onClose}>
            ×
          </button>
        </header>

        <section>
          <h3>ACTION RESULTS</h3>
          {result.actionResults.length === 0 && <p className="muted">No action results.</p>}
          {result.actionResults.map((a) => (
            <div className="action-result" key={a.id}>
              <span className={`action-icon ${a.icon}`} aria-hidden="true">
                {ICON_GLYPH[a.icon]}
              </span>
              <div>
                <strong>{a.title}</strong>
                <div>{a.description}</div>
                {a.details.length > 0 && (
                  <ul>
                    {a.details.map((d, i) => (
                      <li key={i}>{d}</li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
          ))}
        </section>

        <section>
          <h3>ECONOMIC REPORT</h3>
          <div className="grid" style={{ gap: "0.5rem 1.25rem", gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))" }}>
            <div>
              <div className="stat">
                <span className="k">Tax revenue</span>
                <span className="v ok">{signedMoney(e.taxRevenue)}</span>
              </div>
              <div className="stat">
                <span className="k">Expenses</span>
                <span className="v bad">{money(-Math.abs(e.expenses))}</span>
              </div>
              <div className="stat">
                <span className="k">Net change</span>
                <span className={`v ${e.netCashChange >= 0 ? "ok" : "bad"}`}>{signedMoney(e.netCashChange)}</span>
              </div>
            </div>
            <div>
              <div className="stat">
                <span className="k">Food produced</span>
                <span className="v ok">{signed(e.foodProduced)}</span>
              </div>
              <div className="stat">
                <span className="k">Food consumed</span>
                <span className="v bad">{fmt(-Math.abs(e.foodConsumed))}</span>
              </div>
              <div className="stat">
                <span className="k">Net change</span>
                <span className={`v ${e.netFoodChange >= 0 ? "ok" : "bad"}`}>{signed(e.netFoodChange)}</span>
              </div>
            </div>
            {showOil && (
              <div data-testid="oil-block">
                <div className="stat">
                  <span className="k">Oil produced</span>
                  <span className="v ok">{signed(e.oilProduced)}</span>
                </div>
                <div className="stat">
                  <span className="k">Oil consumed</span>
                  <span className="v bad">{fmt(-Math.abs(e.oilConsumed))}</span>
                </div>
                <div className="stat">
                  <span className="k">Net change</span>
                  <span className={`v ${e.netOilChange >= 0 ? "ok" : "bad"}`}>{signed(e.netOilChange)}</span>
                </div>
              </div>
            )}
          </div>
          {e.populationChange !== 0 && (
            <p className={e.populationChange > 0 ? "ok" : "bad"} style={{ marginTop: "0.6rem" }}>
              {e.populationChange > 0 ? `Population gain: ${fmt(e.populationChange)} people.` : `Population loss: ${fmt(-e.populationChange)} people.`}
            </p>
          )}
          {milTotal > 0 && mil && (
            <p className="muted small" style={{ marginTop: "0.4rem" }}>
              Military produced: {fmt(mil.troops)} troops, {fmt(mil.jets)} jets, {fmt(mil.tanks)} tanks, {fmt(mil.turrets)} turrets.
            </p>
          )}
        </section>

        {result.researchResults.length > 0 && (
          <section>
            <h3>RESEARCH PROGRESS</h3>
            {result.researchResults.map((r) => (
              <div key={r.id} className="stack" style={{ gap: "0.15rem", marginBottom: "0.5rem" }}>
                <div className="row between">
                  <strong>{titleCase(r.researchType)}</strong>
                  <span className="num ok">+{fmt(r.pointsGained)} points</span>
                </div>
                {r.description && <div className="muted small">{r.description}</div>}
                {r.levelUp && <div className="warn">Research Level Advanced!</div>}
              </div>
            ))}
          </section>
        )}

        <section>
          <h3>TURN CONSUMPTION</h3>
          <p>
            These actions consumed {result.turnsConsumed} {result.turnsConsumed === 1 ? "turn" : "turns"}.
          </p>
          <p className="muted">Remaining: {result.turnsRemaining}</p>
        </section>

        <footer>
          <button ref={continueRef} type="button" className="btn primary" onClick={onClose}>
            CONTINUE
          </button>
        </footer>
      </div>
    </div>
  );
}

/** The stacked turn-progress popup: one card per action, each gone after 10 s or on Continue. */
export function TurnProgressPopup({ cards, onDismiss, onOpenReport }: { cards: TurnCard[]; onDismiss(key: number): void; onOpenReport(result: TurnResultJson): void }) {
  if (cards.length === 0) return null;
  return (
    <div className="popup-stack" aria-live="polite">
      {cards.slice(-POPUP_MAX_CARDS).map((card) => (
        <PopupCard key={card.key} card={card} onDismiss={onDismiss} onOpenReport={onOpenReport} />
      ))}
    </div>
  );
}

function PopupCard({ card, onDismiss, onOpenReport }: { card: TurnCard; onDismiss(key: number): void; onOpenReport(result: TurnResultJson): void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(card.key), POPUP_AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [card.key, onDismiss]);
  const r = card.result;
  const e = r.economicEffects;
  const research = r.researchResults.reduce((sum, x) => sum + x.pointsGained, 0);
  const researchType = r.researchResults.length === 1 ? titleCase(r.researchResults[0]!.researchType) : r.researchResults.length > 1 ? "various" : "";
  const mil = r.militaryProduced;
  const milTotal = mil ? mil.troops + mil.jets + mil.tanks + mil.turrets : 0;
  const cell = (label: string, value: string, cls = "") => (
    <div className="stat">
      <span className="k">{label}</span>
      <span className={`v ${cls}`}>{value}</span>
    </div>
  );
  return (
    <div className="popup-card" role="status" data-testid="turn-popup">
      <h3>{titleCase(r.actionType || "turn")} complete</h3>
      <div className="cells">
        {cell("Tax revenue", signedMoney(e.taxRevenue), "ok")}
        {cell("Expenses", money(-Math.abs(e.expenses)), "bad")}
        {cell("Net cash", signedMoney(e.netCashChange))}
        {cell("Food produced", fmt(e.foodProduced))}
        {cell("Food eaten", fmt(e.foodConsumed))}
        {cell("Net food", signed(e.netFoodChange))}
        {e.populationChange > 0 && cell("Population", signed(e.populationChange), "ok")}
        {research > 0 && cell("Research", `${fmt(research)} ${researchType}`)}
        {card.buildingConstructed &&
          card.buildingConstructed.quantity > 0 &&
          cell("Built", `${fmt(card.buildingConstructed.quantity)} ${card.buildingConstructed.type === "mixed" ? "buildings" : buildingName(card.buildingConstructed.type)}`)}
        {card.landGained !== undefined && card.landGained > 0 && cell("Land explored", `+${fmt(card.landGained)} acres`, "ok")}
        {milTotal > 0 && mil && cell("Units made", `${fmt(mil.troops)}/${fmt(mil.jets)}/${fmt(mil.tanks)}/${fmt(mil.turrets)}`)}
        {cell("Turns used", String(r.turnsConsumed))}
      </div>
      <div className="timer" aria-hidden="true" />
      <div className="row between">
        <button
          type="button"
          className="btn small"
          onClick={() => {
            onOpenReport(r);
            onDismiss(card.key);
          }}
        >
          Full Report
        </button>
        <button type="button" className="btn small primary" onClick={() => onDismiss(card.key)}>
          Continue
        </button>
      </div>
    </div>
  );
}
