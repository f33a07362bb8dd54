import { describe, expect, it } from "vitest";
import { rankCountries } from "./RankingsScreen";
import type { RankingRowSnapshot as RankingRow } from "@game/schema/messages";

const now = Date.UTC(2030, 0, 10);
const row = (countryId: number, value: number, extra: Partial<RankingRow> = {}): RankingRow => ({
  id: String(countryId),
  rank: 0,
  countryId,
  countryName: `Country ${countryId}`,
  playerName: `player${countryId}`,
  governmentType: "monarchy",
  allianceName: "",
  allianceTag: "",
  value,
  land: 100 + countryId,
  change: 0,
  trend: "same",
  lastActive: now,
  isOnline: false,
  ...extra,
});

describe("rankCountries", () => {
  const rows = [row(1, 500), row(2, 900), row(3, 0), row(4, 700, { allianceName: "Iron Pact", lastActive: now - 3 * 86_400_000 })];
  const base = { metric: "networth" as const, period: "all_time" as const, search: "", now, ownCountryId: null };

  it("keeps networth above 0 only, sorted by networth descending", () => {
    expect(rankCountries(rows, base).map((r) => [r.row.countryId, r.rank])).toEqual([
      [2, 1],
      [4, 2],
      [1, 3],
    ]);
  });

  it("searches country, player and alliance names case-insensitively", () => {
    expect(rankCountries(rows, { ...base, search: "IRON" }).map((r) => r.row.countryId)).toEqual([4]);
    expect(rankCountries(rows, { ...base, search: "Player1" }).map((r) => r.row.countryId)).toEqual([1]);
  });

  it("sorts by land for the land metric, and filters by activity for a period", () => {
    expect(rankCountries(rows, { ...base, metric: "land" }).map((r) => r.value)).toEqual([104, 102, 101]);
    expect(rankCountries(rows, { ...base, period: "daily" }).map((r) => r.row.countryId)).toEqual([2, 1]);
  });

  it("appends the current country when missing", () => {
    const own = row(9, 10, { countryName: "Mine" });
    const out = rankCountries(rows, { ...base, ownCountryId: 9, own });
    expect(out[out.length - 1]).toMatchObject({ isMe: true, rank: 0 });
  });
});
