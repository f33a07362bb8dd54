import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { createTestDatabase } from "../test/harness.js";
import { runMigrations } from "./migrate.js";
import type { Db } from "./pool.js";
import { readSnapshot } from "./rankBoard.js";
import { SharedReading } from "./sharedReading.js";
import { listCountries } from "./countries.js";

/**
 * The rank board (db/rankBoard.ts) against what Postgres counts: every rank and every page it
 * gives must be the one the per-request SQL gave, and it must read the world only once per
 * `maxAgeMs`. The countries are a mixed world: ties in networth, AI countries, eliminated
 * ones and ones at 0 (neither ranked).
 */
const COUNTRIES = 300;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.pool(4);
  await runMigrations(pool);
  await pool.query(
    `INSERT INTO countries (name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, networth, is_ai, is_eliminated)
     SELECT 'Board ' || g, 'monarchy', 1000, 10, 100, 100, 10, 100, 10, 0, 0, 0, 0,
            CASE WHEN g % 29 = 0 THEN 0 ELSE (g * 7919) % 40 * 1000 END, g % 3 = 0, g % 31 = 0
     FROM generate_series(1, $1) AS g`,
    [COUNTRIES],
  );
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** The rank as the SQL count gave it before the board: 1 + ranked countries above (networth, id). */
async function sqlRank(id: number, playersOnly: boolean): Promise<number | null> {
  const { rows } = await pool.query(
    `SELECT (SELECT count(*)::int + 1 FROM countries o
              WHERE o.networth > 0 AND NOT o.is_eliminated${playersOnly ? " AND NOT o.is_ai" : ""}
                AND (o.networth > c.networth OR (o.networth = c.networth AND o.id < c.id))) AS rank
       FROM countries c WHERE c.id = $1 AND c.networth > 0 AND NOT c.is_eliminated${playersOnly ? " AND NOT c.is_ai" : ""}`,
    [id],
  );
  return rows[0]?.rank ?? null;
}

/** A pool that counts the statements it is given (the real pool runs them). */
function counting(): { db: Db; statements: () => number } {
  let n = 0;
  const db = { query: (...args: Parameters<pg.Pool["query"]>) => (n++, (pool.query as (...a: unknown[]) => unknown)(...args)) } as unknown as Db;
  return { db, statements: () => n };
}

describe("the rank board", () => {
  it("ranks every ranked country as the SQL count does, among all and among players", async () => {
    const board = await readSnapshot(pool);
    const { rows } = await pool.query<{ id: number; networth: number; is_ai: boolean; ranked: boolean }>("SELECT id, networth, is_ai, networth > 0 AND NOT is_eliminated AS ranked FROM countries ORDER BY id");
    let checked = 0;
    for (const row of rows) {
      if (!row.ranked) continue;
      expect(board.rankOf(row.id, row.networth)).toBe(await sqlRank(row.id, false));
      if (!row.is_ai) expect(board.rankOf(row.id, row.networth, true)).toBe(await sqlRank(row.id, true));
      checked++;
    }
    expect(checked).toBeGreaterThan(COUNTRIES * 0.8);
  });

  it("moves a country's own rank at once when its networth changes after the reading", async () => {
    const board = await readSnapshot(pool);
    const { rows } = await pool.query<{ id: number; networth: number }>("SELECT id, networth FROM countries WHERE networth > 0 AND NOT is_eliminated AND NOT is_ai ORDER BY networth DESC, id LIMIT 1 OFFSET 40");
    const { id, networth } = rows[0]!;
    const before = board.rankOf(id, networth);
    for (const next of [networth + 15_500, networth - 15_500, 1_000_000, networth]) {
      await pool.query("UPDATE countries SET networth = $2 WHERE id = $1", [id, next]);
      // only this country changed since the reading: the board's answer is the count's answer
      expect(board.rankOf(id, next)).toBe(await sqlRank(id, false));
      expect(board.rankOf(id, next, true)).toBe(await sqlRank(id, true));
    }
    expect(board.rankOf(id, 1_000_000)).toBe(1);
    expect(board.rankOf(id, networth)).toBe(before);
  });

  it("gives the target list's pages and totals as ORDER BY ... OFFSET and count(*) do", async () => {
    const board = await readSnapshot(pool);
    for (const aiOnly of [false, true]) {
      const where = aiOnly ? "WHERE is_ai" : "";
      const { rows: all } = await pool.query<{ id: number }>(`SELECT id FROM countries ${where} ORDER BY networth DESC, id ASC`);
      for (const [offset, limit] of [
        [0, 60],
        [120, 60],
        [all.length - 7, 60],
        [all.length + 5, 60],
      ] as const) {
        const page = await listCountries(pool, { offset, limit, aiOnly }, board);
        expect(page.total).toBe(all.length);
        expect(page.rows.map((r) => r.id)).toEqual(all.slice(offset, offset + limit).map((r) => r.id));
      }
    }
  });

  it("reads the world once per maxAgeMs, one reading for callers at the same moment", async () => {
    const { db, statements } = counting();
    const board = new SharedReading(() => readSnapshot(db));
    const together = await Promise.all([board.current(200), board.current(200), board.current(200)]);
    expect(statements()).toBe(1);
    expect(together[1]).toBe(together[0]);
    expect(await board.current(200)).toBe(together[0]);
    expect(statements()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const later = await board.current(200);
    expect(statements()).toBe(2);
    expect(later).not.toBe(together[0]);
    // age 0: every caller gets a reading of its own, started after it asked
    await board.current(0);
    await board.current(0);
    expect(statements()).toBe(4);
  });
});
