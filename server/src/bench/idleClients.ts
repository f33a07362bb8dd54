/**
 * World room capacity against a bare Colyseus room, the same clients in the same run (issue 29).
 *
 *   npx tsx --conditions development server/src/bench/idleClients.ts [--clients 5000]
 *       [--observers 500] [--messages 100] [--rate 5] [--shard 500] [--targets world,bare]
 *       [--join-batch 25]
 *
 * For each target, one after the other on the same machine:
 *   world  the game's entry point (server/src/main.ts under tsx) on a scratch Postgres database
 *          (BENCH_POSTGRES_URL, default the local server), no Redis, tick off; players seeded by
 *          SQL with tokens signed by the server's secret (registration's argon2 would dominate)
 *   bare   server/src/bench/bareColyseus.ts: one Colyseus room of the same versions with a small
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
import pino from "pino";
import { Client, type Room } from "@colyseus/sdk";
import { WORLD_ROOM, WorldMessage } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { TokenService } from "../auth/tokens.js";
import { BARE_ROOM, BareState } from "./bareColyseus.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const CLIENTS = Number(args.get("clients") ?? 5000);
const OBSERVERS = Number(args.get("observers") ?? 500);
const MESSAGES = Number(args.get("messages") ?? 100);
const RATE = Number(args.get("rate") ?? 5);
const SHARD = Number(args.get("shard") ?? 500);
const TARGETS = (args.get("targets") ?? "world,bare").split(",").filter(Boolean) as TargetName[];
/** clients joining at once (players arriving) */
const JOIN_BATCH = Number(args.get("join-batch") ?? 25);
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const log = pino({ level: "info", base: undefined, timestamp: false });

type TargetName = "world" | "bare";

