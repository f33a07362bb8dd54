import { routes } from "@game/schema/routes";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";
import { loadConfig } from "@game/server/config";
import { startGameServer } from "@game/server/server";
import { median } from "./tickBench.js";
import { registerBenchPlayers } from "./actionBench.js";

export interface ExplorationBenchOptions {
  /** the scratch database (migrated) */
  databaseUrl: string;
  /** players registered over REST, one country each @default 50 */
  players: number;
  /** requests in flight at once @default 32 */
  concurrency: number;
  /** how long to fire (ms) @default 10_000 */
  durationMs: number;
  log(line: string): void;
}

export interface ExplorationBenchResult {
  requests: number;
  ok: number;
  /** non-200 answers by "status error" */
  failures: Record<string, number>;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/**
 * REST throughput of 1-turn explorations: a server in this process (startGameServer, port 0,
 * no Redis, tick off) on the scratch database, `players` players registered over REST, then
 * POST /api/exploration/explore {countryId, turnsToSpend: 1} from `concurrency` loops for
 * `durationMs`, round-robin over the countries. Every request is a full game action: auth,
 * ownership check, row lock, economy turn, write, turn history, event. A refill loop (an
 * operator's UPDATE, like a generous tick) keeps turns and cash up so no request is refused
 * for lack of them.
 */
export async function runExplorationBench(options: ExplorationBenchOptions): Promise<ExplorationBenchResult> {
  const { log } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-bench-"));
  const server = await startGameServer(
    loadConfig({
      port: 0,
      dataDir,
      databaseUrl: options.databaseUrl,
      redisUrl: undefined,
      jwtSecret: "bench-secret-bench-secret-bench-secret-0123456789",
      logLevel: "warn",
      clientDir: path.join(dataDir, "no-client"),
      tickEnabled: false,
      // the bench registers its players from one address
      rateLimitRegisterPerHour: 0,
    }),
    { logger: pino({ level: "warn" }) },
  );
  const base = `http://127.0.0.1:${server.port}/api`;
  const post = async (apiPath: string, body: unknown, token?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(base + apiPath, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as any };
  };

  try {
    // Register (argon2id hashing dominates: a few at a time).
    const players = await registerBenchPlayers(server.port, options.players, `b${Date.now().toString(36)}`);
    const ids = players.map((p) => p.countryId);
    const refill = () => server.ctx.db.query("UPDATE countries SET turns = 150, cash = 1000000000000 WHERE id = ANY($1::bigint[]) AND (turns < 100 OR cash < 100000000000)", [ids]);
    await refill();
    log(`  ${players.length} players registered; firing 1-turn explorations, ${options.concurrency} in flight, ${options.durationMs / 1000} s`);

    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    let cursor = 0;
    let refilling = false;
    const refillTimer = setInterval(() => {
      if (refilling) return;
      refilling = true;
      refill()
        .catch((err) => log(`  refill failed: ${String(err)}`))
        .finally(() => (refilling = false));
    }, 250);
    const started = performance.now();
    const deadline = started + options.durationMs;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < deadline) {
          const player = players[cursor++ % players.length]!;
          const t0 = performance.now();
          const res = await post(routes.explore.path, { countryId: player.countryId, turnsToSpend: 1 }, player.token);
          latencies.push(performance.now() - t0);
          if (res.status !== 200) {
            const key = `${res.status} ${res.body?.error ?? ""}`.trim();
            failures[key] = (failures[key] ?? 0) + 1;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(refillTimer);
    while (refilling) await new Promise((resolve) => setTimeout(resolve, 10));

    const sorted = latencies.sort((a, b) => a - b);
    const failed = Object.values(failures).reduce((a, b) => a + b, 0);
    return {
      requests: sorted.length,
      ok: sorted.length - failed,
      failures,
      seconds,
      requestsPerSecond: sorted.length / seconds,
      p50Ms: median(sorted),
      p99Ms: percentile(sorted, 99),
    };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
