import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { BattleRulesHelp } from "./warroom/WarRoomScreen";
import { GdiBandHelp } from "./military/DefensePanel";

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
  });
});
