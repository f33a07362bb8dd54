import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { IntelligenceReportJson } from "@game/schema/api";
import { ReportDetail } from "./ReportDetail";
import { typeBlocked } from "./IntelligenceCenter";

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

describe("Intelligence Center type cards", () => {
  it("'Insufficient spies', 'Daily limit reached' (cap or the type's maximum), cooldown, or usable", () => {
    expect(typeBlocked("military", 4, 30, {}, 0)).toBe("Insufficient spies");
    expect(typeBlocked("general", 10, 0, {}, 0)).toBe("Daily limit reached");
    expect(typeBlocked("military", 10, 20, { military: 5 }, 0)).toBe("Daily limit reached");
    expect(typeBlocked("military", 10, 20, { military: 1 }, 3_600_000)).toBe("Cooldown: ready in 1h 00m");
    expect(typeBlocked("alliance", 10, 20, {}, 0)).toBeNull();
  });
});
