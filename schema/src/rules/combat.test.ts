import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BUILDING_TYPES, GOVERNMENT_TYPES, TECHNOLOGY_IDS, UNIT_TYPES, emptyBuildings, startingCountry } from "./country.js";
import type { BuildingCounts, CountryState, TechnologyId } from "./country.js";
import { BUILDING_DEFINITIONS } from "./buildings.js";
import { TECHNOLOGIES } from "./research.js";
import { Rng } from "./rng.js";
import {
  ALLY_SUPPORT_PCT,
  ATTACK_TYPES,
  ATTACK_TYPE_IDS,
  DAILY_LAND_LOSS_CAP_PCT,
  DESERTION_LINE,
  PUBLIC_PREVIEW_NOTE,
  THREAT_SUCCESS,
  analyzeTarget,
  applyBattleToRecord,
  attackTypeSelectable,
  checkAttackTarget,
  checkAttackTech,
  checkAttackTurns,
  checkAttackUnits,
  clampUnitInput,
  computeAllySupport,
  computeDailyLandAllowance,
  computeForcePower,
  computeInterceptChance,
  computeLandGrabPct,
  computeProtectionStatus,
  defaultPosture,
  halfForces,
  isMissileAttack,
  powerBand,
  previewAttack,
  repeatHitFactor,
  resolveBattle,
  selectLandLoss,
  sizeClass,
  threatLevel,
  warRoomPower,
  winProbability,
  type AllyFacts,
  type AttackTypeId,
  type AttackerInput,
  type DefenderInput,
  type TargetFacts,
} from "./combat.js";

const all = (n: number) => ({ troops: n, jets: n, turrets: n, tanks: n, spies: n, missiles: n });

function country(patch: Partial<CountryState> = {}): CountryState {
  return { ...startingCountry(), ...patch };
}

function attackerInput(state: CountryState, patch: Partial<AttackerInput> = {}): AttackerInput {
  return { id: 1, name: "Attacker", state, posture: defaultPosture(), brigadeReadiness: 100, atWar: false, allies: [], ...patch };
}

function defenderInput(state: CountryState, patch: Partial<DefenderInput> = {}): DefenderInput {
  return { id: 2, name: "Defender", state, posture: defaultPosture(), deployedBrigades: 0, allies: [], landLostToday: 0, hitsToday: 0, ...patch };
}

describe("attack types (spec table)", () => {
  it.each([
    ["standard_strike", 2, ["troops", "tanks", "jets"], ["troops", "tanks", "jets", "turrets"], "ground", null],
    ["planned_strike", 2, ["troops", "tanks", "jets"], ["troops", "tanks", "jets", "turrets"], "special", null],
    ["guerrilla_strike", 2, ["troops"], ["troops"], "ground", null],
    ["bombing_run", 2, ["jets"], ["turrets"], "air", null],
    ["artillery_barrage", 2, ["tanks"], ["tanks"], "ground", null],
    ["missile", 3, [], ["turrets"], "missile", 10],
    ["nuclear_missile", 3, [], ["turrets"], "missile", 5],
    ["chemical_missile", 3, [], ["turrets"], "missile", 8],
    ["spy", 1, ["spies"], ["spies"], "special", null],
  ] as const)("%s: %d turns, sends %j, countered by %j, %s, max %s", (id, turns, allowed, counters, category, max) => {
    const t = ATTACK_TYPES[id];
    expect(t.turnCost).toBe(turns);
    expect([...t.allowedUnits].sort()).toEqual([...allowed].sort());
    expect([...t.countersFrom].sort()).toEqual([...counters].sort());
    expect(t.category).toBe(category);
    expect(t.maxUnits).toBe(max);
  });
});

