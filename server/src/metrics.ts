/**
 * Process metrics in Prometheus text format (exposition format 0.0.4), without a dependency:
 * counters, gauges and fixed-bucket histograms with labels.
 */

type Labels = Record<string, string>;

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");
}

interface HistogramSeries {
  labels: string;
  buckets: number[];
  sum: number;
  count: number;
}

export class Histogram {
  private readonly series = new Map<string, HistogramSeries>();
  constructor(readonly name: string, readonly help: string, readonly bounds: readonly number[]) {}

  observe(value: number, labels: Labels = {}): void {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: key, buckets: new Array(this.bounds.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.bounds.length; i++) if (value <= this.bounds[i]!) s.buckets[i]! += 1;
    s.sum += value;
    s.count += 1;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      const sep = s.labels ? "," : "";
      this.bounds.forEach((bound, i) => lines.push(`${this.name}_bucket{${s.labels}${sep}le="${bound}"} ${s.buckets[i]}`));
      lines.push(`${this.name}_bucket{${s.labels}${sep}le="+Inf"} ${s.count}`);
      const braces = s.labels ? `{${s.labels}}` : "";
      lines.push(`${this.name}_sum${braces} ${s.sum}`, `${this.name}_count${braces} ${s.count}`);
    }
    return lines.join("\n");
  }
}

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, value] of this.values) lines.push(`${this.name}${key ? `{${key}}` : ""} ${value}`);
    return lines.join("\n");
  }
}

/** A gauge read when metrics are rendered. */
export class Gauge {
  constructor(readonly name: string, readonly help: string, private readonly read: () => number) {}
  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join("\n");
  }
}

/** Seconds; request and tick durations. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics one process keeps. Rooms and services record into it; GET /metrics renders it. */
export class GameMetrics {
  readonly httpRequestDuration = new Histogram("http_request_duration_seconds", "REST request latency by route and status", LATENCY_BUCKETS);
  readonly httpRequests = new Counter("http_requests_total", "REST requests by route and status");
  readonly gameActions = new Counter("game_actions_total", "Game actions committed, by action");
  readonly gameActionRetries = new Counter("game_action_retries_total", "Game action transactions run again after a deadlock or serialization failure, by action");
  readonly tickDuration = new Histogram("turn_tick_duration_seconds", "Duration of one turn tick (SQL)", LATENCY_BUCKETS);
  readonly ticks = new Counter("turn_ticks_total", "Turn ticks applied by this process");
  readonly chatMessages = new Counter("chat_messages_total", "Chat messages persisted and fanned out");
  readonly roomMessagesRejected = new Counter("room_messages_rejected_total", "Room messages refused, by reason");
  readonly roomMessageDuration = new Histogram("room_message_duration_seconds", "Room messages handled, by room, type and outcome", LATENCY_BUCKETS);
  private readonly gauges: Gauge[] = [];

  constructor() {
    const startedAt = Date.now();
    this.addGauge("process_resident_memory_bytes", "Resident set size", () => process.memoryUsage().rss);
    this.addGauge("process_heap_used_bytes", "V8 heap used", () => process.memoryUsage().heapUsed);
    this.addGauge("process_cpu_seconds_total", "User plus system CPU time", () => {
      const cpu = process.cpuUsage();
      return (cpu.user + cpu.system) / 1e6;
    });
    this.addGauge("process_uptime_seconds", "Seconds since this process started", () => (Date.now() - startedAt) / 1000);
  }

  /** Registers a gauge read at render time (rooms, connected clients, ...). */
  addGauge(name: string, help: string, read: () => number): void {
    this.gauges.push(new Gauge(name, help, read));
  }

  render(): string {
    return (
      [
        this.httpRequestDuration,
        this.httpRequests,
        this.gameActions,
        this.gameActionRetries,
        this.tickDuration,
        this.ticks,
        this.chatMessages,
        this.roomMessagesRejected,
        this.roomMessageDuration,
        ...this.gauges,
      ]
        .map((m) => m.render())
        .join("\n") + "\n"
    );
  }
}
