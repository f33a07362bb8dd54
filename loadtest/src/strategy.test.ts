import { describe, expect, it } from "vitest";
import { ownJsonFieldsOfState, type OwnCountryJson, type PublicCountryJson, type StoreItemJson, type WarDeclarationJson } from "@game/schema/api";
import { AI_INTENT_KINDS, AI_TARGET_LIST_SIZE, AI_PERSONALITIES, nextAiIntent, Rng, startingCountry, type AiIntent, type CountryState } from "@game/schema/rules";
import { buildAiView, intentRequest, INTENT_ROUTES, listingOffset, personalityOf, strategyRng, targetFactsOf, verdictOf } from "./strategy.js";

const NOW = Date.parse("2030-01-01T00:00:00Z");

/** A public view as GET /api/countries lists it (numeric columns as strings). */
function listed(id: number, networth: number, land: number, extra: Partial<PublicCountryJson> = {}): PublicCountryJson {
  return {
    id,
    name: `C${id}`,
    government_type: "monarchy",
    networth: String(networth),
    land: String(land),
    victories: 0,
    defeats: 0,
    total_battles: 0,
    is_ai: false,
    is_eliminated: false,
    alliance_id: null,
    gdi_protection: false,
    created_at: "2029-12-01T00:00:00.000Z",
    last_active: "2029-12-31T00:00:00.000Z",
    protected_until: "2029-12-02T00:00:00.000Z",
    protection_status: "unprotected",
    ...extra,
  };
}

/** The own view of `state` the server answers (GET /api/country/:id of one's own). */
function ownJson(id: number, state: CountryState, networth: number): OwnCountryJson {
  return { ...listed(id, networth, state.land), has_used_free_government_change: false, government_change_count: 0, ...ownJsonFieldsOfState(state) } as unknown as OwnCountryJson;
}

function war(targetId: number, isDeclarer: boolean, endedAt: string | null): WarDeclarationJson {
  return {
    id: targetId,
    declarerId: 1,
    declarerName: "a",
    targetId,
    targetName: "b",
    status: endedAt ? "ended" : "active",
    declaredAt: "",
    remainingTime: 0,
    endedAt,
    endReason: null,
    totalCost: 0,
    costPerTurn: 0,
    isDeclarer,
    canEnd: false,
  } as unknown as WarDeclarationJson;
}

