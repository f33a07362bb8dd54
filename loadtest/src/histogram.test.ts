import { describe, expect, it } from "vitest";
import { LatencyRecorder } from "./histogram.js";

describe("LatencyRecorder summary", () => {
  it("is all zeros when empty", () => {
    expect(new LatencyRecorder().summary()).toEqual({ count: 0, min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 });
  });

  it("gives percentiles of 1..1000 ms within HDR's 3-digit precision", () => {
    const r = new LatencyRecorder();
    for (let ms = 1; ms <= 1000; ms++) r.record(ms);
    const s = r.summary();
    expect(s.count).toBe(1000);
    expect(s.min).toBeCloseTo(1, 2);
    expect(s.p50).toBeGreaterThanOrEqual(499.5);
    expect(s.p50).toBeLessThanOrEqual(500.5);
    expect(s.p95).toBeGreaterThanOrEqual(949.5);
    expect(s.p95).toBeLessThanOrEqual(950.5);
    expect(s.p99).toBeGreaterThanOrEqual(989.5);
    expect(s.p99).toBeLessThanOrEqual(990.5);
    // max within 0.1 %
    expect(Math.abs(s.max - 1000)).toBeLessThanOrEqual(1);
    expect(s.mean).toBeCloseTo(500.5, 0);
  });

  it("keeps sub-millisecond resolution (microsecond units)", () => {
    const r = new LatencyRecorder();
    r.record(0.25);
    r.record(0.75);
    const s = r.summary();
    expect(s.min).toBeCloseTo(0.25, 2);
    expect(s.max).toBeCloseTo(0.75, 2);
  });

  it("shows a tail: 1% slow calls set p99+ but not p95", () => {
    const r = new LatencyRecorder();
    for (let i = 0; i < 990; i++) r.record(2);
    for (let i = 0; i < 10; i++) r.record(5000);
    const s = r.summary();
    expect(s.p50).toBeCloseTo(2, 1);
    expect(s.p95).toBeCloseTo(2, 1);
    expect(s.p99).toBeCloseTo(2, 1);
    expect(s.max).toBeGreaterThanOrEqual(4995);
    r.record(5000);
    expect(r.summary().p99).toBeGreaterThan(4990);
  });

  it("clamps negative values to zero and auto-resizes past a minute", () => {
    const r = new LatencyRecorder();
    r.record(-3);
    r.record(10 * 60_000);
    const s = r.summary();
    expect(s.min).toBe(0);
    expect(s.max).toBeGreaterThanOrEqual(599_000);
  });

  it("adds recorders together", () => {
    const a = new LatencyRecorder();
    const b = new LatencyRecorder();
    a.record(1);
    b.record(100);
    a.add(b);
    expect(a.count).toBe(2);
    expect(a.summary().max).toBeCloseTo(100, 0);
  });
});
