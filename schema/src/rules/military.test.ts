import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GOVERNMENT_TYPES, TECHNOLOGY_IDS, UNIT_TYPES, emptyBuildings, emptyTechLevels, startingCountry } from "./country.js";
import type { CountryState, GovernmentType, TechLevels, TechnologyId } from "./country.js";
import { TECHNOLOGIES } from "./research.js";
import {
  MILITARY_BASE_MAX_UPKEEP_REDUCTION_PCT,
  MILITARY_BASE_UPKEEP_REDUCTION_PCT,
  OFFENSIVE_UNIT_TYPES,
  PRODUCTION_PRESETS,
  PRODUCTION_PRESET_IDS,
  READINESS_CRITICAL,
  READINESS_CRITICAL_MESSAGE,
  READINESS_LOW,
  READINESS_LOW_MESSAGE,
  RECOMMENDED_MIN_COMPLEXES,
  UNIT_CAPACITY_PER_COMPLEX,
  UNIT_COMPLEXITY,
  UNIT_COST_WEIGHTS,
  UNIT_STATS,
  applyUnitAllocation,
  checkUnitAllocation,
  computeDefensiveCapability,
  computeMilitaryBaseUpkeepPct,
  computeMilitaryStatus,
  computeMilitaryStrength,
  computeMilitaryUpkeep,
  computeOffensiveCapability,
  computeOutputPerComplex,
  computeProductionBonusPct,
  computeReadiness,
  computeUnitProduction,
  computeUnitStrengthPct,
  effectiveAllocation,
  readinessWarning,
} from "./military.js";

const noUnits = { troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 };

function army(patch: Partial<CountryState>): CountryState {
  return { ...startingCountry(), ...noUnits, governmentType: "fascism", ...patch };
}

describe("unit table (spec: strength / upkeep)", () => {
  it.each([
    ["troops", 1, 0.5],
    ["jets", 3, 2],
    ["turrets", 1.5, 1],
    ["tanks", 2.5, 3],
    ["spies", 1, 1],
  ] as const)("%s: strength %d, upkeep %d", (unit, strength, upkeep) => {
    expect(UNIT_STATS[unit]).toEqual({ strength, upkeep });
  });

  it.each([
    ["troops", 1],
    ["turrets", 1.5],
    ["tanks", 2.5],
    ["jets", 3],
  ] as const)("%s cost weight and complexity %d", (unit, weight) => {
    expect(UNIT_COST_WEIGHTS[unit]).toBe(weight);
    expect(UNIT_COMPLEXITY[unit]).toBe(weight);
  });

  it("has the other military constants", () => {
    expect([UNIT_CAPACITY_PER_COMPLEX, RECOMMENDED_MIN_COMPLEXES, READINESS_LOW, READINESS_CRITICAL]).toEqual([25, 5, 50, 25]);
    expect([MILITARY_BASE_UPKEEP_REDUCTION_PCT, MILITARY_BASE_MAX_UPKEEP_REDUCTION_PCT]).toEqual([4, 40]);
  });
});

describe("presets", () => {
  it.each([
    ["balanced", 25, 25, 25, 25],
    ["defensive", 20, 10, 50, 20],
    ["offensive", 30, 30, 10, 30],
    ["air_power", 15, 55, 15, 15],
    ["ground_force", 40, 10, 20, 30],
  ] as const)("%s is troops %d, jets %d, turrets %d, tanks %d and valid", (id, troops, jets, turrets, tanks) => {
    expect(PRODUCTION_PRESETS[id]).toEqual({ troops, jets, turrets, tanks });
    expect(checkUnitAllocation(PRODUCTION_PRESETS[id])).toBeNull();
  });

  it("are exactly the five", () => {
    expect(PRODUCTION_PRESET_IDS).toEqual(["balanced", "defensive", "offensive", "air_power", "ground_force"]);
  });
});

