import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase } from "../test/harness.js";
import { GroupedWrites } from "./groupedWrites.js";
import { sqlLiteral } from "./sqlLiteral.js";
import { Statement } from "./statement.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.pool(4);
  await pool.query("CREATE TABLE written (seq bigserial PRIMARY KEY, country_id bigint NOT NULL, tx text NOT NULL)");
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** A write that records which country wrote, in which transaction, in what order. */
const record = (countryId: number) => new Statement().sql("INSERT INTO written (country_id, tx) VALUES (").value(sqlLiteral(countryId)).sql(", txid_current()::text) RETURNING seq::int, tx");

describe("GroupedWrites", () => {
  it("writes that arrive while a batch is in flight go together: one transaction, in country id order", async () => {
    const writes = new GroupedWrites(pool, 1, 32);
    const countries = [50, 7, 31, 2, 19, 44, 3];
    const results = await Promise.all(countries.map((id) => writes.write(id, record(id))));
    const rows = results.map((r) => r[0] as { seq: number; tx: string });
    // the first went alone; the six that waited behind it shared one transaction
    expect(new Set(rows.slice(1).map((r) => r.tx)).size).toBe(1);
    expect(rows[0]!.tx).not.toBe(rows[1]!.tx);
    // and ran in ascending country id, the order every action locks in
    const waited = countries.slice(1).map((id, i) => ({ id, seq: rows[i + 1]!.seq }));
    expect([...waited].sort((a, b) => a.seq - b.seq).map((w) => w.id)).toEqual([...countries.slice(1)].sort((a, b) => a - b));
  });

  it("a write that fails fails alone: the others of its batch are written, once", async () => {
    await pool.query("TRUNCATE written");
    const writes = new GroupedWrites(pool, 1, 32);
    const outcomes = await Promise.allSettled([writes.write(1, record(1)), writes.write(2, record(2)), writes.write(3, new Statement().sql("SELECT 1 / ").value(sqlLiteral(0))), writes.write(4, record(4))]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    const { rows } = await pool.query("SELECT country_id::int FROM written ORDER BY country_id");
    expect(rows.map((r) => r.country_id)).toEqual([1, 2, 4]);
  });

  it("never more batches in flight than allowed, nor more statements in one than allowed", async () => {
    await pool.query("TRUNCATE written");
    const writes = new GroupedWrites(pool, 2, 3);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => writes.write(i + 1, record(i + 1))));
    const byTx = new Map<string, number>();
    for (const [row] of results as Array<Array<{ tx: string }>>) byTx.set(row!.tx, (byTx.get(row!.tx) ?? 0) + 1);
    expect(Math.max(...byTx.values())).toBeLessThanOrEqual(3);
    expect([...byTx.values()].reduce((a, b) => a + b, 0)).toBe(20);
    // 20 writes, at most 3 a batch, so at least 7 transactions; and batching did happen
    expect(byTx.size).toBeGreaterThanOrEqual(7);
    expect(byTx.size).toBeLessThan(20);
  });

  describe("prepared shapes", () => {
    let single: pg.Pool;
    beforeAll(() => {
      single = database.pool(1);
    });
    afterAll(async () => {
      await single?.end();
    });
    const preparedHere = async () => (await single.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'grouped_%'")).rows;

    it("a shape is prepared once per connection, then executed by name with each write's values", async () => {
      await single.query("TRUNCATE written");
      const writes = new GroupedWrites(single, 1, 32);
      for (const id of [5, 6, 7]) await writes.write(id, record(id));
      await Promise.all([8, 9, 10].map((id) => writes.write(id, record(id))));
      const prepared = await preparedHere();
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.statement).toContain("VALUES ($1, txid_current()::text)");
      expect(writes.preparedShapes).toBe(1);
      const { rows } = await single.query("SELECT country_id::int FROM written ORDER BY country_id");
      expect(rows.map((r) => r.country_id)).toEqual([5, 6, 7, 8, 9, 10]);
      // another instance on the same connection finds the shape already prepared (same name)
      await new GroupedWrites(single, 1, 32).write(11, record(11));
      expect(await preparedHere()).toHaveLength(1);
    });

    it("a shape Postgres cannot prepare, and shapes beyond the limit, run as text", async () => {
      const writes = new GroupedWrites(single, 1, 32, 2);
      // unknown + unknown: PREPARE cannot choose the operator, the statement with its literals can
      const untyped = (a: number, b: number) => new Statement().sql("SELECT ").value(sqlLiteral(a)).sql(" + ").value(sqlLiteral(b)).sql(" AS v");
      expect(await writes.write(1, untyped(1, 2))).toEqual([{ v: 3 }]);
      expect(await writes.write(1, untyped(3, 4))).toEqual([{ v: 7 }]);
      expect(writes.preparedShapes).toBe(0);
      const typed = (n: number) => new Statement().sql(`SELECT ${n} + `).value(sqlLiteral(n), "int").sql(" AS v");
      expect(await writes.write(1, typed(1))).toEqual([{ v: 2 }]); // prepared: the second shape
      expect(await writes.write(1, typed(2))).toEqual([{ v: 4 }]); // the third: as text
      expect(writes.preparedShapes).toBe(1);
    });
  });
});
