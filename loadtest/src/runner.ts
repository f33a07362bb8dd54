import { apiUrl, routes } from "@game/schema/routes";
import crypto from "node:crypto";
import os from "node:os";
import { WorldMessage, WORLD_ROOM, type NoticePayload, type WatchTopic } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { ACTIONS_BY_NAME, type ActionContext, type ActionOutcome } from "./actions.js";
import { newCredentials, prepareBots, readCredentialsFile, SetupStats, type Bot, type BotCredentials, type CredentialsFile } from "./bots.js";
import { mapLimit } from "./concurrency.js";
import { checkTarget } from "./hostGuard.js";
import { JsonHttpClient } from "./httpClient.js";
import { mixPercentages, type Mix } from "./mix.js";
import { noticeArrived, StrategyStats } from "./play.js";
import { ClientTraffic, ChatTracker, joinRoom } from "./realtime.js";
import type { LoadTestReport, RateStep } from "./report.js";
import { createRng, weightedPicker } from "./rng.js";
import { runOpenLoop, type OpenLoopResult } from "./scheduler.js";
import { ServerMetricsSampler, sumSamples, type MetricSample, type ServerSample } from "./serverMetrics.js";
import { percentileOf, RunStats } from "./stats.js";
import { DropLog, ReconnectingRoom, type DropSummary } from "./reconnect.js";
import { INTENT_ROUTES } from "./strategy.js";
import { ROOM_INTENTS, type RoomIntentKind } from "./allianceRoom.js";
import { LatencyRecorder } from "./histogram.js";

export interface LoadTestOptions {
  /** server origin, e.g. http://127.0.0.1:3000 */
  url: string;
  /** hosts besides loopback the operator allows (--allow-host) */
  allowHosts?: string[];
  countries: number;
  durationSec: number;
  /** actions per second, in total */
  rate: number;
  mix: Mix;
  /** @default random */
  seed?: number;
  /** credentials to reuse (a file written by an earlier run, already read) */
  reuse?: CredentialsFile;
  /** concurrent registrations / logins @default 8 */
  setupConcurrency?: number;
  /** concurrent room joins @default 20 */
  joinConcurrency?: number;
  /** actions in flight before due ones are dropped @default 1000 */
  maxInFlight?: number;
  /** per REST request @default 10000 */
  requestTimeoutMs?: number;
  /** wait for chat fan-out before calling a chat undelivered @default 10000 */
  chatTimeoutMs?: number;
  /** clients that decode state patches (observers for chat fan-out) @default 20 */
  decodeSample?: number;
  /** join every bot to the world room (and, with the play action, a bot in an alliance to its alliance room) @default true */
  rooms?: boolean;
  /**
   * Rates to run first, each for `durationSec` with the same clients, before the last one at
   * `rate`: a search for the highest rate the server carries (report.steps) @default []
   */
  steps?: readonly number[];
  /** what every bot's screen shows (world room "watch"); the decoding sample shows the chat too @default [] */
  watch?: readonly WatchTopic[];
  /** the play action's read lifetime of every optional view concern, ms, instead of its CONCERN_TTL_MS (loadtest/src/play.ts) */
  viewTtlMs?: number;
  /** Bearer token for GET /metrics when the server is not public */
  metricsToken?: string;
  /** @default 1000 */
  metricsIntervalMs?: number;
  /** called ~4 times a second with live numbers */
  onProgress?: (progress: ProgressSnapshot) => void;
  /** stops the action phase early (Ctrl-C) */
  signal?: AbortSignal;
  /** told the credentials as soon as the countries are ready (the CLI saves them before anything can fail) */
  onBotsReady?: (credentials: CredentialsFile) => void;
}

export interface ProgressSnapshot {
  phase: "setup" | "join" | "actions" | "drain" | "teardown";
  /** ready countries / joined clients in setup and join */
  setupDone: number;
  setupTotal: number;
  elapsedSec: number;
  durationSec: number;
  issued: number;
  completed: number;
  errors: number;
  dropped: number;
  inFlight: number;
  ratePerSec: number;
}

