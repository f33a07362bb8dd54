import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { startingCountry, type CountryState } from "./country.js";
import { Rng } from "./rng.js";
import { CONFIDENCE_SPREAD } from "./combat.js";
import { HOUR_MS } from "./military.js";
import {
  DAILY_OPS_LIMIT,
  MISSION_TYPES,
  SABOTAGE_DAILY_TARGET_LIMIT,
  SPY_OPERATIONS,
  applySabotage,
  applySpyLosses,
  applyTraining,
  buildIntelligence,
  checkDailyLimit,
  checkEspionageTarget,
  checkMission,
  checkSpyOperation,
  checkTraining,
  clampSpiesToSend,
  computeSabotage,
  computeSpyDefense,
  confidenceFromMargin,
  estimateSpyTarget,
  missionSuccess,
  operationSuccess,
  shownChancePct,
  cooldownRemaining,
  detectionChance,
  forceRatio,
  governmentSpyBonusPct,
  missionChance,
  nextResetAt,
  reportExpiresAt,
  rollOperation,
  spyCapacity,
  spyCenterChance,
  utcDay,
  withSpyBonus,
  type DailyUsage,
  type TargetSnapshot,
} from "./espionage.js";

const usage = (used = 0, byKind: DailyUsage["byKind"] = {}, lastAt: DailyUsage["lastAt"] = {}): DailyUsage => ({ used, byKind, lastAt });

describe("the spec's tables", () => {
  it("Spy Center operations: spy cost and base success", () => {
    expect(Object.values(SPY_OPERATIONS).map((o) => [o.id, o.spyCost, o.successBase])).toEqual([
      ["general_intelligence", 10, 75],
      ["military_reconnaissance", 25, 60],
      ["economic_intelligence", 20, 65],
      ["technology_assessment", 30, 55],
      ["alliance_intelligence", 35, 50],
      ["sabotage", 50, 40],
    ]);
  });
  it("Intelligence Center types: spies, difficulty, turns, cooldown hours, daily max", () => {
    expect(Object.values(MISSION_TYPES).map((t) => [t.id, t.spiesRequired, t.difficulty, t.turnCost, t.cooldownHours, t.maxDaily])).toEqual([
      ["general", 1, 0, 1, 0, 30],
      ["alliance", 2, 10, 1, 2, 15],
      ["market", 3, 15, 1, 4, 10],
      ["military", 5, 20, 1, 6, 5],
    ]);
  });
  it("government bonus shown as (multiplier - 1) x 100", () => {
    expect(["tyranny", "dictatorship", "theocracy", "monarchy", "republic", "democracy", "communism", "nonsense"].map(governmentSpyBonusPct)).toEqual([50, 30, 10, 0, -10, -20, 0, 0]);
  });
});

describe("Spy Center success = base x clamp(own/target spies per acre, 0.5, 2), rounded", () => {
  it("at the clamps and between", () => {
    // equal ratios: the base
    expect(spyCenterChance(75, { spies: 100, land: 1000 }, { spies: 100, land: 1000 })).toBe(75);
    // far stronger: clamped at 2
    expect(spyCenterChance(75, { spies: 1000, land: 1000 }, { spies: 1, land: 1000 })).toBe(150);
    // far weaker: clamped at 0.5
    expect(spyCenterChance(75, { spies: 1, land: 1000 }, { spies: 1000, land: 1000 })).toBe(38); // 37.5 rounded
    // target without spies: floor 0.001 per acre
    expect(spyCenterChance(40, { spies: 1, land: 1000 }, { spies: 0, land: 1000 })).toBe(40); // ratio 0.001/0.001 = 1
    expect(spyCenterChance(40, { spies: 1, land: 2000 }, { spies: 0, land: 1000 })).toBe(20); // 0.0005/0.001 = 0.5
    // inside the clamp: 1.5
    expect(spyCenterChance(60, { spies: 150, land: 1000 }, { spies: 100, land: 1000 })).toBe(90);
  });
});

