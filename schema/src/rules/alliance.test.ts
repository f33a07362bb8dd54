import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ALLIANCE_BONUSES,
  ALLIANCE_MAX_MANAGERS,
  alliancePermissions,
  bonusCooldownUntil,
  canAccessAllianceChannel,
  checkAllianceCapacity,
  checkAllianceChat,
  checkAlliancePermission,
  checkBonusPurchase,
  checkDemote,
  checkKick,
  checkLaunchOperation,
  checkPlanOperation,
  checkPromote,
  checkRequestDefense,
  checkRespondDefense,
  checkRespondOperation,
  computeAllianceEffects,
  computeBonusCost,
  computeDailyActivityPoints,
  computeDefenseUrgency,
  computeNextPurchase,
  computeOperationReadiness,
  computeOperationRewardPoints,
  computeResearchMilestonePoints,
  computeSuccessor,
  computeTradePoints,
  currentBonusLevel,
  findAllianceBonus,
  meetsRequirements,
  type BonusPurchase,
} from "./alliance.js";
import type { AllianceRole } from "./chat.js";

const HOUR = 3_600_000;
const bonus = (id: string) => findAllianceBonus(id)!;

describe("permission matrix (spec section 6)", () => {
  it.each([
    // role, invite, kick, bonuses, finances, applications, cancel invitations, promote, warfare
    ["owner", true, true, true, true, true, true, true, true],
    ["manager", true, true, false, true, true, true, false, true],
    ["member", false, false, false, false, false, false, false, false],
    [null, false, false, false, false, false, false, false, false],
  ] as const)("%s", (role, invite, kick, bonuses, finances, applications, cancel, promote, warfare) => {
    expect(alliancePermissions(role)).toMatchObject({
      canInvite: invite,
      canKick: kick,
      canManageBonuses: bonuses,
      canViewFinances: finances,
      canManageApplications: applications,
      canCancelInvitations: cancel,
      canPromote: promote,
      canCoordinateWarfare: warfare,
    });
  });

  it("refuses with 'Owner only' for the owner's powers and the leaders-only text otherwise", () => {
    expect(checkAlliancePermission("manager", "canManageBonuses")?.message).toBe("Owner only");
    expect(checkAlliancePermission("manager", "canPromote")?.message).toBe("Owner only");
    expect(checkAlliancePermission("member", "canInvite")?.code).toBe("alliance/forbidden");
    expect(checkAlliancePermission(null, "canInvite")?.code).toBe("alliance/not_member");
    expect(checkAlliancePermission("owner", "canManageBonuses")).toBeNull();
  });
});

describe("kick, promote, demote", () => {
  it.each([
    // actor role, actor, target, target role, code
    ["owner", 1, 2, "member", null],
    ["manager", 1, 2, "manager", null],
    ["manager", 1, 2, "owner", "alliance/kick_owner"],
    ["owner", 1, 1, "owner", "alliance/kick_self"],
    ["manager", 1, 1, "manager", "alliance/kick_self"],
    ["member", 1, 2, "member", "alliance/forbidden"],
    ["owner", 1, 2, null, "alliance/not_in_alliance"],
  ] as const)("%s %i kicks %i (%s): %s", (actorRole, actor, target, targetRole, code) => {
    expect(checkKick({ actorRole, actorCountryId: actor, targetCountryId: target, targetRole })?.code ?? null).toBe(code);
  });

  it("promotes only members, and never a fifth manager", () => {
    expect(checkPromote({ actorRole: "owner", targetRole: "member", managerCount: ALLIANCE_MAX_MANAGERS - 1 })).toBeNull();
    expect(checkPromote({ actorRole: "owner", targetRole: "member", managerCount: ALLIANCE_MAX_MANAGERS })?.code).toBe("alliance/managers_full");
    expect(checkPromote({ actorRole: "owner", targetRole: "manager", managerCount: 0 })?.code).toBe("alliance/already_manager");
    expect(checkPromote({ actorRole: "manager", targetRole: "member", managerCount: 0 })?.message).toBe("Owner only");
    expect(checkDemote({ actorRole: "owner", targetRole: "manager" })).toBeNull();
    expect(checkDemote({ actorRole: "owner", targetRole: "member" })?.code).toBe("alliance/not_manager");
    expect(checkDemote({ actorRole: "manager", targetRole: "manager" })?.message).toBe("Owner only");
  });

  it("fills 200 seats and no more", () => {
    expect(checkAllianceCapacity(199)).toBeNull();
    expect(checkAllianceCapacity(200)?.code).toBe("alliance/full");
  });
});

