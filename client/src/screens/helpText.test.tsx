import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { CountryState } from "@game/schema/rules";
import { BattleRulesHelp, PowerBandsHelp } from "./warroom/WarRoomScreen";
import { GdiBandHelp, allocationText } from "./military/DefensePanel";
import { deploymentText } from "./military/StrategyPanel";
import { AllySupportHelp, PlannedStrikeHelp } from "./military/PreparationPanel";
import { BrigadeHelp } from "./military/CommandPanel";
import { CreateOrderForm } from "./market/StandingOrdersPanel";
import { ExplorationCostFormulaHelp, ExplorationGovernmentHelp } from "./explore/ExplorationCalculator";
import { allianceBenefits } from "./alliances/NoAlliance";
import { toCountryState } from "../api/country";
import { testCountry } from "../test/render";

/**
 * Help text is written from the rules' constants (issue 26, "Rules in one place"): each panel
 * here renders with the constants overridden and must say the overridden numbers.
 */
vi.mock("@game/schema/rules", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@game/schema/rules")>()),
  GDI_BAND_LOW_PCT: 55,
  GDI_BAND_HIGH_PCT: 170,
  VICTORY_THRESHOLD: 1.08,
  LAND_GRAB_MIN_PCT: 2,
  LAND_GRAB_MAX_PCT: 9,
  DAILY_LAND_LOSS_CAP_PCT: 12,
  PLANNED_STRIKE_BONUS_PCT: 40,
  PLANNED_STRIKE_PREP_MS: 6 * 3_600_000,
  PLANNED_STRIKE_REHAB_MS: 8 * 3_600_000,
  MAX_SCHEDULE_AHEAD_MS: 3 * 86_400_000,
  HIGH_PRIORITY_FEE_BPS: 250,
  STANDING_ORDER_ACTIVATION_MS: 3 * 3_600_000,
  POWER_BANDS: [
    { band: "OVERWHELMING", minRatio: 3 },
    { band: "SUPERIOR", minRatio: 1.8 },
    { band: "FAVORABLE", minRatio: 1.3 },
    { band: "EVEN", minRatio: 0.9 },
    { band: "CHALLENGING", minRatio: 0.4 },
  ],
  WAR_ROOM_POWER_WEIGHTS: { troops: 2, jets: 12, tanks: 6, turrets: 9 },
  GOVERNMENTS: await (async () => {
    const { GOVERNMENTS } = await importOriginal<typeof import("@game/schema/rules")>();
    return { ...GOVERNMENTS, republic: { ...GOVERNMENTS.republic, explorationAcresPct: 130, explorationCostPct: 85 } };
  })(),
  EXPLORE_BASE_COST_PER_ACRE: 60,
  EXPLORE_COST_STEP: 7,
  EXPLORE_COST_STEP_ACRES: 200,
  ALLOCATION_EFFECT_DIVISOR: 5,
  COUNTER_INTEL_EFFECT_DIVISOR: 3,
  ALLY_SUPPORT_PCT: 30,
  BRIGADE_ATTACK_FATIGUE: 35,
  BRIGADE_RECOVERY_PER_HOUR: 8,
  BRIGADE_DUTY_DEFENSE_PCT: 7,
  BRIGADE_DUTY_MS: 6 * 3_600_000,
}));

afterEach(cleanup);

describe("help text follows the constants", () => {
  it("the GDI band (Defense Configuration)", () => {
    render(<GdiBandHelp />);
    expect(screen.getByTestId("help-gdi").textContent).toContain("with 55% to 170% of their networth");
  });
  it("the battle rules (War Room, Battle Strategy)", () => {
    render(
      <ul>
        <BattleRulesHelp />
      </ul>,
    );
    expect(screen.getByTestId("help-victory").textContent).toBe("An attack wins when its power exceeds the defence by 8%.");
    expect(screen.getByTestId("help-land").textContent).toContain("take 2-9% of the target's land");
    expect(screen.getByTestId("help-land").textContent).toContain("more than 12% of its land");
    expect(screen.getByTestId("help-planned").textContent).toContain("+40% strength");
    expect(screen.getByTestId("help-planned").textContent).toContain("prepare 6 hours");
    expect(screen.getByTestId("help-planned").textContent).toContain("rest 8 hours after");
  });
  it("the power ratio bands and the power formula (War Room, Strategy)", () => {
    render(<PowerBandsHelp />);
    const text = screen.getByTestId("help-power-bands").textContent;
    expect(text).toContain("3.0 and aboveOVERWHELMING");
    expect(text).toContain("1.8SUPERIOR");
    expect(text).toContain("below 0.4DANGEROUS");
    expect(screen.getByTestId("help-power").textContent).toBe("Your power: troops x 2 + jets x 12 + tanks x 6 + turrets x 9. A target's power is known only from intelligence.");
  });
  it("the high priority fee and the activation delay (Standing Orders)", () => {
    const country: CountryState = toCountryState(testCountry());
    const action = { busy: null, message: null, run: vi.fn() } as unknown as Parameters<typeof CreateOrderForm>[0]["action"];
    render(<CreateOrderForm countryId={7} country={country} openOrders={0} action={action} />);
    expect(screen.getByRole("option", { name: "High (fills first, 2.5% fee)" })).toBeTruthy();
    expect(screen.getByTestId("order-hint").textContent).toContain("the order waits 3 hours");
  });
  it("the exploration percentages and cost formula (Exploration, Advanced)", () => {
    render(
      <>
        <ExplorationGovernmentHelp />
        <ExplorationCostFormulaHelp />
      </>,
    );
    expect(screen.getByTestId("help-explore-governments").textContent).toBe("A Republic explores 30% more acres per turn and pays 15% less per acre.");
    expect(screen.getByTestId("help-explore-cost").textContent).toBe("Cost per acre = floor((60 + 7 per full 200 acres owned) x0.85 for a Republic, x1 otherwise).");
  });
  it("the deployment and defense allocation effects (Strategy, Defense Configuration)", () => {
    expect(deploymentText().garrison).toBe("Defence +1% per 5% garrisoned");
    expect(allocationText().airDefense).toBe("Against bombing: defence +1% per 5%; missile interception +1 point per 5%");
    expect(allocationText().counterIntel).toBe("Against spy raids: defence +1% per 3%");
  });
  it("alliance support and planned strikes (Attack Preparation, No Alliance)", () => {
    render(
      <>
        <AllySupportHelp />
        <PlannedStrikeHelp />
      </>,
    );
    expect(screen.getByTestId("help-ally-support").textContent).toContain("Allies lend 30% of their forces");
    expect(screen.getByTestId("help-planned-strike").textContent).toContain("prepares 6 hours (+40% strength)");
    expect(screen.getByTestId("help-planned-strike").textContent).toContain("up to 3 days ahead");
    expect(allianceBenefits()[0]).toBe("Allies lend 30% of their forces to your battles");
  });
  it("brigades (Military Command)", () => {
    render(<BrigadeHelp />);
    expect(screen.getByTestId("help-brigades").textContent).toBe("A brigade leads each attack (it costs 35 readiness; readiness recovers 8 points an hour). On defensive duty a brigade adds 7% defence for 6 hours.");
  });
});