describe("Intelligence Center success = 0.5 + 0.1 (ratio - 1) - difficulty/100 - defense/1000, clamped 5-95%", () => {
  it("force ratio: spies x government x (1 + 1% per tech) x 1.1 in an alliance, over land (min 1)", () => {
    expect(forceRatio(10, "monarchy", 0, false, 100)).toBeCloseTo(0.1);
    expect(forceRatio(10, "tyranny", 10, true, 100)).toBeCloseTo((10 * 1.5 * 1.1 * 1.1) / 100);
    expect(forceRatio(10, "democracy", 0, false, 0)).toBeCloseTo(8);
  });
  it("at both clamps and between", () => {
    expect(missionChance(1, 0, 0)).toBeCloseTo(0.5);
    expect(missionChance(0, 20, 0)).toBeCloseTo(0.2);
    expect(missionChance(0, 20, 100)).toBeCloseTo(0.1);
    expect(missionChance(0, 20, 300)).toBe(0.05);
    expect(missionChance(100, 0, 0)).toBe(0.95);
  });
  it("the alliance and treaty bonus is a percent of the chance, still at most 95%", () => {
    expect(withSpyBonus(0.5, 10)).toBeCloseTo(0.55);
    expect(withSpyBonus(0.9, 25)).toBe(0.95);
    expect(withSpyBonus(0.4, 0)).toBe(0.4);
  });
  it("spy defense from spies per acre and counter-intelligence, capped", () => {
    expect(computeSpyDefense({ spies: 50, land: 1000 })).toBe(50);
    expect(computeSpyDefense({ spies: 50, land: 1000 }, 105)).toBe(53);
    expect(computeSpyDefense({ spies: 1000, land: 1000 })).toBe(300);
  });
  it("spies to send between the requirement and min(available, 3 x requirement); invalid falls back to the minimum", () => {
    expect(clampSpiesToSend(MISSION_TYPES.military, 100, 40)).toBe(15);
    expect(clampSpiesToSend(MISSION_TYPES.military, 8, 40)).toBe(8);
    expect(clampSpiesToSend(MISSION_TYPES.military, 100, 1)).toBe(5);
    expect(clampSpiesToSend(MISSION_TYPES.military, 100, Number.NaN)).toBe(5);
  });
});

describe("the daily cap and cooldowns", () => {
  const spy = { spies: 100, turns: 10 };
  const now = Date.UTC(2026, 0, 10, 12);
  it("30 operations a day in all; the 31st is refused with 'Daily limit reached'", () => {
    expect(checkDailyLimit(usage(DAILY_OPS_LIMIT - 1), "general", 30)).toBeNull();
    expect(checkDailyLimit(usage(DAILY_OPS_LIMIT), "general", 30)).toMatchObject({ message: "Daily limit reached" });
    expect(checkSpyOperation(SPY_OPERATIONS.general_intelligence, spy, 10, usage(30))).toMatchObject({ message: "Daily limit reached" });
  });
  it("each type's own maximum", () => {
    expect(checkMission(MISSION_TYPES.military, spy, 5, usage(4, { military: 4 }), now)).toBeNull();
    expect(checkMission(MISSION_TYPES.military, spy, 5, usage(5, { military: 5 }), now)).toMatchObject({ message: "Daily limit reached" });
    expect(checkSpyOperation(SPY_OPERATIONS.sabotage, spy, 50, usage(3, { sabotage: 3 }))).toMatchObject({ message: "Daily limit reached" });
  });
  it("a type's cooldown runs from its last mission; general has none", () => {
    const last = now - 5 * HOUR_MS;
    expect(cooldownRemaining(MISSION_TYPES.military, last, now)).toBe(HOUR_MS);
    expect(checkMission(MISSION_TYPES.military, spy, 5, usage(1, { military: 1 }, { military: last }), now)).toMatchObject({ code: "espionage/cooldown", message: "This operation is on cooldown: ready in 1h 00m" });
    expect(checkMission(MISSION_TYPES.military, spy, 5, usage(1, { military: 1 }, { military: last }), now + HOUR_MS)).toBeNull();
    expect(cooldownRemaining(MISSION_TYPES.general, now, now)).toBe(0);
  });
  it("'Insufficient spies' below the requirement, too many above three times it", () => {
    expect(checkMission(MISSION_TYPES.military, { spies: 4, turns: 10 }, 4, usage(), now)).toMatchObject({ message: "Insufficient spies" });
    expect(checkMission(MISSION_TYPES.military, spy, 16, usage(), now)).toMatchObject({ code: "espionage/too_many_spies" });
    expect(checkSpyOperation(SPY_OPERATIONS.sabotage, { spies: 49, turns: 10 }, 49, usage())).toMatchObject({ message: "Insufficient spies" });
  });
  it("the day is the UTC day; the next reset is the next midnight", () => {
    const late = Date.UTC(2026, 0, 10, 23, 59, 59);
    expect(utcDay(late) + 1).toBe(utcDay(late + 1000));
    expect(nextResetAt(late)).toBe(Date.UTC(2026, 0, 11));
  });
});

