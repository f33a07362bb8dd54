import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeNetworth, computeExploration, performConstruction, performExploration, performProduction, startingCountry, GOVERNMENT_CHANGE_BASE_COST, GOVERNMENT_CHANGE_TURN_COST } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const country = async (token: string, id: number) => (await t.api("GET", `/country/${id}`, undefined, token)).body.country;
const setColumns = (id: number, columns: Record<string, number | string>) =>
  t.server.database.pool.query(
    `UPDATE countries SET ${Object.keys(columns)
      .map((c, i) => `${c} = $${i + 2}`)
      .join(", ")} WHERE id = $1`,
    [id, ...Object.values(columns)],
  );

describe("exploration", () => {
  it("exploring 5 turns from a fresh country gives the exact land, cash and turns of the rules", async () => {
    const p = await registerPlayer(t, "explore");
    const quote = computeExploration(startingCountry(), 5);
    // Monarchy at 100 acres: 45 acres per turn at floor(50 + 5 x 1) = 55 dollars per acre.
    expect(quote).toMatchObject({ acresPerTurn: 45, costPerAcre: 55, totalAcres: 225, totalCost: 12_375 });
    const expected = performExploration(startingCountry(), 5).next;

    const res = await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 5 }, p.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, turnsUsed: 5, acresGained: 225, totalCost: 12_375 });
    expect(res.body.turnResult).toMatchObject({ actionType: "exploration", turnsConsumed: 5, turnsRemaining: 95 });
    for (const field of ["taxRevenue", "expenses", "netCashChange", "foodProduced", "foodConsumed", "netFoodChange", "oilProduced", "oilConsumed", "netOilChange", "populationChange", "maintenanceCosts", "productionBonus"]) {
      expect(res.body.turnResult.economicEffects, field).toHaveProperty(field);
    }
    expect(res.body.turnResult.actionResults[0]).toMatchObject({ title: "Territory Explored", icon: "trending-up" });

    const c = await country(p.token, p.countryId);
    expect(c).toMatchObject({ land: "325", turns: 95, cash: String(expected.cash), food: String(expected.food), population: String(expected.population) });
    expect(Number(c.networth)).toBe(computeNetworth(expected));
  });

  it("POST /turns/consume with actionType exploration does the same", async () => {
    const p = await registerPlayer(t, "consume");
    const res = await t.api("POST", "/turns/consume", { countryId: p.countryId, quantity: 1, actionType: "exploration" }, p.token);
    expect(res).toMatchObject({ status: 200, body: { success: true, turnsUsed: 1, acresGained: 45 } });
    expect((await country(p.token, p.countryId)).land).toBe("145");
  });

  it.each([
    [0, "Turns must be between 1 and 50"],
    [51, "Turns must be between 1 and 50"],
    [-3, "Turns must be between 1 and 50"],
  ])("turnsToSpend %i is refused with '%s'", async (turns, message) => {
    const p = await registerPlayer(t, "exv");
    const res = await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: turns }, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: message } });
    expect((await country(p.token, p.countryId)).turns).toBe(100);
  });

  it("caps turns at the available turns and refuses fractions and strings", async () => {
    const p = await registerPlayer(t, "exc");
    await setColumns(p.countryId, { turns: 3 });
    expect((await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 4 }, p.token)).body.error).toBe("Turns must be between 1 and 3");
    expect(await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 1.5 }, p.token)).toMatchObject({ status: 400, body: { error: "turnsToSpend must be a whole number" } });
    expect((await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: "2" }, p.token)).status).toBe(400);
    await setColumns(p.countryId, { turns: 0 });
    expect((await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 1 }, p.token)).body.error).toBe("No turns available");
  });

  it("answers 'Insufficient funds. Need ${amount} more.' when unaffordable and changes nothing", async () => {
    const p = await registerPlayer(t, "exf");
    // 50 turns x 45 acres x 55 dollars = 123,750 > 100,000
    const res = await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 50 }, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: "Insufficient funds. Need $23,750 more." } });
    expect(await country(p.token, p.countryId)).toMatchObject({ cash: "100000", land: "100", turns: 100 });
  });
});

