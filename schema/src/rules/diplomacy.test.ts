import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { startingCountry } from "./country.js";
import {
  checkAnswerProposal,
  checkCancelRelation,
  checkProposal,
  computeCanCancelAfter,
  computeDailyDiplomacyCost,
  computeDiplomaticEffects,
  computeTechTransfer,
  computeTrustRating,
  DIPLOMATIC_RELATION_TYPES,
  isMutualAnswer,
  relationPayers,
  RELATION_TYPES,
  settleDailyCosts,
  trustRatingColor,
  type RelationType,
} from "./diplomacy.js";

const HOUR = 3_600_000;

describe("relation types (spec section 9)", () => {
  it("have the spec's daily cost, cooldown, mutual flag and conflicts", () => {
    expect(DIPLOMATIC_RELATION_TYPES.map((t) => [t.id, t.dailyCost, t.cooldownHours, t.requiresMutual, t.conflictsWith])).toEqual([
      ["defensive", 100, 24, true, ["offensive"]],
      ["offensive", 150, 48, true, ["defensive"]],
      ["intelligence", 75, 12, true, []],
      ["research", 200, 72, true, []],
      ["trade", 50, 6, false, []],
    ]);
  });

  it("effects of one type do not stack; different types add", () => {
    expect(computeDiplomaticEffects(["defensive", "defensive", "trade"])).toMatchObject({ defensePct: 25, marketFeeReductionPts: 2, tradeVolumePct: 10, attackPct: 0 });
    expect(computeDiplomaticEffects(["research", "intelligence"])).toMatchObject({ researchPct: 20, techTransferPct: 10, spySuccessPct: 10 });
  });
});

describe("proposals", () => {
  const base = { fromCountryId: 1, toCountryId: 2, type: "defensive" as RelationType, activeBetween: [], pendingBetween: [], partnerHasPlayer: true };
  it.each([
    ["to oneself", { toCountryId: 1 }, "diplomacy/self"],
    ["a type the pair holds", { activeBetween: [{ type: "defensive" }] }, "diplomacy/exists"],
    ["a conflicting type", { activeBetween: [{ type: "offensive" }] }, "diplomacy/conflict"],
    ["the same pending proposal again", { pendingBetween: [{ type: "defensive", fromCountryId: 1 }] }, "diplomacy/pending"],
    ["a mutual type to a country without a player", { partnerHasPlayer: false }, "diplomacy/no_owner"],
  ] as const)("refuses %s", (_what, patch, code) => {
    expect(checkProposal({ ...base, ...patch } as typeof base)?.code).toBe(code);
  });

  it("names the conflicting relation", () => {
    expect(checkProposal({ ...base, activeBetween: [{ type: "offensive" }] })?.message).toBe("Conflicts with your Offensive Alliance with that country");
  });

  it("a trade agreement needs no player on the other side, and a counter-proposal is mutual", () => {
    expect(checkProposal({ ...base, type: "trade", partnerHasPlayer: false })).toBeNull();
    const theirs = [{ type: "research" as const, fromCountryId: 2 }];
    expect(checkProposal({ ...base, type: "research", pendingBetween: theirs })).toBeNull();
    expect(isMutualAnswer({ fromCountryId: 1, type: "research", pendingBetween: theirs })).toBe(true);
    expect(isMutualAnswer({ fromCountryId: 1, type: "trade", pendingBetween: theirs })).toBe(false);
  });

  it("only the addressee answers, while pending and unexpired", () => {
    expect(checkAnswerProposal({ status: "pending", isAddressee: true, expiresAt: 10, now: 9 })).toBeNull();
    expect(checkAnswerProposal({ status: "pending", isAddressee: false, expiresAt: 10, now: 9 })?.code).toBe("diplomacy/not_party");
    expect(checkAnswerProposal({ status: "pending", isAddressee: true, expiresAt: 10, now: 10 })?.code).toBe("diplomacy/not_pending");
    expect(checkAnswerProposal({ status: "rejected", isAddressee: true, expiresAt: 10, now: 9 })?.code).toBe("diplomacy/not_pending");
  });
});

describe("cancel lock (spec: 'Cancellation locked until {date}')", () => {
  const established = Date.UTC(2026, 4, 1, 12, 0);
  it.each(RELATION_TYPES.map((t) => [t]))("%s unlocks after its cooldown", (type) => {
    const after = computeCanCancelAfter(type, established);
    expect(after).toBe(established + DIPLOMATIC_RELATION_TYPES.find((d) => d.id === type)!.cooldownHours * HOUR);
    const input = { status: "active" as const, isParty: true, isHolder: true, canCancelAfter: after };
    expect(checkCancelRelation({ ...input, now: after - 1 })?.code).toBe("diplomacy/cancel_locked");
    expect(checkCancelRelation({ ...input, now: after })).toBeNull();
  });
  it("names the date", () => {
    const after = computeCanCancelAfter("defensive", established);
    expect(checkCancelRelation({ status: "active", isParty: true, isHolder: true, canCancelAfter: after, now: established })?.message).toBe("Cancellation locked until 2026-05-02 12:00 UTC");
  });
  it("only a party, only active, only the holder of a one-sided agreement", () => {
    const input = { status: "active" as const, isParty: true, isHolder: true, canCancelAfter: 0, now: 1 };
    expect(checkCancelRelation({ ...input, isParty: false })?.code).toBe("diplomacy/not_party");
    expect(checkCancelRelation({ ...input, status: "cancelled" })?.code).toBe("diplomacy/not_active");
    // the partner of a one-sided agreement (it never agreed) ends it at once (issue 30 #4)
    expect(checkCancelRelation({ ...input, isHolder: false })).toBeNull();
    expect(checkCancelRelation({ ...input, isHolder: false, now: established })).toBeNull();
  });
});

