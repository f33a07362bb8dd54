import type { DropSummary } from "./reconnect.js";
import type { LatencySummary } from "./histogram.js";
import type { ServerSample } from "./serverMetrics.js";
import type { ErrorCount } from "./stats.js";

/** The JSON report (report.json); the text summary and the HTML page are drawn from it. */
/** One step of a rate search (--rates): what the server carried at that offered rate. */
export interface RateStep {
  offeredRate: number;
  okPerSec: number;
  completedPerSec: number;
  ok: number;
  refused: number;
  errors: number;
  dropped: number;
  /** whole call, from its scheduled time */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  serverCpuPercent: { mean: number | null; max: number | null };
  eventLoopP99WorstMs: number | null;
  patchesPerClientPerSec: number;
  bytesPerClientPerSec: number;
  /** no error, nothing dropped, whole-call p99 under the threshold */
  passed: boolean;
}

export interface LoadTestReport {
  tool: "nation-game-loadtest";
  version: 1;
  runId: string;
  startedAt: string;
  finishedAt: string;
  target: string;
  /** the command line, when run from the CLI */
  command?: string;
  machine: {
    cpus: number;
    cpuModel: string;
    totalMemoryGiB: number;
    node: string;
    platform: string;
    /** 1-minute load average when the action phase started and ended (other work on the machine shows here) */
    loadAverage: { start: number; end: number };
  };
  options: {
    countries: number;
    durationSec: number;
    rate: number;
    mix: Record<string, number>;
    mixPercent: Record<string, number>;
    seed: number;
    maxInFlight: number;
    requestTimeoutMs: number;
    decodeSample: number;
    setupConcurrency: number;
    joinConcurrency: number;
    reusedCredentials: boolean;
    rooms: boolean;
  };
  setup: {
    countriesRequested: number;
    countriesReady: number;
    registered: number;
    loggedIn: number;
    reusedTokens: number;
    durationSec: number;
    latencyMs: { register: LatencySummary; login: LatencySummary; tokenCheck: LatencySummary; join: LatencySummary };
    joined: number;
    errors: { message: string; count: number }[];
  };
  totals: {
    planned: number;
    issued: number;
    completed: number;
    ok: number;
    /** refused by a game rule (4xx with a rule's code; the strategy driver's actions) */
    refused: number;
    errors: number;
    dropped: number;
    abandoned: number;
    /** length of the action phase, issue start to drain end (s) */
    durationSec: number;
    offeredRate: number;
    /** completed actions per second of the scheduled duration */
    achievedRate: number;
    okRate: number;
    /** responses with a 5xx status */
    serverErrors5xx: number;
    statuses: Record<string, number>;
    /** every action together, from its scheduled time */
    latencyMs: LatencySummary;
    dispatchLagMs: LatencySummary;
    /** requests re-sent once because a reused keep-alive socket was reset (the server's idle time-out racing reuse) */
    staleSocketRetries: number;
  };
  actions: Record<string, { count: number; ok: number; refused: number; errors: number; throughputPerSec: number; turnsConsumed: number; latencyMs: LatencySummary }>;
  errors: ErrorCount[];
  websocket: {
    joined: number;
    joinFailed: number;
    connectedAtStart: number;
    connectedAtEnd: number;
    disconnectsDuringRun: number;
    /** every world-room socket that closed under a bot (the bots join again on their own): causes, and how long until back in a room */
    drops: DropSummary;
    /** colyseus_connected_clients: max over the action phase's scrapes */
    serverClientsMax: number | null;
    serverRoomsMax: number | null;
    messagesByType: Record<string, number>;
    /** frames the SDK could not decode (state out of sync with the server): clients hit, frames, first messages */
    decodeErrors: { clients: number; frames: number; samples: string[] };
  };
  chat: { channel: string; sent: number; delivered: number; undelivered: number; receipts: number; observers: number; fanoutMs: LatencySummary };
  room: {
    method: string;
    clients: number;
    sampledClients: number;
    windowSec: number;
    patchesPerClientPerSec: number;
    bytesPerClientPerSec: { mean: number; min: number; p50: number; max: number };
    patchBytesPerClientPerSec: number;
    avgPatchBytes: number;
    avgFullStateBytes: number;
    stateChangesPerSampledClientPerSec: number;
    totalBytesPerSec: number;
  };
  /** a rate search (--rates): each step's figures, the last one being the main phase this report describes */
  steps?: { p99ThresholdMs: number; highestPassingRate: number | null; steps: RateStep[] };
  /** the strategy driver (the play action), when the mix has it */
  strategy?: {
    /** bots by personality (those that played at least once) */
    personalities: Record<string, number>;
    /** plays where the strategy chose to wait (no request sent) */
    idle: number;
    /** view reads that did not answer 2xx (the play then counts as `play:view`, an error) */
    viewFailures: number;
    /** by intent kind: outcomes, the latency of the intent's request alone, and the server's count of the game action it becomes */
    kinds: Record<string, { route: string; ok: number; refused: number; errors: number; requestLatencyMs: LatencySummary; serverAction: string; serverCount: number }>;
    /** latency of the reads that built the views, by read (country, rank, countries, wars, and each optional concern's routes) */
    viewReadsMs: Record<string, LatencySummary>;
    /** plays that asked the strategy, and how often each optional concern (military, espionage, market, alliance, diplomacy) was read for them */
    decisions: number;
    concernReads: Record<string, number>;
    /**
     * Alliance-room messages (loadtest/src/allianceRoom.ts): rooms joined, and per message kind the
     * outcomes (ok: "done" or the chat line shown; refused: the room's "error" with a rule's code),
     * the time to the answer, and the server's counts over the action phase: the counter its
     * service increments (`serverMetric`) and room_message_duration_seconds_count with outcome "ok".
     */
    room: {
      joins: number;
      joinFailures: number;
      kinds: Record<string, { messageType: string; ok: number; refused: number; errors: number; answerLatencyMs: LatencySummary; serverMetric: string; serverCount: number | null; serverRoomOk: number | null }>;
    };
  };
  /** the load tester's own process over the action phase (it shares the machine) */
  tester: { cpuPercent: number; rssMiB: number };
  server: {
    metricsAvailable: boolean;
    unavailableReason?: string;
    cpuPercent: { mean: number | null; max: number | null };
    rssMiB: { start: number | null; max: number | null; end: number | null };
    eventLoopP99MsMax: number | null;
    samples: ServerSample[];
  };
  consistency: {
    routes: { method: string; route: string; tester: number; server: number | null; match: boolean | null }[];
    /** the tester's REST answers in the action phase, "METHOD route status" -> count */
    requestCounts: Record<string, number>;
    /** game_actions_total deltas over the action phase, by action label */
    serverGameActions: Record<string, number>;
    chat: { testerDelivered: number; serverChatMessages: number | null };
    turnsConsumedByTester: number;
  };
  timeline: {
    t: number;
    issued: number;
    ok: number;
    refused: number;
    errors: number;
    dropped: number;
    p50: number;
    p95: number;
    p99: number;
    max: number;
    perAction: Record<string, { count: number; p50: number; p99: number }>;
  }[];
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const padEnd = (s: string | number, n: number) => String(s).padEnd(n);
const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? "n/a" : n.toFixed(digits));