describe("checkUnitAllocation", () => {
  it.each([
    [{ troops: 25, jets: 25, turrets: 25, tanks: 25 }, null, null],
    [{ troops: 100, jets: 0, turrets: 0, tanks: 0 }, null, null],
    [{ troops: 30, jets: 25, turrets: 25, tanks: 25 }, "production/over_allocated", "Over-allocated! Reduce percentages."],
    [{ troops: 20, jets: 25, turrets: 25, tanks: 25 }, "production/unused_capacity", "5% unused capacity."],
    [{ troops: 0, jets: 0, turrets: 0, tanks: 0 }, "production/unused_capacity", "100% unused capacity."],
    [{ troops: -10, jets: 60, turrets: 25, tanks: 25 }, "production/invalid_percentage", "Each percentage must be a whole number from 0 to 100"],
    [{ troops: 24.5, jets: 25.5, turrets: 25, tanks: 25 }, "production/invalid_percentage", "Each percentage must be a whole number from 0 to 100"],
  ])("%o -> %s", (allocation, code, message) => {
    const r = checkUnitAllocation(allocation);
    expect(r?.code ?? null).toBe(code);
    expect(r?.message ?? null).toBe(message);
  });

  it("applyUnitAllocation stores the split; an invalid stored split produces as balanced", () => {
    expect(applyUnitAllocation(startingCountry(), PRODUCTION_PRESETS.air_power).unitAllocation).toEqual(PRODUCTION_PRESETS.air_power);
    expect(effectiveAllocation({ troops: 100, jets: 100, turrets: 0, tanks: 0 })).toEqual(PRODUCTION_PRESETS.balanced);
  });
});

describe("production", () => {
  it.each([
    [25, "troops", 6], // floor(25 x 0.25 / 1)
    [25, "jets", 2], // floor(6.25 / 3)
    [25, "turrets", 4], // floor(6.25 / 1.5)
    [25, "tanks", 2], // floor(6.25 / 2.5)
    [100, "troops", 25],
    [55, "jets", 4], // floor(13.75 / 3)
    [50, "turrets", 8], // floor(12.5 / 1.5)
    [0, "tanks", 0],
  ] as const)("one complex at %d%% makes %s: %d (spec's floor(25 x a / 100 / complexity))", (pct, unit, n) => {
    expect(computeOutputPerComplex(pct, unit)).toBe(n);
  });

  it("matches the spec's formula for one complex with no bonus", () => {
    const c = army({ buildings: { ...emptyBuildings(), industrial_complexes: 1 } });
    expect(computeUnitProduction(c)).toEqual({ troops: 6, jets: 2, turrets: 4, tanks: 2 });
  });

  it.each([
    ["fascism", 0, { troops: 62, jets: 20, turrets: 41, tanks: 25 }],
    ["dictatorship", 0, { troops: 71, jets: 23, turrets: 47, tanks: 28 }],
    ["tyranny", 0, { troops: 75, jets: 25, turrets: 50, tanks: 30 }],
    ["communism", 0, { troops: 84, jets: 28, turrets: 56, tanks: 33 }],
    ["fascism", 10, { troops: 75, jets: 25, turrets: 50, tanks: 30 }],
  ] as const)("10 complexes, %s, industrial %d -> %o", (governmentType, industrial, out) => {
    const c = army({ governmentType, buildings: { ...emptyBuildings(), industrial_complexes: 10 }, tech: { ...startingCountry().tech, industrial } });
    expect(computeUnitProduction(c)).toEqual(out);
  });

  it("builds no jets or tanks without fuel", () => {
    const c = army({ buildings: { ...emptyBuildings(), industrial_complexes: 10 } });
    expect(computeUnitProduction(c, false)).toEqual({ troops: 62, jets: 0, turrets: 41, tanks: 0 });
  });

  it.each([
    ["fascism", 0, 0],
    ["communism", 0, 35],
    ["tyranny", 10, 44],
  ] as const)("production bonus of %s with industrial %d is %d%%", (governmentType, industrial, pct) => {
    expect(computeProductionBonusPct(army({ governmentType, tech: { ...startingCountry().tech, industrial } }))).toBe(pct);
  });
});

