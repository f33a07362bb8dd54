import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GOVERNMENT_TYPES, startingCountry, type CountryState } from "./country.js";
import { computeCashFlowPerTurn, computeProductionPerTurn } from "./economy.js";
import { checkConstruction } from "./buildings.js";
import { checkResearchAllocation } from "./research.js";
import { MAX_TURNS, checkConvertStoredTurns } from "./turns.js";
import { computeGovernmentFit, computeRecommendations, computeSituation } from "./advisor.js";
import { computeCountryStatistics, noticeAllowed, planAutomation, AUTO_FARMS_MAX_PER_TICK, AUTO_MILITARY_MIN_TURNS } from "./manage.js";

const base = (patch: Partial<CountryState> = {}): CountryState => ({ ...startingCountry(), ...patch });

describe("country statistics", () => {
  it("computes the spec's ratios from the real numbers", () => {
    const c = base({ cash: 50_000, population: 2_000, food: 1_000, land: 200, troops: 300, jets: 10, tanks: 40, turrets: 50 });
    const s = computeCountryStatistics(c);
    expect(s.totalForces).toBe(400);
    expect(s.militaryLandRatio).toBe(2);
    expect(s.perCapitaIncome).toBe(25);
    expect(s.foodPerPopulation).toBe(0.5);
    expect(s.developmentIndex).toBeCloseTo(s.networth / 200);
  });
  it("is 0, not NaN, without population or land", () => {
    const s = computeCountryStatistics(base({ population: 0, land: 0 }));
    expect([s.perCapitaIncome, s.foodPerPopulation, s.developmentIndex, s.militaryLandRatio]).toEqual([0, 0, 0, 0]);
  });
});

describe("recommendations", () => {
  it("ranks a famine first and offers farms the construction rules accept", () => {
    const c = base({ food: 10, population: 5_000, turns: 100 });
    expect(computeProductionPerTurn(c).food).toBeLessThan(0);
    const recs = computeRecommendations(c, { allianceId: 1 });
    expect(recs[0]).toMatchObject({ id: "food", priority: "high" });
    const action = recs[0]!.action;
    if (action.kind === "build") expect(checkConstruction(c, { [action.building]: action.quantity })).toBeNull();
    else expect(action).toMatchObject({ kind: "navigate", view: "market" });
  });
  it("offers research the allocation rules accept when points are unspent", () => {
    const c = base({ researchPoints: 5_000, buildings: { ...startingCountry().buildings, research_labs: 2 } });
    const rec = computeRecommendations(c, { allianceId: 1 }).find((r) => r.id === "research")!;
    expect(rec.action.kind).toBe("research");
    if (rec.action.kind === "research") expect(checkResearchAllocation(c, { [rec.action.technology]: rec.action.points })).toBeNull();
  });
  it("converts stored turns up to the cap, and warns at the cap", () => {
    const c = base({ turns: 140, storedTurns: 30 });
    const rec = computeRecommendations(c, { allianceId: 1 }).find((r) => r.id === "stored-turns")!;
    expect(rec.action).toEqual({ kind: "convert_turns", quantity: 10 });
    expect(checkConvertStoredTurns(c, 10)).toBeNull();
    expect(computeRecommendations(base({ turns: MAX_TURNS }), { allianceId: 1 }).find((r) => r.id === "turns")?.priority).toBe("high");
  });
  it("suggests an alliance only to countries without one", () => {
    expect(computeRecommendations(base(), { allianceId: null }).some((r) => r.id === "alliance")).toBe(true);
    expect(computeRecommendations(base(), { allianceId: 3 }).some((r) => r.id === "alliance")).toBe(false);
  });
  it("always lists high before medium before low", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 5_000 }), (food, troops, turns, rp) => {
        const order = { high: 0, medium: 1, low: 2 } as const;
        const recs = computeRecommendations(base({ food, troops, turns, researchPoints: rp }), { allianceId: null });
        for (let i = 1; i < recs.length; i++) expect(order[recs[i - 1]!.priority]).toBeLessThanOrEqual(order[recs[i]!.priority]);
      }),
    );
  });
});

describe("situation and government advisor", () => {
  it("labels the military from forces per acre", () => {
    const weak = computeSituation(base({ troops: 0, turrets: 0, tanks: 0, land: 100 })).find((s) => s.id === "military")!;
    const strong = computeSituation(base({ troops: 1_000, land: 100 })).find((s) => s.id === "military")!;
    expect([weak.label, strong.label]).toEqual(["Weak", "Strong"]);
  });
  it("scores every government once, best first, and a famine favours food governments over neutral ones", () => {
    const fits = computeGovernmentFit(base({ food: 10, population: 5_000 }));
    expect(fits.map((f) => f.government).sort()).toEqual([...GOVERNMENT_TYPES].sort());
    for (let i = 1; i < fits.length; i++) expect(fits[i - 1]!.score).toBeGreaterThanOrEqual(fits[i]!.score);
    const fed = computeGovernmentFit(base({ food: 10_000_000, population: 100, buildings: { ...startingCountry().buildings, farms: 50 } }));
    const score = (list: typeof fits, g: string) => list.find((f) => f.government === g)!.score;
    expect(score(fits, "fascism")).toBeGreaterThan(score(fed, "fascism"));
  });
});

