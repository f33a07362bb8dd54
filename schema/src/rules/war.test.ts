import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { HOUR_MS } from "./military.js";
import { MAX_ACTIVE_WARS, WAR_COOLDOWN_MS, WAR_MIN_DURATION_MS, checkDeclareWar, checkEndWar, computeWarCost, splitWarCost, warRemainingSeconds, warStatus, warTurnsToCharge } from "./war.js";

const now = 10_000 * HOUR_MS;
const target = { id: 2, land: 500, isEliminated: false, protectedUntil: 0, allianceId: null };
const declare = (patch: Partial<Parameters<typeof checkDeclareWar>[0]> = {}) => checkDeclareWar({ declarerId: 1, target, declarerAllianceId: null, cash: 100_000, existing: [], activeWars: 0, now, ...patch });

describe("war declarations", () => {
  it("active, then 24 hours of cooldown, then ended; remainingTime in seconds", () => {
    const war = { declarerId: 1, targetId: 2, declaredAt: now, endedAt: null };
    expect(warStatus(war, now)).toBe("active");
    expect(warRemainingSeconds(war, now)).toBe(48 * 3600);
    expect(warRemainingSeconds(war, now + WAR_MIN_DURATION_MS + 5)).toBe(0);
    const ended = { ...war, endedAt: now + WAR_MIN_DURATION_MS };
    expect(warStatus(ended, ended.endedAt)).toBe("cooldown");
    expect(warRemainingSeconds(ended, ended.endedAt)).toBe(24 * 3600);
    expect(warStatus(ended, ended.endedAt + WAR_COOLDOWN_MS)).toBe("ended");
  });

  it.each<[string, Partial<Parameters<typeof checkDeclareWar>[0]>, string | null]>([
    ["a fine declaration", {}, null],
    ["no target", { target: null }, "No target selected"],
    ["oneself", { target: { ...target, id: 1 } }, "You cannot declare war on your own country"],
    ["eliminated", { target: { ...target, isEliminated: true } }, "That country has been eliminated"],
    ["new player", { target: { ...target, protectedUntil: now + 1 } }, "Target is under new player protection"],
    ["ally", { declarerAllianceId: 4, target: { ...target, allianceId: 4 } }, "You cannot declare war on a member of your own alliance"],
    ["already", { existing: [{ declarerId: 1, targetId: 2, declaredAt: now - HOUR_MS, endedAt: null }] }, "You are already at war with this country"],
    ["cooldown", { existing: [{ declarerId: 1, targetId: 2, declaredAt: now - 60 * HOUR_MS, endedAt: now - HOUR_MS }] }, "Your last war with this country ended recently: you can declare again in 23 hour(s)"],
    ["after cooldown", { existing: [{ declarerId: 1, targetId: 2, declaredAt: now - 90 * HOUR_MS, endedAt: now - WAR_COOLDOWN_MS }] }, null],
    ["too many", { activeWars: MAX_ACTIVE_WARS }, "You cannot fight more than 5 wars at once"],
    ["cannot pay a turn", { cash: 4_999 }, "Insufficient funds. A war on this country costs $5,000 per turn."],
  ])("%s", (_name, patch, message) => {
    expect(declare(patch)?.message ?? null).toBe(message);
  });

  it("ends only after 48 hours, by the declarer, while active", () => {
    const war = { declarerId: 1, targetId: 2, declaredAt: now, endedAt: null };
    expect(checkEndWar(war, 1, now + HOUR_MS)?.message).toBe("A war lasts at least 48 hours: 47 hour(s) left");
    expect(checkEndWar(war, 2, now + WAR_MIN_DURATION_MS)?.code).toBe("war/not_yours");
    expect(checkEndWar(war, 1, now + WAR_MIN_DURATION_MS)).toBeNull();
    expect(checkEndWar({ ...war, endedAt: now + WAR_MIN_DURATION_MS }, 1, now + WAR_MIN_DURATION_MS)?.code).toBe("war/not_active");
  });

  it("$10 per target acre per turn", () => {
    expect(computeWarCost(500, 1)).toBe(5_000);
    expect(computeWarCost(500, 3)).toBe(15_000);
  });

  it("charging through the last tick: ticks after the declaration, each once, whatever the batches", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 20 }), (declaredTick, steps) => {
        let charged = declaredTick;
        let last = declaredTick;
        let total = 0;
        for (const step of steps) {
          last += step;
          // a batch may be delivered twice (a retried job): the second charges nothing
          for (let delivery = 0; delivery < 2; delivery++) {
            total += warTurnsToCharge(declaredTick, charged, last);
            charged = Math.max(charged, last);
          }
        }
        expect(total).toBe(last - declaredTick);
      }),
    );
  });
});

describe("war cost shared with the alliance (spec: alliance shares 50% by networth)", () => {
  const declarer = { countryId: 1, networth: 10_000, available: 1_000_000 };

  it("alone, the declarer pays everything", () => {
    expect(splitWarCost(7_000, declarer, [])).toEqual(new Map([[1, 7_000]]));
  });

  it("allies carry half, by networth among them; the declarer the other half", () => {
    const allies = [
      { countryId: 2, networth: 30_000, available: 1_000_000 },
      { countryId: 3, networth: 10_000, available: 1_000_000 },
    ];
    expect(splitWarCost(8_000, declarer, allies)).toEqual(
      new Map([
        [2, 3_000],
        [3, 1_000],
        [1, 4_000],
      ]),
    );
  });

  it("an ally short of cash pays what it has; the declarer covers the rest", () => {
    const allies = [{ countryId: 2, networth: 30_000, available: 1_500 }];
    expect(splitWarCost(8_000, declarer, allies)).toEqual(
      new Map([
        [2, 1_500],
        [1, 6_500],
      ]),
    );
  });

  it("nobody pays when the declarer cannot pay its part", () => {
    const allies = [{ countryId: 2, networth: 30_000, available: 1_000_000 }];
    expect(splitWarCost(8_000, { ...declarer, available: 3_999 }, allies)).toBeNull();
    expect(splitWarCost(8_000, { ...declarer, available: 4_000 }, allies)).toEqual(
      new Map([
        [2, 4_000],
        [1, 4_000],
      ]),
    );
  });

  it("payments sum to the cost exactly, never exceed what a payer has, never negative", () => {
    const payer = (countryId: number) => fc.record({ countryId: fc.constant(countryId), networth: fc.integer({ min: 0, max: 10_000_000 }), available: fc.integer({ min: 0, max: 10_000_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), payer(1), fc.array(fc.integer({ min: 2, max: 200 }), { maxLength: 12 }), (cost, self, ids) => {
        const allies = [...new Set(ids)].map((countryId, i) => ({ countryId, networth: (i + 1) * 977, available: (i * 7_919) % 50_000 }));
        const split = splitWarCost(cost, self, allies);
        if (split === null) return;
        const all = [self, ...allies];
        expect([...split.values()].reduce((a, b) => a + b, 0)).toBe(cost);
        for (const [id, paid] of split) {
          expect(paid).toBeGreaterThanOrEqual(0);
          expect(paid).toBeLessThanOrEqual(all.find((p) => p.countryId === id)!.available);
        }
      }),
    );
  });
});
