import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { createTestDatabase, type TestDatabase } from "../test/harness.js";
import { inlineValues, readTogether } from "./readBatch.js";

/** db/readBatch.ts against a real Postgres: several reads, one check-out, one round trip, each its own answer. */

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.pool(4);
  await pool.query("CREATE TABLE things (id bigint PRIMARY KEY, name text, at timestamptz)");
  await pool.query("INSERT INTO things VALUES (1, 'one', '2026-01-01T00:00:00Z'), (2, 'it''s two', NULL), (3, 'three', now())");
});
afterAll(async () => {
  await database?.drop();
});

const named = (db: pg.Pool, id: number) => db.query<{ name: string }>({ name: "thing_name", text: "SELECT name FROM things WHERE id = $1", values: [id] }).then((r) => r.rows[0]?.name);
const count = (db: pg.Pool, ids: number[]) => db.query<{ n: number }>("SELECT count(*)::int AS n FROM things WHERE id = ANY($1::bigint[])", [ids]).then((r) => r.rows[0]!.n);

describe("readTogether", () => {
  it("sends the reads of one view on one connection, in one simple query, and answers each with its own rows", async () => {
    let checkouts = 0;
    const onAcquire = () => checkouts++;
    pool.on("acquire", onAcquire);
    try {
      const [a, b, n, none] = await readTogether(pool, (db) => [named(db, 1), named(db, 2), count(db, [1, 3, 99]), named(db, 99)] as const);
      expect([a, b, n, none]).toEqual(["one", "it's two", 2, undefined]);
      expect(checkouts).toBe(1);
    } finally {
      pool.off("acquire", onAcquire);
    }
  });

  it("a read sent after the batch left (it waited for another's answer) runs on its own, correctly", async () => {
    const [name] = await readTogether(pool, (db) => [named(db, 1).then(async (first) => `${first}+${await named(db, 3)}`)] as const);
    expect(name).toBe("one+three");
  });

  it("a failing statement rejects every read of its batch", async () => {
    const bad = (db: pg.Pool) => db.query("SELECT no_such_column FROM things");
    const results = await Promise.allSettled([readTogether(pool, (db) => [named(db, 1), bad(db)] as const)]);
    expect(results[0]!.status).toBe("rejected");
  });
});

describe("inlineValues", () => {
  it("inlines checked literals for every placeholder, negative numbers in parentheses", () => {
    expect(inlineValues("SELECT $1, $2, $3::bigint[], $10, a-$4, $5, $6", [1, "it's", [1, 2], -3, null, true, 0, 0, 0, "ten"])).toBe("SELECT 1, 'it''s', '{1,2}'::bigint[], 'ten', a-(-3), NULL, TRUE");
    expect(inlineValues("SELECT $1", [new Date("2026-01-01T00:00:00Z")])).toBe("SELECT '2026-01-01T00:00:00.000Z'::timestamptz");
  });

  it("refuses what has no exact literal (a fraction, an object, a list of strings) and a placeholder without a value", () => {
    expect(() => inlineValues("SELECT $1", [1.5])).toThrow(TypeError);
    expect(() => inlineValues("SELECT $1", [{ a: 1 }])).toThrow(TypeError);
    expect(() => inlineValues("SELECT $1", [["a"]])).toThrow(TypeError);
    expect(() => inlineValues("SELECT $2", [1])).toThrow(RangeError);
  });

  it("values travel as the same types Postgres gives parameters (dates, nulls, arrays), end to end", async () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const [rows] = await readTogether(
      pool,
      (db) => [db.query<{ id: number }>("SELECT id FROM things WHERE (at = $1 OR ($2::text IS NULL AND at IS NULL)) AND id = ANY($3::bigint[]) ORDER BY id", [at, null, [1, 2]]).then((r) => r.rows.map((x) => x.id))] as const,
    );
    expect(rows).toEqual([1, 2]);
  });
});
