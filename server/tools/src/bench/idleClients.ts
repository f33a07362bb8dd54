/**
 * World room capacity against a bare Colyseus room, the same clients in the same run (issue 29).
 *
 *   npx tsx --conditions development server/tools/src/bench/idleClients.ts [--clients 5000]
 *       [--observers 500] [--messages 100] [--rate 5] [--shard 500] [--targets world,bare]
 *       [--join-batch 25] [--steps 2500,5000,7500 --p99-limit 250] [--world-redis true]
 *
 * For each target, one after the other on the same machine:
 *   world  the game's entry point (server/src/main.ts under tsx) on a scratch Postgres database
 *          (BENCH_POSTGRES_URL, default the local server), no Redis, tick off; players seeded by
 *          SQL with tokens signed by the server's secret (registration's argon2 would dominate)
 *   bare   server/tools/src/bench/bareColyseus.ts: one Colyseus room of the same versions with a small
 *          player map and a chat array, nothing else, holding every client
 * the bench
 *   1. joins --clients WebSocket clients (--join-batch at a time, as players arriving) and records the
 *      wall time, join latency, and the server's CPU time per join (from /proc);
 *   2. after 5 s of rest sends --messages chat lines at --rate per second, each by a different
 *      client, and records for each of --observers decoding clients the time from send to
 *      receipt (the other clients receive everything but do not decode, so the bench process
 *      measures the server rather than thousands of decoders sharing its core), and the
 *      server's CPU time per line;
 *   3. after 15 s idle, the server's resident memory per client and its idle CPU.
 * It prints each target's figures and the world's as a ratio to the bare room's.
 *
 * Targets: `world` (the game, one process), `world2` (the game on two processes sharing the world
 * through Redis, BENCH_REDIS_URL, default database 13 of the local Redis, which it empties),
 * `bare`. With --steps the bench ramps instead: after each step's joins a chat burst, until the
 * chat p99 passes --p99-limit; `twoProcessesOverOne` compares the largest step each world held.
 *
 * World clients watch the chat (the `watch` message, as the chat screen does): a line reaches
 * every client, as it does in the bare room. BENCH_SERVER_NODE_ARGS are given to the servers'
 * node only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for a profile of each.
 */
import { WebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import pino from "pino";
import { Client, type Room } from "@colyseus/sdk";
import { WORLD_ROOM, WorldMessage } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { TokenService } from "@game/server/auth/tokens";
import { BARE_ROOM, BareState } from "./bareColyseus.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const CLIENTS_ARG = Number(args.get("clients") ?? 5000);
const OBSERVERS = Number(args.get("observers") ?? 500);
const MESSAGES = Number(args.get("messages") ?? 100);
const RATE = Number(args.get("rate") ?? 5);
const SHARD = Number(args.get("shard") ?? 500);
const TARGETS = (args.get("targets") ?? "world,bare").split(",").filter(Boolean) as TargetName[];
/** clients joining at once (players arriving) */
const JOIN_BATCH = Number(args.get("join-batch") ?? 25);
/**
 * --steps 2500,5000,...: a ramp instead of one count. After each step's joins a chat burst of
 * --messages lines; the ramp stops at the first step whose chat p99 passes --p99-limit (ms) or
 * whose joins fail, and the report says the largest step within the limit.
 */
const STEPS = (args.get("steps") ?? "").split(",").filter(Boolean).map(Number);
const P99_LIMIT_MS = Number(args.get("p99-limit") ?? 250);
/** Redis for the two-process world ("world2"): a database index of its own on this server */
const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/13";
/**
 * --world-redis: the one-process world runs as deployed, on Redis (BENCH_REDIS_URL) with the
 * per-user seat count on, so a join pays its Redis round trips (the join path, issue 28).
 */
const WORLD_ON_REDIS = args.get("world-redis") === "true";
/**
 * BENCH_BEFORE_ROOT: another checkout of the project (its own node_modules) whose world runs as
 * the target `before`, in the same run as `world` and `bare` (a change measured before and after).
 */
const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT ?? "";
/** the most clients any target is asked to hold */
const CLIENTS = Math.max(CLIENTS_ARG, ...STEPS);
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../..");
const log = pino({ level: "info", base: undefined, timestamp: false });

/** world: the game, one process; world2: the game, two processes behind Redis; bare: the reference */
type TargetName = "world" | "world2" | "bare" | "before";

/** A server under test: where it listens, its process, how each client joins and chats. */
interface Target {
  name: TargetName;
  /** the server processes (CPU and memory are their sum) */
  pids: number[];
  join(index: number): Promise<Room>;
  /** Calls `onLine` with the content of every chat line the room receives from now on. */
  observe(room: Room, onLine: (content: string) => void): void;
  say(room: Room, content: string): void;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resident memory (bytes) and CPU time (seconds) of a target's processes together, from /proc. */
function usage(target: Target): { rss: number; cpu: number } {
  const each = target.pids.map(processUsage);
  return { rss: each.reduce((sum, u) => sum + u.rss, 0), cpu: each.reduce((sum, u) => sum + u.cpu, 0) };
}

/** Resident memory (bytes) and CPU time (seconds) of a process, from /proc. */
function processUsage(pid: number): { rss: number; cpu: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime
  return { rss, cpu: ticks / 100 };
}

/** Starts a tsx child and resolves once `ready` (given the child's output so far) answers true. */
async function startChild(script: string, env: NodeJS.ProcessEnv, ready: (output: string) => boolean | Promise<boolean>, root = REPO_ROOT): Promise<{ child: ChildProcess; log: () => string }> {
  let output = "";
  // BENCH_SERVER_NODE_ARGS reach the servers only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "--conditions", "development", script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  process.once("exit", () => child.kill("SIGKILL"));
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  for (let i = 0; ; i++) {
    if (await ready(output)) break;
    if (child.exitCode !== null || i > 600) throw new Error(`${script} did not start:\n${output}`);
    await sleep(100);
  }
  return { child, log: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await Promise.race([new Promise((r) => child.once("exit", r)), sleep(10_000)]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/**
 * The game on a scratch database with CLIENTS seeded players, on `processes` server processes
 * (more than one share the world through Redis, each with PUBLIC_ADDRESS so a seat reservation
 * sends the client to the process hosting its room). Clients arrive at the processes in turn,
 * as a round-robin front would send them.
 */
async function startWorld(name: TargetName, processes: number, root = REPO_ROOT): Promise<Target> {
  const dbName = `game_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const secret = crypto.randomBytes(32).toString("hex");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-bench-"));
  const redisUrl = processes > 1 || WORLD_ON_REDIS ? BENCH_REDIS_URL : "";
  if (redisUrl) {
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    redis.disconnect();
  }
  const servers: { child: ChildProcess; baseUrl: string }[] = [];
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const { child } = await startChild(
      "server/src/main.ts",
      {
        PORT: String(port),
        DATABASE_URL: dbUrl.toString(),
        JWT_SECRET: secret,
        DATA_DIR: `${dataDir}/${i}`,
        CLIENT_DIR: path.join(dataDir, "none"),
        TICK_ENABLED: "false",
        LOG_LEVEL: "warn",
        WORLD_SHARD_SIZE: String(SHARD),
        REDIS_URL: redisUrl,
        METRICS_PUBLIC: "true",
        PUBLIC_ADDRESS: processes > 1 ? `127.0.0.1:${port}` : "",
        // every client is a different player: the seat count costs its Redis round trip per
        // join but never refuses; off without --world-redis, as before
        ROOM_SESSIONS_PER_USER: WORLD_ON_REDIS ? "8" : "0",
      },
      () =>
        fetch(`${baseUrl}/api/health`).then(
          (r) => r.ok,
          () => false,
        ),
      root,
    );
    servers.push({ child, baseUrl });
  }
  const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 4 });
  await pool.query(`INSERT INTO users (email, username, password_hash) SELECT 'bench' || g || '@example.com', 'bench' || g, 'x' FROM generate_series(1, $1) g`, [CLIENTS]);
  await pool.query(
    `INSERT INTO countries (user_id, name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, networth)
     SELECT id, 'Bench ' || id, 'monarchy', 100000, 100, 100, 10000, 100, 1000, 100, 0, 100, 10, 0, 4812 + id FROM users`,
  );
  const { rows: users } = await pool.query<{ id: number }>("SELECT id FROM users ORDER BY id");
  const tokens = new TokenService(new TextEncoder().encode(secret), pool, 86_400);
  const tokenOf: string[] = [];
  for (const u of users) tokenOf.push(await tokens.issue(Number(u.id)));
  tokens.stop();
  await pool.end();
  return {
    name,
    pids: servers.map((s) => s.child.pid!),
    async join(index) {
      const sdk = new Client(servers[index % servers.length]!.baseUrl);
      sdk.auth.token = tokenOf[index]!;
      const room = await sdk.joinOrCreate(WORLD_ROOM, {}, WorldState);
      // the messages this client does not look at (its own numbers, the channels' snapshot)
      // are received and dropped; without a handler the SDK logs a warning for each
      room.onMessage("*", () => undefined);
      // as the chat screen does: this client receives the open channels' lines
      room.send(WorldMessage.watch, { topics: ["chat"] });
      return room;
    },
    observe(room, onLine) {
      room.onMessage(WorldMessage.chatMessage, (payload: { content?: string }) => onLine(String(payload?.content ?? "")));
      // before issue 29 the open channels' lines were in the state (for a run against that code)
      observeLines(room, (state) => state.channels?.get?.("general")?.messages, onLine);
    },
    say(room, content) {
      room.send(WorldMessage.sendChat, { channel: "general", content });
    },
    async stop() {
      await Promise.all(servers.map((s) => stopChild(s.child)));
      const cleanup = new pg.Client({ connectionString: ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The bare Colyseus room. */
async function startBare(): Promise<Target> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // One room holds every client: a bare room has no way to carry a chat line to another room,
  // and the reference is "one room, the same clients".
  const started = await startChild("server/tools/src/bench/bareColyseus.ts", { BARE_PORT: String(port), BARE_SHARD_SIZE: String(CLIENTS) }, (output) => output.includes("bare colyseus listening"));
  return {
    name: "bare",
    pids: [started.child.pid!],
    async join() {
      return new Client(baseUrl).joinOrCreate(BARE_ROOM, {}, BareState);
    },
    observe(room, onLine) {
      observeLines(room, (state) => state.chat, onLine);
    },
    say(room, content) {
      room.send("sendChat", { content });
    },
    stop: () => stopChild(started.child),
  };
}

/** Reports each chat line that appears at the end of a capped array in a room's state, as its patch is decoded. */
function observeLines(room: Room, linesOf: (state: any) => { length: number; at(i: number): { content: string } } | undefined, onLine: (content: string) => void): void {
  const seen = new Set<string>();
  room.onStateChange((state: any) => {
    const lines = linesOf(state);
    if (!lines) return;
    const fresh: string[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const content = String(lines.at(i).content);
      if (seen.has(content)) break;
      fresh.push(content);
    }
    for (const content of fresh.reverse()) {
      seen.add(content);
      onLine(content);
    }
  });
}

/**
 * Stops a client decoding: its socket stays open (the server still encodes and sends every
 * frame to it, and ws answers pings) but this process no longer spends CPU on it.
 */
function mute(room: Room): void {
  const events = (room.connection as unknown as { events: { onmessage: (e: unknown) => void; decoding?: (e: unknown) => void } }).events;
  events.decoding ??= events.onmessage;
  events.onmessage = () => undefined;
}

/** Makes a muted client decode again (a ramp's observers between bursts). */
function unmute(room: Room): () => void {
  const events = (room.connection as unknown as { events: { onmessage: (e: unknown) => void; decoding?: (e: unknown) => void } }).events;
  if (events.decoding) events.onmessage = events.decoding;
  return () => mute(room);
}

/** The clients a target holds so far, and how their joins went. */
interface Joined {
  rooms: Room[];
  joinTimes: number[];
  failures: number;
  failureReasons: Map<string, number>;
}

/** Joins clients (JOIN_BATCH at a time) until `count` are in or a whole batch fails. */
async function joinUpTo(target: Target, joined: Joined, count: number): Promise<void> {
  const { rooms, joinTimes, failureReasons } = joined;
  while (rooms.length < count) {
    const from = rooms.length + joined.failures;
    if (from >= CLIENTS) break;
    const batch = Array.from({ length: Math.min(JOIN_BATCH, count - rooms.length, CLIENTS - from) }, (_, i) => from + i);
    const results = await Promise.allSettled(
      batch.map(async (index) => {
        const start = performance.now();
        const room = await target.join(index);
        joinTimes.push(performance.now() - start);
        // observers decode; the rest count for the server but not for this process's CPU
        if (index >= OBSERVERS) mute(room);
        return room;
      }),
    );
    for (const r of results) {
      if (r.status === "fulfilled") rooms.push(r.value);
      else {
        joined.failures += 1;
        const reason = String((r.reason as Error)?.message ?? r.reason).slice(0, 120);
        failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
      }
    }
    if (rooms.length % 1000 < JOIN_BATCH) log.info({ target: target.name, clients: rooms.length, failures: joined.failures, rssMb: Math.round(usage(target).rss / 1e6) }, "joining");
    if (results.every((r) => r.status === "rejected")) break;
  }
}

/**
 * MESSAGES chat lines at RATE per second, each by a different client; for each of the first
 * OBSERVERS clients the time from send to receipt.
 */
async function chatBurst(target: Target, rooms: Room[], label: string) {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const observers = rooms.slice(0, OBSERVERS);
  const unobserve: (() => void)[] = [];
  for (const room of observers) {
    unobserve.push(unmute(room));
    target.observe(room, (content) => {
      const t0 = sentAt.get(content);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
    });
  }
  const chatCpuBefore = usage(target);
  const chatStart = performance.now();
  for (let seq = 0; seq < MESSAGES; seq++) {
    const content = `bench ${target.name} ${label} ${seq}`;
    sentAt.set(content, performance.now());
    // distinct senders keep every player far below the chat rate limit
    target.say(rooms[(seq * 7919) % rooms.length]!, content);
    await sleep(1000 / RATE);
  }
  const expected = MESSAGES * observers.length;
  for (let i = 0; i < 100 && latencies.length < expected; i++) await sleep(100);
  const chatCpuAfter = usage(target);
  for (const room of observers) mute(room);
  const sortedChat = [...latencies].sort((a, b) => a - b);
  return {
    clients: rooms.length,
    messages: MESSAGES,
    observers: observers.length,
    deliveries: latencies.length,
    expectedDeliveries: expected,
    p50Ms: Math.round(percentile(sortedChat, 50)),
    p95Ms: Math.round(percentile(sortedChat, 95)),
    p99Ms: Math.round(percentile(sortedChat, 99)),
    maxMs: Math.round(sortedChat[sortedChat.length - 1] ?? NaN),
    serverCpuMsPerMessage: round(((chatCpuAfter.cpu - chatCpuBefore.cpu) * 1000) / MESSAGES, 1),
    seconds: round((performance.now() - chatStart) / 1000, 1),
  };
}

async function measure(target: Target) {
  const joined: Joined = { rooms: [], joinTimes: [], failures: 0, failureReasons: new Map() };
  const { rooms } = joined;
  // the baseline after the start-up's garbage had a chance to go
  await sleep(5_000);
  const before = usage(target);

  if (STEPS.length > 0) {
    // the ramp: the largest step whose chat p99 stays within the limit
    const steps = [];
    let largestWithinLimit = 0;
    for (const step of STEPS) {
      const stepStart = performance.now();
      await joinUpTo(target, joined, step);
      const joinSeconds = (performance.now() - stepStart) / 1000;
      if (rooms.length < step) {
        log.info({ target: target.name, step, clients: rooms.length, failures: joined.failures }, "ramp: joins failed");
        steps.push({ step, clients: rooms.length, joinSeconds: round(joinSeconds, 1), joinsFailed: joined.failures });
        break;
      }
      await sleep(3_000);
      const chat = await chatBurst(target, rooms, `step${step}`);
      const within = chat.deliveries === chat.expectedDeliveries && chat.p99Ms <= P99_LIMIT_MS;
      steps.push({ step, joinSeconds: round(joinSeconds, 1), rssMb: Math.round(usage(target).rss / 1e6), ...chat, within });
      log.info({ target: target.name, step, p99Ms: chat.p99Ms, deliveries: chat.deliveries, within }, "ramp step");
      if (!within) break;
      largestWithinLimit = step;
    }
    await Promise.allSettled(rooms.map((room) => Promise.race([room.leave(true), sleep(5_000)])));
    return { ramp: { p99LimitMs: P99_LIMIT_MS, largestWithinLimit, steps, failureReasons: Object.fromEntries(joined.failureReasons) } };
  }

  const joinStart = performance.now();
  await joinUpTo(target, joined, CLIENTS);
  const joinSeconds = (performance.now() - joinStart) / 1000;
  const afterJoins = usage(target);
  const sortedJoins = [...joined.joinTimes].sort((a, b) => a - b);
  const joins = {
    clients: rooms.length,
    failures: joined.failures,
    failureReasons: Object.fromEntries(joined.failureReasons),
    seconds: round(joinSeconds, 1),
    perSecond: Math.round(rooms.length / joinSeconds),
    p50Ms: Math.round(percentile(sortedJoins, 50)),
    p99Ms: Math.round(percentile(sortedJoins, 99)),
    serverCpuMsPerJoin: round(((afterJoins.cpu - before.cpu) * 1000) / Math.max(1, rooms.length), 2),
    serverRssAfterJoinsMb: Math.round(afterJoins.rss / 1e6),
  };
  log.info({ target: target.name, ...joins }, "joined");

  await sleep(5_000);
  const chat = await chatBurst(target, rooms, "main");
  log.info({ target: target.name, ...chat }, "chat");

  await sleep(15_000);
  const idleA = usage(target);
  await sleep(10_000);
  const idleB = usage(target);
  const idle = {
    serverRssMb: Math.round(idleB.rss / 1e6),
    serverRssBaselineMb: Math.round(before.rss / 1e6),
    serverKbPerClient: round((idleB.rss - before.rss) / 1024 / Math.max(1, rooms.length), 1),
    serverIdleCpuPercent: Math.round(((idleB.cpu - idleA.cpu) / 10) * 100),
  };
  log.info({ target: target.name, ...idle }, "idle");
  await Promise.allSettled(rooms.map((room) => Promise.race([room.leave(true), sleep(5_000)])));
  return { joins, chat, idle };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

async function startTarget(name: TargetName): Promise<Target> {
  if (name === "world") return startWorld(name, 1);
  if (name === "world2") return startWorld(name, 2);
  if (name === "bare") return startBare();
  if (name === "before" && BEFORE_ROOT) return startWorld(name, 1, path.resolve(BEFORE_ROOT));
  throw new Error(`--targets takes world, world2, bare and (with BENCH_BEFORE_ROOT) before, got "${name}"`);
}

async function main(): Promise<void> {
  const results: Partial<Record<TargetName, Awaited<ReturnType<typeof measure>>>> = {};
  const loadAverage = () => os.loadavg().map((l) => round(l, 2));
  const loadBefore: Partial<Record<TargetName, number[]>> = {};
  for (const name of TARGETS) {
    const target = await startTarget(name);
    try {
      loadBefore[name] = loadAverage();
      log.info({ target: name, clients: CLIENTS, observers: OBSERVERS, shard: SHARD, loadAverage: loadBefore[name] }, "server up");
      results[name] = await measure(target);
    } finally {
      await target.stop();
    }
  }
  const { world, world2, bare, before } = results;
  const ratio = (w: number | undefined, b: number | undefined) => (w !== undefined && b ? round(w / b, 2) : undefined);
  const overBare = (game: typeof world) =>
    game?.joins && bare?.joins
      ? {
          serverCpuPerJoin: ratio(game.joins.serverCpuMsPerJoin, bare.joins.serverCpuMsPerJoin),
          joinSeconds: ratio(game.joins.seconds, bare.joins.seconds),
          rssPerClient: ratio(game.idle.serverKbPerClient, bare.idle.serverKbPerClient),
          chatP99: ratio(game.chat.p99Ms, bare.chat.p99Ms),
          serverCpuPerChatLine: ratio(game.chat.serverCpuMsPerMessage, bare.chat.serverCpuMsPerMessage),
        }
      : undefined;
  const ratios = overBare(world);
  const beforeOverBare = overBare(before);
  const twoProcessesOverOne = world?.ramp && world2?.ramp ? { clientsWithinLimit: ratio(world2.ramp.largestWithinLimit, world.ramp.largestWithinLimit) } : undefined;
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 1e9), node: process.version, loadAverageAtStart: loadBefore, loadAverageAtEnd: loadAverage() };
  process.stdout.write(`${JSON.stringify({ machine, clients: CLIENTS, observers: OBSERVERS, shard: SHARD, results, worldOverBare: ratios, beforeOverBare, twoProcessesOverOne }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    log.error({ err }, "bench failed");
    process.exit(1);
  },
);