describe("upkeep per turn", () => {
  it.each([
    [{ troops: 100 }, "fascism", 0, 40], // 50 x 0.8
    [{ troops: 100 }, "democracy", 0, 55],
    [{ jets: 10, tanks: 10, spies: 10, turrets: 10 }, "republic", 0, 74], // 70 x 1.05 = 73.5, rounded up
    [{ troops: 1 }, "republic", 0, 1], // 0.525 rounded up
    [{ tanks: 100 }, "monarchy", 5, 216], // 300 x 0.9 x 0.8
    [{ tanks: 100 }, "monarchy", 50, 162], // 300 x 0.9 x 0.6 (cut capped at 40%)
  ] as const)("%o for %s with %d bases costs %d", (units, governmentType, bases, upkeep) => {
    expect(computeMilitaryUpkeep(army({ ...units, governmentType, buildings: { ...emptyBuildings(), military_bases: bases } }))).toBe(upkeep);
  });

  it("military bases cut 4% each, to at most 40%", () => {
    expect([0, 1, 10, 11].map(computeMilitaryBaseUpkeepPct)).toEqual([100, 96, 60, 60]);
  });
});

describe("strength", () => {
  // 100 of each: 100 x (1 + 3 + 1.5 + 2.5 + 1) = 900 base
  it.each([
    ["democracy", 0, 900],
    ["monarchy", 0, 990],
    ["dictatorship", 0, 1350],
    ["tyranny", 0, 1620],
    ["fascism", 10, 945], // +0.5% per military level
  ] as const)("100 of each unit for %s with military %d is %d", (governmentType, military, strength) => {
    const c = army({ troops: 100, jets: 100, turrets: 100, tanks: 100, spies: 100, governmentType, tech: { ...startingCountry().tech, military } });
    expect(computeMilitaryStrength(c)).toBe(strength);
  });

  it("warfare strengthens the offensive units of the spec's offensive capability", () => {
    expect(OFFENSIVE_UNIT_TYPES).toEqual(["troops", "jets", "tanks"]);
  });

  it.each<[Partial<TechLevels>, Record<string, number>]>([
    [{}, { troops: 100, jets: 100, turrets: 100, tanks: 100, spies: 100 }],
    [{ weapons: 15 }, { troops: 130, jets: 130, turrets: 130, tanks: 130, spies: 130 }],
    [{ warfare: 10 }, { troops: 130, jets: 130, turrets: 100, tanks: 130, spies: 100 }],
    [
      { weapons: 5, warfare: 4 },
      { troops: 122, jets: 122, turrets: 110, tanks: 122, spies: 110 },
    ],
    [
      { military_strategy: 10, military: 20 },
      { troops: 100, jets: 100, turrets: 100, tanks: 100, spies: 100 },
    ], // these multiply the total
  ])("unit strength percents with %o", (levels, pcts) => {
    const tech = { ...emptyTechLevels(), ...levels };
    expect(Object.fromEntries(UNIT_TYPES.map((u) => [u, computeUnitStrengthPct(tech, u)]))).toEqual(pcts);
  });

  // 100 of each unit: offensive (troops 100, jets 300, tanks 250) 650, turrets 150 and spies 100
  it.each<[GovernmentType, Partial<TechLevels>, number]>([
    ["democracy", {}, 900],
    ["democracy", { weapons: 5 }, 990], // 900 x 1.1
    ["democracy", { warfare: 10 }, 1095], // 650 x 1.3 + 250
    ["democracy", { military_strategy: 10 }, 1080], // 900 x 1.2
    ["democracy", { weapons: 15, warfare: 10 }, 1365], // 650 x 1.6 + 250 x 1.3
    ["tyranny", { warfare: 1 }, 1655], // (650 x 1.03 + 250) x 1.8 = 1655.1
    ["monarchy", { military: 20, weapons: 15, warfare: 10, military_strategy: 10 }, 1981], // 1365 x 1.1 x 1.1 x 1.2 = 1981.98
    ["fascism", { sdi: 10, medical: 10, residential: 10 }, 900], // civilian and missile defense tech do not touch unit strength
  ])("100 of each unit, %s with %o: %d", (governmentType, levels, strength) => {
    const c = army({ troops: 100, jets: 100, turrets: 100, tanks: 100, spies: 100, governmentType, tech: { ...emptyTechLevels(), ...levels } });
    expect(computeMilitaryStrength(c)).toBe(strength);
  });

  it("raising any tech level never lowers strength, and strength stays a safe integer for any army", () => {
    const levels = fc.record(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, fc.nat(TECHNOLOGIES[id].maxLevel)])) as Record<TechnologyId, fc.Arbitrary<number>>);
    fc.assert(
      fc.property(
        fc.record({ troops: fc.nat(1e9), jets: fc.nat(1e9), turrets: fc.nat(1e9), tanks: fc.nat(1e9), spies: fc.nat(1e9) }),
        fc.constantFrom(...GOVERNMENT_TYPES),
        levels,
        fc.constantFrom(...TECHNOLOGY_IDS),
        (units, governmentType, tech, raised) => {
          const before = computeMilitaryStrength(army({ ...units, governmentType, tech }));
          const higher = { ...tech, [raised]: Math.min(TECHNOLOGIES[raised].maxLevel, tech[raised] + 1) };
          const after = computeMilitaryStrength(army({ ...units, governmentType, tech: higher }));
          expect(Number.isSafeInteger(before)).toBe(true);
          expect(before).toBeGreaterThanOrEqual(0);
          expect(after).toBeGreaterThanOrEqual(before);
        },
      ),
    );
  });
});