describe("launch validation (the spec's messages, in its order)", () => {
  const have = { troops: 100, jets: 5, turrets: 100, tanks: 10, spies: 3, missiles: 4 };
  it.each<[AttackTypeId | null, Record<string, number>, string | null]>([
    [null, { troops: 10 }, "No attack type selected"],
    ["standard_strike", { troops: 10, spies: 1 }, "Spies can only be used for spy operations"],
    ["guerrilla_strike", { troops: 10, tanks: 1 }, "Tanks cannot be used for Guerrilla Strike"],
    ["standard_strike", { turrets: 5 }, "Turrets cannot be used for Standard Strike"],
    ["bombing_run", { troops: 5 }, "Troops cannot be used for Bombing Run"],
    ["artillery_barrage", { jets: 1 }, "Jets cannot be used for Artillery Barrage"],
    ["standard_strike", { troops: 101 }, "Insufficient troops: have 100, need 101"],
    ["bombing_run", { jets: 6 }, "Insufficient jets: have 5, need 6"],
    ["standard_strike", {}, "No units allocated for attack"],
    ["standard_strike", { troops: 9 }, "Minimum 10 units required for Standard Strike"],
    ["standard_strike", { troops: 9, tanks: 1 }, null],
    ["missile", { missiles: 5 }, "Insufficient missiles: have 4, need 5"],
    ["missile", {}, "Minimum 1 missiles required for Cruise Missile"],
    ["missile", { troops: 1 }, "Troops cannot be used for Cruise Missile"],
    ["spy", { spies: 3 }, null],
    ["spy", { spies: 4 }, "Insufficient spies: have 3, need 4"],
    ["standard_strike", { missiles: 1, troops: 10 }, "Missiles cannot be used for Standard Strike"],
  ])("%s %j -> %s", (type, units, message) => {
    expect(checkAttackUnits(type, units, have)?.message ?? null).toBe(message);
  });

  it.each([
    ["missile", 10, null],
    ["missile", 11, "Maximum 10 missiles allowed for Cruise Missile"],
    ["nuclear_missile", 5, null],
    ["nuclear_missile", 6, "Maximum 5 missiles allowed for Nuclear Missile"],
    ["chemical_missile", 8, null],
    ["chemical_missile", 9, "Maximum 8 missiles allowed for Chemical Missile"],
  ] as const)("missile maxima: %s x %d -> %s", (type, n, message) => {
    expect(checkAttackUnits(type, { missiles: n }, all(100))?.message ?? null).toBe(message);
  });

  it("turns: 'Insufficient turns: need 2, have {n}'", () => {
    expect(checkAttackTurns("standard_strike", 1)?.message).toBe("Insufficient turns: need 2, have 1");
    expect(checkAttackTurns("standard_strike", 2)).toBeNull();
    expect(checkAttackTurns("missile", 2)?.message).toBe("Insufficient turns: need 3, have 2");
    expect(checkAttackTurns("spy", 1)).toBeNull();
  });

  it("warheads need weapons research: chemical 2, nuclear 5", () => {
    const tech = startingCountry().tech;
    expect(checkAttackTech("missile", tech)).toBeNull();
    expect(checkAttackTech("chemical_missile", tech)?.message).toBe("Chemical Missile requires Weapons research level 2");
    expect(checkAttackTech("nuclear_missile", { ...tech, weapons: 4 })?.message).toBe("Nuclear Missile requires Weapons research level 5");
    expect(checkAttackTech("nuclear_missile", { ...tech, weapons: 5 })).toBeNull();
  });

  it("a card is unselectable with 'Insufficient units' when none of its units are owned; missiles always selectable", () => {
    const none = { troops: 0, jets: 0, turrets: 50, tanks: 0, spies: 0, missiles: 0 };
    expect(attackTypeSelectable("bombing_run", none)).toEqual({ selectable: false, reason: "Insufficient units" });
    expect(attackTypeSelectable("missile", none)).toEqual({ selectable: true, reason: null });
    expect(attackTypeSelectable("guerrilla_strike", { ...none, troops: 1 }).selectable).toBe(true);
  });

  it("inputs clamp to 0..owned; the 50% button sets half (missiles: half up to the type's maximum)", () => {
    expect(clampUnitInput(-5, 10)).toBe(0);
    expect(clampUnitInput(15, 10)).toBe(10);
    expect(clampUnitInput(3.7, 10)).toBe(3);
    expect(clampUnitInput(Number.NaN, 10)).toBe(0);
    expect(halfForces("standard_strike", { troops: 101, jets: 3, turrets: 50, tanks: 10, spies: 8, missiles: 0 })).toEqual({ troops: 50, tanks: 5, jets: 1 });
    expect(halfForces("nuclear_missile", { ...all(0), missiles: 30 })).toEqual({ missiles: 5 });
  });
});