describe("the dice", () => {
  it("a fixed seed gives a fixed outcome", () => {
    const a = rollOperation(Rng.fromSeed(42), 0.5, 20, 100, false);
    const b = rollOperation(Rng.fromSeed(42), 0.5, 20, 100, false);
    expect(a).toEqual(b);
    const outcomes = Array.from({ length: 20 }, (_, i) => rollOperation(Rng.fromSeed(i), 0.5, 20, 100, false).success);
    expect(outcomes).toEqual(Array.from({ length: 20 }, (_, i) => rollOperation(Rng.fromSeed(i), 0.5, 20, 100, false).success));
    expect(new Set(outcomes).size).toBe(2);
  });
  it("a failure loses 1 to ceil(30%) of the spies sent and is detected; spies never go negative", () => {
    for (let seed = 0; seed < 500; seed++) {
      const sent = 1 + (seed % 40);
      const owned = seed % 7 === 0 ? 0 : sent + (seed % 5);
      const o = rollOperation(Rng.fromSeed(seed), 0.05, sent, owned, false);
      if (o.success) continue;
      expect(o.detected).toBe(true);
      expect(o.spiesLost).toBeLessThanOrEqual(Math.min(owned, Math.ceil(sent * 0.3)));
      expect(o.spiesLost).toBeGreaterThanOrEqual(owned > 0 ? 1 : 0);
      expect(applySpyLosses(owned, o.spiesLost)).toBeGreaterThanOrEqual(0);
    }
    expect(applySpyLosses(3, 10)).toBe(0);
  });
  it("success is sometimes detected: 5% + a quarter of the failure chance (+15 for sabotage), at most 40%", () => {
    expect(detectionChance(1, false)).toBeCloseTo(0.05);
    expect(detectionChance(0.5, false)).toBeCloseTo(0.175);
    expect(detectionChance(0.05, true)).toBeCloseTo(0.4);
    let detected = 0;
    for (let seed = 0; seed < 2000; seed++) if (rollOperation(Rng.fromSeed(seed), 1, 10, 10, false).detected) detected++;
    expect(detected / 2000).toBeGreaterThan(0.03);
    expect(detected / 2000).toBeLessThan(0.07);
  });
  it("confidence from the success margin", () => {
    expect([60, 50, 49, 30, 29, 10, 9, 0].map(confidenceFromMargin)).toEqual(["verified", "verified", "high", "high", "medium", "medium", "low", "low"]);
  });
});

describe("sabotage is bounded", () => {
  const target: CountryState = { ...startingCountry(), oil: 200_000, buildings: { ...startingCountry().buildings, farms: 300, oil_rigs: 100 } };
  it("2% of buildings from the largest kind (at most 50), 5% of oil (at most 5,000)", () => {
    const d = computeSabotage(target, 0);
    expect(d).toEqual({ building: "farms", buildingsDestroyed: 8, oilDestroyed: 5_000 });
    const after = applySabotage(target, d);
    expect(after.buildings.farms).toBe(292);
    expect(after.oil).toBe(195_000);
  });
  it("nothing after the target's third successful sabotage in a day; nothing to destroy, nothing destroyed", () => {
    expect(computeSabotage(target, SABOTAGE_DAILY_TARGET_LIMIT)).toEqual({ building: null, buildingsDestroyed: 0, oilDestroyed: 0 });
    expect(computeSabotage(startingCountry(), 0)).toEqual({ building: null, buildingsDestroyed: 0, oilDestroyed: 5 });
  });
});

