import { describe, expect, it } from "vitest";
import { RANKING_PERIODS, compareRank, computeRankChange, estimateNextTickAt, isActiveInPeriod, isRankable, isRankedInPeriod, seasonStatus } from "./ranking.js";

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

describe("ranking periods (spec: daily, weekly (default), monthly, all time)", () => {
  const DAY = 86_400_000;
  const now = Date.UTC(2030, 0, 10);
  it("are the spec's four, in its order", () => {
    expect(RANKING_PERIODS.map((p) => [p.id, p.days])).toEqual([
      ["daily", 1],
      ["weekly", 7],
      ["monthly", 30],
      ["all_time", null],
    ]);
  });

  it.each([
    // last active (days before now; null = unknown), period, active within it
    [0, "daily", true],
    [1, "daily", true], // the edge counts
    [1.01, "daily", false],
    [3, "weekly", true],
    [7.5, "weekly", false],
    [29, "monthly", true],
    [31, "monthly", false],
    [400, "all_time", true],
    [null, "daily", true], // unknown time: no evidence it idled
  ] as const)("%s days ago, %s -> %s", (daysAgo, period, active) => {
    const lastActive = daysAgo === null ? 0 : now - daysAgo * DAY;
    expect(isActiveInPeriod(lastActive, period, now)).toBe(active);
  });

  it.each([
    // networth, days since active, own country?, period, listed
    [500, 0, false, "weekly", true],
    [0, 0, false, "all_time", false], // networth 0 is never ranked
    [500, 3, false, "daily", false],
    [500, 3, true, "daily", true], // the viewer's own country stays listed
    [0, 0, true, "daily", false], // ... when it is rankable
  ] as const)("networth %d, %d days idle, own %s, %s -> %s", (networth, daysAgo, own, period, listed) => {
    const row = { countryId: 9, networth, lastActive: now - daysAgo * DAY };
    expect(isRankedInPeriod(row, period, now, own ? 9 : null)).toBe(listed);
  });
});

describe("rank order: networth descending, ties by country id", () => {
  it("sorts as the server's ranking query does", () => {
    const rows = [
      { countryId: 3, networth: 500 },
      { countryId: 1, networth: 900 },
      { countryId: 2, networth: 500 },
      { countryId: 4, networth: 10 },
    ];
    expect([...rows].sort(compareRank).map((r) => r.countryId)).toEqual([1, 2, 3, 4]);
  });
});
