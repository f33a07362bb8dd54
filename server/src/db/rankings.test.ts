import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase } from "../test/harness.js";
import { runMigrations } from "./migrate.js";
import { rankBoardOf } from "./rankBoard.js";
import { ensureDailySnapshot, rankedCountry, topByNetworth, TOP_BY_NETWORTH_SQL } from "./rankings.js";

/** The issue asks for rankings that stay fast at 100,000 countries: seed that many and look. */
const COUNTRIES = 100_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.pool(2);
  await runMigrations(pool);
  await pool.query(
    `INSERT INTO countries (name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, networth, is_ai)
     SELECT 'AI ' || g, 'monarchy', 100000, 100, 100, 10000, 100, 1000, 100, 0, 100, 10,
            0, (g * 7919) % 5000000, true
     FROM generate_series(1, $1) AS g`,
    [COUNTRIES],
  );
  await pool.query("ANALYZE countries");
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

describe(`rankings at ${COUNTRIES.toLocaleString("en")} countries`, () => {
  it("reads the top 100 through countries_networth_rank, in a few milliseconds", async ({ annotate }) => {
    const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) ${TOP_BY_NETWORTH_SQL.replace("$1", "100")}`);
    const plan = JSON.stringify(rows[0]["QUERY PLAN"]);
    expect(plan).toContain("countries_networth_rank");
    expect(plan).not.toMatch(/"Node Type":"Sort"[^}]*"Relation Name":"countries"/);

    await topByNetworth(pool, 100); // warm
    const samples = [];
    for (let i = 0; i < 20; i++) samples.push((await timed(() => topByNetworth(pool, 100))).ms);
    samples.sort((x, y) => x - y);
    const median = samples[10]!;
    // Generous bound for a shared CI machine; docs/performance.md records the measured figure.
    expect(median).toBeLessThan(50);
    const top = await topByNetworth(pool, 100);
    expect(top).toHaveLength(100);
    expect(top.map((r) => r.networth)).toEqual([...top.map((r) => r.networth)].sort((x, y) => y - x));
    await annotate(`top 100 of ${COUNTRIES}: median ${median.toFixed(2)} ms`);
  });

  it("ranks the last country with the same order as the top list", async ({ annotate }) => {
    const { rows } = await pool.query("SELECT id FROM countries WHERE networth > 0 ORDER BY networth ASC, id DESC LIMIT 1");
    const { ms, value } = await timed(async () => rankedCountry(pool, rows[0].id, await rankBoardOf(pool).current(0)));
    const { rows: count } = await pool.query("SELECT count(*)::int AS n FROM countries WHERE networth > 0");
    expect(value!.rank).toBe(count[0].n);
    await annotate(`rank of the last of ${count[0].n}: ${ms.toFixed(2)} ms`);
    expect(ms).toBeLessThan(500);
  });

  it("takes the daily snapshot once", async ({ annotate }) => {
    const first = await timed(() => ensureDailySnapshot(pool));
    expect(first.value).toBe(true);
    expect(await ensureDailySnapshot(pool)).toBe(false);
    await annotate(`daily snapshot of ${COUNTRIES}: ${first.ms.toFixed(0)} ms`);
  });
});
