import { escapeHtml, lineChart, PALETTE, table } from "@game/schema/report";
import type { LoadTestReport } from "./report.js";

export { escapeHtml, lineChart, type Series } from "@game/schema/report";

/** The self-contained HTML report: tables plus charts of latency, throughput and server load over time. */
export function renderHtml(report: LoadTestReport): string {
  const tl = report.timeline;
  const actionNames = Object.keys(report.actions);
  const charts = [
    lineChart({
      title: "Throughput (actions completed per second)",
      xLabel: "seconds into the action phase",
      yLabel: "actions/s",
      series: [
        { name: "ok", color: PALETTE[2]!, points: tl.map((b) => [b.t, b.ok]) },
        { name: "errors", color: PALETTE[1]!, points: tl.map((b) => [b.t, b.errors]) },
        { name: "issued", color: PALETTE[8]!, points: tl.map((b) => [b.t, b.issued]) },
      ],
    }),
    lineChart({
      title: "Latency, all actions (1 s buckets)",
      xLabel: "seconds into the action phase",
      yLabel: "ms",
      series: [
        { name: "p50", color: PALETTE[0]!, points: tl.map((b) => [b.t, b.ok + b.errors ? b.p50 : null]) },
        { name: "p95", color: PALETTE[4]!, points: tl.map((b) => [b.t, b.ok + b.errors ? b.p95 : null]) },
        { name: "p99", color: PALETTE[1]!, points: tl.map((b) => [b.t, b.ok + b.errors ? b.p99 : null]) },
      ],
    }),
    lineChart({
      title: "p99 latency by action (1 s buckets)",
      xLabel: "seconds into the action phase",
      yLabel: "ms",
      series: actionNames.map((name, i) => ({ name, color: PALETTE[i % PALETTE.length]!, points: tl.map((b) => [b.t, b.perAction[name]?.p99 ?? null]) })),
    }),
  ];
  const samples = report.server.samples;
  if (samples.length) {
    charts.push(
      lineChart({
        title: "Server CPU (100% = one core) and event-loop delay p99",
        xLabel: "seconds (negative: setup)",
        yLabel: "% / ms",
        series: [
          { name: "CPU %", color: PALETTE[3]!, points: samples.map((s) => [s.t, s.cpuPercent]) },
          { name: "event-loop p99 ms", color: PALETTE[4]!, points: samples.map((s) => [s.t, s.eventLoopP99Ms]) },
        ],
      }),
      lineChart({
        title: "Server memory",
        xLabel: "seconds (negative: setup)",
        yLabel: "MiB",
        series: [
          { name: "RSS", color: PALETTE[0]!, points: samples.map((s) => [s.t, s.rssBytes === null ? null : s.rssBytes / 1048576]) },
          { name: "heap used", color: PALETTE[5]!, points: samples.map((s) => [s.t, s.heapUsedBytes === null ? null : s.heapUsedBytes / 1048576]) },
        ],
      }),
      lineChart({
        title: "WebSocket clients connected (server)",
        xLabel: "seconds (negative: setup)",
        yLabel: "clients",
        series: [{ name: "clients", color: PALETTE[2]!, points: samples.map((s) => [s.t, s.clients]) }],
      }),
    );
  }

  const o = report.options;
  const t = report.totals;
  const lat = (l: { p50: number; p95: number; p99: number; max: number }) => [l.p50, l.p95, l.p99, l.max];
  const sections = [
    `<h1>Load test ${escapeHtml(report.runId)}</h1>`,
    `<p>${escapeHtml(report.target)} &middot; ${escapeHtml(report.startedAt)} &middot; ${o.countries} countries, ${o.durationSec} s at ${o.rate}/s offered &middot; ` +
      `${report.machine.cpus} cores (${escapeHtml(report.machine.cpuModel)}), ${report.machine.totalMemoryGiB} GiB, Node ${escapeHtml(report.machine.node)}, ` +
      `load average ${report.machine.loadAverage.start} &rarr; ${report.machine.loadAverage.end}</p>`,
    report.command ? `<pre>${escapeHtml(report.command)}</pre>` : "",
    `<p class="big">${t.completed} actions, ${t.ok} ok, ${t.refused ?? 0} refused, ${t.errors} errors, <b>${t.serverErrors5xx} 5xx</b>, ${t.dropped} dropped &middot; ${t.achievedRate}/s achieved &middot; ` +
      `chat fan-out p50 ${report.chat.fanoutMs.p50} ms / p99 ${report.chat.fanoutMs.p99} ms &middot; server CPU mean ${report.server.cpuPercent.mean ?? "n/a"}%, RSS max ${report.server.rssMiB.max ?? "n/a"} MiB</p>`,
    `<h2>Actions</h2>`,
    table(
      ["action", "mix %", "count", "ok", "refused", "errors", "per s", "turns", "p50 ms", "p95 ms", "p99 ms", "max ms"],
      [
        ...Object.entries(report.actions).map(([name, a]) => [name, o.mixPercent[name] ?? 0, a.count, a.ok, a.refused ?? 0, a.errors, a.throughputPerSec, a.turnsConsumed, ...lat(a.latencyMs)]),
        ["all", 100, t.completed, t.ok, t.refused ?? 0, t.errors, t.achievedRate, report.consistency.turnsConsumedByTester, ...lat(t.latencyMs)],
      ],
    ),
    ...(report.strategy
      ? [
          `<h2>Strategy (play)</h2><p>Personalities: ${Object.entries(report.strategy.personalities)
            .map(([k, v]) => `${escapeHtml(k)} ${v}`)
            .join(", ")}; ${report.strategy.idle} idle looks; ${report.strategy.viewFailures} failed view reads.</p>`,
          table(
            ["intent", "route", "ok", "refused", "errors", "request p50 ms", "request p95 ms", "server action", "server count"],
            Object.entries(report.strategy.kinds).map(([kind, k]) => [kind, k.route, k.ok, k.refused, k.errors, k.requestLatencyMs.p50, k.requestLatencyMs.p95, k.serverAction, k.serverCount]),
          ),
          table(
            ["view read", "count", "p50 ms", "p95 ms", "p99 ms", "max ms"],
            Object.entries(report.strategy.viewReadsMs).map(([name, l]) => [name, l.count, l.p50, l.p95, l.p99, l.max]),
          ),
          `<p>${report.strategy.decisions} decisions read the optional concerns: ${Object.entries(report.strategy.concernReads)
            .map(([k, v]) => `${escapeHtml(k)} ${v}`)
            .join(", ")}. Alliance rooms joined: ${report.strategy.room.joins} (${report.strategy.room.joinFailures} joins failed).</p>`,
          table(
            ["room message", "type", "ok", "refused", "errors", "answer p50 ms", "answer p95 ms", "server counter", "server count", "room ok"],
            Object.entries(report.strategy.room.kinds).map(([kind, k]) => [kind, k.messageType, k.ok, k.refused, k.errors, k.answerLatencyMs.p50, k.answerLatencyMs.p95, k.serverMetric, k.serverCount ?? "n/a", k.serverRoomOk ?? "n/a"]),
          ),
        ]
      : []),
    `<p class="note">Latency runs from the moment an action was due (open-loop schedule) to its answer; chat runs to the first other client seeing the line. Generator lag p99 ${t.dispatchLagMs.p99} ms.</p>`,
    ...charts.map((c) => `<div class="chart">${c}</div>`),
    `<h2>Errors</h2>`,
    report.errors.length
      ? table(
          ["count", "action", "status", "message"],
          report.errors.map((e) => [e.count, e.action, e.status, e.message]),
        )
      : "<p>None.</p>",
    `<h2>Statuses</h2>`,
    table(["status", "count"], Object.entries(t.statuses)),
    `<h2>Setup</h2>`,
    table(
      ["step", "count", "p50 ms", "p95 ms", "p99 ms", "max ms"],
      Object.entries(report.setup.latencyMs).map(([step, l]) => [step, l.count, ...lat(l)]),
    ),
    `<p>${report.setup.countriesReady}/${report.setup.countriesRequested} countries ready in ${report.setup.durationSec} s (registered ${report.setup.registered}, logged in ${report.setup.loggedIn}, reused tokens ${report.setup.reusedTokens}); ${report.setup.joined} joined the world room.</p>`,
    report.setup.errors.length
      ? table(
          ["count", "setup error"],
          report.setup.errors.map((e) => [e.count, e.message]),
        )
      : "",
    `<h2>Real time</h2>`,
    table(
      ["measure", "value"],
      [
        ["clients joined / failed", `${report.websocket.joined} / ${report.websocket.joinFailed}`],
        ["connected at start / end of actions", `${report.websocket.connectedAtStart} / ${report.websocket.connectedAtEnd}`],
        ["disconnects during the run", report.websocket.disconnectsDuringRun],
        [
          "state decode errors: frames / clients",
          `${report.websocket.decodeErrors.frames} / ${report.websocket.decodeErrors.clients}${report.websocket.decodeErrors.samples.length ? ` (${report.websocket.decodeErrors.samples.join(" | ")})` : ""}`,
        ],
        ["server: max clients / rooms", `${report.websocket.serverClientsMax ?? "n/a"} / ${report.websocket.serverRoomsMax ?? "n/a"}`],
        ["chat sent / delivered / undelivered", `${report.chat.sent} / ${report.chat.delivered} / ${report.chat.undelivered}`],
        ["chat fan-out p50 / p95 / p99 / max ms", lat(report.chat.fanoutMs).join(" / ")],
        ["chat receipts (message x observer)", `${report.chat.receipts} on ${report.chat.observers} observers`],
        ["patches per client per s", report.room.patchesPerClientPerSec],
        ["bytes per client per s: mean / min / p50 / max", `${report.room.bytesPerClientPerSec.mean} / ${report.room.bytesPerClientPerSec.min} / ${report.room.bytesPerClientPerSec.p50} / ${report.room.bytesPerClientPerSec.max}`],
        ["average patch / full state bytes", `${report.room.avgPatchBytes} / ${report.room.avgFullStateBytes}`],
        ["state changes per sampled client per s", `${report.room.stateChangesPerSampledClientPerSec} (${report.room.sampledClients} sampled)`],
        ["all clients, bytes per s", report.room.totalBytesPerSec],
        ["load tester process: CPU % of one core / RSS MiB", `${report.tester.cpuPercent} / ${report.tester.rssMiB}`],
      ],
    ),
    `<p class="note">${escapeHtml(report.room.method)}</p>`,
    `<h2>Consistency with the server's own counts</h2>`,
    table(
      ["method", "route", "tester", "server", "match"],
      report.consistency.routes.map((r) => [r.method, r.route, r.tester, r.server, r.match === null ? "n/a" : r.match ? "yes" : "NO"]),
    ),
    `<p>Server game actions: ${escapeHtml(
      Object.entries(report.consistency.serverGameActions)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none",
    )}; ` + `chat: tester ${report.consistency.chat.testerDelivered} delivered, server ${report.consistency.chat.serverChatMessages ?? "n/a"} persisted; turns consumed (tester) ${report.consistency.turnsConsumedByTester}.</p>`,
    report.server.unavailableReason ? `<p class="warn">Server metrics: ${escapeHtml(report.server.unavailableReason)}</p>` : "",
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load test ${escapeHtml(report.runId)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px auto;max-width:900px;color:#111827;padding:0 12px}
table{border-collapse:collapse;margin:8px 0 16px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:right}th{background:#f3f4f6}
td:first-child,th:first-child{text-align:left}
pre{background:#f3f4f6;padding:8px;overflow-x:auto}.big{font-size:15px}.note{color:#4b5563;font-size:12px}.warn{color:#b91c1c}
.chart{margin:12px 0;border:1px solid #e5e7eb;padding:6px}
</style></head><body>
${sections.join("\n")}
</body></html>
`;
}
