import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render, renderHook, screen } from "@testing-library/react";
import type { ListedCountryJson } from "@game/schema/api";
import { analyzeTarget } from "@game/schema/rules";
import { testCountry, countryJson } from "../../test/render";
import { DEFAULT_TARGET_FILTERS, chanceText, filterTargets, protectionText, targetRow, type TargetRow } from "./TargetPanel";
import { PreviewChance, launchRejection } from "./CombatPanel";
import { selection, useAttackSelection } from "./selection";
import { readinessClass } from "./CommandPanel";

/** A listed country with its public analysis against a starting country. */
function row(patch: Partial<ListedCountryJson> & { id: number; name: string }): TargetRow {
  const base = countryJson({ id: patch.id, name: patch.name });
  const country = {
    government_type: base.government_type,
    networth: "4812",
    land: "100",
    victories: 0,
    defeats: 0,
    total_battles: 0,
    is_ai: false,
    is_eliminated: false,
    alliance_id: null,
    alliance_name: null,
    gdi_protection: false,
    protection_status: "unprotected",
    created_at: base.created_at,
    last_active: base.last_active,
    protected_until: base.protected_until,
    ...patch,
  } as ListedCountryJson;
  const own = testCountry();
  const networth = Number(country.networth);
  const land = Number(country.land);
  return {
    country,
    networth,
    land,
    analysis: analyzeTarget({ networth: own.networth, land: own.landAcres, units: own }, { id: country.id, name: country.name, governmentType: country.government_type, networth, land, victories: 0, defeats: 0 }, null),
    refusal: null,
    refusalAtWar: null,
  };
}

describe("target eligibility: the server's checkAttackTarget on the same public facts (issue 30 #16)", () => {
  const listed = (patch: Partial<ListedCountryJson>) => row({ id: 9, name: "Target", ...patch }).country;
  const own = testCountry({ networth: "10000" });
  const now = Date.UTC(2026, 5, 1);
  it("a target under 40% of my networth is out of reach, not 'EASY 85%'", () => {
    const r = targetRow(own, listed({ networth: "3000", protected_until: new Date(0).toISOString() }), null, false, now);
    expect(r.refusal).toBe("Target is too small to attack: its networth is under 40% of yours");
    expect(r.refusalAtWar).toBe(r.refusal);
  });
  it("a GDI member out of its band: out of reach, unless a war is declared on it", () => {
    const r = targetRow(own, listed({ networth: "20000", gdi_protection: true, protected_until: new Date(0).toISOString() }), null, false, now);
    expect(r.refusal).toBe("Target is protected by the GDI: your networth is out of its range");
    expect(r.refusalAtWar).toBeNull();
  });
  it("a member of my own alliance and a protected newcomer are out of reach; an equal is in reach, its chance labelled a band", () => {
    expect(targetRow({ ...own, allianceId: 5 }, listed({ networth: "10000", alliance_id: 5, protected_until: new Date(0).toISOString() }), null, false, now).refusal).toBe("You cannot attack a member of your own alliance");
    expect(targetRow(own, listed({ networth: "10000", protected_until: new Date(now + 3_600_000).toISOString() }), null, false, now).refusal).toBe("Target is under new player protection");
    const ok = targetRow(own, listed({ networth: "10000", protected_until: new Date(0).toISOString() }), null, false, now);
    expect(ok.refusal).toBeNull();
    expect(chanceText(ok.analysis)).toBe("band ~85%");
  });
});

describe("target filters (spec)", () => {
  const rows = [
    row({ id: 1, name: "Avalon" }),
    row({ id: 2, name: "Byzantium", protection_status: "new_player_protection" }),
    row({ id: 3, name: "Carthage", is_ai: true, networth: "20000", land: "900" }),
    row({ id: 4, name: "Dacia", alliance_id: 5, protection_status: "gdi_protected" }),
  ];
  it.each<[string, Partial<typeof DEFAULT_TARGET_FILTERS>, number[]]>([
    ["default: unprotected only", {}, [1, 3]],
    ["name, case-insensitive substring", { name: "CARTH", protection: "any" }, [3]],
    ["protected", { protection: "protected" }, [2, 4]],
    ["AI only", { playerType: "ai", protection: "any" }, [3]],
    ["humans only", { playerType: "human", protection: "any" }, [1, 2, 4]],
    ["unallied", { alliance: "unallied", protection: "any" }, [1, 2, 3]],
    ["allied (same alliance as mine)", { alliance: "allied", protection: "any" }, [4]],
    ["networth range", { networthMin: 10_000, protection: "any" }, [3]],
    ["land range", { landMax: 500, protection: "any" }, [1, 2, 4]],
    ["threat level", { threat: "impossible", protection: "any" }, [3]],
    ["size", { size: "much_larger", protection: "any" }, [3]],
    ["success chance", { successMin: 50, protection: "any" }, [1, 2, 4]],
  ])("%s", (_name, patch, ids) => {
    expect(filterTargets(rows, { ...DEFAULT_TARGET_FILTERS, ...patch }, 5).map((r) => r.country.id)).toEqual(ids);
  });

  it("shows the protection status with the underscore replaced by a space", () => {
    expect(protectionText("new_player_protection")).toBe("new player protection");
    expect(protectionText("gdi_protected")).toBe("gdi protected");
  });
});

