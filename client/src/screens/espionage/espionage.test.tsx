import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { IntelligenceReportJson, IntelligenceStatusJson } from "@game/schema/api";
import { MISSION_TYPES, missionSuccess, type SpyForce } from "@game/schema/rules";
import { ReportDetail } from "./ReportDetail";
import { missionBlocked, missionChancePct } from "./IntelligenceCenter";

afterEach(cleanup);

function report(patch: Partial<IntelligenceReportJson> = {}): IntelligenceReportJson {
  return {
    id: 1,
    operationType: "military",
    intelType: "military",
    targetCountryId: 2,
    targetCountryName: "Target",
    targetGovernment: "monarchy",
    spiesUsed: 5,
    success: true,
    operationDate: Date.UTC(2026, 0, 1),
    intelligence: {
      military: {
        estimatedUnits: { troops: 1200, jets: 30, turrets: 40, tanks: 5, spies: 9 },
        militaryReadiness: 90,
        recentCombat: 0,
        defenseStatus: "alert medium",
        militaryTech: 2,
        warCapability: "moderate",
        vulnerabilities: [],
        strengths: ["high readiness"],
      },
    },
    spiesLost: 0,
    detected: false,
    confidenceLevel: "high",
    expiresAt: Date.UTC(2026, 0, 1, 12),
    expired: false,
    tags: ["military", "high"],
    seed: 7,
    ownerCountryId: 3,
    ownerName: "Spy",
    isOwn: true,
    sharedWithAlliance: false,
    ...patch,
  };
}

describe("ReportDetail", () => {
  it("shows the estimated units of a military report", () => {
    render(<ReportDetail report={report()} />);
    expect(screen.getByTestId("intel-troops").textContent).toBe("1,200");
    expect(screen.queryByText("Intelligence expired")).toBeNull();
  });
  it("a failed operation shows the spec's 'Operation Failed' panel with its optional lines", () => {
    render(<ReportDetail report={report({ success: false, intelligence: null, confidenceLevel: null, detected: true, spiesLost: 2 })} />);
    const panel = screen.getByTestId("operation-failed").textContent;
    expect(panel).toContain("Operation Failed: The spy operation was unsuccessful");
    expect(panel).toContain("Enemy counter-intelligence detected our operatives.");
    expect(panel).toContain("We lost 2 spies in the operation.");
  });
  it("an expired report says 'Intelligence expired'", () => {
    render(<ReportDetail report={report({ expired: true })} />);
    expect(screen.getByText("Intelligence expired")).toBeTruthy();
  });
});

const NOW = Date.UTC(2026, 0, 1, 12);

/** A status answer as GET /intelligence/status sends it, with overrides. */
function status(patch: Partial<IntelligenceStatusJson> = {}): IntelligenceStatusJson {
  return {
    countryId: 3,
    dailyLimit: 30,
    operationsUsed: 10,
    operationsRemaining: 20,
    resetAt: NOW + 3_600_000,
    usedByKind: {},
    cooldowns: { general: 0, alliance: 0, market: 0, military: 0 },
    lastMissionAt: {},
    availableSpies: 10,
    land: 100,
    spiesPerAcre: 0.1,
    spyCapacity: 5,
    spyTech: 0,
    governmentType: "monarchy",
    governmentMultiplier: 1,
    governmentBonus: 0,
    inAlliance: false,
    spySuccessBonusPct: 0,
    successPreview: {
      missions: { general: 0, alliance: 0, market: 0, military: 0 },
      operations: {} as IntelligenceStatusJson["successPreview"]["operations"],
      basis: "estimate",
      targetCountryId: 9,
      target: { spies: 10, land: 100 },
      spyDefensePct: 105,
    },
    turns: 50,
    trainingCost: 100,
    spiesPerTurn: 5,
    allowSpyOperations: true,
    recentMissions: [],
    ...patch,
  };
}

describe("Intelligence Center type cards", () => {
  it("the server's checkMission on the same inputs: 'Insufficient spies', 'Daily limit reached' (cap or the type's maximum), cooldown, or usable", () => {
    expect(missionBlocked("military", status({ availableSpies: 4 }), 5, NOW)).toBe("Insufficient spies");
    expect(missionBlocked("general", status({ operationsUsed: 30 }), 1, NOW)).toBe("Daily limit reached");
    expect(missionBlocked("military", status({ usedByKind: { military: 5 } }), 5, NOW)).toBe("Daily limit reached");
    expect(missionBlocked("military", status({ usedByKind: { military: 1 }, lastMissionAt: { military: NOW - 5 * 3_600_000 } }), 5, NOW)).toBe("This operation is on cooldown: ready in 1h 00m");
    expect(missionBlocked("alliance", status({ turns: 0 }), 2, NOW)).toBe("Not enough turns");
    expect(missionBlocked("alliance", status(), 2, NOW)).toBeNull();
  });

  it("the chance moves with the spies chosen and follows the parity rule, defense included (issue 30 #22: 40% shown against an unknown target)", () => {
    const s = status();
    const force: SpyForce = { spies: 10, land: 100, governmentType: "monarchy", spyTech: 0, inAlliance: false, bonusPct: 0 };
    // parity: the target holds 0.1 spies per acre like the spy, a defense of 105 (with the default counter-intelligence)
    expect(missionChancePct("general", s, 3)).toBe(Math.round(missionSuccess(MISSION_TYPES.general, force, 3, { spies: 10, land: 100 }, 105) * 100));
    expect(missionChancePct("general", s, 3)).toBe(30);
    const small = status({ successPreview: { ...s.successPreview, target: { spies: 1, land: 10 } } });
    expect(missionChancePct("general", small, 1)).toBeLessThan(missionChancePct("general", small, 3));
  });
});