describe("training", () => {
  const c = { ...startingCountry(), land: 1000, spies: 40 };
  it("up to 5% of land, 5 per turn, $100 each", () => {
    expect(spyCapacity(1000)).toBe(50);
    expect(checkTraining(c, 10)).toBeNull();
    expect(checkTraining(c, 11)).toMatchObject({ code: "espionage/capacity", message: "Spy capacity reached: at most 50 spies (5% of land)" });
    expect(applyTraining(c, 10)).toMatchObject({ spies: 50, turns: c.turns - 2, cash: c.cash - 1000 });
    expect(checkTraining({ ...c, turns: 1 }, 6)).toMatchObject({ code: "espionage/not_enough_turns" });
    expect(checkTraining({ ...c, cash: 99 }, 1)).toMatchObject({ code: "espionage/insufficient_funds" });
  });
});

describe("reports", () => {
  const state: CountryState = { ...startingCountry(), land: 2000, population: 50_000, troops: 12_000, jets: 400, turrets: 900, tanks: 300, spies: 77 };
  const snap: TargetSnapshot = {
    id: 7,
    name: "Target",
    state,
    networth: 123_456,
    lastActive: 1,
    recentEvents: ["x"],
    alliance: null,
    relations: [],
    allies: [],
    enemies: [],
    market: { purchases: 0, purchaseValue: 0, sales: 0, saleValue: 0, standingOrders: 0, topItems: [] },
    military: { alertLevel: "medium", readiness: 100, recentBattles: 0, upkeep: 100, income: 500 },
  };
  it("verified reports are exact; others within their spread", () => {
    const v = buildIntelligence("military", snap, "verified", Rng.fromSeed(1));
    expect("military" in v && v.military.estimatedUnits).toEqual({ troops: 12_000, jets: 400, turrets: 900, tanks: 300, spies: 77 });
    for (const conf of ["high", "medium", "low"] as const) {
      for (let seed = 0; seed < 50; seed++) {
        const r = buildIntelligence("general", snap, conf, Rng.fromSeed(seed));
        if (!("general" in r)) throw new Error("general expected");
        const spread = CONFIDENCE_SPREAD[conf];
        expect(Math.abs(r.general.population - 50_000)).toBeLessThanOrEqual(Math.ceil(50_000 * spread));
        expect(Math.abs(r.general.landAcres - 2000)).toBeLessThanOrEqual(Math.ceil(2000 * spread));
      }
    }
  });
  it("percentages stay percentages at any confidence (issue 30 #22: a report estimated readiness at 112%)", () => {
    for (let seed = 0; seed < 200; seed++) {
      const m = buildIntelligence("military", snap, "low", Rng.fromSeed(seed));
      const g = buildIntelligence("general", { ...snap, military: { ...snap.military, readiness: 100 } }, "low", Rng.fromSeed(seed));
      if (!("military" in m) || !("general" in g)) throw new Error("military and general expected");
      expect(m.military.militaryReadiness).toBeLessThanOrEqual(100);
      expect(g.general.happiness).toBeLessThanOrEqual(100);
      expect(g.general.governmentStability).toBeLessThanOrEqual(100);
    }
  });
  it("expiry per type", () => {
    expect(reportExpiresAt("military", 0)).toBe(12 * HOUR_MS);
    expect(reportExpiresAt("general", 0)).toBe(24 * HOUR_MS);
    expect(reportExpiresAt("alliance", 0)).toBe(72 * HOUR_MS);
    expect(reportExpiresAt("market", 0)).toBe(12 * HOUR_MS);
  });
});

