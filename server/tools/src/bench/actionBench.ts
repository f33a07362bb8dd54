import { apiUrl, routes } from "@game/schema/routes";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { prepareRequest, RawHttpClient, type RawAnswer } from "./rawHttp.js";
import { median } from "./tickBench.js";

/**
 * The action path against the database's own pace, in one run:
 *
 *   1. `pgbench -N` (simple-update TPC-B, no branch/teller updates) on a scratch database;
 *   2. the game server as its own process on another scratch database, 1-turn explorations
 *      (POST /api/exploration/explore) from `connections` keep-alive connections (the raw
 *      load generator of rawHttp.ts, which costs the shared cores least);
 *   3. public-market purchases (POST /api/market/listings/{id}/buy), each on a distinct
 *      listing of one unit, buyer and seller two different countries locked together;
 *   4. authenticated reads (GET /api/country/{id}) the same way;
 *   5. the floor: `pgbench -N`'s own transaction behind one route of this stack with nothing
 *      of the game around it (floorServer.ts), through Express and through node:http alone;
 *   6. `pgbench -N` again (the reference is the mean of both runs, so drift shows).
 *
 * Prints explorations per second as a fraction of pgbench's TPS, and the server's CPU time
 * per action and per read, from /proc/<pid>/stat (user + system) over each phase. The load
 * generator runs in this process, on the same cores: its CPU is reported too. Also the
 * database transactions per exploration (pg_stat_database) and which path the actions took
 * (the server's game_action_paths_total).
 */
export interface ActionBenchOptions {
  /** admin connection string; scratch databases are created beside it */
  adminUrl: string;
  /** players (one country each; 150 turns each per phase, so players x 150 actions at most per phase) @default 500 */
  players: number;
  /** connections for pgbench and for the game load @default 16 */
  connections: number;
  /** seconds per phase @default 10 */
  seconds: number;
  /**
   * server processes (and floor processes), each on its own port, sharing Redis when more than
   * one; a player's requests always go to the same process, as a load balancer hashing the
   * player's token would. @default 1
   */
  processes: number;
  /** Redis for the processes when there are several @default redis://127.0.0.1:6379/4 */
  redisUrl: string;
  log(line: string): void;
}

export interface PhaseResult {
  requests: number;
  failures: Record<string, number>;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** server CPU milliseconds per request */
  serverCpuMs: number;
  /** load generator CPU milliseconds per request */
  clientCpuMs: number;
  /**
   * CPU milliseconds per request the rest of the machine spent: all of it less the server and
   * the load generator, so Postgres and the kernel's work for it (summing the postgres
   * processes missed backends that exited during the phase)
   */
  databaseCpuMs: number;
  /** share of the machine's cores busy during the phase (steal and IO wait not counted) */
  machineBusy: number;
  /** share of the machine's cores the hypervisor gave to other guests during the phase */
  machineStolen: number;
}

export interface ActionBenchResult {
  pgbenchTps: number[];
  explore: PhaseResult;
  /** purchases on distinct listings */
  buy: PhaseResult;
  read: PhaseResult;
  /** pgbench -N's transaction over HTTP, no game: through Express, and through node:http alone */
  floorExpress: PhaseResult;
  floorNode: PhaseResult;
  ratio: number;
  /** purchases per second over pgbench's TPS */
  buyRatio: number;
  /** the floors' transactions per second over pgbench's TPS */
  floorExpressRatio: number;
  floorNodeRatio: number;
}

/** One-unit troop listings prepared for the purchase phase (more than the phase can buy). */
const BENCH_LISTINGS = 60_000;

const CLK_TCK = 100;
export const REPO_ROOT = new URL("../../../../", import.meta.url).pathname;

/** user + system CPU of a process, in ms (Linux /proc). */
export function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[11] = utime, fields[12] = stime (1-based 14 and 15 in proc(5))
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/**
 * CPU the whole machine spent, in ms: every core's time that was not idle, waiting for IO or
 * stolen by the hypervisor for another guest (Linux /proc/stat, first line).
 */
export function machineCpuMs(): number {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const busy = fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!;
  return (busy * 1000) / CLK_TCK;
}

