/**
 * Two processes against one, same machine, same run, same clients, same load generators
 * (issue 29, "Scale by adding processes"; the method of docs/performance.md, stop 33).
 *
 *   npx tsx --conditions development server/tools/src/bench/twoOverOne.ts \
 *       [--countries 4000] [--rates 25,50,75,100] [--duration 40] [--mix play=1] [--port-base 4600]
 *
 * Environment: BENCH_POSTGRES_URL (an admin URL: a scratch database is created and dropped;
 * default the local server) and BENCH_REDIS_URL (a database index of its own, emptied before
 * each phase; default database 13 of the local Redis).
 *
 * 1. Seeds --countries developed countries in a scratch database (two credential files of half
 *    each, prefixes lta and ltb, seedCountries.ts) and keeps it as a template.
 * 2. Phase "one": a copy of the template, ONE server process (server/src/main.ts, tick off, on
 *    Redis like the two); both generators (`npm run loadtest`, --mix play=1, the same --rates in
 *    step, half the countries each, every bot in the world room) against it.
 * 3. Phase "two": a fresh copy of the same template (the same countries in the same state), TWO
 *    server processes on one Redis, one generator against each: what a front with sticky
 *    sessions does with REST, while the WebSockets go to the process hosting each shard
 *    (PUBLIC_ADDRESS, the matchmaker spreads the shards).
 * 4. Prints, for each phase, each step's total offered rate and whether both generators passed
 *    (every call answered, nothing dropped, whole-call p99 < 250 ms: the load tester's own
 *    verdict), the highest passing total rate, and `twoOverOne`: that rate for two processes
 *    over the rate for one, the clients being the same in both.
 *
 * The generators, the servers, Postgres and Redis share the machine and are counted: the report
 * gives the servers' and the generators' CPU (from /proc) and the load average of each phase.
 * Each generator's report (report.json, report.html) stays under --out (default a temp folder).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { Redis } from "ioredis";

const { values } = parseArgs({
  options: {
    countries: { type: "string", default: "4000" },
    rates: { type: "string", default: "25,50,75,100" },
    duration: { type: "string", default: "40" },
    mix: { type: "string", default: "play=1" },
    "port-base": { type: "string", default: "4600" },
    out: { type: "string" },
    phases: { type: "string", default: "one,two" },
  },
});
const COUNTRIES = Number(values.countries);
const HALF = Math.floor(COUNTRIES / 2);
/** each generator's steps: the total offered rate of a step is twice this */
const RATES = values.rates.split(",").map(Number);
const DURATION = Number(values.duration);
const PORT_BASE = Number(values["port-base"]);
const PHASES = values.phases.split(",") as ("one" | "two")[];
if (!Number.isInteger(COUNTRIES) || COUNTRIES < 2) throw new Error("--countries must be a whole number >= 2");
if (RATES.some((r) => !(r > 0))) throw new Error("--rates must be positive numbers");
if (!(DURATION > 0)) throw new Error("--duration must be positive");
for (const p of PHASES) if (p !== "one" && p !== "two") throw new Error(`--phases takes one and two, got "${p}"`);

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/13";
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../..");
const OUT = path.resolve(values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "two-over-one-")));
fs.mkdirSync(OUT, { recursive: true });
const TAG = crypto.randomBytes(4).toString("hex");
const TEMPLATE_DB = `game_two_${TAG}_seed`;
const SECRET = crypto.randomBytes(32).toString("hex");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stderr.write(`[twoOverOne ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

function dbUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** CPU seconds (user + system) of a process and its descendants that are still alive, from /proc. */
function cpuSecondsOf(pid: number): number {
  let total = 0;
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const walk = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total;
}

/** The first port from `from` on that nothing listens on now (the range may be shared with clients' ephemeral ports). */
async function portFrom(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}..${from + 99}`);
}

