import { describe, expect, it } from "vitest";
import type { AllianceJson, AllianceStatusJson, ApplicationJson, BattleReportsResponse, BrigadesResponse, DiplomaticRelationsJson, IntelligenceStatusJson, ListingJson, StandingOrderJson } from "@game/schema/api";
import { AI_PERSONALITIES, AI_PROFILES, AI_REPELLED_MEMORY_HOURS, nextAiIntent, pickAttackBrigade, Rng, startingCountry, type AiPersonality, type AiTarget, type AiView, type CountryState } from "@game/schema/rules";
import { noticeArrived } from "./play.js";
import type { Bot } from "./bots.js";
import { allianceFields, CONCERN_FIELDS, concernsOf, decideOnDemand, diplomacyFields, espionageFields, marketFields, marketItemsOf, militaryFields, viewOnDemand, type ConcernFields, type ViewConcern } from "./strategy.js";

const NOW = Date.parse("2030-01-01T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("which concerns a personality reads", () => {
  it("are those the server's aiView fills for it (attacking, spying, trading, social)", () => {
    expect(Object.fromEntries(AI_PERSONALITIES.map((p) => [p, concernsOf(p)]))).toEqual({
      farmer: ["military", "market", "alliance", "diplomacy"],
      trader: ["military", "espionage", "market", "alliance", "diplomacy"],
      raider: ["military", "espionage", "market", "alliance", "diplomacy"],
      turtle: ["espionage", "market", "alliance", "diplomacy"],
      researcher: ["military", "market", "alliance", "diplomacy"],
    });
  });

  it("reads the market books of food and of what it buys or sells", () => {
    expect(marketItemsOf("farmer")).toEqual(["food"]);
    expect(marketItemsOf("trader")).toEqual(["food", "oil"]);
    expect(marketItemsOf("raider")).toEqual(["food", "troops", "tanks"]);
    expect(marketItemsOf("turtle")).toEqual(["food", "troops", "turrets"]);
  });
});

