import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MAX_SEED, Rng, seedState } from "./rng.js";

describe("Rng", () => {
  it("gives the same stream for the same seed", () => {
    const a = Rng.fromSeed(42);
    const b = Rng.fromSeed(42);
    const drawsA = Array.from({ length: 50 }, () => a.nextUint32());
    const drawsB = Array.from({ length: 50 }, () => b.nextUint32());
    expect(drawsA).toEqual(drawsB);
  });

  it("gives different streams for neighbouring seeds", () => {
    const a = Array.from(
      { length: 8 },
      (
        (r) => () =>
          r.nextUint32()
      )(Rng.fromSeed(1)),
    );
    const b = Array.from(
      { length: 8 },
      (
        (r) => () =>
          r.nextUint32()
      )(Rng.fromSeed(2)),
    );
    expect(a).not.toEqual(b);
    // No shared value at the same position: the warm-up decorrelates neighbouring seeds.
    expect(a.some((v, i) => v === b[i])).toBe(false);
  });

  it("resumes exactly from a saved state", () => {
    const rng = Rng.fromSeed(7);
    for (let i = 0; i < 13; i++) rng.next();
    const saved = rng.state;
    const expected = Array.from({ length: 20 }, () => rng.next());
    const resumed = Rng.fromState(saved);
    expect(Array.from({ length: 20 }, () => resumed.next())).toEqual(expected);
  });

  it("state is a copy, not a live reference", () => {
    const rng = Rng.fromSeed(3);
    const before = rng.state;
    rng.next();
    expect(rng.state).not.toEqual(before);
    expect(Rng.fromState(before).state).toEqual(before);
  });

  it("counts draws", () => {
    const rng = Rng.fromSeed(5);
    rng.next();
    rng.int(1, 6);
    rng.chance(0.5);
    expect(rng.draws).toBeGreaterThanOrEqual(3);
  });

  it.each([[-1], [1.5], [MAX_SEED + 1], [Number.NaN]])("refuses seed %s", (seed) => {
    expect(() => seedState(seed)).toThrow(RangeError);
  });

  it("accepts the seed range ends, and seed 0 is not degenerate", () => {
    const zero = Rng.fromSeed(0);
    const values = new Set(Array.from({ length: 100 }, () => zero.nextUint32()));
    expect(values.size).toBe(100);
    expect(() => Rng.fromSeed(MAX_SEED).next()).not.toThrow();
  });

  it("next() stays in [0, 1)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), (seed) => {
        const rng = Rng.fromSeed(seed);
        for (let i = 0; i < 100; i++) {
          const v = rng.next();
          if (!(v >= 0 && v < 1)) return false;
        }
        return true;
      }),
    );
  });

  it("int(min, max) stays in range and reaches both ends", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 20 }), (seed, min, width) => {
        const rng = Rng.fromSeed(seed);
        for (let i = 0; i < 50; i++) {
          const v = rng.int(min, min + width);
          if (!Number.isInteger(v) || v < min || v > min + width) return false;
        }
        return true;
      }),
    );
    const rng = Rng.fromSeed(99);
    const seen = new Set(Array.from({ length: 600 }, () => rng.int(1, 6)));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("int() is roughly uniform (chi-square over 60,000 draws of a die)", () => {
    const rng = Rng.fromSeed(2024);
    const counts = [0, 0, 0, 0, 0, 0];
    const n = 60_000;
    for (let i = 0; i < n; i++) counts[rng.int(0, 5)]! += 1;
    const expected = n / 6;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 5 degrees of freedom: p = 0.001 at 20.5.
    expect(chi2).toBeLessThan(20.5);
  });

  it("chance(p) follows p, and 0 and 1 are certain", () => {
    const rng = Rng.fromSeed(11);
    let hits = 0;
    for (let i = 0; i < 20_000; i++) if (rng.chance(0.3)) hits += 1;
    expect(hits / 20_000).toBeGreaterThan(0.28);
    expect(hits / 20_000).toBeLessThan(0.32);
    expect(Array.from({ length: 100 }, () => rng.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => rng.chance(1)).every(Boolean)).toBe(true);
  });

  it("pick() and between() use the stream", () => {
    const rng = Rng.fromSeed(8);
    expect(["a", "b", "c"]).toContain(rng.pick(["a", "b", "c"]));
    const v = rng.between(2, 3);
    expect(v).toBeGreaterThanOrEqual(2);
    expect(v).toBeLessThan(3);
    expect(() => rng.pick([])).toThrow(RangeError);
    expect(() => rng.int(3, 2)).toThrow(RangeError);
  });
});
