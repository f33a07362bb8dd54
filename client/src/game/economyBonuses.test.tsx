import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import type { EconomyBonuses } from "@game/schema/rules";
import { computeCashFlowPerTurn, computeResearchPointsPerTurn } from "@game/schema/rules";
import { TOKEN_KEY } from "../api/http";
import { toCountryState } from "../api/country";
import { countryJson, renderWithProviders, testCountry } from "../test/render";
import { CashPerTurn } from "../screens/overview/OverviewScreen";
import { GameProvider, useGame } from "./GameContext";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

/** The server of a signed-in player whose country (7, research labs and enterprise zones) has `bonuses` in force. */
function serve(bonuses: EconomyBonuses) {
  const country = countryJson({ research_labs: 10, enterprise_zones: 20 });
  localStorage.setItem(TOKEN_KEY, "t");
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const path = String(url);
      if (path.endsWith("/user/me"))
        return json({
          success: true,
          user: {
            id: 1,
            username: "u",
            email: "u@example.com",
            hasCountry: true,
            countryId: 7,
            countryName: "Testland",
            government: "monarchy",
            country: { id: 7, name: "Testland", government: "monarchy" },
            createdAt: "",
            lastLogin: null,
            isActive: true,
            tutorialCompleted: true,
          },
        });
      if (path.endsWith("/country/7")) return json({ success: true, country, message: "Own country" });
      if (path.includes("/production/status/7")) return json({ success: true, productionPerTurn: {}, allocation: country.unit_allocation, bonuses });
      return json({ success: true, data: [] });
    }),
  );
  return toCountryState(testCountry({ research_labs: 10, enterprise_zones: 20 }));
}

function ResearchProbe() {
  const { countryState } = useGame();
  return countryState ? <span data-testid="research-per-turn">{computeResearchPointsPerTurn(countryState)}</span> : null;
}

/**
 * Issue 26, "Rules in one place": the income previews count the alliance and treaty bonuses a
 * spent turn applies (Economic Surge, Collaborative Research, research agreements). Before, the
 * client's country carried no bonuses, so the overview's cash per turn and the research points
 * per turn were those of a country outside any alliance.
 */
describe("income previews with the bonuses in force", () => {
  it("the overview's cash per turn and the research points per turn add the server's bonuses", async () => {
    const bonuses = { incomePct: 10, researchPct: 15 };
    const state = serve(bonuses);
    const withBonus = computeCashFlowPerTurn({ ...state, bonuses });
    expect(withBonus.taxes).toBeGreaterThan(computeCashFlowPerTurn(state).taxes);
    renderWithProviders(
      <GameProvider>
        <CashPerTurn />
        <ResearchProbe />
      </GameProvider>,
    );
    const sign = (n: number) => `${n < 0 ? "-" : "+"}$${Math.abs(n).toLocaleString("en-US")}`;
    await vi.waitFor(() => expect(screen.getByTestId("overview-cash-per-turn").textContent).toBe(sign(withBonus.net)));
    expect(screen.getByTestId("research-per-turn").textContent).toBe(String(computeResearchPointsPerTurn({ ...state, bonuses })));
    expect(computeResearchPointsPerTurn({ ...state, bonuses })).toBeGreaterThan(computeResearchPointsPerTurn(state));
  });
});