describe("readiness, offense, defense", () => {
  it.each([
    [100_000, 0, 100],
    [0, 100, 0],
    [2400, 100, 0],
    [3600, 100, 50],
    [3599, 100, 49],
    [3000, 100, 25],
    [2999, 100, 24],
    [4800, 100, 100],
    [1_000_000, 100, 100],
  ])("cash %d, upkeep %d -> readiness %d", (cash, upkeep, readiness) => {
    expect(computeReadiness(cash, upkeep)).toBe(readiness);
  });

  it.each([
    [100, null],
    [50, null],
    [49, READINESS_LOW_MESSAGE],
    [25, READINESS_LOW_MESSAGE],
    [24, READINESS_CRITICAL_MESSAGE],
    [0, READINESS_CRITICAL_MESSAGE],
  ])("readiness %d warns %s", (readiness, warning) => {
    expect(readinessWarning(readiness)).toBe(warning);
  });

  it("offense is (troops + jets + tanks) / 10000; defense (turrets + troops/2) / 5000 capped at 100", () => {
    expect(computeOffensiveCapability({ troops: 5000, jets: 3000, tanks: 2000 })).toBe(1);
    expect(computeDefensiveCapability({ turrets: 4000, troops: 2000 })).toBe(1);
    expect(computeDefensiveCapability({ turrets: 10_000_000, troops: 0 })).toBe(100);
  });

  it("the starting country is ready and strong enough to show", () => {
    const s = computeMilitaryStatus(startingCountry());
    expect(s).toMatchObject({ totalStrength: 302, upkeep: 162, readiness: 100, warning: null, strengthMultiplier: 1.1 });
    expect(s.units).toHaveLength(5);
  });

  it("upkeep and strength are non-negative integers", () => {
    fc.assert(
      fc.property(fc.record({ troops: fc.nat(1e7), jets: fc.nat(1e7), turrets: fc.nat(1e7), tanks: fc.nat(1e7), spies: fc.nat(1e7) }), fc.constantFrom(...GOVERNMENT_TYPES), fc.nat(50), (units, governmentType, bases) => {
        const c = army({ ...units, governmentType, buildings: { ...emptyBuildings(), military_bases: bases } });
        for (const v of [computeMilitaryUpkeep(c), computeMilitaryStrength(c)]) {
          expect(Number.isSafeInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------
// Brigades, deployment, defense allocation, missiles, GDI (designed; docs/rules.md)

import {
  ALERT_EFFECTS,
  BRIGADE_COUNT,
  BRIGADE_DUTY_MS,
  DEFAULT_DEFENSE_ALLOCATION,
  DEFAULT_DEPLOYMENT,
  GDI_MIN_MEMBERSHIP_MS,
  GDI_REJOIN_COOLDOWN_MS,
  HOUR_MS,
  MISSILE_PRICE,
  PLANNED_STRIKE_REHAB_MS,
  applyAttackFatigue,
  applyBuyMissiles,
  applyRecoverReadiness,
  applyReduceReadiness,
  applySliderChange,
  applyUseBrigade,
  availableForAttack,
  brigadeStatus,
  checkBuyMissiles,
  checkDefenseAllocation,
  checkDeployment,
  checkJoinGdi,
  checkLeaveGdi,
  checkRecoverReadiness,
  checkReduceReadiness,
  checkUseBrigade,
  completeBrigades,
  computeBrigadeReadiness,
  computeDeploymentGroups,
  computeEffectiveReadiness,
  computeGdiFee,
  computeMissileCapacity,
  computePostureEffects,
  computeRecoveryCost,
  countReadyBrigades,
  defaultBrigade,
  pickAttackBrigade,
  type BrigadeRecord,
} from "./military.js";

describe("brigades", () => {
  const now = 100 * HOUR_MS;
  it("five brigades, fresh ones at full readiness and ready", () => {
    const all = completeBrigades([]);
    expect(all).toHaveLength(BRIGADE_COUNT);
    expect(all.map((b) => brigadeStatus(b, now))).toEqual(["ready", "ready", "ready", "ready", "ready"]);
    expect(countReadyBrigades(all, now)).toBe(5);
  });

  it("readiness recovers 10 points per full hour, up to 100", () => {
    const b: BrigadeRecord = { ...defaultBrigade(1), readiness: 30, readinessAt: now };
    expect(computeBrigadeReadiness(b, now + HOUR_MS - 1)).toBe(30);
    expect(computeBrigadeReadiness(b, now + 3 * HOUR_MS)).toBe(60);
    expect(computeBrigadeReadiness(b, now + 30 * HOUR_MS)).toBe(100);
    expect(brigadeStatus(b, now)).toBe("recovering");
    expect(brigadeStatus(b, now + HOUR_MS)).toBe("ready");
  });

  it("an attack tires its brigade by 30 (planned: 50 and 12 hours of rehabilitation)", () => {
    const b = defaultBrigade(2);
    expect(applyAttackFatigue(b, now, false)).toMatchObject({ readiness: 70, readinessAt: now, lastDeployed: now, rehabUntil: null });
    const planned = applyAttackFatigue(b, now, true);
    expect(planned).toMatchObject({ readiness: 50, rehabUntil: now + PLANNED_STRIKE_REHAB_MS });
    expect(brigadeStatus(planned, now + 1)).toBe("recovering");
  });

  it("the readiest ready brigade leads; none ready is refused", () => {
    const tired = [1, 2, 3, 4, 5].map((slot) => ({ ...defaultBrigade(slot), readiness: slot === 4 ? 90 : 10, readinessAt: now }));
    expect((pickAttackBrigade(tired, now) as BrigadeRecord).slot).toBe(4);
    const exhausted = tired.map((b) => ({ ...b, readiness: 0 }));
    expect(pickAttackBrigade(exhausted, now)).toEqual({ code: "brigade/none_ready", message: "No brigade ready: every brigade is deployed or recovering" });
    expect((pickAttackBrigade(tired, now, 1) as { code: string }).code).toBe("brigade/recovering");
  });

  it("use-brigade: 12 hours of defensive duty for 20 readiness; reduce-readiness recalls it", () => {
    expect(checkUseBrigade([], 1, now)).toBeNull();
    const deployed = applyUseBrigade([], 1, now);
    expect(deployed).toMatchObject({ readiness: 80, deployedUntil: now + BRIGADE_DUTY_MS });
    expect(brigadeStatus(deployed, now)).toBe("deployed");
    expect(brigadeStatus(deployed, now + BRIGADE_DUTY_MS)).toBe("ready");
    expect(checkUseBrigade([deployed], 1, now)?.message).toBe("Brigade Alpha is already deployed");
    expect((pickAttackBrigade([deployed], now, 1) as { code: string }).code).toBe("brigade/deployed");
    expect(checkReduceReadiness([], 1, now)?.message).toBe("Brigade Alpha is not deployed");
    expect(checkReduceReadiness([deployed], 1, now)).toBeNull();
    expect(brigadeStatus(applyReduceReadiness([deployed], 1, now), now)).toBe("ready");
    expect(checkUseBrigade([], 6, now)?.code).toBe("brigade/unknown");
    expect(checkUseBrigade([{ ...defaultBrigade(2), readiness: 19, readinessAt: now }], 2, now)?.message).toBe("Brigade Bravo is too exhausted to deploy");
  });

  it("recover-readiness: missing points x 24 turns of upkeep / 100, at least 100 a turn", () => {
    const b = { ...defaultBrigade(3), readiness: 40, readinessAt: now };
    expect(computeRecoveryCost(b, now, 1_000)).toBe(Math.ceil((60 * 24 * 1_000) / 100));
    expect(computeRecoveryCost(b, now, 10)).toBe(Math.ceil((60 * 24 * 100) / 100));
    expect(checkRecoverReadiness([b], 3, now, 14_399, 1_000)?.message).toBe("Insufficient funds. Need $1 more.");
    expect(checkRecoverReadiness([b], 3, now, 14_400, 1_000)).toBeNull();
    expect(applyRecoverReadiness([b], 3, now, 1_000)).toEqual({ brigade: { ...b, readiness: 100, readinessAt: now }, cost: 14_400 });
    expect(checkRecoverReadiness([], 3, now, 1e9, 1_000)?.message).toBe("Brigade Charlie is already at full readiness");
  });

  it("effective readiness never exceeds the country's (cash against 24 turns of upkeep)", () => {
    expect(computeEffectiveReadiness(100, 30)).toBe(30);
    expect(computeEffectiveReadiness(40, 100)).toBe(40);
  });

  it("units in rehabilitation defend but cannot attack", () => {
    const c = { ...startingCountry(), troops: 100, jets: 5, tanks: 10, missiles: 2 };
    expect(availableForAttack(c, { troops: 30, jets: 10, tanks: 0 })).toEqual({ troops: 70, jets: 0, tanks: 10, turrets: 100, spies: 0, missiles: 2 });
  });
});

describe("deployment, defense allocation, alert level", () => {
  it("the spec's defaults and the 100% cap", () => {
    expect(DEFAULT_DEPLOYMENT).toEqual({ garrison: 40, patrol: 30, reserve: 20, expedition: 10 });
    expect(DEFAULT_DEFENSE_ALLOCATION).toEqual({ garrison: 40, perimeter: 30, airDefense: 20, counterIntel: 10 });
    expect(checkDeployment({ garrison: 50, patrol: 30, reserve: 20, expedition: 10 })?.message).toBe("Deployment cannot exceed 100% (now 110%)");
    expect(checkDeployment({ garrison: 0, patrol: 0, reserve: 0, expedition: 0 })).toBeNull();
    expect(checkDefenseAllocation({ garrison: 101, perimeter: 0, airDefense: 0, counterIntel: 0 })?.code).toBe("military/invalid_defense");
  });

  it("a slider change that would push the total above 100 is ignored", () => {
    const d = { ...DEFAULT_DEPLOYMENT };
    expect(applySliderChange(d, "garrison", 41)).toBe(d);
    expect(applySliderChange(d, "garrison", 30)).toEqual({ ...d, garrison: 30 });
    expect(applySliderChange({ ...d, garrison: 30 }, "patrol", 40)).toEqual({ ...d, garrison: 30, patrol: 40 });
  });

  it("each share gives a quarter of itself: defaults +10% defence, +2.5% attack, -7.5% land lost, -5% losses", () => {
    const e = computePostureEffects(DEFAULT_DEPLOYMENT, DEFAULT_DEFENSE_ALLOCATION, "medium");
    expect(e).toMatchObject({ defensePct: 110, attackPct: 102.5, landLossPct: 92.5, casualtiesPct: 95, defendingCasualtiesPct: 90, groundDefensePct: 107.5, airDefensePct: 105, spyDefensePct: 105, missileInterceptPct: 5 });
    const critical = computePostureEffects(DEFAULT_DEPLOYMENT, DEFAULT_DEFENSE_ALLOCATION, "critical");
    expect(critical.defensePct).toBeCloseTo((110 * ALERT_EFFECTS.critical.defensePct) / 100);
    expect(critical.attackPct).toBeCloseTo(102.5 * 0.75);
  });

  it("unit counts per group", () => {
    expect(computeDeploymentGroups({ troops: 101, jets: 10, turrets: 0, tanks: 3 }, DEFAULT_DEPLOYMENT).garrison).toEqual({ troops: 40, jets: 4, turrets: 0, tanks: 1 });
  });
});

describe("missiles", () => {
  it("stored 2 per military base, $20,000 each", () => {
    const c = { ...startingCountry(), buildings: { ...emptyBuildings(), military_bases: 3 } };
    expect(computeMissileCapacity(c)).toBe(6);
    expect(checkBuyMissiles(startingCountry(), 1)?.code).toBe("missiles/no_bases");
    expect(checkBuyMissiles(c, 7)?.message).toBe("Your military bases store 6 missiles: room for 6 more");
    expect(checkBuyMissiles(c, 0)?.code).toBe("missiles/invalid_quantity");
    expect(checkBuyMissiles({ ...c, cash: 39_999 }, 2)?.message).toBe("Insufficient funds. Need $1 more.");
    expect(checkBuyMissiles(c, 5)).toBeNull();
    expect(applyBuyMissiles(c, 5)).toMatchObject({ missiles: 5, cash: 100_000 - 5 * MISSILE_PRICE });
  });
});

describe("GDI", () => {
  const now = 1_000 * HOUR_MS;
  it("joining costs $100 an acre (at least $5,000); leaving waits 24 hours of membership; rejoining waits 24 hours", () => {
    expect(computeGdiFee(10)).toBe(5_000);
    expect(computeGdiFee(300)).toBe(30_000);
    const c = startingCountry();
    expect(checkJoinGdi(c, { member: false, joinedAt: null, leftAt: null }, now)).toBeNull();
    expect(checkJoinGdi({ ...c, cash: 4_000 }, { member: false, joinedAt: null, leftAt: null }, now)?.message).toBe("Insufficient funds. Need $6,000 more.");
    expect(checkJoinGdi(c, { member: true, joinedAt: now, leftAt: null }, now)?.code).toBe("gdi/already_member");
    expect(checkJoinGdi(c, { member: false, joinedAt: null, leftAt: now - GDI_REJOIN_COOLDOWN_MS + HOUR_MS }, now)?.message).toBe("You left the GDI recently: you can join again in 1 hour(s)");
    expect(checkLeaveGdi({ member: true, joinedAt: now - GDI_MIN_MEMBERSHIP_MS + 1, leftAt: null }, now)?.code).toBe("gdi/min_membership");
    expect(checkLeaveGdi({ member: true, joinedAt: now - GDI_MIN_MEMBERSHIP_MS, leftAt: null }, now)).toBeNull();
    expect(checkLeaveGdi({ member: false, joinedAt: null, leftAt: null }, now)?.code).toBe("gdi/not_member");
  });
});