describe("targeting: protection, band, GDI, war", () => {
  const now = 1_000_000_000_000;
  const facts = (patch: Partial<TargetFacts>): TargetFacts => ({ id: 2, networth: 10_000, land: 500, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null, ...patch });
  const me = facts({ id: 1 });
  it.each<[string, Partial<TargetFacts>, boolean, string | null]>([
    ["own country", { id: 1 }, false, "You cannot attack your own country"],
    ["eliminated", { isEliminated: true }, false, "That country has been eliminated"],
    ["new player", { protectedUntil: now + 1 }, false, "Target is under new player protection"],
    ["new player, even at war", { protectedUntil: now + 1 }, true, "Target is under new player protection"],
    ["too small", { networth: 3_999 }, false, "Target is too small to attack: its networth is under 40% of yours"],
    ["40% is in the band", { networth: 4_000 }, false, null],
    ["GDI out of band", { gdiMember: true, networth: 5_000 }, false, "Target is protected by the GDI: your networth is out of its range"],
    ["GDI out of band, at war", { gdiMember: true, networth: 5_000 }, true, null],
    ["GDI in band", { gdiMember: true, networth: 9_000 }, false, null],
    ["much larger is fine", { networth: 1_000_000 }, false, null],
  ])("%s", (_name, patch, atWar, message) => {
    expect(checkAttackTarget(me, facts(patch), { now, atWar })?.message ?? null).toBe(message);
  });

  it("same alliance is refused; a GDI member attacks only inside the band", () => {
    expect(checkAttackTarget({ ...me, allianceId: 7 }, facts({ allianceId: 7 }), { now, atWar: false })?.code).toBe("combat/same_alliance");
    expect(checkAttackTarget({ ...me, gdiMember: true }, facts({ networth: 5_000 }), { now, atWar: false })?.code).toBe("combat/gdi_member_out_of_range");
  });

  it("protection status: new player, then GDI, else unprotected", () => {
    expect(computeProtectionStatus({ protectedUntil: now + 1, gdiMember: true }, now)).toBe("new_player_protection");
    expect(computeProtectionStatus({ protectedUntil: now, gdiMember: true }, now)).toBe("gdi_protected");
    expect(computeProtectionStatus({ protectedUntil: 0, gdiMember: false }, now)).toBe("unprotected");
  });
});

describe("target analysis, war room (spec bands)", () => {
  it.each([
    [2.01, "impossible"],
    [2, "hard"],
    [1.51, "hard"],
    [1.5, "medium"],
    [1.21, "medium"],
    [1.2, "easy"],
    [0.1, "easy"],
  ] as const)("ratio %d -> %s", (ratio, level) => {
    expect(threatLevel(ratio)).toBe(level);
  });

  it.each([
    [2.1, "much_larger"],
    [1.3, "larger"],
    [1, "similar"],
    [0.7, "smaller"],
    [0.4, "much_smaller"],
  ] as const)("land ratio %d -> %s", (ratio, cls) => {
    expect(sizeClass(ratio)).toBe(cls);
  });

  it.each([
    [2, "OVERWHELMING"],
    [1.5, "SUPERIOR"],
    [1.2, "FAVORABLE"],
    [0.8, "EVEN"],
    [0.5, "CHALLENGING"],
    [0.49, "DANGEROUS"],
  ] as const)("power ratio %d -> %s", (ratio, band) => {
    expect(powerBand(ratio)).toBe(band);
  });

  it("player power = troops + jets x 10 + tanks x 5 + turrets x 8", () => {
    expect(warRoomPower({ troops: 1, jets: 1, tanks: 1, turrets: 1 })).toBe(24);
  });

  it("without intelligence only public fields count: military ratio, recommended units and band are unknown", () => {
    const own = { networth: 10_000, land: 100, units: { troops: 100, jets: 0, turrets: 100, tanks: 10 } };
    const target = { id: 9, name: "T", governmentType: "monarchy" as const, networth: 16_000, land: 300, victories: 0, defeats: 0 };
    const a = analyzeTarget(own, target, null);
    expect(a).toMatchObject({ basis: "public", militaryRatio: null, recommendedUnits: null, powerBand: null, threat: "hard", successChance: THREAT_SUCCESS.hard, sizeClass: "much_larger" });
    const withIntel = analyzeTarget(own, target, { estimatedUnits: { troops: 500, jets: 0, turrets: 100, tanks: 0, spies: 0 }, confidence: "high", gatheredAt: 0 });
    expect(withIntel).toMatchObject({ basis: "intelligence", militaryRatio: 2.86, threat: "impossible", recommendedUnits: 720, confidence: "high" });
    expect(withIntel.strategicValue).toBe(100);
  });
});