describe("succession when the owner leaves", () => {
  const m = (countryId: number, role: AllianceRole, joinedAt: number) => ({ countryId, role, joinedAt });
  it("passes to the longest-serving manager, else member, else nobody", () => {
    expect(computeSuccessor([m(1, "owner", 0), m(2, "member", 10), m(3, "manager", 50), m(4, "manager", 20)], 1)).toBe(4);
    expect(computeSuccessor([m(1, "owner", 0), m(5, "member", 30), m(2, "member", 30)], 1)).toBe(2);
    expect(computeSuccessor([m(1, "owner", 0)], 1)).toBeNull();
  });
});

describe("requirements", () => {
  it("meetRequirements compares networth and land", () => {
    const req = { minNetworth: 5000, minLand: 200, acceptApplications: true };
    expect(meetsRequirements(req, { networth: 5000, land: 200 })).toBe(true);
    expect(meetsRequirements(req, { networth: 4999, land: 900 })).toBe(false);
    expect(meetsRequirements(req, { networth: 9000, land: 199 })).toBe(false);
  });
});

describe("bonus costs (spec: floor(base x (1 + increase) ^ (level - 1)))", () => {
  it.each([
    ["military_support", 1, 500],
    ["military_support", 2, 625],
    ["military_support", 5, 1220],
    ["market_discount", 2, 390],
    ["market_discount", 3, 507],
    ["collaborative_research", 4, 1382],
    ["intelligence_network", 3, 1093],
    ["war_preparations", 1, 200],
    ["economic_surge", 1, 150],
    ["research_sprint", 1, 250],
    ["fortress_defense", 1, 180],
  ])("%s level %i costs %i", (id, level, cost) => {
    expect(computeBonusCost(bonus(id), level)).toBe(cost);
  });

  it("the catalogue has the spec's levels, durations and cooldowns", () => {
    expect(ALLIANCE_BONUSES.map((b) => [b.id, b.baseCost, b.maxLevel, b.costIncreasePct, b.durationHours, b.cooldownHours])).toEqual([
      ["military_support", 500, 5, 25, 0, 0],
      ["market_discount", 300, 3, 30, 0, 0],
      ["collaborative_research", 800, 4, 20, 0, 0],
      ["intelligence_network", 600, 3, 35, 0, 0],
      ["war_preparations", 200, 1, 0, 24, 48],
      ["economic_surge", 150, 1, 0, 12, 24],
      ["research_sprint", 250, 1, 0, 6, 18],
      ["fortress_defense", 180, 1, 0, 18, 36],
    ]);
  });

  it("costs never go down with the level (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALLIANCE_BONUSES), fc.integer({ min: 1, max: 9 }), (b, level) => {
        expect(computeBonusCost(b, level + 1)).toBeGreaterThanOrEqual(computeBonusCost(b, level));
      }),
    );
  });
});