export interface LoadTestResult {
  report: LoadTestReport;
  /** every ready bot's credentials with fresh tokens, for --reuse */
  credentials: CredentialsFile;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Runs one load test: prepares N countries (register or reuse), joins each to the world
 * room, plays the mix open-loop for the duration, and builds the report. Never throws for a
 * server that answers badly (that is what the report is for); throws for a refused target,
 * an unreachable server, or no country ready.
 */
export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestResult> {
  const target = checkTarget(options.url, options.allowHosts ?? []);
  const seed = options.seed ?? crypto.randomInt(1, 2 ** 31);
  const runId = crypto.randomBytes(4).toString("hex").slice(0, 6);
  const setupConcurrency = options.setupConcurrency ?? 8;
  const joinConcurrency = options.joinConcurrency ?? 20;
  const maxInFlight = options.maxInFlight ?? 1000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const decodeSample = Math.min(options.decodeSample ?? 20, options.countries);
  const useRooms = options.rooms ?? true;
  const watchTopics = options.watch ?? [];
  const chatChannel = "general";
  const startedAtIso = new Date().toISOString();
  const t0 = performance.now();

  let stats: RunStats | undefined;
  let phase: ProgressSnapshot["phase"] = "setup";
  let setupDone = 0;
  let actionStart = 0;
  const http = new JsonHttpClient(target, {
    timeoutMs: requestTimeoutMs,
    maxSockets: 512,
    onResponse: (record) => {
      if (stats && (phase === "actions" || phase === "drain")) stats.countRequest(record);
    },
  });
  const sampler = new ServerMetricsSampler(http, { intervalMs: options.metricsIntervalMs ?? 1000, token: options.metricsToken });
  const progress = () =>
    options.onProgress?.({
      phase,
      setupDone,
      setupTotal: options.countries,
      elapsedSec: stats ? (performance.now() - actionStart) / 1000 : (performance.now() - t0) / 1000,
      durationSec: options.durationSec,
      issued: stats?.issued ?? 0,
      completed: stats?.completed ?? 0,
      errors: stats?.failed ?? 0,
      dropped: stats?.dropped ?? 0,
      inFlight: stats?.inFlight ?? 0,
      ratePerSec: stats ? stats.recentRate(performance.now()) : 0,
    });
  const progressTimer = setInterval(progress, 250);

  const bots: Bot[] = [];
  /** the bots' world rooms, joined again after a drop until the teardown */
  const links: ReconnectingRoom[] = [];
  const chat = new ChatTracker(runId, chatChannel, options.chatTimeoutMs ?? 10_000);
  try {
    const health = await http.request("GET", apiUrl(routes.health));
    if (health.status !== 200) throw new Error(`${target.origin}${apiUrl(routes.health)} answered ${health.status || health.failure}: is the server up?`);
    await sampler.sample();
    sampler.start();

    // --- setup: countries ----------------------------------------------------------------
    const reused = options.reuse?.bots.slice(0, options.countries) ?? [];
    const credentials: BotCredentials[] = [...reused];
    for (let i = credentials.length; i < options.countries; i++) credentials.push(newCredentials(runId, i));
    const setup = new SetupStats();
    bots.push(...(await prepareBots(http, credentials, { concurrency: setupConcurrency, stats: setup, onReady: (n) => (setupDone = n) })));
    if (bots.length === 0) throw new Error(`No country could be prepared: ${[...setup.errors.keys()].slice(0, 3).join("; ")}`);
    options.onBotsReady?.(credentialsOf(target.origin, bots));

    // --- setup: world room ---------------------------------------------------------------
    phase = "join";
    setupDone = 0;
    let joined = 0;
    let disconnects = 0;
    let connected = 0;
    const drops = new DropLog();
    const messagesByType = new Map<string, number>();
    const observerStride = decodeSample > 0 ? Math.max(1, Math.floor(bots.length / decodeSample)) : Infinity;
    const isObserver = (bot: Bot) => bot.index % observerStride === 0 && bot.index / observerStride < decodeSample;
    if (useRooms) {
      await mapLimit(bots, joinConcurrency, async (bot) => {
        const traffic = new ClientTraffic(isObserver(bot));
        const start = performance.now();
        // The bot's world room comes back on its own after a drop (a process restarting, a
        // broken socket), as the browser client's does; every drop and its cause is logged.
        const link = new ReconnectingRoom({
          join: () => joinRoom(target.origin, bot.token, traffic, WORLD_ROOM, WorldState),
          drops,
          away: () => {
            bot.room = undefined;
            connected--;
            if (phase === "actions" || phase === "drain") disconnects++;
          },
          attach: (room, rejoined) => {
            bot.room = room;
            if (rejoined) connected++;
            room.onMessage("*", (type: string | number, payload: unknown) => {
              const name = String(type);
              messagesByType.set(name, (messagesByType.get(name) ?? 0) + 1);
              if (name === WorldMessage.notice) noticeArrived(bot, payload as NoticePayload);
              if (name === WorldMessage.chatMessage && traffic.sampled) {
                const line = payload as { channel?: string; content?: string } | undefined;
                chat.line(bot.index, String(line?.channel ?? ""), String(line?.content ?? ""));
              }
              if (name === WorldMessage.error && bot.lastChatSeq !== undefined) {
                const message = (payload as { message?: string; code?: string } | undefined)?.message ?? "room error";
                chat.fail(bot.lastChatSeq, `${(payload as { code?: string })?.code ?? "error"}: ${message}`);
              }
            });
            // What the bot's screen shows: the decoding sample shows the chat (they observe the
            // fan-out); every bot shows what --watch names (none by default: the overview).
            const topics = [...new Set<WatchTopic>([...watchTopics, ...(traffic.sampled ? (["chat"] as const) : [])])];
            if (topics.length) room.send(WorldMessage.watch, { topics });
            if (traffic.sampled) chat.observe(bot.index, room);
          },
        });
        try {
          await link.start();
        } catch (err) {
          setup.fail("join", (err as Error).message || String(err));
          return;
        } finally {
          setup.latency.join.record(performance.now() - start);
        }
        links.push(link);
        bot.traffic = traffic;
        joined++;
        connected++;
        setupDone = joined;
      });
    }
    const setupDurationSec = (performance.now() - t0) / 1000;

    // --- actions -------------------------------------------------------------------------
    const connectedAtStart = connected;
    const pick = weightedPicker(options.mix, createRng(seed));
    let strategyStats = new StrategyStats();
    const ctx: ActionContext = {
      http,
      chat,
      chatChannel,
      strategy: { seed, stats: strategyStats, runId, ...(useRooms ? { roomOrigin: target.origin } : {}), ...(options.viewTtlMs !== undefined ? { viewTtlMs: options.viewTtlMs } : {}) },
    };
    /** One action phase at `rate` for the run's duration, with its own stats. */
    const actionPhase = async (rate: number) => {
      actionStart = performance.now();
      const phaseStart = actionStart;
      const phaseStats = new RunStats(actionStart);
      stats = phaseStats;
      phase = "actions";
      const result = await runOpenLoop(
        {
          ratePerSecond: rate,
          durationMs: options.durationSec * 1000,
          maxInFlight,
          drainTimeoutMs: Math.max(requestTimeoutMs, options.chatTimeoutMs ?? 10_000) + 2000,
          signal: options.signal,
          onDrop: (call) => phaseStats.drop(call.intendedAt),
        },
        async (call) => {
          const name = pick();
          const bot = bots[call.seq % bots.length]!;
          phaseStats.issue(call.intendedAt, call.startedAt);
          let outcome: ActionOutcome;
          try {
            const action = ACTIONS_BY_NAME.get(name)!;
            outcome = action.needsRoom && !bot.room ? { ok: false, status: "not_joined", message: "bot has no world room (--no-rooms or join failed)" } : await action.run(bot, ctx);
          } catch (err) {
            outcome = { ok: false, status: "exception", message: (err as Error).message };
          }
          const end = performance.now();
          phaseStats.complete(outcome.kind ? `${name}:${outcome.kind}` : name, outcome, end - call.intendedAt, end);
          if (phase === "actions" && end - phaseStart >= options.durationSec * 1000) phase = "drain";
        },
      );
      return { stats: phaseStats, loop: result, start: phaseStart };
    };

    // --- rate steps (--rates): the same clients at each rate before the last, a summary each
    const steps: RateStep[] = [];
    for (const rate of options.steps ?? []) {
      if (options.signal?.aborted) break;
      const trafficAtStart = snapshotTraffic(bots);
      const step = await actionPhase(rate);
      steps.push(rateStep(rate, step.stats, step.start, performance.now(), sampler.samplesFrom(step.start), trafficAtStart, snapshotTraffic(bots)));
      // let the server settle between steps
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }

    // the main phase's report and consistency checks count the main phase alone
    if (steps.length) ctx.strategy!.stats = strategyStats = new StrategyStats();
    const before = await sampler.scrape();
    const trafficBefore = snapshotTraffic(bots);
    const cpuBefore = process.cpuUsage();
    const loadAtStart = os.loadavg()[0]!;
    const main = await actionPhase(options.rate);
    const runStats = main.stats;
    const loop: OpenLoopResult = main.loop;
    actionStart = main.start;
    phase = "drain";
    const actionEnd = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    const testerCpuPercent = round(((cpu.user + cpu.system) / 1000 / (actionEnd - actionStart)) * 100, 1);
    // let the server's 'finish' handlers run before reading its counters
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await sampler.scrape();
    await sampler.sample();
    const trafficAfter = snapshotTraffic(bots);
    const connectedAtEnd = connected;
    chat.close();

    // --- teardown ------------------------------------------------------------------------
    phase = "teardown";
    sampler.stop();
    for (const link of links) link.stop();
    await mapLimit(
      bots.filter((b) => b.room),
      50,
      async (bot) => {
        await Promise.race([bot.room!.leave(true).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 3000))]);
      },
    );
    await mapLimit(
      bots.filter((b) => b.allianceRoom),
      50,
      async (bot) => bot.allianceRoom!.leave(),
    );

