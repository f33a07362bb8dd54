import { describe, expect, it } from "vitest";
import { computeAttackerView, type DefenderSide } from "./battleView.js";
import { CONFIDENCE_SPREAD, type IntelConfidence } from "./combat.js";
import { UNIT_TYPES } from "./country.js";

const side: DefenderSide = {
  defenderName: "Ironhold",
  defenderForces: { troops: 12_345, jets: 678, turrets: 910, tanks: 111, spies: 40 },
  defenderCasualties: { troops: 1_200, jets: 0, turrets: 0, tanks: 11, spies: 0 },
  defenderAllies: [{ countryId: 7, name: "Helper", units: { troops: 2_000, tanks: 50 }, power: 4_321.5 }],
  combatLog: [
    "Guerrilla Strike: Raider sends 10 troops against Ironhold.",
    "1 allied country reinforces the defence with 4,322 strength.",
    "Allied units answering the call for help add 1,500 strength to the defence.",
    "Raider lost 10 troops.",
    "Ironhold lost 1,200 troops, 11 tanks.",
  ],
};

describe("issue 28: a battle report tells the attacker the defender's side only as estimates", () => {
  it.each(["low", "medium", "high"] as IntelConfidence[])("at %s confidence every number is within the spread, and the log gives no exact defender numbers", (confidence) => {
    const view = computeAttackerView(side, confidence, 12345);
    const spread = CONFIDENCE_SPREAD[confidence];
    for (const u of UNIT_TYPES) {
      expect(Math.abs(view.defenderForces[u] - side.defenderForces[u])).toBeLessThanOrEqual(Math.ceil(side.defenderForces[u] * spread));
      expect(view.defenderCasualties[u]).toBeLessThanOrEqual(view.defenderForces[u]);
    }
    expect(view.defenderAllies[0]!.name).toBe("Helper");
    expect(Math.abs(view.defenderAllies[0]!.units.troops! - 2_000)).toBeLessThanOrEqual(2_000 * spread);
    expect(view.confidence).toBe(confidence);
    expect(view.combatLog).not.toContain("Ironhold lost 1,200 troops, 11 tanks.");
    expect(view.combatLog.join("\n")).not.toMatch(/4,322|1,500/);
    expect(view.combatLog).toContain("Raider lost 10 troops.");
  });

  it("without intelligence the error model is the low one (+-50%), and the exact forces are not what the attacker reads", () => {
    const view = computeAttackerView(side, null, 99);
    expect(view.confidence).toBe("low");
    expect(UNIT_TYPES.every((u) => view.defenderForces[u] === side.defenderForces[u])).toBe(false);
  });

  it("verified intelligence reads exactly; the same battle always reads the same", () => {
    const verified = computeAttackerView(side, "verified", 5);
    expect(verified.defenderForces).toEqual(side.defenderForces);
    expect(verified.combatLog).toEqual(side.combatLog);
    expect(computeAttackerView(side, "medium", 5)).toEqual(computeAttackerView(side, "medium", 5));
  });
});