/** CPU time the hypervisor gave other guests instead of this machine, in ms (all cores). */
export function stolenCpuMs(): number {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (fields[7]! * 1000) / CLK_TCK;
}

export function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export function psql(url: string, sql: string): void {
  const result = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-qc", sql], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** pgbench's TPS. (Its backends exit with it, so their CPU cannot be read afterwards.) */
export function runPgbench(url: string, connections: number, seconds: number): number {
  const result = spawnSync("pgbench", ["-N", "-c", String(connections), "-j", "2", "-T", String(seconds), "-n", url], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
  const match = /tps = ([\d.]+)/.exec(result.stdout);
  if (!match) throw new Error(`no tps in pgbench output: ${result.stdout}`);
  return Number(match[1]);
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One request over the keep-alive agent. The answer's body is read as JSON, except a 200's when
 * `readSuccess` is false: a load phase only counts successes, and parsing every 2 KB answer
 * cost the load generator (which shares the cores with the server and Postgres) as much CPU
 * as Express's whole request.
 */
export function request(port: number, method: string, path: string, body?: unknown, token?: string, readSuccess = true): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = {};
    if (payload) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: "127.0.0.1", port, method, path: `/api${path}`, headers, agent }, (res) => {
      if (!readSuccess && res.statusCode === 200) {
        res.resume();
        res.on("end", () => resolve({ status: 200, body: undefined }));
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export async function loadPhase(pids: number | readonly number[], connections: number, seconds: number, fire: (i: number) => Promise<{ status: number; body: any }>): Promise<PhaseResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let ok = 0;
  let cursor = 0;
  const serversCpuMs = () => [pids].flat().reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const serverBefore = serversCpuMs();
  const clientBefore = selfCpuMs();
  const machineBefore = machineCpuMs();
  const stolenBefore = stolenCpuMs();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const res = await fire(cursor++);
        latencies.push(performance.now() - t0);
        if (res.status === 200) ok += 1;
        else {
          const key = `${res.status} ${res.body?.error ?? ""}`.trim();
          failures[key] = (failures[key] ?? 0) + 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const serverCpu = serversCpuMs() - serverBefore;
  const clientCpu = selfCpuMs() - clientBefore;
  const machineCpu = machineCpuMs() - machineBefore;
  const databaseCpu = machineCpu - serverCpu - clientCpu;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: sorted.length,
    failures,
    // Only answered actions count: a refusal (no turns left) is cheaper and would flatter the rate.
    perSecond: ok / elapsed,
    p50Ms: median(sorted),
    p99Ms: percentile(sorted, 99),
    serverCpuMs: serverCpu / sorted.length,
    clientCpuMs: clientCpu / sorted.length,
    databaseCpuMs: databaseCpu / sorted.length,
    machineBusy: machineCpu / (elapsed * 1000 * os.availableParallelism()),
    machineStolen: (stolenCpuMs() - stolenBefore) / (elapsed * 1000 * os.availableParallelism()),
  };
}

/**
 * Transactions committed or rolled back in a database so far (pg_stat_database). Backends
 * report their counts when they go idle, at most once a second, so this waits that long first.
 */
async function committedTransactions(url: string): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_100));
  const result = spawnSync("psql", [url, "-Atc", "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"], { encoding: "utf8" });
  return Number(result.stdout.trim());
}

/** The servers' game_action_paths_total counters summed, as "optimistic 9000, locked 200, ...". */
async function actionPaths(ports: readonly number[]): Promise<string> {
  const totals = new Map<string, number>();
  for (const port of ports) {
    const text = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/metrics", agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        })
        .on("error", reject);
    });
    for (const [, path, count] of text.matchAll(/^game_action_paths_total\{path="(\w+)"\} (\d+)/gm)) totals.set(path!, (totals.get(path!) ?? 0) + Number(count));
  }
  return [...totals].map(([path, count]) => `${path} ${count}`).join(", ") || "none recorded";
}

/**
 * Load spread over several processes' ports: each port gets its share of the connections, and
 * request `key` always goes to process key mod ports (a player stays on one process).
 */
class SplitLoad {
  private readonly clients: RawHttpClient[];

  constructor(ports: readonly number[], connections: number) {
    this.clients = ports.map((port) => new RawHttpClient(port, Math.ceil(connections / ports.length)));
  }

