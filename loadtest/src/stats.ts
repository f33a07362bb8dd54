import { LatencyRecorder } from "./histogram.js";
import type { ActionOutcome } from "./actions.js";
import type { RequestRecord } from "./httpClient.js";

/** Most distinct (action, status, message) error keys kept; the rest are folded into "other". */
const MAX_ERROR_KEYS = 200;

export class ActionStats {
  readonly latency = new LatencyRecorder();
  ok = 0;
  /** refused by a game rule (ActionOutcome.refused): neither ok nor an error */
  refused = 0;
  errors = 0;
  turnsConsumed = 0;
}

/** One second of the action phase (by completion time). */
export class TimelineBucket {
  issued = 0;
  ok = 0;
  refused = 0;
  errors = 0;
  dropped = 0;
  readonly latency = new LatencyRecorder();
  readonly perAction = new Map<string, { count: number; latency: LatencyRecorder }>();
}

export interface ErrorCount {
  action: string;
  status: string;
  message: string;
  count: number;
}

/** Everything the action phase counts. Latency is from the scheduled time to completion. */
export class RunStats {
  readonly actions = new Map<string, ActionStats>();
  readonly errors = new Map<string, ErrorCount>();
  /** outcome status ("200", "400", "timeout", "delivered", ...) -> count, over every action */
  readonly statuses = new Map<string, number>();
  /** REST answers during the action phase, "METHOD route status" -> count */
  readonly requests = new Map<string, number>();
  readonly timeline: TimelineBucket[] = [];
  /** latency of every action together */
  readonly latency = new LatencyRecorder();
  /** how late the generator issued calls (event-loop lag of the tester itself) */
  readonly dispatchLag = new LatencyRecorder();
  issued = 0;
  completed = 0;
  dropped = 0;
  ok = 0;
  refused = 0;
  failed = 0;
  inFlight = 0;

  constructor(private readonly startedAt: number) {}

  private bucket(atMs: number): TimelineBucket {
    const second = Math.max(0, Math.floor((atMs - this.startedAt) / 1000));
    while (this.timeline.length <= second) this.timeline.push(new TimelineBucket());
    return this.timeline[second]!;
  }

  actionStats(name: string): ActionStats {
    let s = this.actions.get(name);
    if (!s) this.actions.set(name, (s = new ActionStats()));
    return s;
  }

  issue(intendedAt: number, startedAt: number): void {
    this.issued++;
    this.inFlight++;
    this.dispatchLag.record(startedAt - intendedAt);
    this.bucket(intendedAt).issued++;
  }

  drop(intendedAt: number): void {
    this.dropped++;
    this.bucket(intendedAt).dropped++;
  }

  /** Records a finished action; `latencyMs` is from its scheduled time. */
  complete(action: string, outcome: ActionOutcome, latencyMs: number, completedAt: number): void {
    this.inFlight--;
    this.completed++;
    const stats = this.actionStats(action);
    stats.latency.record(latencyMs);
    this.latency.record(latencyMs);
    const bucket = this.bucket(completedAt);
    bucket.latency.record(latencyMs);
    let per = bucket.perAction.get(action);
    if (!per) bucket.perAction.set(action, (per = { count: 0, latency: new LatencyRecorder() }));
    per.count++;
    per.latency.record(latencyMs);
    const status = String(outcome.status);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (outcome.ok) {
      this.ok++;
      stats.ok++;
      bucket.ok++;
      stats.turnsConsumed += outcome.turnsConsumed ?? 0;
      return;
    }
    if (outcome.refused) {
      this.refused++;
      stats.refused++;
      bucket.refused++;
      return;
    }
    this.failed++;
    stats.errors++;
    bucket.errors++;
    const message = (outcome.message ?? "").slice(0, 200);
    let key = `${action}\u0000${status}\u0000${message}`;
    if (!this.errors.has(key) && this.errors.size >= MAX_ERROR_KEYS) key = `${action}\u0000${status}\u0000(other messages)`;
    const entry = this.errors.get(key) ?? { action, status, message: key.split("\u0000")[2]!, count: 0 };
    entry.count++;
    this.errors.set(key, entry);
  }

  countRequest(record: RequestRecord): void {
    const key = `${record.method} ${record.route} ${record.status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  /** Completions in the last whole second (for the live rate). */
  recentRate(now: number): number {
    const second = Math.floor((now - this.startedAt) / 1000) - 1;
    const bucket = this.timeline[second];
    return bucket ? bucket.ok + bucket.refused + bucket.errors : 0;
  }
}

/** The p-th percentile of an ascending series (nearest rank); 0 for an empty one. */
export function percentileOf(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
