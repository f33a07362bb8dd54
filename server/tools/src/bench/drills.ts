/**
 * Failure drills (issues 15 and 28): `npm run drill -- redis|postgres|tick|soak|backup|rolling [options]`.
 *
 * - redis, postgres: two server processes (the real entry point) on one Postgres and one
 *   Redis, each store reached through a TCP proxy the drill owns, under a steady load of
 *   explorations from both processes plus matchmaking probes. The proxy is cut (every
 *   connection reset, new ones refused: the store is "down" for these processes only, so the
 *   shared Postgres and Redis of other test runs are untouched) for --outage seconds, then
 *   restored. Checks: no 5xx but 503, every failure in the envelope, both processes serve
 *   again within 10 s of the restore, and the audit: the turns spent equal the explorations
 *   answered 200, plus at most the ones whose answer was lost (none lost, none applied twice).
 *   `--real` restarts the real Postgres cluster (pg_ctlcluster) instead of cutting the proxy:
 *   it disturbs every other user of that server, run it only on a quiet machine.
 * - tick: a tick worker process joins the schedule and is SIGKILLed at --points points
 *   (inside the tick transaction, after COMMIT before the job is acknowledged, and at a
 *   random moment), while this process's worker keeps ticking; then the tick table must be
 *   contiguous and every country must have changed by exactly the ticks recorded.
 * - soak: one server process (the tick every --tick seconds) and the load tester (N clients,
 *   M minutes, a steady action rate, --mix play=1 by default: the whole game); samples
 *   /metrics every 10 s and reports 5xx, memory growth (the mean of the window from minute 10
 *   against the mean of the last window of load, `memoryGrowth`), the room
 *   connections that dropped (by close code) and came back, and the event-loop p99 over time.
 *
 * - backup: backupDrill.ts (pg_dump under load, restored into a fresh database, compared).
 * - rolling: rollingDrill.ts (two processes restarted one after the other under load;
 *   `--built` runs server/dist/main.js, as production does: `npm run build` first).
 *
 * Every drill prints a JSON summary and exits 1 when a check fails. Options:
 *   --outage S (10), --rate R actions/s (20), --players N (20), --points N (tick, 50),
 *   --clients N (soak, 100), --minutes M (soak, 2), --mix SPEC (soak, play=1), --tick S (soak,
 *   60), --report FILE (also write the summary).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { Redis } from "ioredis";
import { applyTick } from "@game/schema/rules";
import { createTestDatabase, TEST_POSTGRES_URL, TEST_REDIS_URL } from "@game/server/test/harness";
import { backupDrill } from "./backupDrill.js";
import { rollingDrill } from "./rollingDrill.js";
import { CuttableProxy, DRILL_REDIS_DB, flushRedis, JWT_SECRET, Load, registerPlayers, REPO_ROOT, run, sleep, turnsOf, waitForRecovery } from "./drillKit.js";
import { freePort, spawnServer, waitUntilListening, type ChildServer } from "@game/server/test/childServer";
import { loadConfig } from "@game/server/config";
import { runMigrations } from "@game/server/db/migrate";
import { startBackgroundWork } from "@game/server/tick/index";
import { insertCountries, snapshot, tickContext, type TickSnapshot } from "@game/server/tick/testSupport";

const RECOVERY_BUDGET_MS = 10_000;

/** Redis or Postgres gone for `outageSeconds` under load on two processes. */
export async function storeDrill(store: "redis" | "postgres", options: { outageSeconds: number; rate: number; players: number; real?: boolean; log?: (line: string) => void }): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await flushRedis();
  const database = await createTestDatabase();
  const pgTarget = new URL(TEST_POSTGRES_URL);
  const redisTarget = new URL(TEST_REDIS_URL);
  const pgProxy = new CuttableProxy(pgTarget.hostname, Number(pgTarget.port || 5432));
  const redisProxy = new CuttableProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
  await pgProxy.start();
  await redisProxy.start();
  const dbUrl = new URL(database.url);
  dbUrl.host = `127.0.0.1:${pgProxy.port}`;
  const children: ChildServer[] = [];
  try {
    // Migrate once before the processes start (they would race each other otherwise).
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await runMigrations(pool);
    await pool.end();
    for (let i = 0; i < 2; i += 1) {
      const port = await freePort();
      children.push(
        spawnServer(
          {
            DATABASE_URL: dbUrl.toString(),
            REDIS_URL: `redis://127.0.0.1:${redisProxy.port}/${DRILL_REDIS_DB}`,
            JWT_SECRET,
            PUBLIC_ADDRESS: `127.0.0.1:${port}`,
            RATE_LIMIT_REGISTER_PER_HOUR: "0",
            ROOM_SESSIONS_PER_USER: "0",
            LOG_LEVEL: "info",
          },
          port,
        ),
      );
    }
    await Promise.all(children.map((c) => waitUntilListening(c)));
    const urls = children.map((c) => c.baseUrl);
    const players = await registerPlayers(urls, options.players);
    const ids = players.map((p) => p.countryId);
    const turnsBefore = await turnsOf(database.url, ids);
    log(`${store} drill: ${players.length} players on 2 processes, ${options.rate} explorations/s; outage of ${options.outageSeconds} s after 5 s`);

    const load = new Load(urls, players, options.rate);
    load.start();
    await sleep(5_000);
    const cutAt = Date.now();
    if (options.real && store === "postgres") {
      log("restarting the real Postgres cluster (pg_ctlcluster)");
      await run("sh", ["-c", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main restart"]);
    } else {
      await (store === "redis" ? redisProxy : pgProxy).cut();
      await sleep(options.outageSeconds * 1000);
      await (store === "redis" ? redisProxy : pgProxy).restore();
    }
    const restoredAt = Date.now();
    log(`${store} back after ${((restoredAt - cutAt) / 1000).toFixed(1)} s`);
    // Recovery: the first 200 of each process after the restore.
    const recovered = await waitForRecovery(load, restoredAt, 2, 30_000);
    await sleep(5_000);
    await load.stop();
    const turnsAfter = await turnsOf(database.url, ids);

    const actions = load.answers.filter((a) => a.kind === "action");
    const ok = actions.filter((a) => a.status === 200).length;
    const lostAnswers = actions.filter((a) => a.status === 0 || a.status >= 500).length;
    const spent = turnsBefore - turnsAfter;
    const byStatus: Record<string, number> = {};
    for (const a of load.answers) byStatus[`${a.kind} ${a.status}`] = (byStatus[`${a.kind} ${a.status}`] ?? 0) + 1;
    const fiveHundreds = load.answers.filter((a) => a.status >= 500 && a.status !== 503).length;
    const badEnvelopes = load.answers.filter((a) => a.badEnvelope).length;
    const recoveryMs = recovered === undefined ? null : recovered - restoredAt;
    const checks = {
      "no 5xx other than 503": fiveHundreds === 0,
      "every failure in the envelope": badEnvelopes === 0,
      "both processes recover within 10 s": recoveryMs !== null && recoveryMs <= RECOVERY_BUDGET_MS,
      // Every 200 was applied once; an action whose answer was lost (503, cut socket) was applied at most once.
      "no action lost": spent >= ok,
      "no action applied twice": spent <= ok + lostAnswers,
    };
    return {
      drill: store,
      mode: options.real ? "real restart" : "proxy cut",
      outageSeconds: (restoredAt - cutAt) / 1000,
      players: players.length,
      rate: options.rate,
      answers: byStatus,
      actionsOk: ok,
      actionsWithoutAnswer: lostAnswers,
      turnsSpent: spent,
      recoveryMs,
      fiveHundreds,
      badEnvelopes,
      checks,
      passed: Object.values(checks).every(Boolean),
    };
  } finally {
    await Promise.all(children.map((c) => c.kill()));
    await pgProxy.stop();
    await redisProxy.stop();
    await database.drop().catch(() => undefined);
    await flushRedis().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------
// The tick worker killed at many points.

const KILL_POINTS = ["inside", "after", "random"] as const;

function reference(turns: number, storedTurns: number, ticks: number) {
  let cur = { turns, storedTurns };
  for (let i = 0; i < ticks; i++) cur = applyTick(cur.turns, cur.storedTurns);
  return cur;
}

function checkExactTicks(before: TickSnapshot, after: TickSnapshot): string[] {
  const problems: string[] = [];
  if (after.rows !== after.last! - after.first! + 1) problems.push(`tick rows ${after.rows} for ticks ${after.first}..${after.last}: a tick lost or doubled`);
  const ticks = after.rows - before.rows;
  for (const [id, start] of before.countries) {
    const want = reference(start.turns, start.storedTurns, ticks);
    const got = after.countries.get(id);
    if (!got || got.turns !== want.turns || got.storedTurns !== want.storedTurns) problems.push(`country ${id}: ${JSON.stringify(got)} after ${ticks} ticks, expected ${JSON.stringify(want)}`);
  }
  return problems;
}

export async function tickDrill(options: { points: number; intervalMs?: number; log?: (line: string) => void }): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const intervalMs = options.intervalMs ?? 400;
  await flushRedis();
  const database = await createTestDatabase();
  const redisUrl = `${TEST_REDIS_URL}/${DRILL_REDIS_DB}`;
  const pool = database.pool(4);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await runMigrations(pool);
  const config = loadConfig({ databaseUrl: database.url, redisUrl, tickEnabled: true, turnIntervalMs: intervalMs, logLevel: "silent" });
  // Countries at the cap edges and in between.
  await insertCountries(pool, 3, 100, 0, "mid");
  await insertCountries(pool, 1, 149, 0, "edge");
  await insertCountries(pool, 1, 150, 48, "near");
  const before = await snapshot(pool);
  const survivor = await startBackgroundWork(tickContext(pool, config), redis, { worker: { lockDuration: 1_500, stalledInterval: 1_000 } });
  const kills: Record<string, number> = { inside: 0, after: 0, random: 0 };
  try {
    for (let i = 0; i < options.points; i += 1) {
      const point = KILL_POINTS[i % KILL_POINTS.length]!;
      const child = spawnTickWorker(database.url, redisUrl, intervalMs, point);
      try {
        if (point === "random") {
          await waitForLine(child, /^ready/, 30_000);
          await sleep(Math.floor(Math.random() * intervalMs * 3));
        } else {
          await waitForLine(child, point === "inside" ? /^inside / : /^after /, 30_000);
        }
      } finally {
        child.kill("SIGKILL");
        await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve)));
      }
      kills[point] = (kills[point] ?? 0) + 1;
      log(`tick drill: kill ${i + 1}/${options.points} (${point})`);
    }
    // Let redeliveries settle, then stop ticking and compare.
    await sleep(intervalMs * 6);
  } finally {
    await survivor.stop();
  }
  const after = await snapshot(pool);
  const problems = checkExactTicks(before, after);
  await redis.quit().catch(() => undefined);
  await database.drop().catch(() => undefined);
  await flushRedis().catch(() => undefined);
  return {
    drill: "tick",
    kills,
    ticks: after.rows - before.rows,
    firstTick: after.first,
    lastTick: after.last,
    problems,
    checks: { "no tick lost or doubled; every country changed by exactly the ticks recorded": problems.length === 0 },
    passed: problems.length === 0,
  };
}

