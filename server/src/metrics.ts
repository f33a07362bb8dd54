import client from "prom-client";

/**
 * Process metrics in Prometheus text format, on prom-client: its default process and Node.js
 * metrics (CPU, memory, event-loop lag, GC, handles) plus the game's own. The classes below
 * keep the small API the rest of the server records through (`inc(labels)`,
 * `observe(value, labels)`, `get(labels)`, `addGauge`), so callers never import prom-client.
 */

type Labels = Record<string, string>;

/**
 * The default metrics describe the process, not one server instance, so they live in one
 * registry per process, created on first use; several servers in one test process share it.
 */
let processRegistry: client.Registry | undefined;
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
    readAtMostEvery(processRegistry, PER_SOCKET_METRICS, PER_SOCKET_METRICS_MAX_AGE_MS);
  }
  return processRegistry;
}

/**
 * prom-client's default metrics that walk one entry per libuv handle or open file, so one per
 * connected socket: at 10,000 clients a scrape of these five held the event loop for tens of
 * milliseconds (docs/performance.md, "What 10,000 idle clients cost the server"), every scrape.
 * They are read at most once per PER_SOCKET_METRICS_MAX_AGE_MS (Prometheus's usual scrape
 * interval); a scrape in between reports the last reading.
 */
const PER_SOCKET_METRICS = ["nodejs_active_handles", "nodejs_active_handles_total", "nodejs_active_resources", "nodejs_active_resources_total", "process_open_fds"];
export const PER_SOCKET_METRICS_MAX_AGE_MS = 15_000;

/** Wraps each named metric's collect so that it runs at most once per `maxAgeMs`; a gauge keeps the values it last set. */
export function readAtMostEvery(registry: client.Registry, names: readonly string[], maxAgeMs: number, now: () => number = () => performance.now()): void {
  for (const name of names) {
    const metric = registry.getSingleMetric(name) as { collect?: () => unknown } | undefined;
    const collect = metric?.collect;
    if (!metric || !collect) continue;
    let readAt = -Infinity;
    metric.collect = function (this: unknown) {
      const at = now();
      if (at - readAt < maxAgeMs) return;
      readAt = at;
      return collect.call(this);
    };
  }
}

function labelKey(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length <= 1) return keys.length ? `${keys[0]}=${labels[keys[0]!]}` : "";
  return keys
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(",");
}

export class Counter {
  private readonly metric: client.Counter;
  /** label set -> value, for `get` (prom-client reads values asynchronously) */
  private readonly values = new Map<string, number>();

  constructor(name: string, help: string, labelNames: readonly string[], registry: client.Registry) {
    this.metric = new client.Counter({ name, help, labelNames, registers: [registry] });
  }

  inc(labels: Labels = {}, by = 1): void {
    this.metric.inc(labels, by);
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  /** The value for exactly these labels (0 when never incremented). */
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
}

export class Histogram {
  private readonly metric: client.Histogram;

  constructor(name: string, help: string, buckets: readonly number[], labelNames: readonly string[], registry: client.Registry) {
    this.metric = new client.Histogram({ name, help, buckets: [...buckets], labelNames, registers: [registry] });
  }

  observe(value: number, labels: Labels = {}): void {
    this.metric.observe(labels, value);
  }
}

/** Seconds; request and tick durations. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics one server keeps. Rooms and services record into it; GET /metrics renders it. */
export class GameMetrics {
  private readonly registry = new client.Registry();
  readonly httpRequestDuration = new Histogram("http_request_duration_seconds", "REST request latency by route and status", LATENCY_BUCKETS, ["method", "route", "status"], this.registry);
  readonly httpRequests = new Counter("http_requests_total", "REST requests by route and status", ["method", "route", "status"], this.registry);
  readonly gameActions = new Counter("game_actions_total", "Game actions committed, by action", ["action"], this.registry);
  readonly gameActionPaths = new Counter(
    "game_action_paths_total",
    "Game actions by how they ran: optimistic (one round trip from the row last seen), locked, or conflict (an optimistic write found the row changed and the action ran locked)",
    ["path"],
    this.registry,
  );
  readonly gameActionRetries = new Counter("game_action_retries_total", "Game action transactions run again after a deadlock or serialization failure, by action", ["action"], this.registry);
  readonly tickDuration = new Histogram("turn_tick_duration_seconds", "Duration of one turn tick (SQL)", LATENCY_BUCKETS, [], this.registry);
  readonly ticks = new Counter("turn_ticks_total", "Turn ticks applied by this process", [], this.registry);
  readonly dbPoolCheckouts = new Counter("db_pool_checkouts_total", "Connections taken from the Postgres pool (a query outside a transaction takes one too)", [], this.registry);
  readonly dbPoolHeldSeconds = new Counter(
    "db_pool_held_seconds_total",
    "Seconds pool connections were held, from check-out to release (queries, the turns of the event loop until their answers are read, and whatever a holder awaits in between)",
    [],
    this.registry,
  );
  readonly authTokenLookups = new Counter("auth_token_lookups_total", "Token verdicts asked of Postgres: a token's first use here, or a verdict gone stale (the authentication epoch moved) or dropped by a revocation", [], this.registry);
  readonly chatMessages = new Counter("chat_messages_total", "Chat messages persisted and fanned out", ["channel"], this.registry);
  readonly roomMessagesRejected = new Counter("room_messages_rejected_total", "Room messages refused, by reason", ["reason"], this.registry);
  readonly aiActions = new Counter("ai_actions_total", "Actions AI countries took through the services, by kind and outcome (done, refused)", ["kind", "outcome"], this.registry);
  readonly aiRoundDuration = new Histogram("ai_round_duration_seconds", "Duration of one AI round (every action it took)", LATENCY_BUCKETS, [], this.registry);
  readonly roomDrops = new Counter("room_drops_total", "Room connections closed without the client leaving (kept for a reconnection), by room and WebSocket close code", ["room", "code"], this.registry);
  readonly roomReconnects = new Counter("room_reconnects_total", "Dropped room connections that came back within the reconnection window, by room", ["room"], this.registry);
  readonly roomMessageDuration = new Histogram("room_message_duration_seconds", "Room messages handled, by room, type and outcome", LATENCY_BUCKETS, ["room", "type", "outcome"], this.registry);

  constructor() {
    const startedAt = Date.now();
    // The load tester divides CPU deltas by this server's uptime (loadtest/src/serverMetrics.ts).
    this.addGauge("process_uptime_seconds", "Seconds since this server started", () => (Date.now() - startedAt) / 1000);
    this.addGauge("process_heap_used_bytes", "V8 heap used", () => process.memoryUsage().heapUsed);
  }

  /** Registers a gauge read at render time (rooms, connected clients, ...). */
  addGauge(name: string, help: string, read: () => number): void {
    new client.Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** Content-Type of `render()`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Prometheus text: the process's default metrics, then this server's. */
  async render(): Promise<string> {
    const [process, own] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}\n${own}`;
  }
}