describe("intentRequest: every AI intent kind as the browser's request", () => {
  const countryId = 42;
  const cases: Array<[AiIntent, string, unknown]> = [
    [{ kind: "explore", turns: 3 }, "/api/exploration/explore", { countryId, turnsToSpend: 3 }],
    [{ kind: "build", order: { farms: 5 } }, "/api/buildings/construct-batch", { countryId, orders: { farms: 5 } }],
    [{ kind: "research_generate" }, "/api/research/generate", { countryId }],
    [{ kind: "research_allocate", allocations: { agricultural: 120 } }, "/api/research/allocate", { countryId, allocations: { agricultural: 120 } }],
    [{ kind: "produce", turns: 1 }, "/api/production/process", { countryId, turnsToProcess: 1 }],
    [{ kind: "store_sell", item: "food", quantity: 2_000 }, "/api/market/store/sell", { countryId, itemId: "food", quantity: 2_000 }],
    [{ kind: "store_buy", item: "turrets", quantity: 300 }, "/api/market/store/buy", { countryId, itemId: "turrets", quantity: 300 }],
    [{ kind: "spy_train", quantity: 10 }, "/api/spy/train", { countryId, quantity: 10 }],
    [{ kind: "spy_mission", missionType: "military", targetId: 7, spiesUsed: 5 }, "/api/intelligence/missions", { type: "military", targetCountryId: 7, spiesUsed: 5 }],
    [{ kind: "spy_operation", operationType: "military_reconnaissance", targetId: 7, spiesUsed: 25 }, "/api/spy/execute", { operationType: "military_reconnaissance", targetCountryId: 7 }],
    [{ kind: "market_list", item: "food", quantity: 1_000, pricePerUnit: 150 }, "/api/market/listings", { countryId, itemType: "food", quantity: 1_000, pricePerUnit: 150 }],
    [{ kind: "market_buy", listingId: 9, quantity: 100 }, "/api/market/listings/:id/buy", { countryId, quantity: 100 }],
    [{ kind: "market_order", item: "troops", quantity: 500, maxPrice: 60, priority: "medium" }, "/api/market/standing-orders", { countryId, itemType: "troops", maxPrice: 60 }],
    [{ kind: "alliance_create", name: "Iron Pact 42", tag: "IP42", description: "An AI alliance", flag: { backgroundColor: "#1f2937", symbol: "★", symbolColor: "#fbbf24" } }, "/api/alliance/create", { name: "Iron Pact 42", tag: "IP42" }],
    [{ kind: "alliance_apply", allianceId: 3, message: "Let us in" }, "/api/alliance/join", { allianceId: 3 }],
    [{ kind: "alliance_accept", applicationId: 4 }, "/api/alliance/applications/:id/accept", {}],
    [{ kind: "diplomacy_propose", toCountryId: 8, relationType: "trade", message: "Trade?" }, "/api/diplomacy/proposals", { toCountryId: 8, relationType: "trade" }],
    [{ kind: "diplomacy_accept", proposalId: 5 }, "/api/diplomacy/proposals/:id/accept", {}],
    [{ kind: "diplomacy_reject", proposalId: 5 }, "/api/diplomacy/proposals/:id/reject", {}],
    [{ kind: "alliance_reject", applicationId: 4 }, "/api/alliance/applications/:id/reject", {}],
    [{ kind: "market_cancel_order", orderId: 6 }, "/api/market/standing-orders/:id/:control", { countryId }],
    [{ kind: "alliance_bonus", bonusId: "military_support" }, "/api/alliance/bonuses/purchase", { bonusId: "military_support" }],
    [{ kind: "attack", targetId: 7, attackType: "standard_strike", units: { troops: 300, tanks: 3 } }, "/api/attack/launch", { countryId, targetCountryId: 7, attackType: "standard_strike", units: { troops: 300, tanks: 3 } }],
  ];

  it("covers every kind the strategy can name", () => {
    expect(cases.map(([intent]) => intent.kind).sort()).toEqual([...AI_INTENT_KINDS].sort());
    expect(Object.keys(INTENT_ROUTES).sort()).toEqual([...AI_INTENT_KINDS].sort());
  });

  it.each(cases)("%j -> POST %s", (intent, route, body) => {
    const request = intentRequest(countryId, intent);
    expect(request).toMatchObject({ method: "POST", route, serverAction: INTENT_ROUTES[intent.kind].serverAction });
    // the server labels every path id `:id` (its metrics' route label), so the tester's counts per route match it
    const id = "listingId" in intent ? intent.listingId : "applicationId" in intent ? intent.applicationId : "proposalId" in intent ? intent.proposalId : "orderId" in intent ? intent.orderId : null;
    expect(request.path).toBe(id === null ? route : route.replace(":id", String(id)).replace(":control", "cancel"));
    expect(request.body).toMatchObject(body as object);
  });

  it("refuses a body the server's validator would refuse (before sending it)", () => {
    expect(() => intentRequest(countryId, { kind: "explore", turns: 1.5 })).toThrow();
  });
});