    const report = buildReport({
      options,
      runId,
      seed,
      startedAtIso,
      target: target.origin,
      setup,
      setupDurationSec,
      bots,
      joined,
      stats: runStats,
      strategy: strategyStats,
      loop,
      actionWindowSec: (actionEnd - actionStart) / 1000,
      serverSamples: sampler.samplesFrom(actionStart),
      loadAverage: { start: round(loadAtStart), end: round(os.loadavg()[0]!) },
      staleSocketRetries: http.staleSocketRetries,
      tester: { cpuPercent: testerCpuPercent, rssMiB: round(process.memoryUsage().rss / 1048576, 1) },
      before,
      after,
      trafficBefore,
      trafficAfter,
      sampler,
      chat,
      connectedAtStart,
      connectedAtEnd,
      disconnects,
      drops: drops.summary(),
      messagesByType,
      resolved: { maxInFlight, requestTimeoutMs, decodeSample, setupConcurrency, joinConcurrency, useRooms },
    });
    if (steps.length) {
      steps.push(rateStep(options.rate, runStats, actionStart, actionEnd, sampler.samplesFrom(actionStart), trafficBefore, trafficAfter));
      report.steps = { p99ThresholdMs: STEP_P99_THRESHOLD_MS, highestPassingRate: highestPassing(steps), steps };
    }
    return { report, credentials: credentialsOf(target.origin, bots) };
  } finally {
    clearInterval(progressTimer);
    sampler.stop();
    chat.close();
    for (const link of links) link.stop();
    for (const bot of bots) {
      bot.room?.connection?.close();
      bot.allianceRoom?.room.connection?.close();
    }
    http.close();
  }
}

