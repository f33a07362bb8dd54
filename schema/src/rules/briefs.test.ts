import { describe, expect, it } from "vitest";
import { computeIntelligenceBriefs, type BriefInput } from "./briefs.js";

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const base = (patch: Partial<BriefInput> = {}): BriefInput => ({ now: NOW, land: 1000, forces: 5000, attacks: [], wars: [], spies: [], ...patch });
const attack = (landLost: number, hoursAgo = 1) => ({ attackerName: "Avalon", attackType: "ground_assault", repelled: landLost === 0, landLost, at: NOW - hoursAgo * HOUR });

describe("intelligence briefs", () => {
  it("all quiet with a strong defense; a weak defense is a medium brief", () => {
    expect(computeIntelligenceBriefs(base())).toMatchObject([{ id: "quiet", threat: "low" }]);
    expect(computeIntelligenceBriefs(base({ forces: 100 }))).toMatchObject([{ id: "weak-defenses", threat: "medium" }]);
  });
  it.each([
    ["one repelled attack", [attack(0)], "medium", "1 attack in the last 24 hours by Avalon; 1 was repelled."],
    ["land lost", [attack(20)], "high", "1 attack in the last 24 hours by Avalon; 0 were repelled, 20 acres lost."],
    ["a tenth of the land lost", [attack(112)], "critical", null],
    ["three attacks", [attack(0), attack(0), attack(0)], "critical", null],
  ] as const)("%s: threat %s", (_name, attacks, threat, summary) => {
    const [brief] = computeIntelligenceBriefs(base({ attacks: [...attacks] }));
    expect(brief).toMatchObject({ id: "attacks", threat });
    if (summary) expect(brief!.summary).toBe(summary);
  });
  it("attacks older than a day do not count", () => {
    expect(computeIntelligenceBriefs(base({ attacks: [attack(50, 25)] }))[0]!.id).toBe("quiet");
  });
  it("a war declared on the player outranks one it declared; spies follow; most threatening first", () => {
    const briefs = computeIntelligenceBriefs(
      base({
        wars: [
          { opponentName: "Brigadoon", declaredByMe: true, since: NOW - HOUR },
          { opponentName: "Carthage", declaredByMe: false, since: NOW - HOUR },
        ],
        spies: [{ spyName: null, operation: "intel", caught: 2, at: NOW - HOUR }],
        attacks: [attack(200)],
      }),
    );
    expect(briefs.map((b) => [b.id, b.threat])).toEqual([
      ["attacks", "critical"],
      ["war-Carthage", "high"],
      ["war-Brigadoon", "medium"],
      ["spies", "medium"],
    ]);
    expect(briefs.at(-1)!.summary).toBe("1 spy operation against you in the last 24 hours; 2 spies caught.");
  });
});