interface Child {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Child {
  let output = "";
  const log = fs.createWriteStream(logFile);
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  process.once("exit", () => child.kill("SIGKILL"));
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (d) => {
      output += d;
      if (output.length > 200_000) output = output.slice(-100_000);
      log.write(d);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

function tsx(script: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Child {
  return run(process.execPath, ["--import", "tsx", "--conditions", "development", script, ...args], env, logFile);
}

async function seed(): Promise<void> {
  await admin(`CREATE DATABASE ${TEMPLATE_DB}`);
  const env = { DATABASE_URL: dbUrl(TEMPLATE_DB), JWT_SECRET: SECRET, LOG_LEVEL: "warn", DATA_DIR: path.join(OUT, "seed-data") };
  for (const [prefix, count] of [
    ["lta", HALF],
    ["ltb", COUNTRIES - HALF],
  ] as const) {
    const seeding = tsx("server/tools/src/bench/seedCountries.ts", ["--countries", String(count), "--prefix", prefix, "--developed", "--out", path.join(OUT, `${prefix}.json`)], env, path.join(OUT, `seed-${prefix}.log`));
    const code = await seeding.exited;
    if (code !== 0) throw new Error(`seeding ${prefix} failed (exit ${code}):\n${seeding.output()}`);
  }
  say(`seeded ${COUNTRIES} countries in ${TEMPLATE_DB}`);
}

async function startServer(db: string, port: number, dataDir: string, logFile: string): Promise<Child> {
  const server = tsx(
    "server/src/main.ts",
    [],
    {
      PORT: String(port),
      PUBLIC_ADDRESS: `127.0.0.1:${port}`,
      DATABASE_URL: dbUrl(db),
      REDIS_URL,
      JWT_SECRET: SECRET,
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, "no-client"),
      TICK_ENABLED: "false",
      LOG_LEVEL: "warn",
      METRICS_PUBLIC: "true",
      // every bot is a different player; the cap on one player's seats is not what is measured
      ROOM_SESSIONS_PER_USER: "0",
      RATE_LIMIT_REGISTER_PER_HOUR: "0",
    },
    logFile,
  );
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return server;
    if (server.child.exitCode !== null || i > 1200) throw new Error(`the server on port ${port} did not start:\n${server.output().slice(-4000)}`);
    await sleep(100);
  }
}

async function stop(child: Child): Promise<void> {
  if (child.child.exitCode !== null) return;
  child.child.kill("SIGTERM");
  await Promise.race([child.exited, sleep(15_000)]);
  if (child.child.exitCode === null) child.child.kill("SIGKILL");
}

interface StepReport {
  offeredRate: number;
  passed: boolean;
  latencyMs: { p99: number };
  errors: number;
  dropped: number;
  serverCpuPercent: { mean: number | null };
}

interface PhaseResult {
  processes: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  seconds: number;
  cpuSeconds: { servers: number; generators: number };
  steps: { totalRate: number; passed: boolean; p99Ms: number[]; errors: number; dropped: number }[];
  highestPassingTotalRate: number | null;
  /** the top step passed: this phase's capacity is above the steps asked for (raise --rates) */
  topStepPassed: boolean;
  generatorExitCodes: (number | null)[];
  reports: string[];
}

async function phase(name: "one" | "two"): Promise<PhaseResult> {
  const processes = name === "one" ? 1 : 2;
  const db = `game_two_${TAG}_${name}`;
  await admin(`CREATE DATABASE ${db} TEMPLATE ${TEMPLATE_DB}`);
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  const dir = path.join(OUT, name);
  fs.mkdirSync(dir, { recursive: true });
  const servers: Child[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < processes; i++) {
      ports.push(await portFrom((ports[i - 1] ?? PORT_BASE - 1) + 1));
      servers.push(await startServer(db, ports[i]!, path.join(dir, `data${i}`), path.join(dir, `server${i}.log`)));
    }
    say(`phase ${name}: ${processes} process(es) up on ports ${ports.join(",")}`);
    await sleep(3_000);
    const loadAverageAtStart = os.loadavg().map((l) => round(l));
    const serverCpuBefore = servers.reduce((sum, s) => sum + cpuSecondsOf(s.child.pid!), 0);
    const started = performance.now();
    const generators = ["lta", "ltb"].map((prefix, i) =>
      run(
        "npm",
        [
          "run",
          "loadtest",
          "--",
          "--reuse",
          path.join(OUT, `${prefix}.json`),
          "--countries",
          String(i === 0 ? HALF : COUNTRIES - HALF),
          "--mix",
          values.mix,
          "--duration",
          String(DURATION),
          "--rates",
          RATES.join(","),
          "--url",
          `http://127.0.0.1:${ports[i % processes]}`,
          "--report-dir",
          path.join(dir, prefix),
        ],
        {},
        path.join(dir, `generator-${prefix}.log`),
      ),
    );
    // the generators' CPU, sampled while they run (npm, tsx and node are a process tree)
    const generatorCpu = generators.map(() => 0);
    const sampler = setInterval(() => generators.forEach((g, i) => (generatorCpu[i] = Math.max(generatorCpu[i]!, cpuSecondsOf(g.child.pid!)))), 1000);
    const codes = await Promise.all(generators.map((g) => g.exited));
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = servers.reduce((sum, s) => sum + cpuSecondsOf(s.child.pid!), 0) - serverCpuBefore;
    const reports = ["lta", "ltb"].map((prefix) => path.join(dir, prefix, "report.json"));
    const stepsOf = reports.map((file, i) => {
      if (!fs.existsSync(file)) throw new Error(`generator ${i} wrote no report (exit ${codes[i]}):\n${generators[i]!.output().slice(-4000)}`);
      const report = JSON.parse(fs.readFileSync(file, "utf8")) as { steps?: { steps: StepReport[] } };
      return report.steps?.steps ?? [];
    });
    const steps = RATES.map((_, k) => {
      const pair = stepsOf.map((s) => s[k]);
      return {
        totalRate: pair.reduce((sum, s) => sum + (s?.offeredRate ?? 0), 0),
        passed: pair.every((s) => s?.passed === true),
        p99Ms: pair.map((s) => Math.round(s?.latencyMs.p99 ?? NaN)),
        errors: pair.reduce((sum, s) => sum + (s?.errors ?? 0), 0),
        dropped: pair.reduce((sum, s) => sum + (s?.dropped ?? 0), 0),
      };
    });
    // the highest total rate of a step that passed with every step below it passing too
    let highest: number | null = null;
    for (const s of steps) {
      if (!s.passed) break;
      highest = s.totalRate;
    }
    const result: PhaseResult = {
      processes,
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg().map((l) => round(l)),
      seconds: round(seconds, 1),
      cpuSeconds: {
        servers: round(serverCpu, 1),
        generators: round(
          generatorCpu.reduce((a, b) => a + b, 0),
          1,
        ),
      },
      steps,
      highestPassingTotalRate: highest,
      topStepPassed: steps.length > 0 && steps.every((s) => s.passed),
      generatorExitCodes: codes,
      reports: reports.map((r) => r.replace(/\.json$/, ".html")),
    };
    say(`phase ${name}: ${JSON.stringify({ steps, highest })}`);
    return result;
  } finally {
    await Promise.all(servers.map(stop));
    await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch((err) => say(`could not drop ${db}: ${err}`));
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  say(`out ${OUT}; ${COUNTRIES} countries, rates per generator ${RATES.join(",")} (${DURATION} s each), Postgres ${new URL(ADMIN_URL).host}, Redis ${REDIS_URL}`);
  const results: Partial<Record<"one" | "two", PhaseResult>> = {};
  try {
    await seed();
    for (const name of PHASES) results[name] = await phase(name);
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`).catch((err) => say(`could not drop ${TEMPLATE_DB}: ${err}`));
  }
  const one = results.one?.highestPassingTotalRate;
  const two = results.two?.highestPassingTotalRate;
  const twoOverOne = one && two !== undefined && two !== null ? round(two / one) : null;
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version };
  process.stdout.write(
    `${JSON.stringify(
      {
        machine,
        countries: COUNTRIES,
        ratesPerGenerator: RATES,
        durationPerStepSec: DURATION,
        mix: values.mix,
        results,
        twoOverOne,
        reading:
          twoOverOne === null
            ? "no ratio: a phase passed none of its steps (lower --rates) or was not run"
            : `two processes carried ${twoOverOne}x the actions/s of one within whole-call p99 < 250 ms, the same ${COUNTRIES} clients in rooms${
                results.two?.topStepPassed ? "; two processes passed the top step, so the ratio is a lower bound (raise --rates)" : ""
              }${results.one?.topStepPassed ? "; ONE process passed the top step too: no knee found, raise --rates" : ""}`,
        wallSeconds: round((performance.now() - started) / 1000, 1),
        out: OUT,
      },
      null,
      2,
    )}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
