import { describe, expect, it } from "vitest";
import { computeOperationRewardPoints } from "@game/schema/rules";
import { operationRewardText } from "./AllianceWarfare";

describe("an operation card promises what the launch credits (issue 30 #19: promised 75, credited 100)", () => {
  it("the reward follows the participants and force confirmed now, by the launch's rule", () => {
    const minimums = computeOperationRewardPoints(2, 0);
    expect(minimums).toBe(75);
    expect(operationRewardText({ confirmedCount: 3, totalForce: 0, rewardBonusPoints: minimums })).toBe(`Rewards ${computeOperationRewardPoints(3, 0)} bonus points with the forces confirmed now (75 at the minimums)`);
    expect(computeOperationRewardPoints(3, 0)).toBe(100);
  });
  it("never less than the minimums' reward", () => {
    expect(operationRewardText({ confirmedCount: 0, totalForce: 0, rewardBonusPoints: 75 })).toBe("Rewards 75 bonus points with the forces confirmed now");
  });
});
