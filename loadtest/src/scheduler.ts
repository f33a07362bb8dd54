/**
 * Open-loop scheduling: call number `seq` is issued at `start + seq / rate`, whether or not
 * earlier calls have answered, so a slow server shows up as latency instead of quietly
 * lowering the offered load (the "coordinated omission" of closed-loop testers).
 *
 * It is bounded three ways: the number of calls (rate x duration), the time (it issues
 * nothing after `durationMs` and waits at most `drainTimeoutMs` for stragglers), and the
 * calls in flight (beyond `maxInFlight` a due call is dropped and counted, never queued).
 */

/** Time source, injectable so tests run without real timers. Milliseconds. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** One call the scheduler issues. */
export interface ScheduledCall {
  /** 0-based sequence number */
  seq: number;
  /** when it was due (clock ms); latency is measured from here */
  intendedAt: number;
  /** when it was actually handed to `dispatch` (clock ms); minus intendedAt = generator lag */
  startedAt: number;
}

export interface OpenLoopOptions {
  /** calls per second, in total */
  ratePerSecond: number;
  /** how long to issue calls, ms */
  durationMs: number;
  /** calls allowed in flight at once; a due call beyond it is dropped */
  maxInFlight: number;
  /** after the last call is issued, wait at most this long for the ones in flight, ms */
  drainTimeoutMs: number;
  /** stops issuing early (e.g. Ctrl-C); in-flight calls are still drained */
  signal?: AbortSignal;
  clock?: Clock;
  /** told about each call dropped because `maxInFlight` was reached */
  onDrop?: (call: ScheduledCall) => void;
}

export interface OpenLoopResult {
  /** calls the schedule had room for: floor(rate x duration) */
  planned: number;
  issued: number;
  dropped: number;
  completed: number;
  /** still in flight when the drain timeout expired */
  abandoned: number;
  /** true when the signal stopped it before the schedule ended */
  aborted: boolean;
  startedAt: number;
  /** when the last call was issued (or the schedule ended) */
  issueEndedAt: number;
  endedAt: number;
}

/** Longest single sleep, ms, so an abort is noticed promptly even at very low rates. */
const MAX_SLEEP_MS = 250;

/** Number of calls a schedule of `rate` per second for `durationMs` contains. */
export function plannedCalls(ratePerSecond: number, durationMs: number): number {
  if (!(ratePerSecond > 0) || !(durationMs > 0)) return 0;
  // tolerate float error: 0.1/s for 30 s is 3 calls, not 2.9999
  return Math.floor((ratePerSecond * durationMs) / 1000 + 1e-9);
}

/**
 * Runs the schedule. `dispatch` must not throw synchronously; its rejection is ignored here
 * (the caller records outcomes itself).
 */
export async function runOpenLoop(options: OpenLoopOptions, dispatch: (call: ScheduledCall) => Promise<unknown>): Promise<OpenLoopResult> {
  const clock = options.clock ?? realClock;
  const intervalMs = 1000 / options.ratePerSecond;
  const planned = plannedCalls(options.ratePerSecond, options.durationMs);
  const startedAt = clock.now();
  let issued = 0;
  let dropped = 0;
  let completed = 0;
  let inFlight = 0;
  let aborted = false;
  let onIdle: (() => void) | undefined;

  for (let seq = 0; seq < planned; seq++) {
    const intendedAt = startedAt + seq * intervalMs;
    // sleep until due; when behind (a slow event loop), issue at once and catch up in a burst
    for (let wait = intendedAt - clock.now(); wait > 0; wait = intendedAt - clock.now()) {
      if (options.signal?.aborted) break;
      await clock.sleep(Math.min(wait, MAX_SLEEP_MS));
    }
    if (options.signal?.aborted) {
      aborted = true;
      break;
    }
    const call: ScheduledCall = { seq, intendedAt, startedAt: clock.now() };
    if (inFlight >= options.maxInFlight) {
      dropped++;
      options.onDrop?.(call);
      continue;
    }
    inFlight++;
    issued++;
    const settle = () => {
      inFlight--;
      completed++;
      if (inFlight === 0) onIdle?.();
    };
    dispatch(call).then(settle, settle);
  }
  const issueEndedAt = clock.now();

  if (inFlight > 0) {
    await new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve();
      };
      onIdle = finish;
      void (async () => {
        const deadline = clock.now() + options.drainTimeoutMs;
        while (!done && clock.now() < deadline) await clock.sleep(Math.min(MAX_SLEEP_MS, deadline - clock.now()));
        finish();
      })();
    });
  }
  return { planned, issued, dropped, completed, abandoned: inFlight, aborted, startedAt, issueEndedAt, endedAt: clock.now() };
}