describe("concern fields from the REST answers", () => {
  it("brigades: readiness as read, times from ISO; a deployed brigade is not ready for an attack", () => {
    const res = {
      brigades: [
        { id: 1, name: "Alpha", status: "deployed", readiness: 100, effectiveReadiness: 100, deployedUntil: iso(NOW + 3_600_000), rehabUntil: null, lastDeployed: iso(NOW - 1000), recoveryCost: 0 },
        { id: 2, name: "Bravo", status: "recovering", readiness: 20, effectiveReadiness: 20, deployedUntil: null, rehabUntil: null, lastDeployed: null, recoveryCost: 10 },
      ],
      ready: 0,
      deployed: 1,
    } as unknown as BrigadesResponse;
    const { brigades } = militaryFields(res, { reports: [], total: 0 }, NOW);
    expect(brigades![0]).toEqual({ slot: 1, readiness: 100, readinessAt: NOW, deployedUntil: NOW + 3_600_000, rehabUntil: null, lastDeployed: NOW - 1000 });
    // slots 1 and 2 busy, but 3.. unread slots are fresh brigades (completeBrigades)
    expect(pickAttackBrigade(brigades!, NOW)).toMatchObject({ slot: 3 });
  });

  it("repelled by: the defenders of its own failed attacks in the last AI_REPELLED_MEMORY_HOURS, from its reports", () => {
    const report = (defenderCountryId: number | null, msAgo: number) => ({ defenderCountryId, timestamp: iso(NOW - msAgo) });
    const defeats = { reports: [report(7, 60_000), report(9, (AI_REPELLED_MEMORY_HOURS - 1) * 3_600_000), report(11, (AI_REPELLED_MEMORY_HOURS + 1) * 3_600_000), report(null, 1_000)], total: 4 } as unknown as BattleReportsResponse;
    expect(militaryFields({ brigades: [], ready: 0, deployed: 0 } as unknown as BrigadesResponse, defeats, NOW).repelledBy).toEqual(new Set([7, 9]));
  });

  it("espionage: cooldowns run down from the read, today's counts start again after the reset", () => {
    const status = { operationsUsed: 4, usedByKind: { military: 2 }, cooldowns: { military: 60_000, economic: 0 }, resetAt: NOW + 3_600_000 } as unknown as IntelligenceStatusJson;
    const units = { troops: 900, jets: 0, turrets: 40, tanks: 10, spies: 5, missiles: 0 };
    const later = espionageFields(status, { 7: {} as never, 9: { estimatedUnits: units, confidence: "high", gatheredAt: NOW } }, NOW, NOW + 45_000);
    expect(later.espionage).toEqual({ used: 4, byKind: { military: 2 }, cooldowns: { military: 15_000, economic: 0 } });
    expect(later.scouted).toEqual(new Set([7, 9]));
    expect(later.knownForces).toEqual(new Map([[9, { troops: 900, jets: 0, turrets: 40, tanks: 10 }]]));
    expect(espionageFields(status, {}, NOW, NOW + 3_600_000).espionage).toMatchObject({ used: 0, byKind: {} });
  });

  it("market: the cheapest listing of another country per item, its own listings counted, its open orders' items", () => {
    const listing = (id: number, sellerId: number, isOwnListing: boolean, pricePerUnit: number, itemType = "food") => ({ id, sellerId, isOwnListing, pricePerUnit, itemType, quantity: 500, status: "open" }) as unknown as ListingJson;
    const order = (itemType: string, status: string) => ({ itemType, status }) as unknown as StandingOrderJson;
    const fields = marketFields([[listing(1, 10, true, 90), listing(2, 11, false, 95), listing(3, 12, false, 99)], [listing(4, 10, true, 300, "oil")]], [order("food", "active"), order("troops", "fulfilled"), order("oil", "pending")]);
    expect(fields.listings).toEqual([{ id: 2, sellerId: 11, item: "food", quantity: 500, pricePerUnit: 95 }]);
    expect(fields.ownListings).toBe(2);
    expect(fields.orderItems).toEqual(["food", "oil"]);
    expect(marketFields([], null).orderItems).toEqual([]);
  });

  it("alliance: a leader sees applications to it; outside one, the alliances taking applications", () => {
    const application = (id: number, allianceId: number, applicantId: number) => ({ id, allianceId, applicantId }) as unknown as ApplicationJson;
    const leader = allianceFields({ alliance: { id: 5, memberCount: 3 }, role: "owner" } as unknown as AllianceStatusJson, { received: [application(70, 5, 21)], mine: [] }, null);
    expect(leader).toEqual({ alliance: { id: 5, role: "owner", memberCount: 3, applications: [{ id: 70, applicantId: 21 }] }, openAlliances: [], appliedTo: new Set() });
    const open = (id: number, acceptApplications: boolean) => ({ id, memberCount: 2, requirements: { minNetworth: 10, minLand: 20, acceptApplications } }) as unknown as AllianceJson;
    const outside = allianceFields({ alliance: null, role: null } as unknown as AllianceStatusJson, { received: [], mine: [application(71, 8, 1)] }, [open(8, true), open(9, false)]);
    expect(outside).toEqual({ alliance: null, openAlliances: [{ id: 8, memberCount: 2, minNetworth: 10, minLand: 20 }], appliedTo: new Set([8]) });
  });

  it("diplomacy: relations with who pays, proposals either way", () => {
    const d = {
      active: [{ partnerId: 4, relationType: "trade", pays: true }],
      incoming: [{ id: 80, fromCountryId: 6, toCountryId: 1, relationType: "defensive", expiresAt: iso(NOW + 1000) }],
      outgoing: [{ id: 81, fromCountryId: 1, toCountryId: 7, relationType: "research", expiresAt: iso(NOW + 1000) }],
    } as unknown as DiplomaticRelationsJson;
    expect(diplomacyFields(d).diplomacy).toEqual({
      active: [{ partnerId: 4, type: "trade", pays: true }],
      incoming: [{ id: 80, fromCountryId: 6, type: "defensive", expiresAt: NOW + 1000 }],
      outgoing: [{ toCountryId: 7, type: "research" }],
    });
  });
});

/** A mid-season country: every concern has something to decide about. */
function developed(): CountryState {
  const start = startingCountry();
  return {
    ...start,
    cash: 1_500_000,
    food: 150_000,
    oil: 20_000,
    land: 1_500,
    population: 60_000,
    troops: 8_000,
    jets: 200,
    turrets: 1_000,
    tanks: 300,
    spies: 100,
    turns: 200,
    buildings: { ...start.buildings, enterprise_zones: 495, residences: 240, industrial_complexes: 60, military_bases: 60, research_labs: 90, farms: 150, oil_rigs: 15, construction_sites: 30 },
    researchPoints: 3_000,
  };
}

const target = (id: number, networth: number, land: number): AiTarget => ({ id, networth, land, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null, landLostToday: 0 });

/** What each concern shows this country: a market to trade on, an alliance to join, a proposal waiting. */
const CONCERNS: Record<ViewConcern, ConcernFields> = {
  military: { brigades: [], repelledBy: new Set() },
  espionage: { espionage: { used: 0, byKind: {}, cooldowns: {} }, scouted: new Set([30]), knownForces: new Map([[30, { troops: 100, jets: 0, turrets: 0, tanks: 0 }]]) },
  market: { listings: [{ id: 1, sellerId: 30, item: "food", quantity: 5_000, pricePerUnit: 20 }], ownListings: 0, orderItems: [] },
  alliance: { alliance: null, openAlliances: [{ id: 3, memberCount: 4, minNetworth: 0, minLand: 0 }], appliedTo: new Set() },
  diplomacy: { diplomacy: { active: [], incoming: [], outgoing: [] } },
};

