import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ACHIEVEMENTS, computePeriodChange, computeSeasonEnd, hasEarned, isSeasonOver, newAchievements, nextSeasonName, publicEstimate, type AchievementSubject } from "./seasons.js";

const start: AchievementSubject = { networth: 60_000, land: 100, population: 1_000, victories: 0, researchLevels: 0, military: 210 };

describe("seasons", () => {
  it("ends at its end, not before", () => {
    expect(isSeasonOver({ isActive: true, endsAt: 1000 }, 999)).toBe(false);
    expect(isSeasonOver({ isActive: true, endsAt: 1000 }, 1000)).toBe(true);
    expect(isSeasonOver({ isActive: false, endsAt: 1000 }, 5000)).toBe(false);
  });
  it("lasts its length in days, decimals allowed", () => {
    expect(computeSeasonEnd(0, 90)).toBe(90 * 86_400_000);
    expect(computeSeasonEnd(10, 0.001)).toBe(10 + 86_400);
  });
  it.each([
    [[], "Season 1"],
    [["Season 1"], "Season 2"],
    [["Season 1", "Season 7", "Season 3"], "Season 8"],
    [["Founders' Round"], "Season 2"],
  ])("names the season after %j %s", (names, next) => {
    expect(nextSeasonName(names)).toBe(next);
  });
});

describe("achievements", () => {
  it("a starting country has none", () => {
    expect(newAchievements(start, new Set())).toEqual([]);
  });
  it("awards each threshold once", () => {
    const c = { ...start, victories: 1, land: 1_000 };
    expect(newAchievements(c, new Set()).map((a) => a.id)).toEqual(["first_victory", "landholder"]);
    expect(newAchievements(c, new Set(["first_victory"])).map((a) => a.id)).toEqual(["landholder"]);
  });
  it("more of everything never loses an achievement (monotone)", () => {
    const n = fc.nat({ max: 100_000_000 });
    fc.assert(
      fc.property(fc.record({ networth: n, land: n, population: n, victories: n, researchLevels: n, military: n }), fc.nat({ max: 1000 }), (c, extra) => {
        const more = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v + extra])) as unknown as AchievementSubject;
        for (const a of ACHIEVEMENTS) if (hasEarned(a, c)) expect(hasEarned(a, more)).toBe(true);
      }),
    );
  });
  it("ids are unique", () => {
    expect(new Set(ACHIEVEMENTS.map((a) => a.id)).size).toBe(ACHIEVEMENTS.length);
  });
});

describe("period change", () => {
  it("is the difference from the base, 0 without one", () => {
    expect(computePeriodChange(150, 100)).toBe(50);
    expect(computePeriodChange(80, 100)).toBe(-20);
    expect(computePeriodChange(80, null)).toBe(0);
  });
});

describe("publicEstimate", () => {
  it.each([
    [0, 0],
    [7, 7],
    [99, 99],
    [123, 120],
    [12_345, 12_000],
    [99_999, 99_000],
    [-5, 0],
  ])("%i -> %i", (v, e) => {
    expect(publicEstimate(v)).toBe(e);
  });
  it("never exceeds the value and keeps the order", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        expect(publicEstimate(a)).toBeLessThanOrEqual(a);
        if (a <= b) expect(publicEstimate(a)).toBeLessThanOrEqual(publicEstimate(b));
      }),
    );
  });
});