describe("land grab, diminishing returns, daily cap", () => {
  it("3% of the target's land at half the attacker's size, 8% at 1.5x, rising in between", () => {
    expect(computeLandGrabPct(1000, 500)).toBe(4);
    expect(computeLandGrabPct(1000, 1000)).toBe(7);
    expect(computeLandGrabPct(1000, 1500)).toBe(10);
    expect(computeLandGrabPct(1000, 100)).toBe(4);
    expect(computeLandGrabPct(1000, 9000)).toBe(10);
  });
  it("repeat hits: 0.75^k, at least 0.1; allowance: 15% of the day's starting land", () => {
    expect(repeatHitFactor(0)).toBe(1);
    expect(repeatHitFactor(2)).toBeCloseTo(0.5625);
    expect(repeatHitFactor(50)).toBe(0.1);
    expect(computeDailyLandAllowance(1000, 0)).toBe(150);
    expect(computeDailyLandAllowance(900, 100)).toBe(50);
    expect(computeDailyLandAllowance(850, 150)).toBe(0);
  });
  it("land loss never leaves buildings on more land than remains", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 8, maxLength: 8 }), fc.integer({ min: 0, max: 6000 }), fc.integer(), (land, counts, acres, seed) => {
        const buildings = Object.fromEntries(BUILDING_TYPES.map((t, i) => [t, counts[i]!])) as BuildingCounts;
        // shrink the buildings until they fit
        while (used(buildings) > land) for (const t of BUILDING_TYPES) buildings[t] = Math.floor(buildings[t] / 2);
        const loss = selectLandLoss(land, buildings, acres, Rng.fromSeed(seed >>> 0));
        expect(loss.acres).toBeGreaterThanOrEqual(0);
        expect(loss.acres).toBeLessThanOrEqual(land);
        expect(loss.acres).toBeGreaterThanOrEqual(Math.min(acres, land));
        const after = Object.fromEntries(BUILDING_TYPES.map((t) => [t, buildings[t] - loss.lost[t]])) as BuildingCounts;
        for (const t of BUILDING_TYPES) expect(after[t]).toBeGreaterThanOrEqual(0);
        expect(used(after)).toBeLessThanOrEqual(land - loss.acres);
      }),
      { numRuns: 300 },
    );
  });
});

function used(b: BuildingCounts): number {
  return BUILDING_TYPES.reduce((s, t) => s + b[t] * BUILDING_DEFINITIONS[t].land, 0);
}