describe("the attack selection", () => {
  afterEach(() => selection.reset());

  it("changing the attack type resets every allocated unit (spec)", () => {
    const { result } = renderHook(() => useAttackSelection());
    act(() => selection.setAttackType("standard_strike"));
    act(() => selection.setUnits({ troops: 50, tanks: 5 }));
    expect(result.current.units).toEqual({ troops: 50, tanks: 5 });
    act(() => selection.setAttackType("guerrilla_strike"));
    expect(result.current).toMatchObject({ attackType: "guerrilla_strike", units: {} });
  });

  it("selecting a target keeps the order but clears the allies ticked for another target", () => {
    act(() => selection.selectTarget({ id: 3, name: "Carthage" }));
    act(() => selection.toggleAlly(9, true));
    expect(selection.get()).toMatchObject({ allies: [9], allianceSupport: true });
    act(() => selection.selectTarget({ id: 4, name: "Dacia" }));
    expect(selection.get()).toMatchObject({ target: { id: 4 }, allies: [], allianceSupport: false });
  });

  it("Launch Attack's reason: the target first, then the spec's unit and turn messages", () => {
    const country = testCountry({ turns: 1 });
    const available = { troops: 100, jets: 0, turrets: 100, tanks: 10, spies: 0, missiles: 0 };
    const sel = { target: null, attackType: null, units: {}, allianceSupport: false, allies: [], scheduledFor: null };
    expect(launchRejection(sel, country, available)?.message).toBe("No target selected");
    const targeted = { ...sel, target: { id: 2, name: "B" } };
    expect(launchRejection(targeted, country, available)?.message).toBe("No attack type selected");
    expect(launchRejection({ ...targeted, attackType: "standard_strike" }, country, available)?.message).toBe("No units allocated for attack");
    expect(launchRejection({ ...targeted, attackType: "standard_strike", units: { troops: 101 } }, country, available)?.message).toBe("Insufficient troops: have 100, need 101");
    expect(launchRejection({ ...targeted, attackType: "standard_strike", units: { troops: 50 } }, country, available)?.message).toBe("Insufficient turns: need 2, have 1");
    expect(launchRejection({ ...targeted, attackType: "standard_strike", units: { troops: 50 } }, testCountry(), available)).toBeNull();
  });
});

describe("readiness colours (spec bands)", () => {
  it.each([
    [95, "ok"],
    [90, "ok"],
    [89, "warn"],
    [70, "warn"],
    [69, "bad"],
  ] as const)("%d -> %s", (readiness, cls) => {
    expect(readinessClass(readiness)).toBe(cls);
  });
});

describe("the attack preview's chance (issue 30 #5: a band shown as a forecast)", () => {
  afterEach(cleanup);
  const analysis = row({ id: 2, name: "B" }).analysis;
  it("without intelligence it is named a band that does not follow the force", () => {
    render(<PreviewChance preview={{ basis: "public", successChance: 85, analysis, defensePower: null }} />);
    expect(screen.getByTestId("preview-chance").textContent).toContain("easy (~85%)");
    expect(screen.getByText("Public band")).toBeTruthy();
    expect(screen.getByTestId("preview-band-note").textContent).toContain("does not change with the units you send");
  });
  it("with intelligence it is the estimate for the force sent", () => {
    render(<PreviewChance preview={{ basis: "intelligence", successChance: 62, analysis, defensePower: { low: 1, expected: 2, high: 3 } }} />);
    expect(screen.getByTestId("preview-chance").textContent).toContain("62%");
    expect(screen.queryByTestId("preview-band-note")).toBeNull();
  });
});
