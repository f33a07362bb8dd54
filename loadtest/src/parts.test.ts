import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./args.js";
import { lineChart, escapeHtml } from "./html.js";
import { resolveMix, mixPercentages } from "./mix.js";
import { formatProgress } from "./progress.js";
import { createRng, weightedPicker } from "./rng.js";
import { findSample, parsePrometheusText, sumSamples } from "./serverMetrics.js";
import { RunStats } from "./stats.js";

describe("mix", () => {
  it("parses name=weight lists; unnamed actions get 0", () => {
    expect(resolveMix("explore=3, build=1")).toEqual({ explore: 3, build: 1 });
    expect(mixPercentages({ explore: 3, build: 1, chat: 0 })).toEqual({ explore: 75, build: 25 });
  });
  it("refuses unknown actions, negative weights and an all-zero mix", () => {
    expect(() => resolveMix("attack=1")).toThrow(/Unknown action "attack".*known actions: explore/);
    expect(() => resolveMix("explore=-1")).toThrow(/Bad --mix entry/);
    expect(() => resolveMix("explore=0")).toThrow(/no positive weight/);
  });
  it("defaults to every action's default weight", () => {
    const mix = resolveMix();
    expect(Object.keys(mix)).toEqual(expect.arrayContaining(["explore", "build", "research", "chat", "rankings", "country"]));
  });
});

describe("weightedPicker", () => {
  it("follows the weights and never picks a zero weight", () => {
    const pick = weightedPicker({ a: 3, b: 1, c: 0 }, createRng(42));
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 20_000; i++) counts[pick()]++;
    expect(counts.c).toBe(0);
    expect(counts.a / 20_000).toBeGreaterThan(0.73);
    expect(counts.a / 20_000).toBeLessThan(0.77);
  });
  it("is reproducible from the seed", () => {
    const a = weightedPicker({ x: 1, y: 1 }, createRng(7));
    const b = weightedPicker({ x: 1, y: 1 }, createRng(7));
    expect(Array.from({ length: 50 }, a)).toEqual(Array.from({ length: 50 }, b));
  });
});

describe("parseCliArgs", () => {
  it("reads the documented flags", () => {
    const args = parseCliArgs(["--countries", "200", "--duration", "60", "--rate", "80", "--url", "http://127.0.0.1:3100", "--allow-host", "a", "--allow-host", "b", "--no-rooms"], {
      METRICS_TOKEN: "t",
    });
    expect(args).toMatchObject({ countries: 200, durationSec: 60, rate: 80, url: "http://127.0.0.1:3100", allowHosts: ["a", "b"], rooms: false, metricsToken: "t", viewTtlMs: undefined });
    expect(parseCliArgs(["--view-ttl", "2.5"]).viewTtlMs).toBe(2_500);
  });
  it("reads a rate search (the last rate is the main phase) and what the bots' screens watch", () => {
    expect(parseCliArgs(["--rates", "50,100, 150"])).toMatchObject({ rate: 150, steps: [50, 100] });
    expect(parseCliArgs([])).toMatchObject({ rate: 10, steps: [], watch: [] });
    expect(parseCliArgs(["--watch", "chat,rankings"]).watch).toEqual(["chat", "rankings"]);
    expect(() => parseCliArgs(["--rates", "50,x"])).toThrow(/--rates/);
    expect(() => parseCliArgs(["--rates", "50", "--rate", "60"])).toThrow(/do not go together/);
    expect(() => parseCliArgs(["--watch", "everything"])).toThrow(/--watch takes chat, online, rankings, market/);
  });
  it("refuses bad numbers and unknown flags", () => {
    expect(() => parseCliArgs(["--countries", "0"])).toThrow(/--countries must be a positive whole number/);
    expect(() => parseCliArgs(["--rate", "fast"])).toThrow(/--rate/);
    expect(() => parseCliArgs(["--bogus"])).toThrow();
  });
});

describe("parsePrometheusText", () => {
  const text = [
    "# HELP http_requests_total REST requests",
    "# TYPE http_requests_total counter",
    'http_requests_total{method="GET",route="/api/country/:id",status="200"} 12',
    'http_requests_total{method="GET",route="/api/country/:id",status="404"} 3',
    'http_requests_total{method="POST",route="/a \\"quoted\\"",status="200"} 1',
    "process_cpu_seconds_total 1.5",
    'http_request_duration_seconds_bucket{le="+Inf"} 4',
  ].join("\n");
  const samples = parsePrometheusText(text);
  it("reads names, labels (with escapes) and values", () => {
    expect(findSample(samples, "process_cpu_seconds_total")).toBe(1.5);
    expect(sumSamples(samples, "http_requests_total", { method: "GET", route: "/api/country/:id" })).toBe(15);
    expect(findSample(samples, "http_requests_total", { route: '/a "quoted"' })).toBe(1);
    expect(findSample(samples, "http_request_duration_seconds_bucket", { le: "+Inf" })).toBe(4);
    expect(findSample(samples, "missing")).toBeUndefined();
  });
});

describe("RunStats", () => {
  it("counts outcomes per action, status and second, and folds error messages", () => {
    const stats = new RunStats(0);
    stats.issue(0, 1);
    stats.issue(10, 10);
    stats.issue(1500, 1500);
    stats.complete("explore", { ok: true, status: 200, turnsConsumed: 1 }, 5, 5);
    stats.complete("explore", { ok: false, status: 400, message: "Insufficient funds" }, 7, 17);
    stats.complete("chat", { ok: true, status: "delivered" }, 30, 1530);
    expect(stats.actions.get("explore")).toMatchObject({ ok: 1, errors: 1, turnsConsumed: 1 });
    expect(Object.fromEntries(stats.statuses)).toEqual({ "200": 1, "400": 1, delivered: 1 });
    expect([...stats.errors.values()]).toEqual([{ action: "explore", status: "400", message: "Insufficient funds", count: 1 }]);
    expect(stats.timeline.map((b) => [b.issued, b.ok, b.errors])).toEqual([
      [2, 1, 1],
      [1, 1, 0],
    ]);
    expect(stats.inFlight).toBe(0);
  });
});

describe("report drawing", () => {
  it("draws a self-contained SVG chart, escaping names", () => {
    const svg = lineChart({
      title: "p99 <ms>",
      xLabel: "s",
      yLabel: "ms",
      series: [
        {
          name: "a&b",
          color: "#000",
          points: [
            [0, 1],
            [1, null],
            [2, 3],
          ],
        },
      ],
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain("p99 &lt;ms&gt;");
    expect(svg).toContain("a&amp;b");
    expect(svg).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    // the null point breaks the line into two pieces
    expect(svg.match(/M/g)?.length).toBeGreaterThanOrEqual(2);
    expect(escapeHtml(`"<'&>`)).toBe("&quot;&lt;&#39;&amp;&gt;");
  });

  it("formats the progress line", () => {
    const line = formatProgress({ phase: "actions", setupDone: 0, setupTotal: 10, elapsedSec: 30, durationSec: 60, issued: 100, completed: 98, errors: 2, dropped: 0, inFlight: 2, ratePerSec: 10 });
    expect(line).toBe("[############............] 30.0/60s  done 98/100  err 2  10/s  inflight 2");
  });
});
