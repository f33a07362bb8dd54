/**
 * Seeds N player accounts and countries for a large load test without N argon2 hashes, and
 * writes them as a load-tester credentials file (`npm run loadtest -- --reuse FILE`).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/lt_10k JWT_SECRET=... \
 *     npx tsx --conditions development server/tools/src/bench/seedCountries.ts \
 *       --countries 10000 --out loadtest/reports/seed-10k/credentials.json --target http://127.0.0.1:3400
 *
 * Registration hashes each password with argon2id (about 50 ms of CPU each: 10,000 accounts
 * are 8 to 10 minutes of both cores). Here every account gets the same password, hashed once,
 * and is written by registration's own `insertAccount` (user, name keys, the starting country,
 * new-player protection from the config), 500 to a transaction. Each account's access token
 * is issued with the server's secret, so the load tester's `--reuse` keeps it (one
 * GET /api/user/me per bot) instead of logging in (argon2 again).
 *
 * The configuration is the server's (config.ts): run it with the environment the server will
 * run with, at least DATABASE_URL and JWT_SECRET (or the same DATA_DIR, where an unset secret
 * is kept), and NEW_PLAYER_PROTECTION_HOURS / TOKEN_TTL_SECONDS if the server sets them.
 * Migrations are applied first, so a fresh database works.
 *
 * Options: --countries N (default 1000), --out FILE (required), --target ORIGIN (written into
 * the file; default http://127.0.0.1:3000), --prefix P (usernames P0..P{N-1}; default "lts",
 * digits only after it, so no two fold together as lookalikes), --password (default a fixed
 * load-test password), --developed (mid-season countries instead of starting ones; below).
 *
 * --developed: a fresh country has 100 acres of free land and nothing else to do but build,
 * so a short run of the AI strategies would be all builds. With this flag each country is
 * written as a mid-season one (developedCountry in seedAccounts.ts: about 1,500 acres, all of it built, labs,
 * research points, food to sell, an army) scaled 0.6x..1.4x by its index, so networths
 * differ, the strategies have every choice (build, research, store sell, explore, attack)
 * and the attack band and target lists mean something.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { resolveJwtSecret, TokenService } from "@game/server/auth/tokens";
import { loadConfig } from "@game/server/config";
import { runMigrations } from "@game/server/db/migrate";
import { systemClock } from "@game/server/services/context";
import { createLogger } from "@game/server/logger";
import { seedAccounts } from "./seedAccounts.js";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      countries: { type: "string", default: "1000" },
      out: { type: "string" },
      target: { type: "string", default: "http://127.0.0.1:3000" },
      prefix: { type: "string", default: "lts" },
      password: { type: "string", default: "loadtest-seeded-password" },
      developed: { type: "boolean", default: false },
    },
  });
  const count = Number(values.countries);
  if (!Number.isInteger(count) || count <= 0) throw new Error(`--countries must be a positive whole number, got ${values.countries}`);
  if (!values.out) throw new Error("--out FILE is required (where the credentials file is written)");
  if (!/^[a-z]{1,8}$/.test(values.prefix)) throw new Error("--prefix must be 1 to 8 lowercase letters");
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error("DATABASE_URL is required (the embedded database is one process's)");
  const logger = createLogger(config.logLevel);
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
  try {
    await runMigrations(pool);
    const started = performance.now();
    const tokens = new TokenService(resolveJwtSecret(config), pool, config.tokenTtlSeconds);
    const bots = await seedAccounts(
      { db: pool, config, clock: systemClock, tokens },
      { count, prefix: values.prefix, password: values.password, developed: values.developed, onProgress: (seeded) => logger.info({ seeded, of: count }, "seeding") },
    );
    fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
    fs.writeFileSync(values.out, JSON.stringify({ version: 1, target: values.target, createdAt: new Date().toISOString(), bots }, null, 1), { mode: 0o600 });
    logger.info({ countries: count, seconds: Math.round((performance.now() - started) / 100) / 10, out: values.out }, "seeded");
  } finally {
    await pool.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
