/**
 * `npm run bench`: performance figures for docs/performance.md, in one run on one scratch
 * database that is created here and dropped at the end.
 *
 *   1. Turn tick: 100,000 countries, the tick beside a bare UPDATE of the same rows.
 *   2. REST exploration: requests per second and latency of 1-turn explorations.
 *   3. The action path: pgbench -N, explorations and market purchases on distinct listings side
 *      by side, their ratios and the server's CPU per action, per purchase and per authenticated
 *      read (`npm run bench:action` runs only this).
 *   4. Authenticated read: server CPU per GET /api/country/{id}, beside GET /api/health.
 *   5. Attacks: standard strikes between random pairs against pgbench -N (BENCH_ONLY=attack).
 *
 * A bench section is a function of the scratch database; add new ones to SECTIONS.
 *
 * Environment (a command-line tool, so it reads its own; the server reads only config.ts):
 *   BENCH_DATABASE_URL  Postgres to create the scratch database in
 *                       @default postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_COUNTRIES     countries for the tick @default 100000
 *   BENCH_ROUNDS        tick / bare UPDATE rounds @default 3
 *   BENCH_PLAYERS       players for the exploration bench @default 50 (the action bench: 500, whose 150 turns each last a 10 s phase at up to 7,500 actions a second)
 *   BENCH_CONCURRENCY   explorations in flight @default 32
 *   BENCH_SECONDS       exploration duration @default 10
 *   BENCH_ATTACK_PLAYERS countries for the attack bench @default 200
 *   BENCH_CONNECTIONS   connections for pgbench and the action load @default 16
 *   BENCH_PROCESSES     game server processes in the action bench, sharing Redis (a player
 *                       stays on one) @default 1 (two on two cores measured more CPU per action)
 *   BENCH_REDIS_URL     Redis the action bench's processes share @default redis://127.0.0.1:6379/4
 *   BENCH_READS         requests per kind in the authenticated-read bench @default 5000
 *   BENCH_ONLY          "tick", "exploration", "action", "auth-read" or "attack" to run one section
 */
import crypto from "node:crypto";
import os from "node:os";
import pg from "pg";
import { runMigrations } from "@game/server/db/migrate";
import { runActionBench } from "./actionBench.js";
import { runAttackBench } from "./attackBench.js";
import { runExplorationBench } from "./explorationBench.js";
import { median, runTickBench } from "./tickBench.js";
import { runAuthReadBench } from "./authReadBench.js";

const env = (name: string, fallback: string) => process.env[name] || fallback;
const int = (name: string, fallback: number) => {
  const value = Number(env(name, String(fallback)));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
};
const log = (line: string) => process.stdout.write(line + "\n");
const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;

interface Section {
  name: string;
  run(scratch: { url: string; pool: pg.Pool }): Promise<void>;
}

