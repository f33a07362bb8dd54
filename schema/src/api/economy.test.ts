import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { ECONOMIC_EFFECT_KEYS, toTurnResultJson, turnResultJsonSchema, type TurnResultJson } from "./economy.js";

const NOW = Date.UTC(2030, 0, 1);

describe("toTurnResultJson: a turn result of any age read as the contract's shape", () => {
  it("the written-out TurnResultJson (turnResult.ts, zod-free for the game's start) is exactly what the schema parses", () => {
    expectTypeOf<z.output<typeof turnResultJsonSchema>>().toEqualTypeOf<TurnResultJson>();
  });

  it("keeps a complete result as it is", () => {
    const full = {
      id: "r1",
      timestamp: "2030-01-01T00:00:00.000Z",
      actionType: "exploration",
      turnsConsumed: 5,
      turnsRemaining: 95,
      actionResults: [{ id: "a", title: "Territory Explored", description: "d", icon: "trending-up", details: ["x"] }],
      economicEffects: Object.fromEntries(ECONOMIC_EFFECT_KEYS.map((k, i) => [k, i - 3])),
      researchResults: [{ id: "q", researchType: "agricultural", pointsGained: 7, description: "p", levelUp: true }],
      researchPointsGained: 7,
      militaryProduced: { troops: 1, jets: 2, tanks: 3, turrets: 4 },
    };
    expect(toTurnResultJson(full, NOW)).toEqual(full);
  });

  it.each([
    // what is missing or wrong, raw, what it reads as
    ["an effect missing", { economicEffects: { taxRevenue: 9 } }, { economicEffects: { taxRevenue: 9, expenses: 0, productionBonus: 0 } }],
    ["numeric strings", { turnsConsumed: "4", economicEffects: { expenses: "12" } }, { turnsConsumed: 4, economicEffects: { expenses: 12 } }],
    ["junk numbers", { turnsRemaining: "lots", economicEffects: { expenses: Infinity } }, { turnsRemaining: 0, economicEffects: { expenses: 0 } }],
    ["militaryProduced of an old record", {}, { militaryProduced: { troops: 0, jets: 0, tanks: 0, turrets: 0 }, researchPointsGained: 0 }],
    ["an unknown icon", { actionResults: [{ icon: "rocket" }] }, { actionResults: [{ id: "0", icon: "checkmark", title: "", details: [] }] }],
    ["no id or time", {}, { id: String(NOW), timestamp: new Date(NOW).toISOString(), actionType: "", actionResults: [], researchResults: [] }],
  ])("%s", (_name, raw, expected) => {
    expect(toTurnResultJson(raw, NOW)).toMatchObject(expected);
  });

  it("reads null and non-objects as an empty result with every effect 0", () => {
    for (const raw of [null, undefined, 42]) {
      const result = toTurnResultJson(raw, NOW);
      expect(Object.keys(result.economicEffects)).toEqual([...ECONOMIC_EFFECT_KEYS]);
      expect(Object.values(result.economicEffects).every((v) => v === 0)).toBe(true);
    }
  });
});
