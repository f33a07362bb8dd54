import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  NEWS_CATALOGUE,
  NEWS_CATEGORIES,
  NEWS_IMPACTS,
  NEWS_KINDS,
  NEWS_PRIORITIES,
  NEWS_TITLE_MAX,
  NEWS_TYPES,
  battleImpact,
  battleLostPriority,
  composeNews,
  isNewsKind,
  plural,
  priceMoveImpact,
  priceMovePriority,
  rankLossPriority,
  tradeImpact,
  unreadAfterRead,
  type NewsKind,
  type NewsParams,
} from "./news.js";

const A = { id: 1, name: "Avalon" };
const B = { id: 2, name: "Brigadoon" };

/** One realistic parameter set per kind: the compiler demands an entry for every kind. */
const SAMPLES: { [K in NewsKind]: NewsParams<K> } = {
  battle_won: { attacker: A, defender: B, landCaptured: 120, defenderLandBefore: 1000 },
  battle_lost: { attacker: A, defender: B, landLost: 120, landBefore: 1000, role: "defender" },
  battle_repelled: { attacker: A, defender: B },
  major_battle: { attacker: A, defender: B, landCaptured: 2500, defenderLandBefore: 9000 },
  spy_detected: { spy: A, operation: "sabotage", caught: 3 },
  sabotage_suffered: { spy: null, buildingsDestroyed: 8, oilDestroyed: 500 },
  war_declared: { aggressor: A, target: B, kind: "country" },
  peace_made: { a: A, b: B },
  alliance_founded: { alliance: { id: 7, name: "Northern Pact", tag: "NP" }, founder: A },
  alliance_member_joined: { alliance: { id: 7, name: "Northern Pact" }, member: A },
  alliance_member_left: { alliance: { id: 7, name: "Northern Pact" }, member: A },
  alliance_member_kicked: { alliance: { id: 7, name: "Northern Pact" }, member: A, by: B },
  alliance_kicked: { alliance: { id: 7, name: "Northern Pact" }, by: B },
  alliance_disbanded: { alliance: { id: 7, name: "Northern Pact", tag: "NP" } },
  alliance_operation_completed: { alliance: { id: 7, name: "Northern Pact" }, operation: "Dawn", operationType: "coordinated attack", target: B, participants: 3, bonusPoints: 110 },
  alliance_bonus_purchased: { alliance: { id: 7, name: "Northern Pact" }, bonus: "Military Support", level: 2, cost: 625 },
  large_trade: { item: "tanks", quantity: 1, totalValue: 588, buyer: A, seller: B },
  price_move: { item: "food", fromPrice: 300, toPrice: 390, percent: 30, periodHours: 24 },
  diplomatic_relation: { a: A, b: B, relation: "trade" },
  diplomatic_proposal: { from: A, relation: "defensive" },
  achievement_unlocked: { achievement: "land_1000", name: "Land Baron", description: "Hold 1,000 acres.", rarity: "common" },
  research_level: { technology: "business", name: "Business", level: 3, maxLevel: 20 },
  rank_overtaken: { metric: "networth", previousRank: 4, rank: 6, by: [A, B] },
  starving: { turns: 1, peopleLost: 50, troopsLost: 5 },
  bankrupt: { turns: 2, unpaid: 23750 },
  automation: { action: "1 farm built", detail: "Food was low." },
  system_announcement: { title: "Maintenance", message: "Back soon.", priority: "high" },
  season_started: { season: "Season 2", endsAt: Date.UTC(2030, 0, 1) },
  season_ending_soon: { season: "Season 2", endsAt: Date.UTC(2030, 0, 1), hoursLeft: 24 },
  season_ended: { season: "Season 1", winner: A, winnerNetworth: 123456, players: 2 },
};