describe("resolveBattle", () => {
  const big = country({ troops: 5_000, tanks: 500, jets: 200, turrets: 100, land: 1_000, population: 10_000, cash: 1_000_000 });
  const small = country({ troops: 500, tanks: 50, jets: 20, turrets: 300, land: 1_000, population: 10_000, cash: 200_000, buildings: { ...emptyBuildings(), farms: 50, residences: 100, industrial_complexes: 20, military_bases: 10 } });

  it("a fixed seed gives a fixed report", () => {
    const run = () => resolveBattle(attackerInput(big), defenderInput(small), { attackType: "standard_strike", units: { troops: 4_000, tanks: 400, jets: 100 } }, Rng.fromSeed(42));
    const first = run();
    expect(run()).toEqual(first);
    expect(first.result.outcome).toBe("attacker_victory");
    expect(first.result.landCaptured).toBeGreaterThan(0);
    expect(first.result.combatLog.length).toBeGreaterThan(3);
    const other = resolveBattle(attackerInput(big), defenderInput(small), { attackType: "standard_strike", units: { troops: 4_000, tanks: 400, jets: 100 } }, Rng.fromSeed(43));
    expect(other.result).not.toEqual(first.result);
  });

  it.each(ATTACK_TYPE_IDS)("%s: the phases write the combat log in order and end in the report's numbers (the replay)", (attackType) => {
    const armed = { ...big, missiles: 10, spies: 2_000, tech: { ...big.tech, weapons: 10 } };
    const units = isMissileAttack(attackType) ? { missiles: ATTACK_TYPES[attackType].maxUnits! } : Object.fromEntries(ATTACK_TYPES[attackType].allowedUnits.map((u) => [u, Math.floor(armed[u] / 2)]));
    for (const seed of [1, 2, 3]) {
      const out = resolveBattle(attackerInput(armed, { brigadeReadiness: isMissileAttack(attackType) ? null : 100, desertedBeforeBattle: seed === 2 }), defenderInput(small), { attackType, units }, Rng.fromSeed(seed));
      const r = out.result;
      expect(out.phases.flatMap((p) => p.lines)).toEqual(r.combatLog);
      expect(r.combatLog[0] === DESERTION_LINE).toBe(seed === 2);
      const last = out.phases.at(-1)!;
      expect(last).toMatchObject({
        attackPower: r.attackPower,
        defensePower: r.defensePower,
        attackerLosses: r.attackerCasualties,
        defenderLosses: r.defenderCasualties,
        landTaken: r.landCaptured + r.landDestroyed,
        buildingsLost: BUILDING_TYPES.reduce((s, t) => s + r.buildingsLost[t], 0),
        populationKilled: r.populationKilled,
        plunder: r.resourcesGained,
        missilesHit: r.missilesLaunched - r.missilesIntercepted,
        missilesIntercepted: r.missilesIntercepted,
      });
      // totals only grow from one step to the next
      for (let i = 1; i < out.phases.length; i++) expect(out.phases[i]!.landTaken).toBeGreaterThanOrEqual(out.phases[i - 1]!.landTaken);
    }
  });

  it("a weak attack on a strong defence fails, takes nothing and costs the attacker more", () => {
    const out = resolveBattle(attackerInput(small), defenderInput(big), { attackType: "standard_strike", units: { troops: 500 } }, Rng.fromSeed(1));
    expect(out.result.outcome).toBe("defender_victory");
    expect(out.result.landCaptured).toBe(0);
    expect(out.result.resourcesGained).toEqual({ cash: 0, food: 0, oil: 0 });
    expect(out.result.attackerCasualties.troops / 500).toBeGreaterThan(0.085);
  });

  it("victory needs more than 1.05 x defence (attack luck 0.9-1.1 around the power)", () => {
    expect(winProbability(100, 100)).toBeCloseTo(0.25);
    expect(winProbability(100, 200)).toBe(0);
    expect(winProbability(200, 100)).toBe(1);
  });

  it("war declaration (+10%) and planned strike (+50%) raise the attack power", () => {
    const order = { attackType: "standard_strike" as const, units: { troops: 1_000 } };
    const base = resolveBattle(attackerInput(big), defenderInput(small), order, Rng.fromSeed(5)).result.attackPower;
    const war = resolveBattle(attackerInput(big, { atWar: true }), defenderInput(small), order, Rng.fromSeed(5)).result.attackPower;
    const planned = resolveBattle(attackerInput(big), defenderInput(small), { ...order, attackType: "planned_strike" }, Rng.fromSeed(5)).result.attackPower;
    expect(war / base).toBeCloseTo(1.1, 2);
    expect(planned / base).toBeCloseTo(1.5, 2);
  });

  it("readiness halves the force at 0", () => {
    const order = { attackType: "standard_strike" as const, units: { troops: 1_000 } };
    const full = resolveBattle(attackerInput(big, { brigadeReadiness: 100 }), defenderInput(small), order, Rng.fromSeed(5)).result.attackPower;
    const none = resolveBattle(attackerInput(big, { brigadeReadiness: 0 }), defenderInput(small), order, Rng.fromSeed(5)).result.attackPower;
    expect(none / full).toBeCloseTo(0.5, 2);
  });

  it("each type fights with its own units against its counters", () => {
    const out = resolveBattle(attackerInput(big), defenderInput(small), { attackType: "bombing_run", units: { jets: 200 } }, Rng.fromSeed(9));
    expect(out.result.attackerForces).toEqual({ troops: 0, jets: 200, turrets: 0, tanks: 0, spies: 0 });
    expect(out.result.defenderForces).toEqual({ troops: 0, jets: 0, turrets: 300, tanks: 0, spies: 0 });
    expect(out.result.defenderCasualties.troops).toBe(0);
    const guerrilla = resolveBattle(attackerInput(big), defenderInput(small), { attackType: "guerrilla_strike", units: { troops: 5_000 } }, Rng.fromSeed(9));
    expect(guerrilla.result.outcome).toBe("attacker_victory");
    // guerrillas raze what they take
    expect(guerrilla.result.buildingsCaptured).toEqual(emptyBuildings());
  });

  it("the 15% daily cap stops land gains; a victory on an exhausted target takes none", () => {
    const out = resolveBattle(attackerInput(big), defenderInput(small, { landLostToday: Math.ceil((1000 * 0.15) / 0.85) + 1, hitsToday: 3 }), { attackType: "standard_strike", units: { troops: 4_000, tanks: 400 } }, Rng.fromSeed(3));
    expect(out.result.outcome).toBe("attacker_victory");
    expect(out.result.landCaptured).toBe(0);
  });

  it("missiles destroy land (nothing captured); SDI, air defense and turrets intercept", () => {
    const armed = country({ ...big, missiles: 10 });
    const out = resolveBattle(attackerInput(armed, { brigadeReadiness: null }), defenderInput(small), { attackType: "missile", units: { missiles: 10 } }, Rng.fromSeed(11));
    expect(out.attacker.missiles).toBe(0);
    expect(out.result.landCaptured).toBe(0);
    expect(out.result.missilesLaunched).toBe(10);
    expect(out.result.landDestroyed).toBeGreaterThan(0);
    expect(out.defender.land).toBe(small.land - out.result.landDestroyed);
    expect(out.attacker.land).toBe(armed.land);
    expect(computeInterceptChance({ ...small, tech: { ...small.tech, sdi: 10 }, turrets: 100_000 }, defaultPosture())).toBe(0.75);
    expect(computeInterceptChance({ ...small, turrets: 0 }, defaultPosture())).toBeCloseTo(0.05);
  });
});