describe("bonus purchase", () => {
  const now = 1_000 * HOUR;
  const buy = (id: string, level: number, at: number): BonusPurchase => {
    const b = bonus(id);
    return { bonusId: id, level, purchasedAt: at, expiresAt: b.isPermanent ? null : at + b.durationHours * HOUR };
  };

  it("only the owner, with enough points, below the maximum level", () => {
    const b = bonus("military_support");
    expect(checkBonusPurchase({ role: "owner", bonus: b, purchases: [], points: 500, now })).toBeNull();
    expect(checkBonusPurchase({ role: "owner", bonus: b, purchases: [], points: 499, now })?.message).toBe("Insufficient points");
    expect(checkBonusPurchase({ role: "manager", bonus: b, purchases: [], points: 5000, now })?.message).toBe("Owner only");
    const all = [1, 2, 3, 4, 5].map((l) => buy("military_support", l, now - 10 * HOUR));
    expect(checkBonusPurchase({ role: "owner", bonus: b, purchases: all, points: 99_999, now })?.code).toBe("alliance/max_level");
    expect(computeNextPurchase(b, all.slice(0, 2), now)).toEqual({ level: 3, cost: 781, expiresAt: null });
  });

  it("a temporary bonus lasts its duration and may be bought again only after its cooldown", () => {
    const b = bonus("war_preparations");
    const bought = [buy("war_preparations", 1, now)];
    expect(currentBonusLevel(b, bought, now + 23 * HOUR)).toBe(1);
    expect(currentBonusLevel(b, bought, now + 24 * HOUR)).toBe(0);
    expect(bonusCooldownUntil(b, bought)).toBe(now + 48 * HOUR);
    expect(checkBonusPurchase({ role: "owner", bonus: b, purchases: bought, points: 1000, now: now + 47 * HOUR })?.message).toMatch(/^On cooldown until /);
    expect(checkBonusPurchase({ role: "owner", bonus: b, purchases: bought, points: 1000, now: now + 48 * HOUR })).toBeNull();
  });

  it("effects add up per level while in force", () => {
    const purchases = [buy("military_support", 1, 0), buy("military_support", 2, 0), buy("fortress_defense", 1, now - HOUR), buy("market_discount", 1, 0)];
    expect(computeAllianceEffects(purchases, now)).toEqual({ attackPct: 6, defensePct: 6 + 15, marketFeeReductionPct: 10, researchPct: 0, spySuccessPct: 0, incomePct: 0 });
    // 18 hours later the fortress is down again.
    expect(computeAllianceEffects(purchases, now + 18 * HOUR).defensePct).toBe(6);
  });
});

describe("points (spec hints)", () => {
  it.each([
    [0, 0],
    [1, 5],
    [6, 10],
    [11, 15],
    [40, 15],
  ])("daily activity with %i actions: %i points", (actions, points) => expect(computeDailyActivityPoints(actions)).toBe(points));

  it("research milestones stay within 25-100, trades give 1 per $10,000, operations 50-200", () => {
    expect(computeResearchMilestonePoints(1)).toBe(25);
    expect(computeResearchMilestonePoints(10)).toBe(70);
    expect(computeResearchMilestonePoints(30)).toBe(100);
    expect(computeTradePoints(99_999)).toBe(9);
    expect(computeOperationRewardPoints(1, 0)).toBe(50);
    expect(computeOperationRewardPoints(3, 10_000)).toBe(110);
    expect(computeOperationRewardPoints(20, 1_000_000)).toBe(200);
  });
});

