import { describe, expect, it } from "vitest";
import { warsWithAlliance } from "./NoAlliance";

describe("joining an alliance at war with one of its members warns (issue 30 #13)", () => {
  const wars = [
    { declarerId: 1, declarerName: "Me", targetId: 2, targetName: "Owner land", status: "active", isDeclarer: true },
    { declarerId: 3, declarerName: "Raider", targetId: 1, targetName: "Me", status: "active", isDeclarer: false },
    { declarerId: 1, declarerName: "Me", targetId: 4, targetName: "Old foe", status: "ended", isDeclarer: true },
  ];
  const allianceOf = new Map<number, number | null>([
    [2, 7],
    [3, 7],
    [4, 7],
  ]);
  it("names the members at war with the player, whoever declared, and not ended wars", () => {
    expect(warsWithAlliance(wars, allianceOf, 7)).toEqual(["Owner land", "Raider"]);
    expect(warsWithAlliance(wars, allianceOf, 8)).toEqual([]);
  });
});
