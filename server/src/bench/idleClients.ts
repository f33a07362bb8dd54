/**
 * World room capacity and chat fan-out, measured against one real server process.
 *
 *   npx tsx --conditions development server/src/bench/idleClients.ts [--fanout-clients 1000]
 *       [--idle-clients 5000] [--messages 100] [--rate 5] [--shard 500]
 *
 * 1. Creates a scratch Postgres database (BENCH_POSTGRES_URL, default the local test server),
 *    starts server/src/main.ts in a child process on it (no Redis: one process), and seeds
 *    users and countries with SQL (registration's argon2 would dominate the run otherwise).
 * 2. Joins --fanout-clients WebSocket clients to "world" (shards of --shard), then sends
 *    --messages chat messages at --rate per second from distinct players and records, for
 *    every client, the time from send to the message appearing in its state: p50/p99.
 * 3. Keeps joining until --idle-clients are connected (or joins start failing / slowing past
 *    10 s), lets them sit idle, and reports the server's memory and CPU per client.
 *
 * Clients run in this process; on a 2-core machine they share the CPU with the server, so
 * the latencies include client-side decoding of every patch for every client.
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

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const FANOUT_CLIENTS = Number(args.get("fanout-clients") ?? 1000);
const IDLE_CLIENTS = Number(args.get("idle-clients") ?? 5000);
const MESSAGES = Number(args.get("messages") ?? 100);
const RATE = Number(args.get("rate") ?? 5);
const SHARD = Number(args.get("shard") ?? 500);
const JOIN_BATCH = 25;
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECRET = crypto.randomBytes(32).toString("hex");
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const log = pino({ level: "info", base: undefined, timestamp: false });

interface Joined {
  room: Room<any, WorldState>;
  userId: number;
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

async function main(): Promise<void> {
  const dbName = `game_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;

  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-bench-"));
  let serverLog = "";
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "--conditions", "development", "server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env, PORT: String(port), DATABASE_URL: dbUrl.toString(), JWT_SECRET: SECRET, DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, "none"), TICK_ENABLED: "false", LOG_LEVEL: "warn", WORLD_SHARD_SIZE: String(SHARD),
      REDIS_URL: "", METRICS_PUBLIC: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  process.once("exit", () => server.kill("SIGKILL"));
  server.stdout!.on("data", (d) => (serverLog += d));
  server.stderr!.on("data", (d) => (serverLog += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error(`server did not start:\n${serverLog}`);
    await sleep(100);
  }

  const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 4 });
  const total = Math.max(FANOUT_CLIENTS, IDLE_CLIENTS);
  await pool.query(
    `INSERT INTO users (email, username, password_hash) SELECT 'bench' || g || '@example.com', 'bench' || g, 'x' FROM generate_series(1, $1) g`,
    [total],
  );
  await pool.query(
    `INSERT INTO countries (user_id, name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, networth)
     SELECT id, 'Bench ' || id, 'monarchy', 100000, 100, 100, 10000, 100, 1000, 100, 0, 100, 10, 0, 4812 + id FROM users`,
  );
  const { rows: users } = await pool.query<{ id: number }>("SELECT id FROM users ORDER BY id");
  const tokens = new TokenService(new TextEncoder().encode(SECRET), pool, 86_400);
  const tokenOf = new Map<number, string>();
  for (const u of users) tokenOf.set(Number(u.id), await tokens.issue(Number(u.id)));
  const userIds = users.map((u) => Number(u.id));
  const idleBefore = processUsage(server.pid!);
  log.info({ port, dbName, seeded: total, serverRssMb: Math.round(idleBefore.rss / 1e6) }, "server up, players seeded");

  const joined: Joined[] = [];
  const joinTimes: number[] = [];
  let failures = 0;

  /**
   * Stops a client decoding: its socket stays open (the server still encodes and sends every
   * patch to it, and ws answers pings) but this process no longer spends CPU on it, so the
   * ramp measures the server rather than thousands of decoders sharing this process's core.
   */
  const mute = (room: Room) => {
    (room.connection as unknown as { events: { onmessage: (e: unknown) => void } }).events.onmessage = () => undefined;
  };
  let muteJoins = false;
  const failureReasons = new Map<string, number>();

  async function joinUpTo(target: number): Promise<boolean> {
    while (joined.length < target) {
      const batch = userIds.slice(joined.length, Math.min(target, joined.length + JOIN_BATCH));
      const results = await Promise.allSettled(
        batch.map(async (userId) => {
          const sdk = new Client(baseUrl);
          sdk.auth.token = tokenOf.get(userId)!;
          const start = performance.now();
          const room = await sdk.joinOrCreate(WORLD_ROOM, {}, WorldState);
          joinTimes.push(performance.now() - start);
          if (muteJoins) mute(room);
          return { room, userId };
        }),
      );
      for (const r of results) {
        if (r.status === "fulfilled") joined.push(r.value);
        else {
          failures += 1;
          const reason = String((r.reason as Error)?.message ?? r.reason).slice(0, 120);
          failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
        }
      }
      const recent = joinTimes.slice(-JOIN_BATCH).sort((a, b) => a - b);
      if (joined.length % 500 < JOIN_BATCH) {
        const usage = processUsage(server.pid!);
        log.info({ clients: joined.length, failures, joinP95Ms: Math.round(percentile(recent, 95)), serverRssMb: Math.round(usage.rss / 1e6) }, "ramp");
      }
      if (failures > 0 && results.every((r) => r.status === "rejected")) return false;
      if (percentile(recent, 95) > 10_000) return false;
    }
    return true;
  }

  // --- chat fan-out with FANOUT_CLIENTS joined
  await joinUpTo(FANOUT_CLIENTS);
  await sleep(3_000); // let the join burst's patches settle
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const lastSeen = new Map<Room, number>();
  for (const { room } of joined) {
    lastSeen.set(room, -1);
    room.onStateChange((state: any) => {
      const messages = state.channels?.get("general")?.messages;
      if (!messages || messages.length === 0) return;
      const now = performance.now();
      const seen = lastSeen.get(room)!;
      for (let i = messages.length - 1; i >= 0; i--) {
        const match = /^bench (\d+)$/.exec(messages.at(i).content);
        if (!match) continue;
        const seq = Number(match[1]);
        if (seq <= seen) break;
        const t0 = sentAt.get(seq);
        if (t0 !== undefined) latencies.push(now - t0);
      }
      const newest = /^bench (\d+)$/.exec(messages.at(messages.length - 1).content);
      if (newest) lastSeen.set(room, Math.max(seen, Number(newest[1])));
    });
  }
  const cpuBefore = processUsage(server.pid!);
  const fanStart = performance.now();
  for (let seq = 0; seq < MESSAGES; seq++) {
    // Distinct senders keep every player far below the chat rate limit.
    const sender = joined[seq % joined.length]!;
    sentAt.set(seq, performance.now());
    sender.room.send(WorldMessage.sendChat, { channel: "general", content: `bench ${seq}` });
    await sleep(1000 / RATE);
  }
  const expected = MESSAGES * joined.length;
  for (let i = 0; i < 100 && latencies.length < expected; i++) await sleep(100);
  const fanSeconds = (performance.now() - fanStart) / 1000;
  const cpuAfter = processUsage(server.pid!);
  const sorted = [...latencies].sort((a, b) => a - b);
  const fanout = {
    clients: joined.length,
    shards: Math.ceil(joined.length / SHARD),
    messages: MESSAGES,
    ratePerSecond: RATE,
    deliveries: latencies.length,
    expectedDeliveries: expected,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    p99Ms: Math.round(percentile(sorted, 99)),
    maxMs: Math.round(sorted[sorted.length - 1] ?? NaN),
    serverCpuPercent: Math.round(((cpuAfter.cpu - cpuBefore.cpu) / fanSeconds) * 100),
  };
  log.info(fanout, "chat fan-out");
  for (const { room } of joined) {
    room.onStateChange.clear();
    mute(room);
  }
  muteJoins = true;

  // --- idle capacity
  const reached = await joinUpTo(IDLE_CLIENTS);
  await sleep(15_000);
  const idleA = processUsage(server.pid!);
  await sleep(10_000);
  const idleB = processUsage(server.pid!);
  const metrics = await fetch(`${baseUrl}/metrics`).then((r) => (r.ok ? r.text() : ""), () => "");
  const ccu = Number(/^colyseus_connected_clients (\d+)/m.exec(metrics)?.[1] ?? NaN);
  const idle = {
    clients: joined.length,
    reachedTarget: reached,
    joinFailures: failures,
    failureReasons: Object.fromEntries(failureReasons),
    serverConnectedClients: ccu,
    rooms: Math.ceil(joined.length / SHARD),
    joinP50Ms: Math.round(percentile([...joinTimes].sort((a, b) => a - b), 50)),
    joinP99Ms: Math.round(percentile([...joinTimes].sort((a, b) => a - b), 99)),
    serverRssMb: Math.round(idleB.rss / 1e6),
    serverRssBaselineMb: Math.round(idleBefore.rss / 1e6),
    serverKbPerClient: Math.round((idleB.rss - idleBefore.rss) / 1024 / joined.length),
    serverIdleCpuPercent: Math.round(((idleB.cpu - idleA.cpu) / 10) * 100),
    benchProcessRssMb: Math.round(process.memoryUsage().rss / 1e6),
  };
  log.info(idle, "idle clients");
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 1e9), node: process.version };
  process.stdout.write(`${JSON.stringify({ machine, fanout, idle }, null, 2)}\n`);

  await Promise.allSettled(joined.map(({ room }) => room.leave(true)));
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await pool.end();
  const cleanup = new pg.Client({ connectionString: ADMIN_URL });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await cleanup.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    log.error({ err }, "bench failed");
    process.exit(1);
  },
);
