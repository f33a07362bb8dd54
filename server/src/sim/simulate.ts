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
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { evaluateBalance } from "./balance.js";
import { simulationContext } from "./context.js";
import { renderSeasonHtml } from "./html.js";
import { nextUtcMidnight, simulateSeason } from "./season.js";

const USAGE = `Usage: npm run simulate -- [options]

  --countries N            AI countries                                   default 500
  --days N                 simulated days                                 default 30
  --seed N                 seed of the world and every die                default 1
  --sessions-per-day N     times a day each country plays                 default 4
  --actions-per-session N  most actions per session                       default 8
  --concurrency N          AI countries playing at once (1 replays a seed exactly) default 6
  --postgres URL           server to create the scratch database on       default postgres://postgres@127.0.0.1:5432/postgres
  --out DIR                where report.json and report.html go           default simulations/seed-<N>-<countries>x<days>
  --keep                   keep the scratch database (its name is printed)
  --help`;

function whole(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      countries: { type: "string" },
      days: { type: "string" },
      seed: { type: "string" },
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
  const options = {
    countries: whole("countries", values.countries, 500),
    days: whole("days", values.days, 30),
    seed: whole("seed", values.seed, 1, 0),
    sessionsPerDay: whole("sessions-per-day", values["sessions-per-day"], 4),
    actionsPerSession: whole("actions-per-session", values["actions-per-session"], 8),
    concurrency: whole("concurrency", values.concurrency, 6),
  };
  const adminUrl = values.postgres ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const out = values.out ?? path.join("simulations", `seed-${options.seed}-${options.countries}x${options.days}`);
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
  const pool = new pg.Pool({ connectionString: url.toString(), max: options.concurrency + 2 });
  // The drop at the end terminates idle connections (57P01): expected then, loud otherwise.
  pool.on("error", (err: Error & { code?: string }) => {
    if (err.code !== "57P01") logger.error({ err }, "idle simulator connection failed");
  });
  const startAt = nextUtcMidnight(Date.now());
  const ctx = simulationContext(pool, config, logger, { startAt, seed: options.seed });
  const wallStart = Date.now();
  console.log(`simulating ${options.countries} AI countries for ${options.days} days, seed ${options.seed}, database ${dbName}`);
  try {
    const run = await simulateSeason(ctx, {
      ...options,
      onDay: (sample, stats) => {
        const elapsed = ((Date.now() - wallStart) / 1000).toFixed(0);
        console.log(`day ${String(sample.day).padStart(2)}: ${stats.actions} actions (${stats.refused} refused), ${sample.attacks} attacks, money ${sample.moneySupply.toLocaleString("en")}, top ${sample.top10.slice(0, 3).join(",")}... (${elapsed} s; ticks ${(stats.tickMs / 1000).toFixed(0)} s, play ${(stats.playMs / 1000).toFixed(0)} s)`);
      },
    }, startAt);
    fs.mkdirSync(out, { recursive: true });
    const command = `npm run simulate -- ${process.argv.slice(2).join(" ")}`.trim();
    fs.writeFileSync(path.join(out, "report.json"), JSON.stringify({ command, ...run }));
    fs.writeFileSync(path.join(out, "report.html"), renderSeasonHtml(run, command));
    console.log(`\nwall time ${((Date.now() - wallStart) / 1000).toFixed(0)} s; report: ${path.join(out, "report.html")}`);
    for (const check of evaluateBalance(run.days)) console.log(`${check.met ? "met   " : "MISSED"}  ${check.target}: ${check.measured}`);
  } finally {
    await pool.end();
    if (values.keep) console.log(`kept database ${dbName}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