const SECTIONS: Section[] = [
  {
    name: "tick",
    async run({ pool }) {
      const countries = int("BENCH_COUNTRIES", 100_000);
      log(`\n== Turn tick over ${countries.toLocaleString("en-US")} countries`);
      const r = await runTickBench(pool, { countries, rounds: int("BENCH_ROUNDS", 3), log });
      const bare = median(r.bareUpdateMs);
      const tick = median(r.tickMs);
      log(`  bare UPDATE countries SET turns = turns   median ${ms(bare)}`);
      log(`  turn tick (${r.countriesUpdated.toLocaleString("en-US")} rows written)          median ${ms(tick)}  (${(tick / bare).toFixed(2)}x the bare UPDATE)`);
      log(`  turn tick, every country at both caps     ${ms(r.tickAtCapsMs)} (no row written)`);
      const ffBare = median(r.fillfactor.bareUpdateMs);
      const ffTick = median(r.fillfactor.tickMs);
      log(`  with fillfactor ${r.fillfactor.value}: bare UPDATE median ${ms(ffBare)}, turn tick median ${ms(ffTick)}  (${(ffTick / ffBare).toFixed(2)}x)`);
    },
  },
  {
    // REST exploration throughput: 1-turn explorations through the whole server stack.
    name: "exploration",
    async run({ url }) {
      const players = int("BENCH_PLAYERS", 50);
      const concurrency = int("BENCH_CONCURRENCY", 32);
      const seconds = int("BENCH_SECONDS", 10);
      log(`\n== REST exploration throughput (POST /api/exploration/explore, turnsToSpend 1)`);
      const r = await runExplorationBench({ databaseUrl: url, players, concurrency, durationMs: seconds * 1000, log });
      log(
        `  ${r.requests.toLocaleString("en-US")} requests in ${r.seconds.toFixed(1)} s: ${Math.round(r.requestsPerSecond).toLocaleString("en-US")} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ${r.ok.toLocaleString("en-US")} ok`,
      );
      for (const [reason, count] of Object.entries(r.failures)) log(`  refused ${count}x: ${reason}`);
    },
  },
  {
    // The action path at the database's pace: explorations per second against pgbench -N.
    name: "action",
    async run() {
      const connections = int("BENCH_CONNECTIONS", 16);
      log(`\n== Action path: 1-turn explorations, market purchases and authenticated reads against pgbench -N (${connections} connections)`);
      const r = await runActionBench({
        adminUrl: env("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        players: int("BENCH_PLAYERS", 500),
        connections,
        seconds: int("BENCH_SECONDS", 10),
        processes: int("BENCH_PROCESSES", 1),
        redisUrl: env("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4"),
        log,
      });
      for (const [phase, result] of [
        ["explore", r.explore],
        ["buy", r.buy],
        ["read", r.read],
        ["floor (express)", r.floorExpress],
        ["floor (node)", r.floorNode],
      ] as const) {
        for (const [reason, count] of Object.entries(result.failures)) log(`  ${phase} refused ${count}x: ${reason}`);
      }
      log(`  explore / pgbench -N = ${(r.ratio * 100).toFixed(0)}%, market buy / pgbench -N = ${(r.buyRatio * 100).toFixed(0)}%  (pgbench ${r.pgbenchTps.map((v) => v.toFixed(0)).join(" and ")} TPS)`);
      log(`  the floor, pgbench -N's transaction over HTTP with no game: ${(r.floorExpressRatio * 100).toFixed(0)}% through Express, ${(r.floorNodeRatio * 100).toFixed(0)}% through node:http alone`);
      log(`  server CPU: ${r.explore.serverCpuMs.toFixed(3)} ms per exploration, ${r.buy.serverCpuMs.toFixed(3)} ms per purchase, ${r.read.serverCpuMs.toFixed(3)} ms per authenticated read`);
      log(`  load generator CPU: ${r.explore.clientCpuMs.toFixed(3)} ms per exploration, ${r.buy.clientCpuMs.toFixed(3)} ms per purchase, ${r.read.clientCpuMs.toFixed(3)} ms per read (same cores)`);
    },
  },
  {
    // Server CPU per authenticated read (the auth fast path), measured in a child server process.
    name: "auth-read",
    async run({ url }) {
      const requests = int("BENCH_READS", 5_000);
      const concurrency = int("BENCH_CONCURRENCY", 32);
      log(`\n== Server CPU per authenticated read (${requests.toLocaleString("en-US")} requests each, ${concurrency} in flight)`);
      const r = await runAuthReadBench({ databaseUrl: url, requests, concurrency, log });
      const line = (name: string, m: { cpuMicros: number; requestsPerSecond: number; ok: number; requests: number }) =>
        log(`  ${name.padEnd(44)} ${(m.cpuMicros / 1000).toFixed(3)} ms CPU/request, ${Math.round(m.requestsPerSecond).toLocaleString("en-US")} req/s, ${m.ok}/${m.requests} ok`);
      line("GET /api/health (no token, SELECT 1)", r.health);
      line("GET /api/country/{id} (owner's bearer token)", r.authenticatedRead);
      log(`  authenticated read / health: ${(r.authenticatedRead.cpuMicros / r.health.cpuMicros).toFixed(2)}x`);
    },
  },
  {
    // Battles at the database's pace: standard strikes between random pairs against pgbench -N.
    name: "attack",
    async run() {
      const connections = int("BENCH_CONNECTIONS", 16);
      log(`\n== Attacks: standard strikes between random pairs against pgbench -N (${connections} connections)`);
      const r = await runAttackBench({
        adminUrl: env("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        players: int("BENCH_ATTACK_PLAYERS", 200),
        connections,
        seconds: int("BENCH_SECONDS", 10),
        log,
      });
      for (const [reason, count] of Object.entries(r.attack.failures)) log(`  attack refused ${count}x: ${reason}`);
      log(`  ${r.battles.toLocaleString("en-US")} battles fought; attacks / pgbench -N = ${(r.ratio * 100).toFixed(0)}%  (pgbench ${r.pgbenchTps.map((v) => v.toFixed(0)).join(" and ")} TPS)`);
      log(`  server CPU ${r.attack.serverCpuMs.toFixed(3)} ms per attack, Postgres and the rest ${r.attack.databaseCpuMs.toFixed(3)} ms per attack, load generator ${r.attack.clientCpuMs.toFixed(3)} ms`);
    },
  },
];

async function main(): Promise<void> {
  const adminUrl = env("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres");
  const only = process.env.BENCH_ONLY;
  const name = `game_bench_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ server_version: string }>("SHOW server_version");
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  log(`bench: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown cpu"}), Node ${process.version}, Postgres ${rows[0]!.server_version}, scratch database ${name}`);
  try {
    await runMigrations(pool);
    for (const section of SECTIONS) {
      if (only && section.name !== only) continue;
      await section.run({ url: url.toString(), pool });
    }
  } finally {
    await pool.end();
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await drop.end();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