describe("error codes", () => {
  it("a rule rejection answers its rule's code beside the unchanged message", async () => {
    const p = await registerPlayer(t, "code");
    // 50 turns cost 123,750 > 100,000: checkExploration refuses with exploration/insufficient_funds
    const funds = await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 50 }, p.token);
    expect(funds).toMatchObject({ status: 400, body: { success: false, error: "Insufficient funds. Need $23,750 more.", code: "exploration/insufficient_funds" } });
    const capacity = await t.api("POST", "/buildings/construct-batch", { countryId: p.countryId, orders: { farms: 2 } }, p.token);
    expect(capacity).toMatchObject({ status: 400, body: { error: "Exceeds regular building capacity", code: "buildings/exceeds_capacity" } });
    expect(await country(p.token, p.countryId)).toMatchObject({ cash: "100000", land: "100", turns: 100, farms: 0 });
  });

  it("a zod refusal, another player's country, a bad token and an unknown route answer their codes", async () => {
    const p = await registerPlayer(t, "codz");
    const q = await registerPlayer(t, "codq");
    expect(await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 1.5 }, p.token)).toMatchObject({
      status: 400,
      body: { error: "turnsToSpend must be a whole number", code: "request/invalid" },
    });
    expect(await t.api("POST", "/exploration/explore", { countryId: q.countryId, turnsToSpend: 1 }, p.token)).toMatchObject({ status: 403, body: { code: "auth/forbidden" } });
    expect(await t.api("GET", `/country/${p.countryId}`, undefined, "not-a-token")).toMatchObject({ status: 401, body: { code: "auth/invalid_token" } });
    expect(await t.api("GET", "/no/such/route", undefined, p.token)).toMatchObject({ status: 404, body: { code: "request/unknown_route" } });
  });
});

describe("buildings", () => {
  it("building a farm from a fresh country gives the exact buildings, cash and turns of the rules", async () => {
    const p = await registerPlayer(t, "farm");
    const expected = performConstruction(startingCountry(), { farms: 1 });
    // Monarchy builds at 80 % of the table's price: a farm costs 1,200 instead of 1,500.
    expect(expected.quote).toMatchObject({ cost: 1_200, land: 2, turns: 1 });
    const res = await t.api("POST", "/buildings/construct", { countryId: p.countryId, buildingType: "farms", quantity: 1 }, p.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ buildingsBuilt: 1, totalCost: 1_200, landUsed: 2 });
    expect(res.body.turnResult).toMatchObject({ actionType: "construction", turnsConsumed: 1, turnsRemaining: 99 });
    const c = await country(p.token, p.countryId);
    expect(c).toMatchObject({ farms: 1, turns: 99, cash: String(expected.next.cash), food: String(expected.next.food) });
    expect(Number(c.networth)).toBe(computeNetworth(expected.next));
  });

  it("builds a mixed batch all at once, or nothing", async () => {
    const p = await registerPlayer(t, "batch");
    await setColumns(p.countryId, { construction_sites: 4 }); // capacity floor((1 + 1) x 1) = 2
    const ok = await t.api("POST", "/buildings/construct-batch", { countryId: p.countryId, orders: { farms: 1, residences: 1, construction_sites: 1 } }, p.token);
    expect(ok.status).toBe(200);
    expect(await country(p.token, p.countryId)).toMatchObject({ farms: 1, residential_areas: 1, construction_sites: 5 });
    const tooMany = await t.api("POST", "/buildings/construct-batch", { countryId: p.countryId, orders: { farms: 2, residences: 1 } }, p.token);
    expect(tooMany).toMatchObject({ status: 400, body: { error: "Exceeds regular building capacity" } });
    expect(await country(p.token, p.countryId)).toMatchObject({ farms: 1, residential_areas: 1 });
  });

  it.each([
    [{ buildingType: "construction_sites", quantity: 2 }, "Max 1 Construction Site per turn", {}],
    [{ buildingType: "farms", quantity: 2 }, "Exceeds regular building capacity", {}],
    [{ buildingType: "oil_rigs", quantity: 1 }, "Insufficient resources: cash. Need $1 more.", { cash: 6_399 }], // 8,000 x 80 % for monarchy
    [{ buildingType: "farms", quantity: 1 }, "Insufficient resources: free land. Need 1 more acre.", { land: 1 }],
    [{ buildingType: "industrial_complexes", quantity: 1 }, "Insufficient resources: turns. Need 2, have 1.", { turns: 1 }],
    [{ buildingType: "farms", quantity: -1 }, "Quantity cannot be negative", {}],
    [{ buildingType: "farms", quantity: 0 }, "Nothing to build", {}],
    [{ buildingType: "castles", quantity: 1 }, "Unknown building type", {}],
  ])("%o is refused with '%s' and changes nothing", async (order, message, columns) => {
    const p = await registerPlayer(t, "bv");
    if (Object.keys(columns).length) await setColumns(p.countryId, columns);
    const before = await country(p.token, p.countryId);
    const res = await t.api("POST", "/buildings/construct", { countryId: p.countryId, ...order }, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: message } });
    expect(await country(p.token, p.countryId)).toEqual(before);
  });

  it("answers costs and production of the own country", async () => {
    const p = await registerPlayer(t, "bcost");
    const costs = await t.api("GET", `/buildings/costs/${p.countryId}`, undefined, p.token);
    expect(costs.status).toBe(200);
    expect(costs.body.data.buildingsPerTurn).toBe(1);
    const production = await t.api("GET", `/buildings/production/${p.countryId}`, undefined, p.token);
    expect(production.body.data.currentBuildings).toMatchObject({ farms: 0, residences: 0 });
    expect(production.body.data.productionRates).toHaveProperty("food.total");
    const status = await t.api("GET", `/production/status/${p.countryId}`, undefined, p.token);
    expect(Object.keys(status.body.productionPerTurn).sort()).toEqual(["cash", "food", "jets", "oil", "tanks", "troops", "turrets"]);
  });
});

