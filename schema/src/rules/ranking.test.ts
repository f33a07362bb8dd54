import { describe, expect, it } from "vitest";
import { computeRankChange, estimateNextTickAt, isRankable, seasonStatus } from "./ranking.js";

describe("rank change since the snapshot", () => {
  it.each([
    [7, 3, 4, "up"],
    [3, 7, -4, "down"],
    [5, 5, 0, "same"],
    [null, 1, 0, "same"],
    [undefined, 9, 0, "same"],
  ] as const)("previous %s, now %s -> %s %s", (previous, rank, change, trend) => {
    expect(computeRankChange(previous, rank)).toEqual({ change, trend });
  });
});

describe("who is ranked", () => {
  it("only networth above 0 and not eliminated", () => {
    expect(isRankable({ networth: 1 })).toBe(true);
    expect(isRankable({ networth: 0 })).toBe(false);
    expect(isRankable({ networth: 10, isEliminated: true })).toBe(false);
  });
});

describe("turn clock estimate", () => {
  it("is the next whole multiple of the interval", () => {
    expect(estimateNextTickAt(1_000, 600)).toBe(1_200);
    expect(estimateNextTickAt(1_200, 600)).toBe(1_800);
  });
});

describe("season status", () => {
  const season = { isActive: true, startsAt: 100, endsAt: 200 };
  it.each([
    [150, "ACTIVE"],
    [99, "INACTIVE"],
    [200, "INACTIVE"],
  ] as const)("at %s -> %s", (now, status) => {
    expect(seasonStatus(season, now)).toBe(status);
  });
  it("a season flagged inactive is inactive", () => {
    expect(seasonStatus({ ...season, isActive: false }, 150)).toBe("INACTIVE");
  });
});
