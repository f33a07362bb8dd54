import type { JsonHttpClient } from "./httpClient.js";

/** One sample line of Prometheus text: name, labels, value. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text exposition format 0.0.4 (comments skipped, timestamps ignored). */
export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const rawLine of text.split("\n")) {
    const line = rawLine.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    if (match[3]) {
      const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
      for (let m = labelPattern.exec(match[3]); m; m = labelPattern.exec(match[3])) {
        labels[m[1]!] = m[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      }
    }
    const value = match[4] === "+Inf" ? Infinity : match[4] === "-Inf" ? -Infinity : Number(match[4]);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** First sample of `name` whose labels include `labels`, or undefined. */
export function findSample(samples: readonly MetricSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
  }
  return undefined;
}

/** Sum of every sample of `name` whose labels include `labels`. */
export function sumSamples(samples: readonly MetricSample[], name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const s of samples) {
    if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}

/** One scrape of the server's process, as the report shows it over time. */
export interface ServerSample {
  /** seconds since the action phase started (negative during setup) */
  t: number;
  /** scrape time on the tester's performance.now() clock, ms (not in the report) */
  atMs?: number;
  /** CPU used since the previous scrape over wall time, percent of one core (200 = both cores) */
  cpuPercent: number | null;
  rssBytes: number | null;
  heapUsedBytes: number | null;
  rooms: number | null;
  clients: number | null;
  eventLoopP99Ms: number | null;
}

/**
 * Scrapes GET /metrics every `intervalMs` while a run lasts. CPU is the delta of
 * process_cpu_seconds_total between scrapes divided by the delta of the server's own
 * process_uptime_seconds (both read in the same render), so a scrape that waited in a queue
 * on either side does not distort it; the tester's clock is the fallback.
 */
export class ServerMetricsSampler {
  readonly samples: ServerSample[] = [];
  /** why scraping failed (404 when the server's metrics are disabled), if it did */
  unavailable: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private previous: { wallMs: number; uptimeSeconds: number | undefined; cpuSeconds: number } | undefined;
  private inFlight = false;

  constructor(
    private readonly http: JsonHttpClient,
    private readonly options: { intervalMs: number; token?: string },
  ) {}

  /** The samples with `t` in seconds from `originMs` (the action phase's start). */
  samplesFrom(originMs: number): ServerSample[] {
    return this.samples.map(({ atMs, ...rest }) => ({ ...rest, t: Math.round(((atMs ?? 0) - originMs) / 100) / 10 }));
  }

  /** One scrape, parsed; undefined (and `unavailable` set) when the endpoint does not answer 200. */
  async scrape(): Promise<MetricSample[] | undefined> {
    const res = await this.http.request<string>("GET", "/metrics", {
      headers: { accept: "text/plain" },
      route: "/metrics",
      ...(this.options.token ? { token: this.options.token } : {}),
    });
    if (res.status !== 200 || typeof res.body !== "string") {
      this.unavailable = res.failure ?? `GET /metrics answered ${res.status}${res.status === 404 ? " (start the server with METRICS_PUBLIC=true or pass --metrics-token)" : ""}`;
      return undefined;
    }
    this.unavailable = undefined;
    return parsePrometheusText(res.body);
  }

  /** Takes one sample now and appends it. */
  async sample(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      const wallMs = performance.now();
      const samples = await this.scrape();
      if (!samples) return;
      const cpuSeconds = findSample(samples, "process_cpu_seconds_total");
      const uptimeSeconds = findSample(samples, "process_uptime_seconds");
      let cpuPercent: number | null = null;
      if (cpuSeconds !== undefined && this.previous) {
        const elapsed = uptimeSeconds !== undefined && this.previous.uptimeSeconds !== undefined ? uptimeSeconds - this.previous.uptimeSeconds : (wallMs - this.previous.wallMs) / 1000;
        if (elapsed > 0) cpuPercent = Math.round(((cpuSeconds - this.previous.cpuSeconds) / elapsed) * 1000) / 10;
      }
      if (cpuSeconds !== undefined) this.previous = { wallMs, uptimeSeconds, cpuSeconds };
      const read = (name: string) => findSample(samples, name) ?? null;
      const loop = read("nodejs_eventloop_delay_p99_seconds");
      this.samples.push({
        t: 0,
        atMs: wallMs,
        cpuPercent,
        rssBytes: read("process_resident_memory_bytes"),
        heapUsedBytes: read("process_heap_used_bytes"),
        rooms: read("colyseus_rooms"),
        clients: read("colyseus_connected_clients"),
        eventLoopP99Ms: loop === null ? null : Math.round(loop * 1e5) / 100,
      });
    } finally {
      this.inFlight = false;
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.sample(), this.options.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