describe("ownership", () => {
  it("a player cannot act on or read the economy of another player's country: 403, nothing changed", async () => {
    const owner = await registerPlayer(t, "own");
    const other = await registerPlayer(t, "oth");
    const before = await country(owner.token, owner.countryId);
    const attempts: Array<[string, string, unknown]> = [
      ["POST", "/exploration/explore", { countryId: owner.countryId, turnsToSpend: 1 }],
      ["POST", "/turns/consume", { countryId: owner.countryId, quantity: 1, actionType: "exploration" }],
      ["POST", "/buildings/construct", { countryId: owner.countryId, buildingType: "farms", quantity: 1 }],
      ["POST", "/buildings/construct-batch", { countryId: owner.countryId, orders: { farms: 1 } }],
      ["POST", "/production/process", { countryId: owner.countryId, turnsToProcess: 1 }],
      ["POST", "/production/allocation", { countryId: owner.countryId, preset: "offensive" }],
      ["POST", "/research/generate", { countryId: owner.countryId }],
      ["POST", "/research/allocate", { countryId: owner.countryId, allocations: { agricultural: 100 } }],
      ["POST", "/turns/convert-stored", { countryId: owner.countryId, quantity: 1 }],
      ["GET", `/buildings/costs/${owner.countryId}`, undefined],
      ["GET", `/buildings/production/${owner.countryId}`, undefined],
      ["GET", `/production/status/${owner.countryId}`, undefined],
      ["GET", `/research/status/${owner.countryId}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.api(method, path, body, other.token);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.success).toBe(false);
    }
    expect(await country(owner.token, owner.countryId)).toEqual(before);
    // and without a token at all: 401
    expect((await t.api("POST", "/exploration/explore", { countryId: owner.countryId, turnsToSpend: 1 })).status).toBe(401);
  });
});

describe("concurrency", () => {
  it("100 parallel 1-turn explorations on a country with 100 turns: turns + successes = 100, nothing negative", async () => {
    const p = await registerPlayer(t, "race");
    const results = await Promise.all(Array.from({ length: 100 }, () => t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 1 }, p.token)));
    const successes = results.filter((r) => r.status === 200).length;
    const failures = results.filter((r) => r.status !== 200);
    for (const f of failures) {
      expect(f.status).toBe(400);
      expect(f.body.error).toMatch(/^(Insufficient funds\. Need \d+ more\.|No turns available)$/);
    }
    const c = await country(p.token, p.countryId);
    expect(c.turns + successes).toBe(100);
    for (const field of ["cash", "food", "oil", "population", "troops", "land"]) expect(Number(c[field]), field).toBeGreaterThanOrEqual(0);
    // No acre created or lost by the race: the land is exactly what the successes reported.
    const acresReported = results.filter((r) => r.status === 200).reduce((sum, r) => sum + r.body.acresGained, 0);
    expect(Number(c.land)).toBe(100 + acresReported);
    const history = await t.api("GET", "/turns/history?limit=100", undefined, p.token);
    expect(history.body.data.filter((r: any) => r.actionType === "exploration")).toHaveLength(successes);
  });
});

describe("production, research, government, stored turns, allocation", () => {
  it("processes production turns exactly as the rules do", async () => {
    const p = await registerPlayer(t, "prod");
    const expected = performProduction(startingCountry(), 3).next;
    const res = await t.api("POST", "/production/process", { countryId: p.countryId, turnsToProcess: 3 }, p.token);
    expect(res).toMatchObject({ status: 200, body: { turnsUsed: 3 } });
    expect(await country(p.token, p.countryId)).toMatchObject({ turns: 97, cash: String(expected.cash), troops: String(expected.troops) });
  });

  it("research: labs generate points, allocation raises the tech level, status shows it", async () => {
    const p = await registerPlayer(t, "res");
    expect((await t.api("POST", "/research/allocate", { countryId: p.countryId, allocations: { agricultural: 100 } }, p.token)).body.error).toBe("Research requires at least one research lab");
    await setColumns(p.countryId, { research_labs: 10 });
    const gen = await t.api("POST", "/research/generate", { countryId: p.countryId }, p.token);
    expect(gen.status).toBe(200);
    expect(gen.body.data.pointsGenerated).toBe(1_000);
    const status = await t.api("GET", `/research/status/${p.countryId}`, undefined, p.token);
    const agri = status.body.data.technologies.find((x: any) => x.id === "agricultural");
    expect(status.body.data.currentResearchPoints).toBe(1_000);
    const allocate = await t.api("POST", "/research/allocate", { countryId: p.countryId, allocations: { agricultural: agri.cost } }, p.token);
    expect(allocate.status).toBe(200);
    expect(allocate.body.turnResult.researchResults[0]).toMatchObject({ researchType: "agricultural", levelUp: true });
    const c = await country(p.token, p.countryId);
    expect(c.agricultural_tech).toBe(1);
    expect(Number(c.research_points)).toBe(1_000 - agri.cost);
    expect((await t.api("POST", "/research/allocate", { countryId: p.countryId, allocations: { agricultural: 10_000_000 } }, p.token)).status).toBe(400);
  });

  it("research: all eleven categories can be researched, are stored, owner-only, and change production", async () => {
    const p = await registerPlayer(t, "res11");
    const other = await registerPlayer(t, "res11peek");
    await setColumns(p.countryId, { research_labs: 1, research_points: 10_000_000 });
    const rounds = [
      ["military", "medical", "business", "agricultural", "spy"],
      ["residential", "warfare", "industrial"], // medical, military, business first
      ["military_strategy", "weapons"], // warfare; military and industrial
      ["sdi"], // weapons and military strategy
    ];
    for (const round of rounds) {
      const status = (await t.api("GET", `/research/status/${p.countryId}`, undefined, p.token)).body.data;
      const allocations: Record<string, number> = {};
      for (const id of round) {
        const card = status.technologies.find((x: any) => x.id === id);
        expect(card, id).toMatchObject({ state: "available", level: 0 });
        allocations[id] = card.cost;
      }
      const res = await t.api("POST", "/research/allocate", { countryId: p.countryId, allocations }, p.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.turnResult.researchResults.map((r: any) => [r.researchType, r.levelUp])).toEqual(round.map((id) => [id, true]));
    }
    const columns = ["military", "medical", "business", "residential", "agricultural", "warfare", "military_strategy", "weapons", "industrial", "spy", "sdi"].map((id) => `${id}_tech`);
    const own = await country(p.token, p.countryId);
    for (const column of columns) expect(own[column], column).toBe(1);
    const status = (await t.api("GET", `/research/status/${p.countryId}`, undefined, p.token)).body.data;
    expect(Object.values(status.technologyLevels)).toEqual(Array(11).fill(1));
    expect(status.productionBonuses).toMatchObject({ medical: 0.05, residential: 0.02, warfare: 0.03, military_strategy: 0.02, weapons: 0.02, sdi: 0.05 });
    // residential 1: the housing cap of 100 acres is 1,020 people
    expect((await t.api("GET", `/buildings/production/${p.countryId}`, undefined, p.token)).body.data.productionRates.population.total).toBe(1020);
    // networth counts the eleven levels at 2 each (written on the allocation)
    const expected = {
      ...startingCountry(),
      buildings: { ...startingCountry().buildings, research_labs: 1 },
      researchPoints: Number(own.research_points),
      tech: Object.fromEntries(Object.keys(startingCountry().tech).map((id) => [id, 1])) as ReturnType<typeof startingCountry>["tech"],
    };
    expect(Number(own.networth)).toBe(computeNetworth(expected));
    // another player sees no tech level
    const seen = (await t.api("GET", `/country/${p.countryId}`, undefined, other.token)).body.country;
    for (const column of columns) expect(seen, column).not.toHaveProperty(column);
  });

  it("government: the first change is free, the next one costs cash and turns, counters kept", async () => {
    const p = await registerPlayer(t, "gov");
    const first = await t.api("POST", "/country/change-government", { governmentType: "republic" }, p.token);
    expect(first.status).toBe(200);
    expect(await country(p.token, p.countryId)).toMatchObject({ government_type: "republic", has_used_free_government_change: true, government_change_count: 1, cash: "100000", turns: 100 });
    expect((await t.api("POST", "/country/change-government", { governmentType: "republic" }, p.token)).status).toBe(400);
    expect(await t.api("POST", "/country/change-government", { governmentType: "anarchy" }, p.token)).toMatchObject({ status: 400, body: { error: "Unknown government type" } });
    const second = await t.api("POST", "/country/change-government", { governmentType: "theocracy" }, p.token);
    expect(second.status).toBe(200);
    expect(second.body.cost).toEqual({ free: false, cash: GOVERNMENT_CHANGE_BASE_COST, turns: GOVERNMENT_CHANGE_TURN_COST });
    expect(await country(p.token, p.countryId)).toMatchObject({ government_type: "theocracy", government_change_count: 2, turns: 100 - GOVERNMENT_CHANGE_TURN_COST });
  });

  it("converts stored turns into available turns within the cap", async () => {
    const p = await registerPlayer(t, "stored");
    await setColumns(p.countryId, { turns: 140, stored_turns: 20 });
    expect((await t.api("POST", "/turns/convert-stored", { countryId: p.countryId, quantity: 11 }, p.token)).status).toBe(400);
    const ok = await t.api("POST", "/turns/convert-stored", { countryId: p.countryId, quantity: 10 }, p.token);
    expect(ok).toMatchObject({ status: 200, body: { turns: 150, storedTurns: 10 } });
  });

  it("stores the unit allocation: presets, exact 100 %, the spec's messages", async () => {
    const p = await registerPlayer(t, "alloc");
    expect((await t.api("POST", "/production/allocation", { countryId: p.countryId, preset: "air_power" }, p.token)).body.allocation).toEqual({ troops: 15, jets: 55, turrets: 15, tanks: 15 });
    expect((await t.api("POST", "/production/allocation", { countryId: p.countryId, troops: 50, jets: 50, turrets: 10, tanks: 0 }, p.token)).body.error).toBe("Over-allocated! Reduce percentages.");
    expect((await t.api("POST", "/production/allocation", { countryId: p.countryId, troops: 50, jets: 20, turrets: 10, tanks: 0 }, p.token)).body.error).toBe("20% unused capacity.");
    expect((await country(p.token, p.countryId)).unit_allocation).toEqual({ troops: 15, jets: 55, turrets: 15, tanks: 15 });
  });

  it("keeps a turn history readable by its owner only", async () => {
    const p = await registerPlayer(t, "hist");
    await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 2 }, p.token);
    await t.api("POST", "/buildings/construct", { countryId: p.countryId, buildingType: "farms", quantity: 1 }, p.token);
    const history = await t.api("GET", "/turns/history", undefined, p.token);
    expect(history.body.data.map((r: any) => r.actionType)).toEqual(["construction", "exploration"]);
    const other = await registerPlayer(t, "hist2");
    expect((await t.api("GET", "/turns/history", undefined, other.token)).body.data).toEqual([]);
  });
});
