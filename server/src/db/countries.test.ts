import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startingCountry } from "@game/schema/rules";
import { createTestDatabase } from "../test/harness.js";
import { runMigrations } from "./migrate.js";
import { COUNTRY_COLUMNS, countryWriteStatement, insertCountry, rowToState, type CountryRow } from "./countries.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = database.pool(2);
  await runMigrations(pool);
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

async function freshCountry(name: string): Promise<CountryRow> {
  const client = await pool.connect();
  try {
    return await insertCountry(client, null as unknown as number, name, startingCountry());
  } finally {
    client.release();
  }
}

const read = async (id: number) => (await pool.query<CountryRow>(`SELECT ${COUNTRY_COLUMNS} FROM countries WHERE id = $1`, [id])).rows[0]!;

describe("countryWriteStatement", () => {
  it("writes only the columns whose value changes, and the row it promises is the row stored", async () => {
    const row = await read((await freshCountry("Narrow Write")).id);
    const state = rowToState(row);
    const next = { ...state, cash: state.cash - 500, turns: state.turns - 1, land: state.land + 45, buildings: { ...state.buildings, farms: state.buildings.farms + 2 } };
    const now = new Date(Date.now() + 60_000);
    const { sql, after } = countryWriteStatement(row, next, now);
    const assigned = [...sql.matchAll(/(\w+) = /g)].map((m) => m[1]);
    // the changed numbers (networth follows land and buildings), the timestamps, the id in WHERE
    expect(new Set(assigned)).toEqual(new Set(["cash", "turns", "land", "farms", "networth", "updated_at", "last_active", "id"]));
    await pool.query(sql);
    const stored = await read(row.id);
    expect(rowToState(stored)).toEqual(next);
    expect(stored.networth).toBe(after.networth);
    expect(stored.updated_at.getTime()).toBe(now.getTime());
    expect(rowToState(after)).toEqual(next);
  });

  it("an unchanged state writes only the timestamps; a patch is written beside it", async () => {
    const row = await read((await freshCountry("Idle Write")).id);
    const { sql } = countryWriteStatement(row, rowToState(row), new Date());
    expect([...sql.matchAll(/(\w+) = /g)].map((m) => m[1])).toEqual(["updated_at", "last_active", "id"]);
    const patched = countryWriteStatement(row, rowToState(row), new Date(), { victories: row.victories + 1 });
    await pool.query(patched.sql);
    expect((await read(row.id)).victories).toBe(row.victories + 1);
  });
});