describe("operations", () => {
  const req = { minParticipants: 2, maxParticipants: 4, minTotalForce: 8_000 };

  it("readiness: 'Ready to Launch' only with enough confirmed participants and force", () => {
    expect(computeOperationReadiness([{ status: "confirmed", totalForce: 8_000 }], req).label).toBe("Awaiting Requirements");
    expect(
      computeOperationReadiness(
        [
          { status: "confirmed", totalForce: 5_000 },
          { status: "confirmed", totalForce: 2_999 },
          { status: "invited", totalForce: 90_000 },
        ],
        req,
      ),
    ).toEqual({ confirmed: 2, totalForce: 7_999, ready: false, label: "Awaiting Requirements" });
    expect(
      computeOperationReadiness(
        [
          { status: "confirmed", totalForce: 5_000 },
          { status: "confirmed", totalForce: 3_000 },
          { status: "declined", totalForce: 0 },
        ],
        req,
      ),
    ).toEqual({ confirmed: 2, totalForce: 8_000, ready: true, label: "Ready to Launch" });
  });

  it("plans only for leaders, with a consistent plan and a target on the right side", () => {
    const base = { role: "manager" as const, operationType: "coordinated_attack" as const, requirements: req, scheduledFor: 10 * HOUR, now: 10 * HOUR, targetIsMember: false, openOperations: 9 };
    expect(checkPlanOperation(base)).toBeNull();
    expect(checkPlanOperation({ ...base, openOperations: 10 })?.code).toBe("operation/too_many");
    expect(checkPlanOperation({ ...base, role: "member" })?.code).toBe("alliance/forbidden");
    expect(checkPlanOperation({ ...base, requirements: { ...req, minParticipants: 5 } })?.code).toBe("operation/min_above_max");
    expect(checkPlanOperation({ ...base, scheduledFor: base.now + 8 * 24 * HOUR })?.code).toBe("operation/schedule_range");
    expect(checkPlanOperation({ ...base, targetIsMember: true })?.code).toBe("operation/target_is_ally");
    expect(checkPlanOperation({ ...base, operationType: "defensive_support" })?.code).toBe("operation/target_not_ally");
  });

  it("joining needs an invitation, a seat, units held and no turrets in an attack", () => {
    const base = {
      status: "planning" as const,
      operationType: "coordinated_attack" as const,
      participantStatus: "invited" as const,
      response: "join" as const,
      confirmedOthers: 1,
      maxParticipants: 4,
      contribution: { troops: 100, jets: 0, tanks: 0, turrets: 0 },
      available: { troops: 100, jets: 0, tanks: 0, turrets: 50 },
    };
    expect(checkRespondOperation(base)).toBeNull();
    expect(checkRespondOperation({ ...base, participantStatus: null })?.code).toBe("operation/not_invited");
    expect(checkRespondOperation({ ...base, confirmedOthers: 4 })?.code).toBe("operation/full");
    expect(checkRespondOperation({ ...base, contribution: { ...base.contribution, troops: 101 } })?.message).toBe("Insufficient troops: have 100, need 101");
    expect(checkRespondOperation({ ...base, contribution: { ...base.contribution, turrets: 10 } })?.code).toBe("operation/turrets_in_attack");
    expect(checkRespondOperation({ ...base, operationType: "defensive_support", contribution: { ...base.contribution, turrets: 10 } })).toBeNull();
    expect(checkRespondOperation({ ...base, contribution: { troops: 0, jets: 0, tanks: 0, turrets: 0 } })?.code).toBe("operation/no_units");
    expect(checkRespondOperation({ ...base, status: "completed" })?.code).toBe("operation/closed");
    // Declining needs nothing but the invitation.
    expect(checkRespondOperation({ ...base, response: "decline", confirmedOthers: 4 })).toBeNull();
  });

  it("launching needs a leader and met requirements", () => {
    expect(checkLaunchOperation({ role: "owner", status: "active", ready: true })).toBeNull();
    expect(checkLaunchOperation({ role: "owner", status: "planning", ready: false })?.message).toBe("Operation requirements are not met");
    expect(checkLaunchOperation({ role: "member", status: "active", ready: true })?.code).toBe("alliance/forbidden");
    expect(checkLaunchOperation({ role: "owner", status: "cancelled", ready: true })?.code).toBe("operation/closed");
  });
});