describe("buildAiView: the AiView from REST answers", () => {
  const state: CountryState = { ...startingCountry(), troops: 5_000, land: 500 };
  const own = ownJson(10, state, 10_000);

  it("reads the own country into the rules' state and its public facts", () => {
    const view = buildAiView({ own, listed: [], wars: [], store: [], now: NOW });
    expect(view.countryId).toBe(10);
    expect(view.country).toEqual(state);
    expect(view.self).toEqual({ id: 10, networth: 10_000, land: 500, protectedUntil: Date.parse("2029-12-02T00:00:00.000Z"), gdiMember: false, isEliminated: false, allianceId: null });
  });

  it("keeps the server's band and order: 40%..120% of its networth, most land per networth first, no self, no eliminated", () => {
    const view = buildAiView({
      own,
      listed: [
        listed(10, 10_000, 500), // itself
        listed(11, 12_001, 900), // above 120%
        listed(12, 3_999, 900), // below 40%
        listed(13, 8_000, 400),
        listed(14, 4_000, 400),
        listed(15, 9_000, 900, { is_eliminated: true }),
        listed(16, 4_000, 400), // same ratio as 14: lower id first
        listed(14, 4_000, 400), // listed twice (pages overlap)
      ],
      wars: [],
      store: [],
      now: NOW,
    });
    expect(view.targets.map((t) => t.id)).toEqual([14, 16, 13]);
  });

  it("keeps at most AI_TARGET_LIST_SIZE targets", () => {
    const many = Array.from({ length: 50 }, (_, i) => listed(100 + i, 9_000, 300 + i));
    expect(buildAiView({ own, listed: many, wars: [], store: [], now: NOW }).targets).toHaveLength(AI_TARGET_LIST_SIZE);
  });

  it("counts the wars it declared that have not ended", () => {
    const view = buildAiView({ own, listed: [], wars: [war(20, true, null), war(21, false, null), war(22, true, "2029-12-30T00:00:00.000Z")], store: [], now: NOW });
    expect([...view.atWarWith]).toEqual([20]);
  });

  it("reads protection and alliance from the public fields", () => {
    expect(targetFactsOf(listed(5, 1, 2, { protected_until: "2030-01-02T00:00:00.000Z", gdi_protection: true, alliance_id: 9 }))).toMatchObject({
      protectedUntil: Date.parse("2030-01-02T00:00:00.000Z"),
      gdiMember: true,
      allianceId: 9,
    });
  });

  it("gives nextAiIntent what it needs to decide as the server's AI would: a new country builds on its free land", () => {
    const fresh = ownJson(10, startingCountry(), 5_000);
    const intent = nextAiIntent(buildAiView({ own: fresh, listed: [], wars: [], store: [], now: NOW }), "farmer", Rng.fromSeed(1));
    expect(intent?.kind).toBe("build");
    expect(intentRequest(10, intent!).route).toBe("/api/buildings/construct-batch");
  });

  it("reads its store's stock, and buys its army from it through the store route", () => {
    const store = (["troops", "turrets", "tanks"] as const).map((id, i) => ({ id, stock: [40_000, 3_000, 0][i]! })) as unknown as StoreItemJson[];
    const view = buildAiView({ own, listed: [], wars: [], store, now: NOW });
    expect(view.storeStock).toEqual({ troops: 40_000, turrets: 3_000, tanks: 0 });
    const request = intentRequest(10, { kind: "store_buy", item: "troops", quantity: 500 });
    expect(request).toMatchObject({ route: "/api/market/store/buy", serverAction: "market_store_buy", body: { countryId: 10, itemId: "troops", quantity: 500 } });
  });

  it("reads what its store still buys, and sells food to it through the store route only up to that (issue 27, sixth stop)", () => {
    const store = (["troops", "turrets", "tanks", "food"] as const).map((id, i) => ({ id, stock: 0, demand: [50_000, 4_000, 0, 2_500][i]! })) as unknown as StoreItemJson[];
    // a granary far beyond what it keeps and no cash for anything else
    const granary = ownJson(10, { ...startingCountry(), food: 2_000_000, cash: 0, land: 1_000 }, 5_000);
    const view = buildAiView({ own: granary, listed: [], wars: [], store, now: NOW });
    expect(view.storeDemand).toEqual({ troops: 50_000, turrets: 4_000, tanks: 0, food: 2_500 });
    const sales = Array.from({ length: 40 }, (_, seed) => nextAiIntent({ ...view, listings: [], ownListings: 0, orderItems: [] }, "farmer", Rng.fromSeed(seed))).filter((i) => i?.kind === "store_sell");
    expect(sales.length).toBeGreaterThan(0);
    for (const sale of sales) expect(sale).toEqual({ kind: "store_sell", item: "food", quantity: 2_500 });
    expect(intentRequest(10, sales[0]!)).toMatchObject({ route: "/api/market/store/sell", serverAction: "market_store_sell", body: { countryId: 10, itemId: "food", quantity: 2_500 } });
    // nothing left to buy today: no sale at all
    const none = buildAiView({ own: granary, listed: [], wars: [], store: store.map((i) => ({ ...i, demand: 0 })), now: NOW });
    expect(Array.from({ length: 40 }, (_, seed) => nextAiIntent({ ...none, listings: [], ownListings: 0, orderItems: [] }, "farmer", Rng.fromSeed(seed))).some((i) => i?.kind === "store_sell")).toBe(false);
  });

  it("lets a raider attack the softest unprotected target in its view", () => {
    // cash to carry the army's upkeep: a raider short of it sells army first (planSolvency)
    const raider = ownJson(10, { ...startingCountry(), troops: 20_000, tanks: 100, cash: 50_000_000 }, 10_000);
    const view = buildAiView({ own: raider, listed: [listed(30, 9_000, 300), listed(31, 9_000, 800), listed(32, 9_000, 2_000, { protected_until: "2031-01-01T00:00:00.000Z" })], wars: [], store: [], now: NOW });
    // appetite is a draw: try seeds until one attacks, then check it picked 31
    const attacks = Array.from({ length: 40 }, (_, seed) => nextAiIntent(view, "raider", Rng.fromSeed(seed))).filter((i) => i?.kind === "attack");
    expect(attacks.length).toBeGreaterThan(0);
    expect(new Set(attacks.map((a) => (a as Extract<AiIntent, { kind: "attack" }>).targetId))).toEqual(new Set([31]));
  });
});

