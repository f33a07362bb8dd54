import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { TurnProgressPopup, TurnResultsReport } from "./TurnResults";
import { readTurnResult } from "../api/endpoints";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const result = (effects: Record<string, number> = {}, extra: Record<string, unknown> = {}) =>
  readTurnResult({
    id: "r1",
    timestamp: new Date().toISOString(),
    actionType: "exploration",
    turnsConsumed: 5,
    turnsRemaining: 95,
    actionResults: [{ id: "a", title: "Exploration Complete", description: "225 acres explored", icon: "trending-up", details: ["Cost: $12,375"] }],
    economicEffects: { taxRevenue: 5000, expenses: 1200, netCashChange: 3800, foodProduced: 0, foodConsumed: 100, netFoodChange: -100, ...effects },
    researchResults: [],
    ...extra,
  });

describe("TURN RESULTS REPORT", () => {
  it("shows the sections of the spec", () => {
    render(<TurnResultsReport result={result({ populationChange: 50 })} open onClose={vi.fn()} />);
    for (const t of ["TURN RESULTS REPORT", "STRATEGIC OPERATIONS DIVISION", "ACTION RESULTS", "ECONOMIC REPORT", "TURN CONSUMPTION", "CONTINUE"]) {
      expect(screen.getByText(t)).toBeTruthy();
    }
    expect(screen.getByText("Exploration Complete")).toBeTruthy();
    expect(screen.getByText("Cost: $12,375")).toBeTruthy();
    expect(screen.getByText("These actions consumed 5 turns.")).toBeTruthy();
    expect(screen.getByText("Remaining: 95")).toBeTruthy();
    expect(screen.getByText("Population gain: 50 people.")).toBeTruthy();
    expect(screen.queryByTestId("oil-block")).toBeNull();
    expect(screen.queryByText("RESEARCH PROGRESS")).toBeNull();
  });

  it("shows oil only when produced or consumed, population loss, and research level-ups", () => {
    render(<TurnResultsReport result={result({ oilConsumed: 3, populationChange: -20 }, { researchResults: [{ id: "x", researchType: "agricultural", pointsGained: 100, description: "Labs", levelUp: true }] })} open onClose={vi.fn()} />);
    expect(screen.getByTestId("oil-block")).toBeTruthy();
    expect(screen.getByText("Population loss: 20 people.")).toBeTruthy();
    expect(screen.getByText("RESEARCH PROGRESS")).toBeTruthy();
    expect(screen.getByText("Research Level Advanced!")).toBeTruthy();
  });

  it("popup cards dismiss themselves after 10 s or on Continue", () => {
    vi.useFakeTimers();
    const onDismiss = vi.fn();
    render(<TurnProgressPopup cards={[{ key: 1, result: result(), landGained: 225 }]} onDismiss={onDismiss} onOpenReport={vi.fn()} />);
    expect(screen.getByText("+225 acres")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(onDismiss).toHaveBeenCalledWith(1);
    onDismiss.mockClear();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(onDismiss).toHaveBeenCalledWith(1);
  });
});
