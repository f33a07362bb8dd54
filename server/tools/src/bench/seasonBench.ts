/**
 * Times the rankings by metric and a season's end over many countries (docs/performance.md,
 * "Seasons and rankings by metric"). Run: npx tsx --conditions development server/tools/src/bench/seasonBench.ts [countries]
 */
import pino from "pino";
import { loadConfig } from "@game/server/config";
import { runMigrations } from "@game/server/db/migrate";
import { createTestDatabase } from "@game/server/test/harness";
import { insertCountries, tickContext } from "@game/server/tick/testSupport";
import { topByMetric } from "@game/server/db/rankingMetrics";
import { endSeason } from "@game/server/services/seasonLifecycle";

const count = Number(process.argv[2] ?? 100_000);
const database = await createTestDatabase();
const pool = database.pool(4);
try {
  await runMigrations(pool);
  await insertCountries(pool, count, 100, 0, "bench");
  await pool.query("UPDATE countries SET networth = 1000 + (random() * 1000000)::int, land = 100 + (random() * 10000)::int, population = (random() * 100000)::int");
  await pool.query("INSERT INTO country_snapshots (taken_on, country_id, networth, land, military, population, wars_won) SELECT (now() AT TIME ZONE 'UTC')::date, id, networth, land, troops, population, victories FROM countries");
  await pool.query("ANALYZE");
  for (const metric of ["networth", "land", "population"] as const) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await topByMetric(pool, metric, "weekly", 100);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`GET /rankings/${metric}?period=weekly&limit=100 over ${count} countries: median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms`);
  }
  const ctx = tickContext(pool, loadConfig({ logLevel: "silent" }));
  (ctx as { logger: unknown }).logger = pino({ level: "silent" });
  const t0 = performance.now();
  const change = await endSeason(ctx, { now: Date.now(), startNext: true, onlyIfDue: false });
  console.log(`season end over ${count} countries: ${(performance.now() - t0).toFixed(0)} ms (archived ${change.archived}, reset ${change.reset})`);
} finally {
  await pool.end().catch(() => undefined);
  await database.drop();
}