/** A server under test: where it listens, its process, how each client joins and chats. */
interface Target {
  name: TargetName;
  baseUrl: string;
  pid: number;
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

/** Resident memory (bytes) and CPU time (seconds) of a process, from /proc. */
function processUsage(pid: number): { rss: number; cpu: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime
  return { rss, cpu: ticks / 100 };
}

/** Starts a tsx child and resolves once `ready` (given the child's output so far) answers true. */
async function startChild(script: string, env: NodeJS.ProcessEnv, ready: (output: string) => boolean | Promise<boolean>): Promise<{ child: ChildProcess; log: () => string }> {
  let output = "";
  // BENCH_SERVER_NODE_ARGS reach the servers only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "--conditions", "development", script], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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

/** The game on a scratch database with CLIENTS seeded players. */
async function startWorld(): Promise<Target> {
  const dbName = `game_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const secret = crypto.randomBytes(32).toString("hex");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-bench-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const { child } = await startChild(
    "server/src/main.ts",
    {
      PORT: String(port), DATABASE_URL: dbUrl.toString(), JWT_SECRET: secret, DATA_DIR: dataDir, CLIENT_DIR: path.join(dataDir, "none"),
      TICK_ENABLED: "false", LOG_LEVEL: "warn", WORLD_SHARD_SIZE: String(SHARD), REDIS_URL: "", METRICS_PUBLIC: "true",
      // seated sessions per user are not what is measured: every client is a different player
      ROOM_SESSIONS_PER_USER: "0",
    },
    () => fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false),
  );
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
    name: "world",
    baseUrl,
    pid: child.pid!,
    async join(index) {
      const sdk = new Client(baseUrl);
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
      // before issue 29 the open channels' lines were in the state
      observeLines(room, (state) => state.channels?.get?.("general")?.messages, onLine);
    },
    say(room, content) {
      room.send(WorldMessage.sendChat, { channel: "general", content });
    },
    async stop() {
      await stopChild(child);
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
  const started = await startChild("server/src/bench/bareColyseus.ts", { BARE_PORT: String(port), BARE_SHARD_SIZE: String(CLIENTS) }, (output) => output.includes("bare colyseus listening"));
  return {
    name: "bare",
    baseUrl,
    pid: started.child.pid!,
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
  (room.connection as unknown as { events: { onmessage: (e: unknown) => void } }).events.onmessage = () => undefined;
}

async function measure(target: Target) {
  const rooms: Room[] = [];
  const joinTimes: number[] = [];
  const failureReasons = new Map<string, number>();
  let failures = 0;
  // the baseline after the start-up's garbage had a chance to go
  await sleep(5_000);
  const before = processUsage(target.pid);
  const joinStart = performance.now();
  while (rooms.length < CLIENTS) {
    const from = rooms.length + failures;
    if (from >= CLIENTS) break;
    const batch = Array.from({ length: Math.min(JOIN_BATCH, CLIENTS - from) }, (_, i) => from + i);
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
        failures += 1;
        const reason = String((r.reason as Error)?.message ?? r.reason).slice(0, 120);
        failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
      }
    }
    if (rooms.length % 1000 < JOIN_BATCH) log.info({ target: target.name, clients: rooms.length, failures, rssMb: Math.round(processUsage(target.pid).rss / 1e6) }, "joining");
    if (results.every((r) => r.status === "rejected")) break;
  }
  const joinSeconds = (performance.now() - joinStart) / 1000;
  const afterJoins = processUsage(target.pid);
  const sortedJoins = [...joinTimes].sort((a, b) => a - b);
  const joins = {
    clients: rooms.length,
    failures,
    failureReasons: Object.fromEntries(failureReasons),
    seconds: round(joinSeconds, 1),
    perSecond: Math.round(rooms.length / joinSeconds),
    p50Ms: Math.round(percentile(sortedJoins, 50)),
    p99Ms: Math.round(percentile(sortedJoins, 99)),
    serverCpuMsPerJoin: round(((afterJoins.cpu - before.cpu) * 1000) / Math.max(1, rooms.length), 2),
  };
  log.info({ target: target.name, ...joins }, "joined");

  await sleep(5_000);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const observers = rooms.slice(0, OBSERVERS);
  for (const room of observers) {
    target.observe(room, (content) => {
      const t0 = sentAt.get(content);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
    });
  }
  const chatCpuBefore = processUsage(target.pid);
  const chatStart = performance.now();
  for (let seq = 0; seq < MESSAGES; seq++) {
    const content = `bench ${target.name} ${seq}`;
    sentAt.set(content, performance.now());
    // distinct senders keep every player far below the chat rate limit
    target.say(rooms[(seq * 7919) % rooms.length]!, content);
    await sleep(1000 / RATE);
  }
  const expected = MESSAGES * observers.length;
  for (let i = 0; i < 100 && latencies.length < expected; i++) await sleep(100);
  const chatCpuAfter = processUsage(target.pid);
  const sortedChat = [...latencies].sort((a, b) => a - b);
  const chat = {
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
  log.info({ target: target.name, ...chat }, "chat");
  for (const room of observers) mute(room);

  await sleep(15_000);
  const idleA = processUsage(target.pid);
  await sleep(10_000);
  const idleB = processUsage(target.pid);
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

async function main(): Promise<void> {
  const results: Partial<Record<TargetName, Awaited<ReturnType<typeof measure>>>> = {};
  for (const name of TARGETS) {
    const target = name === "world" ? await startWorld() : await startBare();
    try {
      log.info({ target: name, clients: CLIENTS, observers: OBSERVERS, shard: SHARD }, "server up");
      results[name] = await measure(target);
    } finally {
      await target.stop();
    }
  }
  const { world, bare } = results;
  const ratio = (w: number | undefined, b: number | undefined) => (w !== undefined && b ? round(w / b, 2) : undefined);
  const ratios =
    world && bare
      ? {
          serverCpuPerJoin: ratio(world.joins.serverCpuMsPerJoin, bare.joins.serverCpuMsPerJoin),
          joinSeconds: ratio(world.joins.seconds, bare.joins.seconds),
          rssPerClient: ratio(world.idle.serverKbPerClient, bare.idle.serverKbPerClient),
          chatP99: ratio(world.chat.p99Ms, bare.chat.p99Ms),
          serverCpuPerChatLine: ratio(world.chat.serverCpuMsPerMessage, bare.chat.serverCpuMsPerMessage),
        }
      : undefined;
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 1e9), node: process.version, loadAverage: os.loadavg().map((l) => round(l, 2)) };
  process.stdout.write(`${JSON.stringify({ machine, clients: CLIENTS, observers: OBSERVERS, shard: SHARD, results, worldOverBare: ratios }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    log.error({ err }, "bench failed");
    process.exit(1);
  },
);
