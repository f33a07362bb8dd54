import { routes } from "@game/schema/routes";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { Rng, computeNetworth } from "@game/schema/rules";
import { rowToState, COUNTRY_COLUMNS, type CountryRow } from "@game/server/db/countries";
import { REPO_ROOT, databaseUrl, freePort, loadPhase, psql, registerBenchPlayers, request, runPgbench, waitForHealth, type PhaseResult } from "./actionBench.js";

/**
 * Attacks per second between random pairs of countries, against `pgbench -N` in the same run:
 *
 *   1. `pgbench -N` on a scratch database;
 *   2. the game server as its own process on another scratch database, `players` countries
 *      registered over REST and armed by SQL (networth recomputed), then Standard Strikes
 *      (POST /api/attack/launch) between random pairs from `connections` keep-alive
 *      connections: each is the whole battle (two ordered row locks, the context query with
 *      the battle id, the pure resolution with two economy turns, the report, brigade and both
 *      countries written with COMMIT, the events);
 *   3. `pgbench -N` again.
 *
 * Prints attacks per second as a fraction of pgbench's TPS, the latency, the refusals by
 * reason (a target out of band after its losses) and the CPU per attack of the server and of
 * Postgres. The brigades are rested by hand during the run (a DELETE every 500 ms): the game
 * allows about 15 attacks per country before hours of rest, and the bench measures battles.
 */
export interface AttackBenchOptions {
  adminUrl: string;
  /** countries; each has 5 brigades, so at most ~15 attacks each before "No brigade ready" @default 200 */
  players: number;
  connections: number;
  seconds: number;
  log(line: string): void;
}

export interface AttackBenchResult {
  pgbenchTps: number[];
  attack: PhaseResult;
  ratio: number;
  battles: number;
}

export async function runAttackBench(options: AttackBenchOptions): Promise<AttackBenchResult> {
  const { log } = options;
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const pgbenchDb = `bench_pgbench_atk_${tag}`;
  const gameDb = `bench_attack_${tag}`;
  psql(options.adminUrl, `CREATE DATABASE ${pgbenchDb}`);
  psql(options.adminUrl, `CREATE DATABASE ${gameDb}`);
  const pgbenchUrl = databaseUrl(options.adminUrl, pgbenchDb);
  const gameUrl = databaseUrl(options.adminUrl, gameDb);
  let child: ChildProcess | undefined;
  const pool = new pg.Pool({ connectionString: gameUrl, max: 2 });
  try {
    const init = spawnSync("pgbench", ["-i", "-s", "10", "-q", pgbenchUrl], { encoding: "utf8" });
    if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);

    const port = await freePort();
    const dataDir = fs.mkdtempSync("/tmp/game-attack-bench-");
    // BENCH_PROFILE=<dir> writes the server's CPU profile there (node --cpu-prof) on exit.
    const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];
    child = spawn(process.execPath, [...profile, "--import", "tsx", "--conditions", "development", "server/src/main.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: gameUrl,
        DATA_DIR: dataDir,
        JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
        TICK_ENABLED: "false",
        LOG_LEVEL: "warn",
        REDIS_URL: "",
        NEW_PLAYER_PROTECTION_HOURS: "0",
        RATE_LIMIT_REGISTER_PER_HOUR: "0",
      },
      cwd: REPO_ROOT,
      stdio: ["ignore", "inherit", "inherit"],
    });
    const pid = child.pid!;
    await waitForHealth(port);
    const players = await registerBenchPlayers(port, options.players, `k${tag}`);
    // Every country an equal, large army with turns and money for the whole run; networth
    // recomputed so the attack band sees them as equals.
    await pool.query(
      `UPDATE countries SET troops = 200000, tanks = 10000, jets = 2000, turrets = 20000, cash = 1000000000, food = 100000000, oil = 10000000,
              turns = 1000000, land = 5000, population = 50000, farms = 500, residential_areas = 500`,
    );
    const { rows } = await pool.query<CountryRow>(`SELECT ${COUNTRY_COLUMNS} FROM countries`);
    for (const row of rows) await pool.query("UPDATE countries SET networth = $2 WHERE id = $1", [row.id, computeNetworth(rowToState(row))]);
    log(`  ${players.length} armed countries; ${options.connections} connections; ${options.seconds} s per phase`);

    const pgbenchTps = [runPgbench(pgbenchUrl, options.connections, options.seconds)];
    log(`  pgbench -N: ${pgbenchTps[0]!.toFixed(0)} TPS`);

    // Standard strikes between random pairs (a fixed seed: the same pairs each run).
    const rng = Rng.fromSeed(12_345);
    const random = (n: number) => rng.int(0, n - 1);
    // Five brigades allow about 15 attacks per country before they need hours of rest; the
    // bench rests them by hand every half second so it measures battles, not refusals.
    const rest = setInterval(() => void pool.query("DELETE FROM brigades").catch(() => undefined), 500);
    const attack = await loadPhase(pid, options.connections, options.seconds, () => {
      const attacker = players[random(players.length)]!;
      let defender = players[random(players.length)]!;
      if (defender === attacker) defender = players[(players.indexOf(attacker) + 1) % players.length]!;
      return request(port, "POST", routes.attackLaunch.path, { countryId: attacker.countryId, targetCountryId: defender.countryId, attackType: "standard_strike", units: { troops: 20_000, tanks: 1_000, jets: 100 } }, attacker.token);
    });
    clearInterval(rest);
    log(
      `  attack: ${attack.perSecond.toFixed(0)}/s, p50 ${attack.p50Ms.toFixed(1)} ms, p99 ${attack.p99Ms.toFixed(1)} ms, server CPU ${attack.serverCpuMs.toFixed(3)} ms/attack, Postgres and the rest ${attack.databaseCpuMs.toFixed(3)} ms/attack`,
    );
    const battles = Number((await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM battles")).rows[0]!.n);

    pgbenchTps.push(runPgbench(pgbenchUrl, options.connections, options.seconds));
    log(`  pgbench -N again: ${pgbenchTps[1]!.toFixed(0)} TPS`);
    const reference = (pgbenchTps[0]! + pgbenchTps[1]!) / 2;
    return { pgbenchTps, attack, ratio: attack.perSecond / reference, battles };
  } finally {
    await pool.end();
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child!.once("exit", r));
    }
    psql(options.adminUrl, `DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
    psql(options.adminUrl, `DROP DATABASE IF EXISTS ${gameDb} WITH (FORCE)`);
  }
}