describe("news catalogue", () => {
  it("every kind composes a valid item: known type, category, priority and impact, a short title", () => {
    for (const kind of NEWS_KINDS) {
      const draft = composeNews(kind, SAMPLES[kind] as never);
      expect(draft.kind).toBe(kind);
      expect(NEWS_TYPES).toContain(draft.type);
      expect(NEWS_CATEGORIES).toContain(draft.category);
      expect(NEWS_PRIORITIES).toContain(draft.priority);
      expect(NEWS_IMPACTS).toContain(draft.impact);
      expect(draft.title.length).toBeGreaterThan(0);
      expect(draft.title.length).toBeLessThanOrEqual(NEWS_TITLE_MAX);
      expect(draft.description.length).toBeGreaterThan(0);
      expect(draft.content.length).toBeGreaterThan(0);
      expect(draft.title).not.toMatch(/undefined|NaN|\[object/);
      expect(draft.description).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it("covers every type of the spec's filter with at least one kind", () => {
    const types = new Set(NEWS_KINDS.map((k) => NEWS_CATALOGUE[k].type));
    for (const type of NEWS_TYPES) expect(types.has(type)).toBe(true);
  });

  it("fills templates with the parameters, numbers formatted and plurals right", () => {
    expect(composeNews("battle_won", SAMPLES.battle_won).description).toBe("Your forces defeated Brigadoon and captured 120 acres.");
    expect(composeNews("battle_won", { ...SAMPLES.battle_won, landCaptured: 1 }).description).toBe("Your forces defeated Brigadoon and captured 1 acre.");
    expect(composeNews("bankrupt", SAMPLES.bankrupt).description).toMatch(/^Cash ran out in 2 turns; \$23,750 of expenses went unpaid/);
    expect(composeNews("starving", SAMPLES.starving).description).toMatch(/^Food ran out in 1 turn; 50 people and 5 troops died/);
    expect(composeNews("large_trade", SAMPLES.large_trade).title).toBe("Large trade: 1 tank for $588");
    expect(composeNews("price_move", SAMPLES.price_move).title).toBe("Food prices up 30%");
    expect(composeNews("rank_overtaken", SAMPLES.rank_overtaken).description).toBe("You fell from #4 to #6, overtaken by Avalon and Brigadoon.");
    expect(composeNews("battle_lost", SAMPLES.battle_lost).title).toBe("Attacked by Avalon");
    expect(composeNews("battle_lost", { ...SAMPLES.battle_lost, role: "attacker", landLost: 0 }).description).toBe("Your attack on Brigadoon was repelled.");
  });

  it("priority and impact follow the size of what happened", () => {
    expect(composeNews("battle_lost", SAMPLES.battle_lost).priority).toBe("critical"); // 12% of the land
    expect(composeNews("battle_lost", { ...SAMPLES.battle_lost, landLost: 50 }).priority).toBe("high");
    expect(composeNews("large_trade", { ...SAMPLES.large_trade, totalValue: 2_000_000 })).toMatchObject({ priority: "high", impact: "major" });
    expect(composeNews("achievement_unlocked", { ...SAMPLES.achievement_unlocked, rarity: "legendary" }).impact).toBe("major");
    expect(composeNews("season_ended", SAMPLES.season_ended)).toMatchObject({ priority: "critical", impact: "historic", category: "global", type: "seasonal" });
    expect(composeNews("system_announcement", { ...SAMPLES.system_announcement, priority: "low" }).priority).toBe("low");
  });

  it.each([
    [0, 1000, "minor"],
    [99, 1000, "minor"],
    [100, 1000, "moderate"],
    [199, 10_000, "minor"],
    [200, 10_000, "moderate"],
    [250, 1000, "major"],
    [2000, 100_000, "major"],
  ] as const)("battleImpact(%i acres of %i) = %s", (land, before, impact) => {
    expect(battleImpact(land, before)).toBe(impact);
  });

  it.each([
    [99, 1000, "high"],
    [100, 1000, "critical"],
    [0, 0, "high"],
  ] as const)("battleLostPriority(%i of %i) = %s", (lost, before, p) => expect(battleLostPriority(lost, before)).toBe(p));

  it.each([
    [99_999, "minor"],
    [100_000, "moderate"],
    [1_000_000, "major"],
  ] as const)("tradeImpact(%i) = %s", (v, impact) => expect(tradeImpact(v)).toBe(impact));

  it.each([
    [10, "minor", "low"],
    [-20, "moderate", "medium"],
    [55, "major", "high"],
  ] as const)("price move %i%%: %s, %s", (pct, impact, priority) => {
    expect(priceMoveImpact(pct)).toBe(impact);
    expect(priceMovePriority(pct)).toBe(priority);
  });

  it.each([
    [4, 6, "medium"],
    [9, 11, "high"],
    [20, 30, "high"],
    [20, 29, "medium"],
  ] as const)("rank %i -> %i is %s priority", (before, after, p) => expect(rankLossPriority(before, after)).toBe(p));

  it("plural", () => {
    expect(plural(0, "acre")).toBe("0 acres");
    expect(plural(1, "acre")).toBe("1 acre");
    expect(plural(1500, "spy", "spies")).toBe("1,500 spies");
  });

  it("isNewsKind knows the catalogue and nothing else", () => {
    expect(isNewsKind("battle_won")).toBe(true);
    expect(isNewsKind("toString")).toBe(false);
    expect(isNewsKind("nope")).toBe(false);
  });

  it("property: marking read never takes the unread count below 0, and a read item changes nothing", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.boolean(), (unread, wasRead) => {
        const after = unreadAfterRead(unread, wasRead);
        expect(after).toBeGreaterThanOrEqual(0);
        expect(after).toBe(wasRead ? unread : Math.max(0, unread - 1));
      }),
    );
  });

  it("property: templates never produce an over-long title whatever the names", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400 }), fc.nat(), (a, b, n) => {
        const draft = composeNews("battle_won", { attacker: { id: 1, name: a }, defender: { id: 2, name: b }, landCaptured: n, defenderLandBefore: n + 1 });
        expect(draft.title.length).toBeLessThanOrEqual(NEWS_TITLE_MAX);
      }),
    );
  });
});