/** A rate step passes when every call answered, none was dropped, and the whole-call p99 stays under this (ms). */
export const STEP_P99_THRESHOLD_MS = 250;

/** What one action phase of a rate search carried. */
function rateStep(rate: number, stats: RunStats, start: number, end: number, samples: ServerSample[], trafficAtStart: TrafficSnapshot, trafficAtEnd: TrafficSnapshot): RateStep {
  const window = Math.max(0.001, (end - start) / 1000);
  const latency = stats.latency.summary();
  const cpu = samples.map((s) => s.cpuPercent).filter((v): v is number => v !== null);
  const loops = samples.map((s) => s.eventLoopP99Ms).filter((v): v is number => v !== null);
  const clients = trafficAtEnd.clients || 1;
  const passed = stats.failed === 0 && stats.dropped === 0 && stats.completed > 0 && latency.p99 < STEP_P99_THRESHOLD_MS;
  return {
    offeredRate: rate,
    okPerSec: round(stats.ok / window, 1),
    completedPerSec: round(stats.completed / window, 1),
    ok: stats.ok,
    refused: stats.refused,
    errors: stats.failed,
    dropped: stats.dropped,
    latencyMs: { p50: latency.p50, p95: latency.p95, p99: latency.p99, max: latency.max },
    serverCpuPercent: { mean: cpu.length ? round(cpu.reduce((a, b) => a + b, 0) / cpu.length, 1) : null, max: cpu.length ? Math.max(...cpu) : null },
    eventLoopP99WorstMs: loops.length ? Math.max(...loops) : null,
    patchesPerClientPerSec: round((trafficAtEnd.patches - trafficAtStart.patches) / clients / window, 2),
    bytesPerClientPerSec: round((trafficAtEnd.bytes - trafficAtStart.bytes) / clients / window, 1),
    passed,
  };
}