const base: AiView = {
  countryId: 1,
  country: developed(),
  self: { id: 1, networth: 100_000, land: 1_500, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId: null },
  targets: [target(30, 90_000, 1_400), target(31, 95_000, 1_600), target(32, 80_000, 1_200)],
  atWarWith: new Set(),
  now: NOW,
  storeStock: { troops: 50_000, turrets: 50_000, tanks: 5_000 },
  storeDemand: { troops: 50_000, turrets: 4_000, tanks: 1_500, food: 10_000 },
};

/** The view the server's aiView builds for `personality`: the concerns it consults, all read. */
function fullView(personality: AiPersonality): AiView {
  return Object.assign({ ...base }, ...concernsOf(personality).map((c) => CONCERNS[c]));
}

describe("decideOnDemand: concerns read when the decision looks at them", () => {
  it("decides as on a view with every concern read, with the same dice after, for every personality", async () => {
    for (const personality of AI_PERSONALITIES) {
      for (let seed = 0; seed < 150; seed++) {
        const rng = Rng.fromSeed(seed);
        const expected = nextAiIntent(fullView(personality), personality, rng);
        const lazy = await decideOnDemand({ base, personality, rng: Rng.fromSeed(seed), loaded: {}, read: async (c) => CONCERNS[c] });
        expect({ personality, seed, intent: lazy.intent }).toEqual({ personality, seed, intent: expected });
        expect(lazy.rng.state).toEqual(rng.state);
      }
    }
  });

  it("reads espionage and the market only when the decision comes to them, what waits on it every time", async () => {
    const reads = new Map<ViewConcern, number>();
    const decisions = 300;
    let spied = 0;
    let traded = 0;
    for (let seed = 0; seed < decisions; seed++) {
      const { intent, read } = await decideOnDemand({ base, personality: "raider", rng: Rng.fromSeed(seed), loaded: {}, read: async (c) => CONCERNS[c] });
      expect(new Set(read).size).toBe(read.length);
      for (const c of read) reads.set(c, (reads.get(c) ?? 0) + 1);
      if (intent?.kind.startsWith("spy_")) spied++;
      if (intent?.kind.startsWith("market_")) traded++;
    }
    expect(reads.get("alliance")).toBe(decisions);
    expect(reads.get("diplomacy")).toBe(decisions);
    // a raider reads its spies before an attack (a scout first) and on its espionage roll (25%
    // of what is left), the market on its market roll (15% of what is left): not on every decision
    expect(spied).toBeGreaterThan(0);
    expect(traded).toBeGreaterThan(0);
    expect(reads.get("espionage")!).toBeLessThan(decisions * 0.75);
    expect(reads.get("market")!).toBeLessThan(decisions / 3);
  });

  it("reads nothing when every concern is loaded, and never a concern the personality does not consult", async () => {
    const loaded = Object.fromEntries(concernsOf("turtle").map((c) => [c, CONCERNS[c]]));
    const none = await decideOnDemand({ base, personality: "turtle", rng: Rng.fromSeed(3), loaded, read: async () => ({}) });
    expect(none.read).toEqual([]);
    for (let seed = 0; seed < 100; seed++) {
      const { read } = await decideOnDemand({ base, personality: "farmer", rng: Rng.fromSeed(seed), loaded: {}, read: async (c) => CONCERNS[c] });
      expect(read).not.toContain("espionage");
    }
  });

  it("stops a decision at its first look at an unread concern", () => {
    const view = viewOnDemand(base, ["market"], {});
    expect(() => view.listings).toThrow();
    expect(viewOnDemand(base, ["market"], { market: CONCERNS.market }).listings).toEqual(CONCERNS.market.listings);
    expect(CONCERN_FIELDS.market).toContain("listings");
  });
});

describe("noticeArrived", () => {
  it("drops the alliance or diplomacy read a live notice concerns", () => {
    const read = { at: 0, fields: () => ({}) };
    const bot = { strategy: { concerns: { alliance: read, diplomacy: read, market: read } } } as unknown as Bot;
    noticeArrived(bot, { kind: "alliance_application" });
    expect(Object.keys(bot.strategy!.concerns)).toEqual(["diplomacy", "market"]);
    noticeArrived(bot, { kind: "diplomacy_proposal" });
    noticeArrived(bot, { kind: "attacked" });
    expect(Object.keys(bot.strategy!.concerns)).toEqual(["market"]);
  });
});

describe("the profiles the tests above rely on", () => {
  it("give the raider both rolls", () => {
    expect(AI_PROFILES.raider.spyAppetite).toBeGreaterThan(0);
    expect(AI_PROFILES.raider.marketAppetite).toBeGreaterThan(0);
  });
});