  send(key: number, request: Buffer): Promise<RawAnswer> {
    return this.clients[key % this.clients.length]!.send(request);
  }

  close(): void {
    for (const client of this.clients) client.close();
  }
}

/** Waits until GET /api/health answers 200 on `port` (30 s at most). */
export async function waitForHealth(port: number): Promise<void> {
  for (let i = 0; ; i++) {
    const up = await request(port, "GET", routes.health.path).catch(() => undefined);
    if (up?.status === 200) return;
    if (i > 300) throw new Error(`nothing answered on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A registered bench country and its owner's token. */
export interface BenchPlayer {
  token: string;
  countryId: number;
}

/** Registers `count` monarchies over REST, four at a time, names from `prefix`: sorted by country id. */
export async function registerBenchPlayers(port: number, count: number, prefix: string): Promise<BenchPlayer[]> {
  const players: BenchPlayer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const id = `${prefix}${next++}`.slice(-20);
        const res = await request(port, "POST", routes.register.path, {
          email: `${id}@bench.example`,
          username: id,
          password: "bench-password-1",
          countryName: `Bench ${id}`,
          governmentType: "monarchy",
          startingResources: {},
        });
        if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
        players.push({ token: res.body.token, countryId: res.body.user.countryId });
      }
    }),
  );
  return players.sort((a, b) => a.countryId - b.countryId);
}

/** Runs the phases (see the module comment). */
export async function runActionBench(options: ActionBenchOptions): Promise<ActionBenchResult> {
  const { log } = options;
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const pgbenchDb = `bench_pgbench_${tag}`;
  const gameDb = `bench_action_${tag}`;
  psql(options.adminUrl, `CREATE DATABASE ${pgbenchDb}`);
  psql(options.adminUrl, `CREATE DATABASE ${gameDb}`);
  const pgbenchUrl = databaseUrl(options.adminUrl, pgbenchDb);
  const gameUrl = databaseUrl(options.adminUrl, gameDb);
  const children: ChildProcess[] = [];
  try {
    const init = spawnSync("pgbench", ["-i", "-s", "10", "-q", pgbenchUrl], { encoding: "utf8" });
    if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);

    const processes = Math.max(1, options.processes);
    const dataDir = fs.mkdtempSync("/tmp/game-action-bench-");
    // BENCH_PROFILE=<dir> writes each server's CPU profile there (node --cpu-prof) on exit.
    const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];
    const ports: number[] = [];
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      ports.push(port);
      const child = spawn(process.execPath, [...profile, "--import", "tsx", "--conditions", "development", "server/src/main.ts"], {
        env: {
          ...process.env,
          PORT: String(port),
          PUBLIC_ADDRESS: `127.0.0.1:${port}`,
          DATABASE_URL: gameUrl,
          DATA_DIR: dataDir,
          JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
          TICK_ENABLED: "false",
          LOG_LEVEL: "warn",
          // several processes share events, presence and matchmaking through Redis, as deployed
          REDIS_URL: processes > 1 ? options.redisUrl : "",
          RATE_LIMIT_REGISTER_PER_HOUR: "0",
          METRICS_PUBLIC: "true",
        },
        cwd: REPO_ROOT,
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(child);
      // one at a time: the first applies the migrations
      await waitForHealth(port);
    }
    const pids = children.map((child) => child.pid!);
    const port = ports[0]!;

    const players = await registerBenchPlayers(port, options.players, `a${tag}`);
    // Food too: a country out of food starves on every turn, and each exploration then also
    // records famine news (a third statement, and the locked path, since news is written
    // through the step's client). The bench measures the plain exploration.
    const refill = () => psql(gameUrl, "UPDATE countries SET turns = 150, cash = 1000000000000, food = 1000000000000");
    refill();
    log(`  ${players.length} players; ${options.connections} connections; ${processes} server process(es); ${options.seconds} s per phase`);

    // BENCH_PHASES=explore (or read, or both) skips pgbench, e.g. to profile one phase.
    const phases = (process.env.BENCH_PHASES ?? "pgbench,explore,buy,read,floor").split(",");
    const pgbenchTps = phases.includes("pgbench") ? [runPgbench(pgbenchUrl, options.connections, options.seconds)] : [Number.NaN, Number.NaN];
    log(`  pgbench -N: ${pgbenchTps[0]!.toFixed(0)} TPS`);

    // 1-turn explorations, round-robin over the countries. Turns last 150 actions per country
    // (players x 150 per phase, refilled between phases); refusals are reported, not counted.
    const skipped: PhaseResult = { requests: 0, failures: {}, perSecond: 0, p50Ms: 0, p99Ms: 0, serverCpuMs: 0, clientCpuMs: 0, databaseCpuMs: 0, machineBusy: 0, machineStolen: 0 };
    const transactionsBefore = phases.includes("explore") ? await committedTransactions(gameUrl) : 0;
    // The load phases send through raw keep-alive sockets (rawHttp.ts), requests prepared once;
    // player i's requests go to process i mod processes.
    const load = new SplitLoad(ports, options.connections);
    const explorations = players.map((p) => prepareRequest("POST", apiUrl(routes.explore), { countryId: p.countryId, turnsToSpend: 1 }, p.token));
    const explore = !phases.includes("explore") ? skipped : await loadPhase(pids, options.connections, options.seconds, (i) => load.send(i % players.length, explorations[i % players.length]!));
    const exploreTransactions = phases.includes("explore") ? (await committedTransactions(gameUrl)) - transactionsBefore : 0;
    log(
      `  explore: ${explore.perSecond.toFixed(0)}/s, p50 ${explore.p50Ms.toFixed(1)} ms, p99 ${explore.p99Ms.toFixed(1)} ms, server CPU ${explore.serverCpuMs.toFixed(3)} ms/action, Postgres and the rest ${explore.databaseCpuMs.toFixed(3)} ms/action, machine ${(explore.machineBusy * 100).toFixed(0)}% busy (${(explore.machineStolen * 100).toFixed(0)}% stolen by the hypervisor)`,
    );
    if (phases.includes("explore")) {
      log(`  database transactions per exploration (each a round trip): ${(exploreTransactions / explore.requests).toFixed(2)}; action paths so far: ${await actionPaths(ports)}`);
    }
    refill();

    // Purchases on distinct listings: one-unit listings escrowed from their sellers (as the
    // listing service would), each bought once by the player half the list away from its
    // seller, so the purchases in flight (consecutive listings) lock distinct countries.
    let buy = skipped;
    if (phases.includes("buy")) {
      psql(
        gameUrl,
        `UPDATE countries SET troops = 1000000;
         INSERT INTO market_listings (seller_id, item_type, quantity, listed_quantity, price_per_unit, held_quantity, listed_at, expires_at)
         SELECT c.id, 'troops', 1, 1, 100, 1, now(), now() + interval '7 days'
           FROM generate_series(1, ${BENCH_LISTINGS}) AS g
           JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total FROM countries) c ON c.n = g % c.total;
         UPDATE countries c SET troops = troops - l.held FROM (SELECT seller_id, sum(held_quantity) AS held FROM market_listings GROUP BY seller_id) l WHERE l.seller_id = c.id;`,
      );
      // Settled tables, so autovacuum of the fresh rows does not run inside the phase.
      psql(gameUrl, "VACUUM ANALYZE market_listings");
      psql(gameUrl, "VACUUM ANALYZE countries");
      const listings = spawnSync("psql", [gameUrl, "-Atc", "SELECT id || ',' || seller_id FROM market_listings WHERE status = 'open' ORDER BY id"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
        .stdout.trim()
        .split("\n")
        .map((line) => line.split(",").map(Number) as [number, number]);
      const byCountry = new Map(players.map((p, i) => [p.countryId, i]));
      buy = await loadPhase(pids, options.connections, options.seconds, (i) => {
        const [listingId, sellerId] = listings[i % listings.length]!;
        const buyer = (byCountry.get(sellerId)! + Math.floor(players.length / 2)) % players.length;
        const p = players[buyer]!;
        return load.send(buyer, prepareRequest("POST", apiUrl(routes.buyListing, { params: { id: listingId } }), { countryId: p.countryId }, p.token));
      });
      log(
        `  market buy (distinct listings): ${buy.perSecond.toFixed(0)}/s, p50 ${buy.p50Ms.toFixed(1)} ms, p99 ${buy.p99Ms.toFixed(1)} ms, server CPU ${buy.serverCpuMs.toFixed(3)} ms/purchase, Postgres and the rest ${buy.databaseCpuMs.toFixed(3)} ms/purchase`,
      );
      if (buy.requests > listings.length) log(`  (only ${listings.length} listings: later purchases were refusals)`);
      refill();
    }

    const reads = players.map((p) => prepareRequest("GET", apiUrl(routes.country, { params: { id: p.countryId } }), undefined, p.token));
    const read = !phases.includes("read") ? skipped : await loadPhase(pids, options.connections, options.seconds, (i) => load.send(i % players.length, reads[i % players.length]!));
    load.close();
    log(`  GET /country/{id}: ${read.perSecond.toFixed(0)}/s, p50 ${read.p50Ms.toFixed(1)} ms, server CPU ${read.serverCpuMs.toFixed(3)} ms/read, Postgres and the rest ${read.databaseCpuMs.toFixed(3)} ms/read`);

    // The floor: the same load generator, pgbench's transaction and nothing else (the game
    // servers idle meanwhile), on as many processes.
    const floor = async (kind: "express" | "node"): Promise<PhaseResult> => {
      if (!phases.includes("floor")) return skipped;
      const floorChildren: ChildProcess[] = [];
      let floorLoad: SplitLoad | undefined;
      try {
        const floorPorts: number[] = [];
        for (let i = 0; i < processes; i++) {
          const floorPort = await freePort();
          floorPorts.push(floorPort);
          floorChildren.push(
            spawn(process.execPath, ["--import", "tsx", "server/tools/src/bench/floorServer.ts"], {
              env: { ...process.env, FLOOR_DATABASE_URL: pgbenchUrl, FLOOR_PORT: String(floorPort), FLOOR_HTTP: kind, FLOOR_CONNECTIONS: String(Math.ceil(options.connections / processes)) },
              cwd: REPO_ROOT,
              stdio: ["ignore", "inherit", "inherit"],
            }),
          );
        }
        for (const floorPort of floorPorts) await waitForHealth(floorPort);
        floorLoad = new SplitLoad(floorPorts, options.connections);
        const floorPids = floorChildren.map((child) => child.pid!);
        // fresh processes: two seconds of the same load first, so the JIT has settled as in the game server after registrations
        const fire = (i: number) => floorLoad!.send(i, prepareRequest("POST", `/api/floor/${i}`));
        await loadPhase(floorPids, options.connections, 2, fire);
        const result = await loadPhase(floorPids, options.connections, options.seconds, fire);
        log(
          `  floor (${kind}): ${result.perSecond.toFixed(0)}/s, p50 ${result.p50Ms.toFixed(1)} ms, server CPU ${result.serverCpuMs.toFixed(3)} ms/transaction, Postgres and the rest ${result.databaseCpuMs.toFixed(3)} ms/transaction, load generator ${result.clientCpuMs.toFixed(3)} ms`,
        );
        return result;
      } finally {
        floorLoad?.close();
        for (const child of floorChildren) {
          if (child.exitCode !== null) continue;
          child.kill("SIGTERM");
          await new Promise((r) => child.once("exit", r));
        }
      }
    };
    const floorExpress = await floor("express");
    const floorNode = await floor("node");

    if (phases.includes("pgbench")) pgbenchTps[1] = runPgbench(pgbenchUrl, options.connections, options.seconds);
    log(`  pgbench -N again: ${pgbenchTps[1]!.toFixed(0)} TPS`);
    const reference = (pgbenchTps[0]! + pgbenchTps[1]!) / 2;
    return {
      pgbenchTps,
      explore,
      buy,
      read,
      floorExpress,
      floorNode,
      ratio: explore.perSecond / reference,
      buyRatio: buy.perSecond / reference,
      floorExpressRatio: floorExpress.perSecond / reference,
      floorNodeRatio: floorNode.perSecond / reference,
    };
  } finally {
    for (const child of children) {
      if (child.exitCode !== null) continue;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    agent.destroy();
    psql(options.adminUrl, `DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
    psql(options.adminUrl, `DROP DATABASE IF EXISTS ${gameDb} WITH (FORCE)`);
  }
}