/** The highest offered rate of the steps that passed, or null when none did. */
function highestPassing(steps: readonly RateStep[]): number | null {
  const passing = steps.filter((s) => s.passed).map((s) => s.offeredRate);
  return passing.length ? Math.max(...passing) : null;
}

function credentialsOf(target: string, bots: readonly Bot[]): CredentialsFile {
  return { version: 1, target, createdAt: new Date().toISOString(), bots: bots.map((b) => ({ ...b.credentials })) };
}

interface TrafficSnapshot {
  clients: number;
  sampled: number;
  perClientBytes: number[];
  bytes: number;
  patches: number;
  patchBytes: number;
  fullStates: number;
  fullStateBytes: number;
  stateChanges: number;
  decodeErrors: number;
  decodeErrorClients: number;
  decodeErrorSamples: string[];
}

function snapshotTraffic(bots: readonly Bot[]): TrafficSnapshot {
  const s: TrafficSnapshot = {
    clients: 0,
    sampled: 0,
    perClientBytes: [],
    bytes: 0,
    patches: 0,
    patchBytes: 0,
    fullStates: 0,
    fullStateBytes: 0,
    stateChanges: 0,
    decodeErrors: 0,
    decodeErrorClients: 0,
    decodeErrorSamples: [],
  };
  for (const bot of bots) {
    const t = bot.traffic;
    if (!t) continue;
    s.clients++;
    if (t.sampled) s.sampled++;
    s.perClientBytes.push(t.bytes);
    s.bytes += t.bytes;
    s.patches += t.patches;
    s.patchBytes += t.patchBytes;
    s.fullStates += t.fullStates;
    s.fullStateBytes += t.fullStateBytes;
    s.stateChanges += t.sampled ? t.stateChanges : 0;
    if (t.decodeErrors) {
      s.decodeErrorClients++;
      s.decodeErrors += t.decodeErrors;
      if (t.firstDecodeError && !s.decodeErrorSamples.includes(t.firstDecodeError) && s.decodeErrorSamples.length < 5) s.decodeErrorSamples.push(t.firstDecodeError);
    }
  }
  return s;
}

interface ReportInput {
  options: LoadTestOptions;
  runId: string;
  seed: number;
  startedAtIso: string;
  target: string;
  setup: SetupStats;
  setupDurationSec: number;
  bots: Bot[];
  joined: number;
  stats: RunStats;
  strategy: StrategyStats;
  loop: OpenLoopResult;
  actionWindowSec: number;
  serverSamples: ServerSample[];
  tester: LoadTestReport["tester"];
  staleSocketRetries: number;
  loadAverage: LoadTestReport["machine"]["loadAverage"];
  before: MetricSample[] | undefined;
  after: MetricSample[] | undefined;
  trafficBefore: TrafficSnapshot;
  trafficAfter: TrafficSnapshot;
  sampler: ServerMetricsSampler;
  chat: ChatTracker;
  connectedAtStart: number;
  connectedAtEnd: number;
  disconnects: number;
  drops: DropSummary;
  messagesByType: Map<string, number>;
  resolved: { maxInFlight: number; requestTimeoutMs: number; decodeSample: number; setupConcurrency: number; joinConcurrency: number; useRooms: boolean };
}