/** The plain-text summary printed at the end of a run. */
export function renderText(report: LoadTestReport): string {
  const lines: string[] = [];
  const o = report.options;
  const t = report.totals;
  lines.push(`Load test ${report.runId} against ${report.target}`);
  lines.push(
    `  ${o.countries} countries, ${o.durationSec} s at ${o.rate}/s offered; mix ${Object.entries(report.options.mixPercent)
      .map(([k, v]) => `${k} ${v}%`)
      .join(", ")}`,
  );
  lines.push(
    `  machine: ${report.machine.cpus} cores (${report.machine.cpuModel}), ${report.machine.totalMemoryGiB} GiB, Node ${report.machine.node}; ` +
      `load average ${report.machine.loadAverage.start} at start, ${report.machine.loadAverage.end} at end`,
  );
  lines.push("");
  if (report.steps) {
    const st = report.steps;
    lines.push(`Rate search: highest rate with every call answered and whole-call p99 < ${st.p99ThresholdMs} ms: ${st.highestPassingRate === null ? "none of the steps" : `${st.highestPassingRate}/s`}`);
    lines.push(`  ${pad("offered", 8)}${pad("ok/s", 8)}${pad("errors", 8)}${pad("dropped", 8)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("cpu %", 7)}${pad("loop p99", 10)}${pad("patch/s", 9)}${pad("B/s", 8)}  passed`);
    for (const x of st.steps) {
      lines.push(
        `  ${pad(x.offeredRate, 8)}${pad(fmt(x.okPerSec), 8)}${pad(x.errors, 8)}${pad(x.dropped, 8)}${pad(fmt(x.latencyMs.p50), 9)}${pad(fmt(x.latencyMs.p99), 9)}${pad(x.serverCpuPercent.mean === null ? "-" : fmt(x.serverCpuPercent.mean, 0), 7)}${pad(x.eventLoopP99WorstMs === null ? "-" : fmt(x.eventLoopP99WorstMs), 10)}${pad(fmt(x.patchesPerClientPerSec, 2), 9)}${pad(fmt(x.bytesPerClientPerSec, 0), 8)}  ${x.passed ? "yes" : "no"}`,
      );
    }
    lines.push("");
  }
  const s = report.setup;
  lines.push(`Setup (${s.durationSec.toFixed(1)} s): ${s.countriesReady}/${s.countriesRequested} countries ready (registered ${s.registered}, logged in ${s.loggedIn}, reused tokens ${s.reusedTokens}), ${s.joined} joined the world room`);
  for (const [step, sum] of Object.entries(s.latencyMs)) {
    if (sum.count) lines.push(`  ${padEnd(step, 11)} n=${pad(sum.count, 5)}  p50 ${pad(fmt(sum.p50), 8)} ms  p99 ${pad(fmt(sum.p99), 8)} ms  max ${pad(fmt(sum.max), 8)} ms`);
  }
  for (const e of s.errors.slice(0, 10)) lines.push(`  setup error x${e.count}: ${e.message}`);
  lines.push("");
  lines.push(
    `Actions: ${t.completed} completed of ${t.issued} issued (${t.planned} planned), ${t.ok} ok, ${t.refused} refused, ${t.errors} errors, ${t.dropped} dropped, ${t.abandoned} abandoned; ` +
      `${fmt(t.achievedRate)}/s achieved (${fmt(t.okRate)}/s ok); 5xx: ${t.serverErrors5xx}`,
  );
  lines.push(`  ${padEnd("action", 24)}${pad("count", 7)}${pad("ok", 7)}${pad("ref", 6)}${pad("err", 6)}${pad("/s", 7)}${pad("p50 ms", 10)}${pad("p95 ms", 10)}${pad("p99 ms", 10)}${pad("max ms", 10)}`);
  for (const [name, a] of [...Object.entries(report.actions), ["all", { ...t, count: t.completed, throughputPerSec: t.achievedRate, latencyMs: t.latencyMs }] as const]) {
    const l = a.latencyMs;
    lines.push(
      `  ${padEnd(name, 24)}${pad(a.count, 7)}${pad(a.ok, 7)}${pad(a.refused, 6)}${pad(a.errors, 6)}${pad(fmt(a.throughputPerSec), 7)}${pad(fmt(l.p50, 2), 10)}${pad(fmt(l.p95, 2), 10)}${pad(fmt(l.p99, 2), 10)}${pad(fmt(l.max, 2), 10)}`,
    );
  }
  lines.push(
    `  generator lag p99 ${fmt(t.dispatchLagMs.p99, 2)} ms, max ${fmt(t.dispatchLagMs.max, 2)} ms; stale keep-alive retries ${t.staleSocketRetries}; statuses ${Object.entries(t.statuses)
      .map(([k, v]) => `${k}:${v}`)
      .join(" ")}`,
  );
  if (report.errors.length) {
    lines.push("Errors by action, status and message:");
    for (const e of report.errors.slice(0, 15)) lines.push(`  ${pad(e.count, 6)}  ${e.action} ${e.status} ${e.message}`);
  }
  const st = report.strategy;
  if (st) {
    lines.push("");
    lines.push(
      `Strategy: personalities ${Object.entries(st.personalities)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; ${st.idle} idle looks, ${st.viewFailures} failed view reads`,
    );
    lines.push(`  ${padEnd("intent", 19)}${padEnd("route", 34)}${pad("ok", 7)}${pad("ref", 6)}${pad("err", 6)}${pad("req p50", 9)}${pad("req p95", 9)}  server game_actions_total`);
    for (const [kind, k] of Object.entries(st.kinds)) {
      if (!(k.ok + k.refused + k.errors)) continue;
      lines.push(
        `  ${padEnd(kind, 19)}${padEnd(k.route, 34)}${pad(k.ok, 7)}${pad(k.refused, 6)}${pad(k.errors, 6)}${pad(fmt(k.requestLatencyMs.p50, 1), 9)}${pad(fmt(k.requestLatencyMs.p95, 1), 9)}  ${k.serverAction} ${k.serverCount}${k.serverCount === k.ok ? "" : " (differs)"}`,
      );
    }
    lines.push(
      `  view reads: ${Object.entries(st.viewReadsMs)
        .filter(([, l]) => l.count)
        .map(([name, l]) => `${name} n=${l.count} p50 ${fmt(l.p50, 1)} p95 ${fmt(l.p95, 1)} ms`)
        .join("; ")}`,
    );
    lines.push(
      `  ${st.decisions} decisions read the concerns ${Object.entries(st.concernReads)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")} times; ${st.room.joins} alliance rooms joined (${st.room.joinFailures} failed)`,
    );
    for (const [kind, k] of Object.entries(st.room.kinds)) {
      if (!(k.ok + k.refused + k.errors)) continue;
      lines.push(
        `  ${padEnd(kind, 19)}${padEnd(`room ${k.messageType}`, 34)}${pad(k.ok, 7)}${pad(k.refused, 6)}${pad(k.errors, 6)}${pad(fmt(k.answerLatencyMs.p50, 1), 9)}${pad(fmt(k.answerLatencyMs.p95, 1), 9)}  ` +
          `${k.serverMetric} ${k.serverCount ?? "n/a"}${k.serverCount === k.ok ? "" : " (differs)"}`,
      );
    }
  }
  lines.push("");
  const w = report.websocket;
  lines.push(
    `WebSocket: ${w.joined} joined (${w.joinFailed} failed), connected at start ${w.connectedAtStart}, at end ${w.connectedAtEnd}, ${w.disconnectsDuringRun} dropped during the run; server reports max ${w.serverClientsMax ?? "n/a"} clients in ${w.serverRoomsMax ?? "n/a"} rooms`,
  );
  if (w.drops.total > 0) {
    const causes = Object.entries(w.drops.byCause)
      .map(([cause, n]) => `${n} x ${cause}`)
      .join(", ");
    lines.push(`  drops: ${w.drops.total} (${causes}); ${w.drops.back} back in a room (p50 ${w.drops.backWithinMs.p50 ?? "-"} ms, max ${w.drops.backWithinMs.max ?? "-"} ms after the socket closed), ${w.drops.notBack} not back`);
  }
  if (w.decodeErrors.frames) lines.push(`  DECODE ERRORS: ${w.decodeErrors.frames} frames on ${w.decodeErrors.clients} clients, e.g. ${w.decodeErrors.samples.join(" | ")}`);
  const c = report.chat;
  lines.push(
    `Chat fan-out: ${c.sent} sent, ${c.delivered} delivered, ${c.undelivered} undelivered, ${c.receipts} receipts on ${c.observers} observers; p50 ${fmt(c.fanoutMs.p50, 2)} ms, p99 ${fmt(c.fanoutMs.p99, 2)} ms, max ${fmt(c.fanoutMs.max, 2)} ms`,
  );
  const r = report.room;
  lines.push(
    `Room traffic per client: ${fmt(r.patchesPerClientPerSec, 2)} patches/s, ${fmt(r.bytesPerClientPerSec.mean, 0)} B/s mean (min ${fmt(r.bytesPerClientPerSec.min, 0)}, max ${fmt(r.bytesPerClientPerSec.max, 0)}), ` +
      `avg patch ${fmt(r.avgPatchBytes, 0)} B, full state ${fmt(r.avgFullStateBytes, 0)} B; all clients ${fmt(r.totalBytesPerSec / 1024, 1)} KiB/s`,
  );
  lines.push("");
  const sv = report.server;
  if (sv.metricsAvailable) {
    lines.push(`Server: CPU mean ${fmt(sv.cpuPercent.mean)}% max ${fmt(sv.cpuPercent.max)}% (100% = one core); RSS ${fmt(sv.rssMiB.start, 0)} -> max ${fmt(sv.rssMiB.max, 0)} MiB; event-loop p99 max ${fmt(sv.eventLoopP99MsMax, 1)} ms`);
  } else {
    lines.push(`Server metrics unavailable: ${sv.unavailableReason ?? "unknown"}`);
  }
  lines.push(`Load tester process: CPU ${fmt(report.tester.cpuPercent)}% of one core over the action phase, RSS ${fmt(report.tester.rssMiB, 0)} MiB`);
  const mismatched = report.consistency.routes.filter((x) => x.match === false);
  lines.push(
    `Consistency: ${report.consistency.routes.length - mismatched.length}/${report.consistency.routes.length} routes match the server's counts` +
      (mismatched.length ? ` (mismatch: ${mismatched.map((m) => `${m.method} ${m.route} tester ${m.tester} server ${m.server}`).join("; ")})` : ""),
  );
  return lines.join("\n");
}