describe("properties", () => {
  it("spies never go negative and never lose more than ceil(30%) of those sent, for any seed, chance and force", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), fc.double({ min: 0, max: 2, noNaN: true }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.boolean(), (seed, chance, sent, owned, sabotage) => {
        const o = rollOperation(Rng.fromSeed(seed), chance, sent, owned, sabotage);
        expect(o.spiesLost).toBeGreaterThanOrEqual(0);
        expect(o.spiesLost).toBeLessThanOrEqual(Math.min(owned, Math.ceil((sent * 30) / 100)));
        expect(applySpyLosses(owned, o.spiesLost)).toBe(owned - o.spiesLost);
        if (!o.success) expect(o.detected).toBe(true);
        else expect(o.confidence).not.toBeNull();
      }),
    );
  });
  it("both success formulas stay inside their clamps", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), (s1, l1, s2, l2) => {
        for (const op of Object.values(SPY_OPERATIONS)) {
          const c = spyCenterChance(op.successBase, { spies: s1, land: l1 }, { spies: s2, land: l2 });
          expect(c).toBeGreaterThanOrEqual(Math.round(op.successBase / 2));
          expect(c).toBeLessThanOrEqual(op.successBase * 2);
        }
        for (const t of Object.values(MISSION_TYPES)) {
          const p = missionChance(forceRatio(s1, "tyranny", 100, true, l2), t.difficulty, computeSpyDefense({ spies: s2, land: l2 }, 150));
          expect(p).toBeGreaterThanOrEqual(0.05);
          expect(p).toBeLessThanOrEqual(0.95);
        }
      }),
    );
  });
});

describe("targets", () => {
  const spy = { id: 1, allianceId: 9 };
  const target = { id: 2, allianceId: null, protectedUntil: 0, isEliminated: false };
  it("anyone else can be spied on, protected or allied; sabotage respects protection and alliances", () => {
    expect(checkEspionageTarget(spy, { ...target, id: 1 }, false, 1000)).toMatchObject({ message: "You cannot spy on your own country" });
    expect(checkEspionageTarget(spy, { ...target, isEliminated: true }, false, 1000)).toMatchObject({ code: "espionage/target_eliminated" });
    expect(checkEspionageTarget(spy, { ...target, protectedUntil: 5000, allianceId: 9 }, false, 1000)).toBeNull();
    expect(checkEspionageTarget(spy, { ...target, protectedUntil: 5000 }, true, 1000)).toMatchObject({ message: "Target is under new player protection" });
    expect(checkEspionageTarget(spy, { ...target, allianceId: 9 }, true, 1000)).toMatchObject({ code: "espionage/same_alliance" });
    expect(checkEspionageTarget(spy, target, true, 1000)).toBeNull();
  });
});

describe("success previews: one rule for the preview, the screen and the roll (issue 30 #6, #22)", () => {
  const force = { spies: 10, land: 100, governmentType: "monarchy", spyTech: 0, inAlliance: false, bonusPct: 0 };
  it("an unknown target is assumed to hold the observer's spies per acre; a report's spies are used as they are", () => {
    expect(estimateSpyTarget({ spies: 10, land: 100 }, 300, null)).toEqual({ spies: 30, land: 300, basis: "estimate" });
    expect(estimateSpyTarget({ spies: 10, land: 100 }, 300, 4)).toEqual({ spies: 4, land: 300, basis: "intelligence" });
  });
  it("a mission's chance is the spec's formula with the (estimated) target's spy defense: parity counts the defense it implies", () => {
    const target = estimateSpyTarget(force, 100, null);
    const expected = missionChance(forceRatio(3, "monarchy", 0, false, 100), MISSION_TYPES.general.difficulty, computeSpyDefense(target, 105));
    expect(missionSuccess(MISSION_TYPES.general, force, 3, target, 105)).toBeCloseTo(expected, 12);
    // 0.5 + 0.1 x (0.03 - 1) - 0 - 105/1000: 30%, not the 40% a zero defense gave
    expect(shownChancePct(missionSuccess(MISSION_TYPES.general, force, 3, target, 105))).toBe(30);
  });
  it("a Spy Center operation at parity is its base; a sure one is shown as 100%", () => {
    expect(shownChancePct(operationSuccess(SPY_OPERATIONS.military_reconnaissance, force, estimateSpyTarget(force, 500, null)))).toBe(60);
    expect(shownChancePct(operationSuccess(SPY_OPERATIONS.military_reconnaissance, force, { spies: 0, land: 500 }))).toBe(100);
  });
});