function buildReport(input: ReportInput): LoadTestReport {
  const { options, stats, loop, sampler } = input;
  const duration = options.durationSec;
  const cpus = os.cpus();

  const actions: LoadTestReport["actions"] = {};
  for (const [name, a] of [...stats.actions.entries()].sort()) {
    actions[name] = {
      count: a.ok + a.refused + a.errors,
      ok: a.ok,
      refused: a.refused,
      errors: a.errors,
      throughputPerSec: round((a.ok + a.refused + a.errors) / duration),
      turnsConsumed: a.turnsConsumed,
      latencyMs: a.latency.summary(),
    };
  }
  const statuses = Object.fromEntries([...stats.statuses.entries()].sort());
  const serverErrors5xx = [...stats.statuses.entries()].filter(([s]) => /^5\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);

  // room traffic over the action phase
  const tb = input.trafficBefore;
  const ta = input.trafficAfter;
  const window = Math.max(0.001, input.actionWindowSec);
  const perClient = ta.perClientBytes.map((b, i) => (b - (tb.perClientBytes[i] ?? 0)) / window).sort((a, b) => a - b);
  const patches = ta.patches - tb.patches;
  const patchBytes = ta.patchBytes - tb.patchBytes;

  // server samples in the action phase (t >= 0)
  const samples = input.serverSamples;
  const inRun = samples.filter((s) => s.t >= 0);
  const cpuValues = inRun.map((s) => s.cpuPercent).filter((v): v is number => v !== null);
  const rss = samples.map((s) => s.rssBytes).filter((v): v is number => v !== null);
  const mib = (b: number | undefined) => (b === undefined ? null : round(b / 1048576, 1));
  const maxOf = (values: (number | null)[]) => {
    const v = values.filter((x): x is number => x !== null);
    return v.length ? Math.max(...v) : null;
  };

  // consistency: tester's REST answers per route vs the server's http_requests_total deltas
  const routes: LoadTestReport["consistency"]["routes"] = [];
  const usedRoutes = new Map<string, { method: string; route: string }>();
  for (const name of Object.keys(options.mix)) {
    if (!(options.mix[name]! > 0)) continue;
    for (const r of ACTIONS_BY_NAME.get(name)!.routes) usedRoutes.set(`${r.method} ${r.route}`, r);
  }
  for (const { method, route } of usedRoutes.values()) {
    let tester = 0;
    for (const [key, count] of stats.requests) if (key.startsWith(`${method} ${route} `)) tester += count;
    const server = input.before && input.after ? sumSamples(input.after, "http_requests_total", { method, route }) - sumSamples(input.before, "http_requests_total", { method, route }) : null;
    routes.push({ method, route, tester, server, match: server === null ? null : server === tester });
  }
  const serverGameActions: Record<string, number> = {};
  if (input.before && input.after) {
    for (const s of input.after) {
      if (s.name !== "game_actions_total" || !s.labels.action) continue;
      const prev = input.before.find((b) => b.name === s.name && b.labels.action === s.labels.action)?.value ?? 0;
      if (s.value - prev !== 0) serverGameActions[s.labels.action] = s.value - prev;
    }
  }
  const serverDelta = (name: string, labels: Record<string, string>): number | null => (input.before && input.after ? sumSamples(input.after, name, labels) - sumSamples(input.before, name, labels) : null);
  const serverChat = serverDelta("chat_messages_total", {});
  const turnsConsumedByTester = [...stats.actions.values()].reduce((n, a) => n + a.turnsConsumed, 0);

  const errors = [...stats.errors.values()].sort((a, b) => b.count - a.count);
  const setupErrors = [...input.setup.errors.entries()].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count);

  return {
    tool: "nation-game-loadtest",
    version: 1,
    runId: input.runId,
    startedAt: input.startedAtIso,
    finishedAt: new Date().toISOString(),
    target: input.target,
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model?.trim() ?? "unknown",
      totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
      node: process.versions.node,
      platform: `${os.platform()} ${os.release()}`,
      loadAverage: input.loadAverage,
    },
    options: {
      countries: options.countries,
      durationSec: duration,
      rate: options.rate,
      mix: options.mix,
      mixPercent: mixPercentages(options.mix),
      seed: input.seed,
      maxInFlight: input.resolved.maxInFlight,
      requestTimeoutMs: input.resolved.requestTimeoutMs,
      decodeSample: input.resolved.decodeSample,
      setupConcurrency: input.resolved.setupConcurrency,
      joinConcurrency: input.resolved.joinConcurrency,
      reusedCredentials: Boolean(options.reuse),
      rooms: input.resolved.useRooms,
    },
    setup: {
      countriesRequested: options.countries,
      countriesReady: input.bots.length,
      registered: input.setup.registered,
      loggedIn: input.setup.loggedIn,
      reusedTokens: input.setup.reusedTokens,
      durationSec: round(input.setupDurationSec, 1),
      latencyMs: {
        register: input.setup.latency.register.summary(),
        login: input.setup.latency.login.summary(),
        tokenCheck: input.setup.latency.tokenCheck.summary(),
        join: input.setup.latency.join.summary(),
      },
      joined: input.joined,
      errors: setupErrors,
    },
    totals: {
      planned: loop.planned,
      issued: loop.issued,
      completed: stats.completed,
      ok: stats.ok,
      refused: stats.refused,
      errors: stats.failed,
      dropped: loop.dropped,
      abandoned: loop.abandoned,
      durationSec: round(input.actionWindowSec, 2),
      offeredRate: options.rate,
      achievedRate: round(stats.completed / duration),
      okRate: round(stats.ok / duration),
      serverErrors5xx,
      statuses,
      latencyMs: stats.latency.summary(),
      dispatchLagMs: stats.dispatchLag.summary(),
      staleSocketRetries: input.staleSocketRetries,
    },
    actions,
    errors,
    websocket: {
      joined: input.joined,
      joinFailed: input.resolved.useRooms ? input.bots.length - input.joined : 0,
      connectedAtStart: input.connectedAtStart,
      connectedAtEnd: input.connectedAtEnd,
      disconnectsDuringRun: input.disconnects,
      drops: input.drops,
      serverClientsMax: maxOf(inRun.map((s) => s.clients)),
      serverRoomsMax: maxOf(inRun.map((s) => s.rooms)),
      messagesByType: Object.fromEntries(input.messagesByType),
      decodeErrors: { clients: ta.decodeErrorClients, frames: ta.decodeErrors, samples: ta.decodeErrorSamples },
    },
    chat: {
      channel: "general",
      sent: input.chat.sent,
      delivered: input.chat.delivered,
      undelivered: input.chat.undelivered,
      receipts: input.chat.receipts,
      observers: input.chat.observerCount,
      fanoutMs: input.chat.fanout.summary(),
    },
    room: {
      method:
        "Every client's Room.onMessageCallback is wrapped (MeteredRoom) to add event.data.byteLength of each WebSocket message and classify it by protocol code " +
        "before the SDK decodes it: WebSocket payload bytes, without WS framing or TCP/IP headers. Only `decodeSample` clients decode patches (and count onStateChange); the others drop patch frames after counting them.",
      clients: ta.clients,
      sampledClients: ta.sampled,
      windowSec: round(window, 2),
      patchesPerClientPerSec: ta.clients ? round(patches / ta.clients / window, 2) : 0,
      bytesPerClientPerSec: {
        mean: perClient.length ? round(perClient.reduce((a, b) => a + b, 0) / perClient.length, 1) : 0,
        min: round(perClient[0] ?? 0, 1),
        p50: round(percentileOf(perClient, 50), 1),
        max: round(perClient[perClient.length - 1] ?? 0, 1),
      },
      patchBytesPerClientPerSec: ta.clients ? round(patchBytes / ta.clients / window, 1) : 0,
      avgPatchBytes: patches ? round(patchBytes / patches, 1) : 0,
      avgFullStateBytes: ta.fullStates ? round(ta.fullStateBytes / ta.fullStates, 1) : 0,
      stateChangesPerSampledClientPerSec: ta.sampled ? round((ta.stateChanges - tb.stateChanges) / ta.sampled / window, 2) : 0,
      totalBytesPerSec: round((ta.bytes - tb.bytes) / window, 1),
    },
    tester: input.tester,
    server: {
      metricsAvailable: samples.length > 0,
      ...(sampler.unavailable ? { unavailableReason: sampler.unavailable } : {}),
      cpuPercent: { mean: cpuValues.length ? round(cpuValues.reduce((a, b) => a + b, 0) / cpuValues.length, 1) : null, max: cpuValues.length ? Math.max(...cpuValues) : null },
      rssMiB: { start: mib(rss[0]), max: rss.length ? mib(Math.max(...rss)) : null, end: mib(rss[rss.length - 1]) },
      eventLoopP99MsMax: maxOf(inRun.map((s) => s.eventLoopP99Ms)),
      samples,
    },
    ...(input.strategy.personalities.size ? { strategy: strategyReport(input.strategy, stats, serverGameActions, serverDelta) } : {}),
    consistency: {
      routes,
      requestCounts: Object.fromEntries([...stats.requests.entries()].sort()),
      serverGameActions,
      chat: { testerDelivered: stats.actions.get("chat")?.ok ?? 0, serverChatMessages: serverChat },
      turnsConsumedByTester,
    },
    timeline: stats.timeline.map((b, t) => {
      const sum = b.latency.summary();
      return {
        t,
        issued: b.issued,
        ok: b.ok,
        refused: b.refused,
        errors: b.errors,
        dropped: b.dropped,
        p50: sum.p50,
        p95: sum.p95,
        p99: sum.p99,
        max: sum.max,
        perAction: Object.fromEntries([...b.perAction.entries()].map(([name, p]) => [name, { count: p.count, ...(({ p50, p99 }) => ({ p50, p99 }))(p.latency.summary()) }])),
      };
    }),
  };
}

