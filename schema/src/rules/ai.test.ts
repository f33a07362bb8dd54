import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AI_PERSONALITIES, AI_PROFILES, nextAiIntent, type AiIntent, type AiPersonality, type AiView } from "./ai.js";
import { startingCountry, type CountryState } from "./country.js";
import { Rng } from "./rng.js";
import { checkConstruction } from "./buildings.js";
import { checkExploration } from "./exploration.js";
import { checkAttackTarget, checkAttackUnits } from "./combat.js";
import { checkResearchAllocation } from "./research.js";
import { checkStoreSell } from "./market.js";
import { checkProcessTurns } from "./economy.js";
import { computeNetworth } from "./networth.js";

const NOW = 1_800_000_000_000;

function view(country: CountryState, targets: AiView["targets"] = [], patch: Partial<AiView> = {}): AiView {
  const networth = computeNetworth(country);
  return {
    countryId: 1,
    country,
    self: { id: 1, networth, land: country.land, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null },
    targets,
    atWarWith: new Set(),
    now: NOW,
    ...patch,
  };
}

/** The rule the service runs for an intent: null when it would accept it. */
function serviceCheck(v: AiView, intent: AiIntent) {
  const c = v.country;
  switch (intent.kind) {
    case "explore":
      return checkExploration(c, intent.turns);
    case "build":
      return checkConstruction(c, intent.order);
    case "research_allocate":
      return checkResearchAllocation(c, intent.allocations);
    case "research_generate":
    case "produce":
      return checkProcessTurns(c, intent.kind === "produce" ? intent.turns : 1);
    case "store_sell":
      return checkStoreSell(c, intent.item, intent.quantity);
    case "attack": {
      const target = v.targets.find((t) => t.id === intent.targetId)!;
      return checkAttackUnits("standard_strike", intent.units, { troops: c.troops, jets: c.jets, tanks: c.tanks, turrets: c.turrets, spies: c.spies, missiles: c.missiles }) ?? checkAttackTarget(v.self, target, { now: v.now, atWar: false });
    }
  }
}

const armed = (patch: Partial<CountryState> = {}): CountryState => ({ ...startingCountry(), troops: 20_000, tanks: 500, turns: 100, cash: 500_000, ...patch });

describe("AI strategies", () => {
  it("the same view, personality and seed give the same intents", () => {
    for (const p of AI_PERSONALITIES) {
      const a = Rng.fromSeed(42);
      const b = Rng.fromSeed(42);
      const v = view(armed());
      const first = Array.from({ length: 20 }, () => nextAiIntent(v, p, a));
      const second = Array.from({ length: 20 }, () => nextAiIntent(v, p, b));
      expect(second).toEqual(first);
    }
  });

  it("every intent passes the check its service runs, whatever the country looks like", () => {
    const countries = fc.record({
      cash: fc.integer({ min: 0, max: 5_000_000 }),
      food: fc.integer({ min: 0, max: 500_000 }),
      turns: fc.integer({ min: 0, max: 150 }),
      troops: fc.integer({ min: 0, max: 50_000 }),
      tanks: fc.integer({ min: 0, max: 2_000 }),
      land: fc.integer({ min: 250, max: 5_000 }),
      researchPoints: fc.integer({ min: 0, max: 100_000 }),
      labs: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(countries, fc.constantFrom(...AI_PERSONALITIES), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n, personality: AiPersonality, seed) => {
        const base = startingCountry();
        const country = { ...base, ...n, buildings: { ...base.buildings, research_labs: n.labs } };
        const target = { id: 2, networth: computeNetworth(country), land: 600, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null };
        const v = view(country, [target]);
        const intent = nextAiIntent(v, personality, Rng.fromSeed(seed));
        if (intent) expect(serviceCheck(v, intent)).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("stops at its turn reserve", () => {
    for (const p of AI_PERSONALITIES) expect(nextAiIntent(view(armed({ turns: AI_PROFILES[p].turnReserve })), p, Rng.fromSeed(1))).toBeNull();
  });

  it("a raider attacks a fair target, never a protected one or one in its own alliance", () => {
    const me = armed();
    const nw = computeNetworth(me);
    const fair = { id: 3, networth: nw, land: 400, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null };
    const protectedTarget = { ...fair, id: 4, land: 4_000, protectedUntil: NOW + 1 };
    const ally = { ...fair, id: 5, land: 4_000, allianceId: 9 };
    const withLand = { ...me, buildings: { ...me.buildings } };
    const v = view(withLand, [protectedTarget, ally, fair], { self: { id: 1, networth: nw, land: me.land, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: 9 } });
    const rng = Rng.fromSeed(7);
    const attacks = Array.from({ length: 200 }, () => nextAiIntent(v, "raider", rng)).filter((i): i is Extract<AiIntent, { kind: "attack" }> => i?.kind === "attack");
    expect(attacks.length).toBeGreaterThan(0);
    expect(new Set(attacks.map((a) => a.targetId))).toEqual(new Set([3]));
    expect(attacks.every((a) => a.units.troops <= me.troops - 500)).toBe(true);
  });

  it("a turtle never attacks", () => {
    const me = armed();
    const target = { id: 3, networth: computeNetworth(me), land: 400, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null };
    const rng = Rng.fromSeed(3);
    expect(Array.from({ length: 300 }, () => nextAiIntent(view(me, [target]), "turtle", rng)).some((i) => i?.kind === "attack")).toBe(false);
  });

  it("a starving country builds farms first", () => {
    const base = startingCountry();
    const hungry = { ...base, food: 0, population: 50_000, troops: 30_000, land: 2_000, cash: 1_000_000 };
    const intent = nextAiIntent(view(hungry), "raider", Rng.fromSeed(5));
    expect(intent).toMatchObject({ kind: "build", order: { farms: expect.any(Number) } });
  });
});