describe("defense requests", () => {
  const base = {
    responderId: 2,
    requesterId: 1,
    expiresAt: 10 * HOUR,
    now: 9 * HOUR,
    alreadyResponded: false,
    responseType: "military_support" as const,
    supportNeeded: { military: true, intelligence: false },
    commitment: { troops: 2000, jets: 50, tanks: 0 },
    available: { troops: 2000, jets: 50, tanks: 0 },
  };
  it("responds once, in time, with what was asked for and units held", () => {
    expect(checkRespondDefense(base)).toBeNull();
    expect(checkRespondDefense({ ...base, alreadyResponded: true })?.message).toBe("You have responded to this defense request");
    expect(checkRespondDefense({ ...base, now: 10 * HOUR })?.code).toBe("defense/expired");
    expect(checkRespondDefense({ ...base, responderId: 1 })?.code).toBe("defense/own_request");
    expect(checkRespondDefense({ ...base, commitment: { troops: 2001, jets: 0, tanks: 0 } })?.message).toBe("Insufficient troops: have 2000, need 2001");
    expect(checkRespondDefense({ ...base, responseType: "intelligence" })?.code).toBe("defense/intelligence_not_needed");
    expect(checkRespondDefense({ ...base, responseType: "declined" })).toBeNull();
    expect(checkRespondDefense({ ...base, supportNeeded: { military: false, intelligence: true } })?.code).toBe("defense/military_not_needed");
  });

  it("one open request per member, asking for something", () => {
    const need = { military: true, intelligence: false, resources: false };
    expect(checkRequestDefense({ role: "member", openRequests: 0, supportNeeded: need })).toBeNull();
    expect(checkRequestDefense({ role: "member", openRequests: 1, supportNeeded: need })?.code).toBe("defense/open_request");
    expect(checkRequestDefense({ role: "member", openRequests: 0, supportNeeded: { ...need, military: false } })?.code).toBe("defense/nothing_needed");
  });

  it.each([
    [true, 12, 200, "critical"],
    [true, 3, 200, "high"],
    [false, 0, 85, "medium"],
    [false, 0, 40, "low"],
  ] as const)("urgency: won %s, %i%% land, power %i%%: %s", (attackerWon, landLostPct, powerRatioPct, urgency) => {
    expect(computeDefenseUrgency({ attackerWon, landLostPct, powerRatioPct })).toBe(urgency);
  });
});

describe("alliance chat access (spec section 5)", () => {
  it.each([
    ["general", "member", true],
    ["military", "member", true],
    ["intelligence", "member", false],
    ["leadership", "member", false],
    ["intelligence", "manager", true],
    ["leadership", "owner", true],
  ] as const)("%s for a %s: %s", (channelId, role, allowed) => {
    expect(checkAllianceChat({ channelId, role, announcement: false }) === null).toBe(allowed);
  });
  it("announcements are for leaders; nobody outside reads anything", () => {
    expect(checkAllianceChat({ channelId: "general", role: "member", announcement: true })?.code).toBe("alliance/forbidden");
    expect(canAccessAllianceChannel({ accessLevel: "all" }, null)).toBe(false);
    expect(canAccessAllianceChannel({ accessLevel: "owner" }, "manager")).toBe(false);
  });
});

describe("economy bonuses from alliances and diplomacy", () => {
  it("research points and tax income grow by the bonus in force, floored; none without", async () => {
    const { startingCountry } = await import("./country.js");
    const { computeResearchPointsPerTurn } = await import("./research.js");
    const { computeTaxRevenue } = await import("./economy.js");
    const base = { ...startingCountry(), buildings: { ...startingCountry().buildings, research_labs: 3 } };
    const points = computeResearchPointsPerTurn(base);
    expect(points).toBeGreaterThan(0);
    expect(computeResearchPointsPerTurn({ ...base, bonuses: { researchPct: 30, incomePct: 0 } })).toBe(Math.floor((points * 130) / 100));
    const tax = computeTaxRevenue(base);
    expect(computeTaxRevenue({ ...base, bonuses: { researchPct: 0, incomePct: 10 } })).toBe(Math.floor((tax * 110) / 100));
    expect(computeTaxRevenue({ ...base, bonuses: { researchPct: 0, incomePct: 0 } })).toBe(tax);
  });
});
