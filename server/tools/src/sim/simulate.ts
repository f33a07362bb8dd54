/**
 * The season simulator (docs/balance.md):
 *
 *   npm run simulate -- --countries 500 --days 30 --seed 7
 *
 * creates a scratch database on the local Postgres, runs a whole season of AI countries on a
 * compressed clock through the server's own services and tick, writes report.json and a
 * self-contained report.html, prints the balance verdicts, and drops the database.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "@game/server/config";
import { createLogger } from "@game/server/logger";
import { AI_ACTIONS_PER_SESSION, AI_SESSIONS_PER_DAY } from "@game/schema/rules";
import { evaluateBalance, evaluateSeeds } from "./balance.js";
import { simulationContext } from "./context.js";
import { renderSeedsHtml } from "./html.js";
import { nextUtcMidnight, simulateSeason, type SeasonOptions, type SeasonRun } from "./season.js";

const USAGE = `Usage: npm run simulate -- [options]

  --countries N            AI countries                                   default 500
  --days N                 simulated days                                 default 30
  --seed N                 seed of the world and every die                default 1
  --seeds A,B,C            several seeds in one report (each on its own database; verdicts over the seeds)
  --parallel               play the seeds' seasons at once (default: one after another)
  --sessions-per-day N     times a day each country plays                 default 4 (AI_SESSIONS_PER_DAY, the live AI's too)
  --actions-per-session N  most actions per session                       default 8 (AI_ACTIONS_PER_SESSION)
  --concurrency N          AI countries playing at once (1 replays a seed exactly) default 6
  --postgres URL           server to create the scratch database on       default postgres://postgres@127.0.0.1:5432/postgres
  --out DIR                where report.json and report.html go           default simulations/seed-<N[-M...]>-<countries>x<days>
  --keep                   keep the scratch database (its name is printed)
  --help`;

function whole(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}

function seedList(raw: string | undefined, fallback: number): number[] {
  if (raw === undefined) return [fallback];
  const seeds = raw.split(",").map((part) => whole("seeds", part.trim(), 0, 0));
  if (new Set(seeds).size !== seeds.length) throw new Error(`--seeds must not repeat a seed, got "${raw}"`);
  return seeds;
}

interface SeedResult {
  run: SeasonRun;
  wallSeconds: number;
}

/** One seed's season on its own scratch database (dropped at the end unless kept). */
async function runSeed(adminUrl: string, options: Omit<SeasonOptions, "onDay">, keep: boolean, label: string): Promise<SeedResult> {
  const dbName = `game_sim_${options.seed}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  // A scratch database dropped at the end: commits need not wait for the WAL flush
  // (docs/balance.md "Speed"); the SQL, the services and the locks are the server's.
  await admin.query(`ALTER DATABASE ${dbName} SET synchronous_commit = off`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const config = loadConfig({ databaseUrl: url.toString(), logLevel: process.env.LOG_LEVEL ?? "warn", aiCountries: 0 });
  const logger = createLogger(config.logLevel);
  const pool = new pg.Pool({ connectionString: url.toString(), max: (options.concurrency ?? 1) + 2 });
  // The drop at the end terminates idle connections (57P01): expected then, loud otherwise.
  pool.on("error", (err: Error & { code?: string }) => {
    if (err.code !== "57P01") logger.error({ err }, "idle simulator connection failed");
  });
  const startAt = nextUtcMidnight(Date.now());
  const ctx = simulationContext(pool, config, logger, { startAt, seed: options.seed });
  const wallStart = Date.now();
  console.log(`${label}simulating ${options.countries} AI countries for ${options.days} days, seed ${options.seed}, database ${dbName}`);
  try {
    const run = await simulateSeason(
      ctx,
      {
        ...options,
        onDay: (sample, stats) => {
          const elapsed = ((Date.now() - wallStart) / 1000).toFixed(0);
          console.log(
            `${label}day ${String(sample.day).padStart(2)}: ${stats.actions} actions (${stats.refused} refused), ${sample.attacks} attacks, money ${sample.moneySupply.toLocaleString("en")}, ` +
              `bankrupt ${sample.bankruptcies}, famine ${sample.famineCountries}, top ${sample.top10.slice(0, 3).join(",")}... (${elapsed} s; ticks ${(stats.tickMs / 1000).toFixed(0)} s, play ${(stats.playMs / 1000).toFixed(0)} s; load ${os.loadavg()[0]!.toFixed(1)})`,
          );
        },
      },
      startAt,
    );
    return { run, wallSeconds: (Date.now() - wallStart) / 1000 };
  } finally {
    await pool.end();
    if (keep) console.log(`${label}kept database ${dbName}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      countries: { type: "string" },
      days: { type: "string" },
      seed: { type: "string" },
      seeds: { type: "string" },
      parallel: { type: "boolean" },
      "sessions-per-day": { type: "string" },
      "actions-per-session": { type: "string" },
      concurrency: { type: "string" },
      postgres: { type: "string" },
      out: { type: "string" },
      keep: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seeds = seedList(values.seeds, whole("seed", values.seed, 1, 0));
  const base = {
    countries: whole("countries", values.countries, 500),
    days: whole("days", values.days, 30),
    sessionsPerDay: whole("sessions-per-day", values["sessions-per-day"], AI_SESSIONS_PER_DAY),
    actionsPerSession: whole("actions-per-session", values["actions-per-session"], AI_ACTIONS_PER_SESSION),
    concurrency: whole("concurrency", values.concurrency, 6),
  };
  const adminUrl = values.postgres ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const out = values.out ?? path.join("simulations", `seed-${seeds.join("-")}-${base.countries}x${base.days}`);
  const label = (seed: number) => (seeds.length > 1 ? `[seed ${seed}] ` : "");
  const started = Date.now();
  const results: SeedResult[] = [];
  if (values.parallel) results.push(...(await Promise.all(seeds.map((seed) => runSeed(adminUrl, { ...base, seed }, values.keep ?? false, label(seed))))));
  else for (const seed of seeds) results.push(await runSeed(adminUrl, { ...base, seed }, values.keep ?? false, label(seed)));
  fs.mkdirSync(out, { recursive: true });
  const command = `npm run simulate -- ${process.argv.slice(2).join(" ")}`.trim();
  const loadAverage = os.loadavg().map((l) => Number(l.toFixed(2)));
  const json = results.length === 1 ? { command, wallSeconds: results[0]!.wallSeconds, loadAverage, ...results[0]!.run } : { command, loadAverage, seeds: results.map((r) => ({ wallSeconds: r.wallSeconds, ...r.run })) };
  fs.writeFileSync(path.join(out, "report.json"), JSON.stringify(json));
  fs.writeFileSync(path.join(out, "report.html"), renderSeedsHtml(results, command));
  console.log(
    `\nwall time ${((Date.now() - started) / 1000).toFixed(0)} s (${results.map((r) => `seed ${r.run.options.seed} ${r.wallSeconds.toFixed(0)} s`).join(", ")}; ${values.parallel ? "seeds at once" : "one seed after another"}); load average ${loadAverage.join(" ")}; report: ${path.join(out, "report.html")}`,
  );
  for (const r of results) {
    console.log(`\nseed ${r.run.options.seed}:`);
    for (const check of evaluateBalance(r.run.days)) console.log(`${check.met ? "met   " : "MISSED"}  ${check.target}: ${check.measured}`);
  }
  if (results.length > 1) {
    console.log("\nover the seeds:");
    for (const v of evaluateSeeds(results.map((r) => ({ seed: r.run.options.seed, days: r.run.days })))) console.log(`${v.met ? "met   " : "MISSED"}  ${v.target}: ${v.measured}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