function spawnTickWorker(databaseUrl: string, redisUrl: string, intervalMs: number, killPoint: string): ChildProcess {
  const fixture = path.join(REPO_ROOT, "server/src/tick/tickWorker.fixture.ts");
  const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", fixture], {
    cwd: path.join(REPO_ROOT, "server"),
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, TURN_INTERVAL_MS: String(intervalMs), TICK_KILL_POINT: killPoint },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return child;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern}; got: ${buffer}`)), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n")) {
        if (pattern.test(line)) {
          clearTimeout(timer);
          resolve(line);
          return;
        }
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`tick worker exited (${code ?? signal}): ${buffer}`));
    });
  });
}

// ---------------------------------------------------------------------------------------
// Soak: the load tester against one process, /metrics sampled every 10 s.

interface Sample {
  atSec: number;
  rssBytes: number;
  heapUsedBytes: number;
  eventLoopP99Ms: number;
  http5xx: number;
  /** room connections the server saw close without a leave, by room and close code */
  roomDrops: Record<string, number>;
  roomReconnects: number;
}

function metricValue(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

/** `room_drops_total` by "room code" (a dropped connection is one the client did not leave). */
function roomDrops(text: string): Record<string, number> {
  const drops: Record<string, number> = {};
  for (const match of text.matchAll(/^room_drops_total\{([^}]*)\} ([0-9.eE+-]+)$/gm)) {
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    drops[`${labels.room} ${labels.code}`] = Number(match[2]);
  }
  return drops;
}

function sumOf(text: string, name: string): number {
  let total = 0;
  for (const match of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "gm"))) total += Number(match[1]);
  return total;
}

function count5xx(text: string): number {
  let total = 0;
  for (const match of text.matchAll(/^http_requests_total\{[^}]*status="5\d\d"[^}]*\} ([0-9.eE+-]+)$/gm)) total += Number(match[1]);
  return total;
}

/**
 * Memory growth over a soak, judged on the load phase only: the mean of the samples in the
 * window that starts at warm-up against the mean of the same-length window that ends when the
 * load stops. One sample is a point on the garbage collector's sawtooth (RSS moved by +-30%
 * between neighbouring samples in the 2,000-client hour), and a sample taken after the load
 * tester stopped measures an idle server; means of windows measure the trend.
 */
export function memoryGrowth(
  samples: ReadonlyArray<Pick<Sample, "atSec" | "rssBytes" | "heapUsedBytes">>,
  options: { warmAtSec: number; loadEndedAtSec: number },
): { windowSec: number; warmRssMb: number; lastRssMb: number; warmHeapMb: number; lastHeapMb: number; rssGrowth: number; heapGrowth: number } | null {
  const windowSec = Math.min(600, Math.max(0, (options.loadEndedAtSec - options.warmAtSec) / 2));
  if (windowSec <= 0) return null;
  const warm = samples.filter((s) => s.atSec >= options.warmAtSec && s.atSec < options.warmAtSec + windowSec);
  const last = samples.filter((s) => s.atSec > options.loadEndedAtSec - windowSec && s.atSec <= options.loadEndedAtSec);
  if (warm.length === 0 || last.length === 0) return null;
  const mean = (rows: typeof samples, key: "rssBytes" | "heapUsedBytes") => rows.reduce((sum, s) => sum + s[key], 0) / rows.length;
  const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);
  const [warmRss, lastRss, warmHeap, lastHeap] = [mean(warm, "rssBytes"), mean(last, "rssBytes"), mean(warm, "heapUsedBytes"), mean(last, "heapUsedBytes")];
  return {
    windowSec,
    warmRssMb: mb(warmRss),
    lastRssMb: mb(lastRss),
    warmHeapMb: mb(warmHeap),
    lastHeapMb: mb(lastHeap),
    rssGrowth: warmRss > 0 ? (lastRss - warmRss) / warmRss : 0,
    heapGrowth: warmHeap > 0 ? (lastHeap - warmHeap) / warmHeap : 0,
  };
}

/**
 * The soak: one server process (the turn tick every `tickSeconds`, 60 by default) and the load
 * tester playing `mix` (`play=1`: the whole game, as the AI strategies play it) for `minutes`.
 * Memory is judged by `memoryGrowth` (warm window against the last window of load), the connections the server saw drop are
 * counted by close code from its metrics, and every 5xx fails it.
 */
export async function soakDrill(options: { clients: number; minutes: number; rate: number; mix?: string; tickSeconds?: number; report?: string; log?: (line: string) => void }): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const mix = options.mix ?? "play=1";
  const tickSeconds = options.tickSeconds ?? 60;
  const database = await createTestDatabase();
  const port = await freePort();
  const server = spawnServer(
    {
      DATABASE_URL: database.url,
      JWT_SECRET,
      METRICS_PUBLIC: "true",
      RATE_LIMIT_REGISTER_PER_HOUR: "0",
      LOG_LEVEL: "info",
      TICK_ENABLED: "true",
      TURN_INTERVAL_MS: String(tickSeconds * 1000),
      // every bot is a different player; the per-user seat cap is not what a soak measures
      ROOM_SESSIONS_PER_USER: "0",
    },
    port,
  );
  const samples: Sample[] = [];
  let sampling = true;
  try {
    await waitUntilListening(server);
    const started = Date.now();
    const sampler = (async () => {
      while (sampling) {
        const res = await fetch(`${server.baseUrl}/metrics`)
          .then((r) => r.text())
          .catch(() => "");
        if (res) {
          samples.push({
            atSec: Math.round((Date.now() - started) / 1000),
            rssBytes: metricValue(res, "process_resident_memory_bytes") ?? 0,
            heapUsedBytes: metricValue(res, "nodejs_heap_size_used_bytes") ?? 0,
            eventLoopP99Ms: (metricValue(res, "nodejs_eventloop_delay_p99_seconds") ?? 0) * 1000,
            http5xx: count5xx(res),
            roomDrops: roomDrops(res),
            roomReconnects: sumOf(res, "room_reconnects_total"),
          });
        }
        await sleep(10_000);
      }
    })();
    const reportDir = options.report ? path.dirname(options.report) : path.join(REPO_ROOT, "loadtest/reports", `soak-${new Date().toISOString().replace(/[:.]/g, "-")}`);
    fs.mkdirSync(reportDir, { recursive: true });
    log(`soak: ${options.clients} clients for ${options.minutes} min at ${options.rate} actions/s (${mix}, a tick every ${tickSeconds} s) against ${server.baseUrl}`);
    let loadTesterOk = true;
    await run("npm", [
      "run",
      "--silent",
      "start",
      "-w",
      "loadtest",
      "--",
      "--url",
      server.baseUrl,
      "--countries",
      String(options.clients),
      "--duration",
      String(Math.round(options.minutes * 60)),
      "--rate",
      String(options.rate),
      "--mix",
      mix,
      "--report-dir",
      reportDir,
    ]).catch((err) => {
      loadTesterOk = false;
      log(`load tester: ${err.message}`);
    });
    const loadEndedAtSec = Math.round((Date.now() - started) / 1000);
    sampling = false;
    await sampler;
    const loadReport = fs.existsSync(path.join(reportDir, "report.json")) ? JSON.parse(fs.readFileSync(path.join(reportDir, "report.json"), "utf8")) : undefined;
    const memory = memoryGrowth(samples, { warmAtSec: Math.min(600, (options.minutes * 60) / 6), loadEndedAtSec });
    const growth = memory?.rssGrowth ?? null;
    const last = samples[samples.length - 1];
    const p99s = samples.map((s) => s.eventLoopP99Ms);
    const server5xx = last?.http5xx ?? null;
    const tester5xx = loadReport?.totals?.serverErrors5xx ?? loadReport?.actions?.serverErrors5xx ?? null;
    const checks = {
      "the load tester ran to the end": loadTesterOk && loadReport !== undefined && samples.length >= 2,
      "0 5xx": (server5xx ?? 0) === 0 && (tester5xx ?? 0) === 0,
      "RSS growth under 5% after warm-up": growth !== null && growth < 0.05,
    };
    return {
      drill: "soak",
      clients: options.clients,
      minutes: options.minutes,
      rate: options.rate,
      reportDir,
      server5xx,
      tester5xx,
      mix,
      tickSeconds,
      roomDrops: last?.roomDrops ?? {},
      roomReconnects: last?.roomReconnects ?? 0,
      memory,
      rssGrowthPercent: growth === null ? null : +(growth * 100).toFixed(1),
      eventLoopP99Ms: { min: Math.min(...p99s), max: Math.max(...p99s), last: p99s[p99s.length - 1] },
      samples,
      checks,
      passed: Object.values(checks).every(Boolean),
    };
  } finally {
    sampling = false;
    await server.kill();
    await database.drop().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      outage: { type: "string", default: "10" },
      rate: { type: "string" },
      players: { type: "string", default: "20" },
      points: { type: "string", default: "50" },
      clients: { type: "string", default: "100" },
      minutes: { type: "string", default: "2" },
      mix: { type: "string", default: "play=1" },
      tick: { type: "string", default: "60" },
      report: { type: "string" },
      real: { type: "boolean", default: false },
      built: { type: "boolean", default: false },
    },
  });
  const drill = positionals[0];
  // npm runs this in server/tools; a relative --report means the caller's directory
  const report = values.report ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report) : undefined;
  let summary: Record<string, unknown>;
  if (drill === "redis" || drill === "postgres") {
    summary = await storeDrill(drill, { outageSeconds: Number(values.outage), rate: Number(values.rate ?? 20), players: Number(values.players), real: values.real });
  } else if (drill === "tick") {
    summary = await tickDrill({ points: Number(values.points) });
  } else if (drill === "rolling") {
    summary = await rollingDrill({ players: Number(values.players), rate: Number(values.rate ?? 20), built: values.built });
  } else if (drill === "backup") {
    summary = await backupDrill({ players: Number(values.players), rate: Number(values.rate ?? 20) });
  } else if (drill === "soak") {
    summary = await soakDrill({ clients: Number(values.clients), minutes: Number(values.minutes), rate: Number(values.rate ?? 50), mix: values.mix, tickSeconds: Number(values.tick), report });
  } else {
    process.stderr.write("Usage: npm run drill -- redis|postgres|tick|soak|backup|rolling [--outage S] [--rate R] [--players N] [--points N] [--clients N] [--minutes M] [--report FILE] [--real] [--built]\n");
    process.exit(2);
  }
  const text = JSON.stringify(summary, null, 2);
  process.stdout.write(`${text}\n`);
  if (report) {
    fs.mkdirSync(path.dirname(report), { recursive: true });
    fs.writeFileSync(report, text);
  }
  process.exit(summary.passed ? 0 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