describe("verdictOf", () => {
  it.each([
    [200, undefined, "ok"],
    [201, undefined, "ok"],
    [400, { code: "exploration/insufficient_funds" }, "refused"],
    [409, { code: "combat/target_protected" }, "refused"],
    [400, { code: "request/invalid" }, "error"],
    [401, { code: "auth/invalid_token" }, "error"],
    [403, { code: "auth/forbidden" }, "error"],
    [429, { code: "request/rate_limited" }, "error"],
    [400, { error: "no code" }, "error"],
    [500, { code: "server/error" }, "error"],
    [503, { code: "server/unavailable" }, "error"],
    [0, undefined, "error"],
  ])("%i %j -> %s", (status, body, verdict) => {
    expect(verdictOf({ status, body })).toBe(verdict);
  });
});

describe("personalities and dice from the run's seed", () => {
  it("are the same for the same seed and bot, and cover every personality", () => {
    const a = Array.from({ length: 200 }, (_, i) => personalityOf(7, i));
    expect(Array.from({ length: 200 }, (_, i) => personalityOf(7, i))).toEqual(a);
    expect(new Set(a)).toEqual(new Set(AI_PERSONALITIES));
    expect(strategyRng(7, 3).nextUint32()).toBe(strategyRng(7, 3).nextUint32());
    expect(strategyRng(7, 3).nextUint32()).not.toBe(strategyRng(7, 4).nextUint32());
  });
});

describe("listingOffset", () => {
  it("centres the page on the rank and stops at the top", () => {
    expect(listingOffset(1, 60)).toBe(0);
    expect(listingOffset(20, 60)).toBe(0);
    expect(listingOffset(500, 60)).toBe(469);
  });
});