describe("auto-build plan", () => {
  it("plans nothing with every option off", () => {
    expect(planAutomation(base({ food: 0, researchPoints: 99_999, turns: 150 }), { autoFarms: false, autoResearch: false, autoMilitary: false })).toEqual({ farms: 0, research: {}, productionTurns: 0 });
  });
  it("builds at most the cap of farms when food is low, within the construction rules", () => {
    const c = base({ food: 10, population: 20_000, cash: 10_000_000, land: 1_000, turns: 100 });
    const plan = planAutomation(c, { autoFarms: true, autoResearch: false, autoMilitary: false });
    expect(plan.farms).toBeGreaterThan(0);
    expect(plan.farms).toBeLessThanOrEqual(AUTO_FARMS_MAX_PER_TICK);
    expect(checkConstruction(c, { farms: plan.farms })).toBeNull();
    expect(planAutomation({ ...c, food: 10_000_000 }, { autoFarms: true, autoResearch: false, autoMilitary: false }).farms).toBe(0);
  });
  it("researches one level the rules accept, and produces only near the turn cap", () => {
    const c = base({ researchPoints: 2_000, buildings: { ...startingCountry().buildings, research_labs: 1, industrial_complexes: 2 }, turns: AUTO_MILITARY_MIN_TURNS });
    const plan = planAutomation(c, { autoFarms: false, autoResearch: true, autoMilitary: true });
    expect(checkResearchAllocation(c, plan.research)).toBeNull();
    expect(plan.productionTurns).toBe(1);
    expect(planAutomation({ ...c, turns: AUTO_MILITARY_MIN_TURNS - 1 }, { autoFarms: false, autoResearch: false, autoMilitary: true }).productionTurns).toBe(0);
  });
});

describe("notify options", () => {
  const off = { notifyAttacks: false, notifyAlliance: false, notifyMarket: false };
  const on = { notifyAttacks: true, notifyAlliance: true, notifyMarket: true };
  it.each([
    [{ kind: "attacked", view: "military" }, false],
    [{ kind: "war_declared", view: "war-room" }, false],
    [{ kind: "member_joined", view: "alliances" }, false],
    [{ kind: "price_alert", view: "market" }, false],
    // the outcome of the player's own trade always shows
    [{ kind: "market_sale", view: "market" }, true],
    [{ kind: "season_started" }, true],
  ])("%o with every option off shows: %s", (notice, shown) => {
    expect(noticeAllowed(notice, off)).toBe(shown);
    expect(noticeAllowed(notice, on)).toBe(true);
  });
});

describe("war costs count in the advisor's cash flow (issue 30 #7: 'GROWING +$514/turn' while a $950/turn war drained the treasury)", () => {
  // a country that gains cash at peace
  const growing = base({ population: 20_000, land: 500, troops: 0, tanks: 0, turrets: 0, cash: 5_000 });
  const peace = computeProductionPerTurn(growing).cash;
  it("the economic situation and net cash include the declared wars' cost", () => {
    expect(peace).toBeGreaterThan(0);
    expect(computeSituation(growing).find((s) => s.id === "economic")!.label).toBe("Growing");
    const atWar = computeSituation(growing, peace + 950).find((s) => s.id === "economic")!;
    expect(atWar.label).toBe("Declining");
    expect(atWar.figures).toContainEqual({ label: "Net cash per turn", value: "-$950" });
    expect(atWar.figures).toContainEqual({ label: "Wars per turn", value: `-$${(peace + 950).toLocaleString("en-US")}` });
  });
  it("the cash drain recommendation counts the wars", () => {
    expect(computeRecommendations(growing, { allianceId: 1 }).some((r) => r.id === "cash")).toBe(false);
    const rec = computeRecommendations(growing, { allianceId: 1, warCostPerTurn: peace + 950 }).find((r) => r.id === "cash")!;
    expect(rec.description).toContain("Expenses exceed income by $950 per turn, wars included");
  });
  it("computeCashFlowPerTurn is taxes less maintenance, upkeep and wars", () => {
    const flow = computeCashFlowPerTurn(growing, 100);
    expect(flow.net).toBe(flow.taxes - flow.buildingMaintenance - flow.militaryUpkeep - 100);
    expect(flow.net).toBe(peace - 100);
  });
});
