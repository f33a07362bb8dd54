import { describe, expect, it } from "vitest";
import { plannedCalls, runOpenLoop, type Clock, type ScheduledCall } from "./scheduler.js";

/** A clock that only moves when the scheduler sleeps: runs are instant and exact. */
function fakeClock(): Clock & { t: number } {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

describe("plannedCalls", () => {
  it.each([
    [10, 1000, 10],
    [10, 999, 9],
    [0.1, 30_000, 3],
    [3, 2500, 7],
    [0, 1000, 0],
    [5, 0, 0],
  ])("%s/s for %s ms plans %s calls", (rate, duration, expected) => {
    expect(plannedCalls(rate, duration)).toBe(expected);
  });
});

describe("runOpenLoop", () => {
  it("issues rate x duration calls at their scheduled times, without waiting for answers", async () => {
    const clock = fakeClock();
    const calls: ScheduledCall[] = [];
    const never = new Promise<void>(() => {});
    const result = await runOpenLoop({ ratePerSecond: 10, durationMs: 1000, maxInFlight: 100, drainTimeoutMs: 500, clock }, async (call) => {
      calls.push(call);
      await never; // open loop: the next call goes out although this one never answers
    });
    expect(calls.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(calls.map((c) => c.intendedAt)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(calls.every((c) => c.startedAt === c.intendedAt)).toBe(true);
    expect(result).toMatchObject({ planned: 10, issued: 10, dropped: 0, completed: 0, abandoned: 10, aborted: false });
    // bounded in time: it gave up on the stragglers after the drain time-out
    expect(result.endedAt - result.issueEndedAt).toBeGreaterThanOrEqual(500);
    expect(result.endedAt - result.issueEndedAt).toBeLessThan(1000);
  });

  it("drops (never queues) calls due while maxInFlight are pending", async () => {
    const clock = fakeClock();
    const release: (() => void)[] = [];
    const dropped: number[] = [];
    const result = await runOpenLoop(
      {
        ratePerSecond: 100,
        durationMs: 100,
        maxInFlight: 3,
        drainTimeoutMs: 10_000,
        clock,
        onDrop: (c) => {
          dropped.push(c.seq);
          // the last due call was dropped: now let the three in flight answer
          if (c.seq === 9) release.forEach((r) => r());
        },
      },
      () => new Promise<void>((resolve) => release.push(resolve)),
    );
    expect(result.planned).toBe(10);
    expect(result.issued).toBe(3);
    expect(result.dropped).toBe(7);
    expect(dropped).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(result.completed).toBe(3);
    expect(result.abandoned).toBe(0);
  });

  it("catches up in a burst when the generator falls behind, keeping the intended times", async () => {
    const clock = fakeClock();
    const calls: ScheduledCall[] = [];
    await runOpenLoop({ ratePerSecond: 10, durationMs: 500, maxInFlight: 100, drainTimeoutMs: 0, clock }, async (call) => {
      calls.push(call);
      if (call.seq === 1) clock.t += 250; // a 250 ms stall of the tester's own event loop
    });
    expect(calls.map((c) => c.intendedAt)).toEqual([0, 100, 200, 300, 400]);
    // calls 2 and 3 were late and went out at once; the lag is visible, the schedule unchanged
    expect(calls[2]!.startedAt).toBe(350);
    expect(calls[3]!.startedAt).toBe(350);
    expect(calls[4]!.startedAt).toBe(400);
  });

  it("waits for in-flight calls to finish before returning", async () => {
    let finished = 0;
    const result = await runOpenLoop({ ratePerSecond: 50, durationMs: 100, maxInFlight: 10, drainTimeoutMs: 5000 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      finished++;
    });
    expect(finished).toBe(5);
    expect(result).toMatchObject({ issued: 5, completed: 5, abandoned: 0 });
    expect(result.endedAt - result.issueEndedAt).toBeLessThan(1000);
  });

  it("stops issuing when aborted and still counts what it issued", async () => {
    const clock = fakeClock();
    const abort = new AbortController();
    const result = await runOpenLoop({ ratePerSecond: 10, durationMs: 10_000, maxInFlight: 100, drainTimeoutMs: 0, clock, signal: abort.signal }, async (call) => {
      if (call.seq === 4) abort.abort();
    });
    expect(result.aborted).toBe(true);
    expect(result.issued).toBe(5);
    expect(result.planned).toBe(100);
  });

  it("runs on the real clock within its time bound", async () => {
    const start = performance.now();
    const result = await runOpenLoop({ ratePerSecond: 50, durationMs: 200, maxInFlight: 100, drainTimeoutMs: 100 }, async () => {});
    const elapsed = performance.now() - start;
    expect(result.issued).toBe(10);
    expect(elapsed).toBeGreaterThanOrEqual(170);
    expect(elapsed).toBeLessThan(1000);
  });
});