describe("daily cost", () => {
  it("is the sum of the relations a country pays for", () => {
    expect(
      computeDailyDiplomacyCost([
        { type: "defensive", pays: true },
        { type: "trade", pays: true },
        { type: "trade", pays: false },
      ]),
    ).toBe(150);
    expect(relationPayers("trade", 1, 2)).toEqual([1]);
    expect(relationPayers("research", 1, 2)).toEqual([1, 2]);
  });

  it("ends the oldest relation a payer cannot afford, and no one pays it", () => {
    const relations = [
      { id: 1, type: "defensive" as const, payers: [10, 20], establishedAt: 1 },
      { id: 2, type: "research" as const, payers: [10, 30], establishedAt: 2 },
      { id: 3, type: "trade" as const, payers: [20], establishedAt: 3 },
    ];
    // 10 can pay 100 but not 300; 20 and 30 are rich.
    const { ended, charges } = settleDailyCosts(
      relations,
      new Map([
        [10, 150],
        [20, 1000],
        [30, 1000],
      ]),
    );
    expect([...ended]).toEqual([2]);
    expect(Object.fromEntries(charges)).toEqual({ 10: 100, 20: 150 });
  });

  it("an ended relation frees the other payer's cash for its later relations", () => {
    const relations = [
      { id: 1, type: "defensive" as const, payers: [10, 20], establishedAt: 1 },
      { id: 2, type: "defensive" as const, payers: [20, 30], establishedAt: 2 },
    ];
    // 10 is broke: relation 1 ends, so 20 can pay relation 2 with its 100.
    const { ended, charges } = settleDailyCosts(
      relations,
      new Map([
        [10, 0],
        [20, 100],
        [30, 100],
      ]),
    );
    expect([...ended]).toEqual([1]);
    expect(Object.fromEntries(charges)).toEqual({ 20: 100, 30: 100 });
  });

  it("never charges more than a country has (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom(...RELATION_TYPES), a: fc.integer({ min: 1, max: 6 }), b: fc.integer({ min: 1, max: 6 }) }), { maxLength: 20 }),
        fc.array(fc.nat(1000), { minLength: 6, maxLength: 6 }),
        (raw, cashList) => {
          const relations = raw.filter((r) => r.a !== r.b).map((r, i) => ({ id: i + 1, type: r.type, payers: relationPayers(r.type, r.a, r.b), establishedAt: i }));
          const cash = new Map(cashList.map((c, i) => [i + 1, c]));
          const { charges } = settleDailyCosts(relations, cash);
          for (const [id, charge] of charges) expect(charge).toBeLessThanOrEqual(cash.get(id)!);
        },
      ),
    );
  });
});

describe("trust rating", () => {
  it.each([
    [{ ageDays: 0, activeRelations: 0, sameAlliance: false, lapsedRecently: 0, cancelledRecently: 0 }, 50, "orange"],
    [{ ageDays: 60, activeRelations: 4, sameAlliance: true, lapsedRecently: 0, cancelledRecently: 0 }, 100, "green"],
    [{ ageDays: 20, activeRelations: 0, sameAlliance: false, lapsedRecently: 0, cancelledRecently: 0 }, 60, "yellow"],
    [{ ageDays: 0, activeRelations: 0, sameAlliance: false, lapsedRecently: 2, cancelledRecently: 1 }, 10, "red"],
  ])("%j -> %i (%s)", (input, rating, color) => {
    expect(computeTrustRating(input)).toBe(rating);
    expect(trustRatingColor(rating)).toBe(color);
  });
});

describe("technology transfer (research relation)", () => {
  const own = { ...startingCountry().tech, agricultural: 2, military: 0 };
  it("10% of what the partner spent on a level this country lacks, nothing for what it knows", () => {
    const pct = computeDiplomaticEffects(["research"]).techTransferPct;
    expect(pct).toBe(10);
    expect(computeTechTransfer([{ technology: "military", level: 1, pointsSpent: 1_235 }], own, pct)).toBe(123);
    expect(computeTechTransfer([{ technology: "agricultural", level: 2, pointsSpent: 5_000 }], own, pct)).toBe(0);
    expect(
      computeTechTransfer(
        [
          { technology: "agricultural", level: 3, pointsSpent: 5_000 },
          { technology: "military", level: 1, pointsSpent: 1_000 },
        ],
        own,
        pct,
      ),
    ).toBe(600);
    expect(computeTechTransfer([{ technology: "military", level: 1, pointsSpent: 1_000 }], own, 0)).toBe(0);
  });
});