describe("battle invariants (property)", () => {
  const n = (max: number) => fc.integer({ min: 0, max });
  const arbCountry: fc.Arbitrary<CountryState> = fc
    .record({
      governmentType: fc.constantFrom(...GOVERNMENT_TYPES),
      cash: n(5_000_000),
      food: n(1_000_000),
      oil: n(100_000),
      land: fc.integer({ min: 1, max: 20_000 }),
      population: n(200_000),
      troops: n(50_000),
      jets: n(5_000),
      turrets: n(20_000),
      tanks: n(5_000),
      spies: n(2_000),
      missiles: n(20),
      turns: n(150),
      storedTurns: n(180),
      buildings: fc.record(Object.fromEntries(BUILDING_TYPES.map((t) => [t, n(300)])) as Record<(typeof BUILDING_TYPES)[number], fc.Arbitrary<number>>),
      tech: fc.record(Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, n(TECHNOLOGIES[id].maxLevel)])) as Record<TechnologyId, fc.Arbitrary<number>>),
      researchPoints: n(1000),
      unitAllocation: fc.constant({ troops: 25, jets: 25, turrets: 25, tanks: 25 }),
    })
    .map((c) => {
      while (used(c.buildings) > c.land) for (const t of BUILDING_TYPES) c.buildings[t] = Math.floor(c.buildings[t] / 2);
      return c;
    });

  function arbOrder(a: CountryState): fc.Arbitrary<{ attackType: AttackTypeId; units: Record<string, number> }> {
    return fc.constantFrom(...ATTACK_TYPE_IDS).chain((attackType) => {
      const type = ATTACK_TYPES[attackType];
      if (isMissileAttack(attackType)) return fc.integer({ min: 1, max: Math.max(1, Math.min(type.maxUnits!, a.missiles)) }).map((m) => ({ attackType, units: { missiles: Math.min(m, a.missiles) } }));
      return fc.tuple(...type.allowedUnits.map((u) => fc.integer({ min: 0, max: a[u] }))).map((counts) => ({
        attackType,
        units: Object.fromEntries(type.allowedUnits.map((u, i) => [u, counts[i]!])),
      }));
    });
  }

  it("units, land, buildings, people and resources never go negative; defender's land lost = attacker's land gained + land destroyed", () => {
    fc.assert(
      fc.property(arbCountry, arbCountry, fc.integer({ min: 0, max: 0xffff_ffff }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (a, d, seed, lostToday, hits, atWar) => {
        fc.pre(true);
        const order = fc.sample(arbOrder(a), { seed, numRuns: 1 })[0]!;
        const out = resolveBattle(attackerInput(a, { atWar, brigadeReadiness: isMissileAttack(order.attackType) ? null : seed % 101 }), defenderInput(d, { landLostToday: lostToday, hitsToday: hits }), order, Rng.fromSeed(seed));
        for (const s of [out.attacker, out.defender]) {
          for (const k of ["cash", "food", "oil", "land", "population", "missiles", ...UNIT_TYPES] as const) {
            expect(s[k], k).toBeGreaterThanOrEqual(0);
            expect(Number.isSafeInteger(s[k]), k).toBe(true);
          }
          for (const t of BUILDING_TYPES) expect(s.buildings[t]).toBeGreaterThanOrEqual(0);
          expect(used(s.buildings)).toBeLessThanOrEqual(s.land);
        }
        const r = out.result;
        expect(d.land - out.defender.land).toBe(out.attacker.land - a.land + r.landDestroyed);
        expect(out.attacker.land - a.land).toBe(r.landCaptured);
        // units die, never appear
        for (const u of UNIT_TYPES) {
          expect(a[u] - out.attacker[u]).toBe(r.attackerCasualties[u]);
          expect(d[u] - out.defender[u]).toBe(r.defenderCasualties[u]);
        }
        // resources move, never appear
        for (const k of ["cash", "food", "oil"] as const) {
          expect(out.attacker[k] - a[k]).toBe(r.resourcesGained[k]);
          expect(d[k] - out.defender[k]).toBe(r.resourcesLost[k]);
          expect(r.resourcesGained[k]).toBe(r.resourcesLost[k]);
        }
        // the daily cap holds
        expect(r.landCaptured + r.landDestroyed).toBeLessThanOrEqual(Math.max(0, computeDailyLandAllowance(d.land, lostToday)) + 2);
        // buildings captured came from the buildings lost
        for (const t of BUILDING_TYPES) expect(r.buildingsCaptured[t]).toBeLessThanOrEqual(r.buildingsLost[t]);
        expect(r.outcome === "attacker_victory" || r.landCaptured === 0).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe("alliance support", () => {
  const ally = (id: number, troops: number): AllyFacts => ({
    id,
    name: `Ally ${id}`,
    governmentType: "monarchy",
    tech: startingCountry().tech,
    units: { troops, jets: 0, turrets: 40, tanks: 10, spies: 5 },
    networth: 5_000,
    lastActive: 0,
    protectedUntil: 0,
    isEliminated: false,
    readyBrigades: 5,
  });
  it("each ally lends 25% (floor) of the battle's unit types", () => {
    const s = computeAllySupport([ally(1, 103)], ["troops", "tanks"], Infinity);
    expect(s.contributions[0]!.units).toEqual({ troops: Math.floor((103 * ALLY_SUPPORT_PCT) / 100), tanks: 2 });
  });
  it("allied power never exceeds the side's own force", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 6 }), fc.integer({ min: 0, max: 50_000 }), (troops, cap) => {
        const s = computeAllySupport(
          troops.map((t, i) => ally(i + 1, t)),
          ["troops", "tanks"],
          cap,
        );
        expect(s.power).toBeLessThanOrEqual(cap + 1e-6);
        expect(s.contributions.reduce((x, c) => x + c.power, 0)).toBeCloseTo(s.power, 3);
      }),
    );
  });
});

describe("preview: only what the attacker may know", () => {
  const me = country({ troops: 2_000, tanks: 100 });
  const target = { id: 2, name: "T", governmentType: "monarchy" as const, networth: 5_000, land: 100, victories: 0, defeats: 0, landLostToday: 0, hitsToday: 0 };
  const attacker = { state: me, posture: defaultPosture(), brigadeReadiness: 100, atWar: false, allyPower: 0 };
  it("without intelligence: no defence estimate, the public band's chance, and it says so", () => {
    const p = previewAttack(attacker, target, { attackType: "standard_strike", units: { troops: 1_000 } }, null);
    expect(p.defensePower).toBeNull();
    expect(p.basis).toBe("public");
    expect(p.notes).toContain(PUBLIC_PREVIEW_NOTE);
    expect(p.successChance).toBe(p.analysis.successChance);
    // own force x the default deployment's expedition share (10% -> +2.5%), at full readiness
    expect(p.attackPower).toBe(Math.round(computeForcePower(me, { troops: 1_000 }) * 1.025));
  });
  it("the attacker's own alliance and treaty bonus counts as the battle counts it, and it says so", () => {
    const plain = previewAttack(attacker, target, { attackType: "standard_strike", units: { troops: 1_000 } }, null);
    const helped = previewAttack({ ...attacker, bonusPct: 21 }, target, { attackType: "standard_strike", units: { troops: 1_000 } }, null);
    expect(helped.attackPower).toBe(Math.round(computeForcePower(me, { troops: 1_000 }) * 1.025 * 1.21));
    expect(helped.attackPower).toBeGreaterThan(plain.attackPower);
    expect(helped.notes).toContain("Alliance and treaty bonuses: +21% attack strength.");
  });
  it("with intelligence: a defence range widening with lower confidence, chance clamped 5..95", () => {
    const units = { troops: 800, jets: 0, turrets: 100, tanks: 0, spies: 0 };
    const verified = previewAttack(attacker, target, { attackType: "standard_strike", units: { troops: 1_000 } }, { estimatedUnits: units, confidence: "verified", gatheredAt: 0 });
    const low = previewAttack(attacker, target, { attackType: "standard_strike", units: { troops: 1_000 } }, { estimatedUnits: units, confidence: "low", gatheredAt: 0 });
    expect(verified.basis).toBe("intelligence");
    expect(verified.defensePower!.low).toBe(verified.defensePower!.high);
    expect(low.defensePower!.high - low.defensePower!.low).toBeGreaterThan(0);
    for (const p of [verified, low]) {
      expect(p.successChance).toBeGreaterThanOrEqual(5);
      expect(p.successChance).toBeLessThanOrEqual(95);
    }
  });
});

describe("combat record", () => {
  it("counts victories, defeats, battles, land and a running efficiency", () => {
    let r = { victories: 0, defeats: 0, totalBattles: 0, totalLandCaptured: 0, combatEfficiency: 100 };
    r = applyBattleToRecord(r, true, 12, 80);
    expect(r).toEqual({ victories: 1, defeats: 0, totalBattles: 1, totalLandCaptured: 12, combatEfficiency: 80 });
    r = applyBattleToRecord(r, false, 0, 40);
    expect(r).toEqual({ victories: 1, defeats: 1, totalBattles: 2, totalLandCaptured: 12, combatEfficiency: 60 });
  });
});

describe("daily cap example", () => {
  it(`no country loses more than ${DAILY_LAND_LOSS_CAP_PCT}% of its land in a day, however often it is hit`, () => {
    let d = country({ land: 2_000, troops: 0, turrets: 0, tanks: 0, jets: 0, population: 100 });
    const a = country({ land: 2_000, troops: 100_000 });
    let lost = 0;
    for (let i = 0; i < 30; i++) {
      const out = resolveBattle(attackerInput(a), defenderInput(d, { landLostToday: lost, hitsToday: i }), { attackType: "standard_strike", units: { troops: 50_000 } }, Rng.fromSeed(i));
      lost += out.result.landCaptured;
      d = out.defender;
    }
    expect(lost).toBeLessThanOrEqual(300);
    expect(lost).toBeGreaterThan(200);
  });
});