/**
 * The strategy driver's part of the report: personalities, each intent kind's outcomes with
 * the latency of its own request and the server's count of the game action it becomes, the
 * reads the views needed, and the alliance-room messages with the server's counts of them.
 */
function strategyReport(strategy: StrategyStats, stats: RunStats, serverGameActions: Record<string, number>, serverDelta: (name: string, labels: Record<string, string>) => number | null): NonNullable<LoadTestReport["strategy"]> {
  const kinds: NonNullable<LoadTestReport["strategy"]>["kinds"] = {};
  for (const [kind, mapping] of Object.entries(INTENT_ROUTES)) {
    const a = stats.actions.get(`play:${kind}`);
    kinds[kind] = {
      route: `${mapping.method} ${mapping.route}`,
      ok: a?.ok ?? 0,
      refused: a?.refused ?? 0,
      errors: a?.errors ?? 0,
      requestLatencyMs: (strategy.intentLatency.get(kind) ?? new LatencyRecorder()).summary(),
      serverAction: mapping.serverAction,
      serverCount: serverGameActions[mapping.serverAction] ?? 0,
    };
  }
  const roomKinds: NonNullable<LoadTestReport["strategy"]>["room"]["kinds"] = {};
  for (const [kind, mapping] of Object.entries(ROOM_INTENTS) as Array<[RoomIntentKind, (typeof ROOM_INTENTS)[RoomIntentKind]]>) {
    const a = stats.actions.get(`play:${kind}`);
    roomKinds[kind] = {
      messageType: mapping.type,
      ok: a?.ok ?? 0,
      refused: a?.refused ?? 0,
      errors: a?.errors ?? 0,
      answerLatencyMs: strategy.roomLatency[kind].summary(),
      serverMetric: `${mapping.metric}{${Object.entries(mapping.labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(",")}}`,
      serverCount: serverDelta(mapping.metric, mapping.labels),
      serverRoomOk: serverDelta("room_message_duration_seconds_count", { room: "alliance", type: mapping.type, outcome: "ok" }),
    };
  }
  return {
    personalities: Object.fromEntries([...strategy.personalities.entries()].sort()),
    idle: strategy.idle,
    viewFailures: strategy.viewFailures,
    kinds,
    viewReadsMs: Object.fromEntries(Object.entries(strategy.viewReads).map(([k, r]) => [k, r.summary()])),
    decisions: strategy.decisions,
    concernReads: { ...strategy.concernReads },
    room: { joins: strategy.roomJoins, joinFailures: strategy.roomJoinFailures, kinds: roomKinds },
  };
}

/** Reads a --reuse file (kept here so the CLI and tests share one path). */
export function loadReuseFile(file: string): CredentialsFile {
  return readCredentialsFile(file);
}
