import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { COUNTRY_FIELDS } from "@game/schema/api";
import { computeProtectionStatus, startingCountry, type CountryState } from "@game/schema/rules";
import { createTestDatabase } from "../test/harness.js";
import { runMigrations } from "./migrate.js";
import { COUNTRY_COLUMNS, countryWriteStatement, insertCountry, rowToState, toOwnCountryJson, toPublicCountryJson, type CountryRow } from "./countries.js";

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

/** The descriptor read plainly, one field at a time: what the compiled mappings must give. */
const plain = {
  rowToState(row: CountryRow): CountryState {
    const state: Record<string, unknown> = {};
    for (const field of COUNTRY_FIELDS) {
      if (field.state === undefined) continue;
      const path = field.state.split(".");
      let node = state;
      for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]!] = row[field.key as keyof CountryRow];
    }
    return state as unknown as CountryState;
  },
  view(row: CountryRow, view: "public" | "own"): Record<string, unknown> {
    const json: Record<string, unknown> = {};
    for (const field of COUNTRY_FIELDS.filter((f) => f.view === view)) {
      const value = row[field.key as keyof CountryRow] as unknown;
      json[field.key] = value == null ? null : field.format === "numeric" ? String(value) : field.format === "time" ? (value as Date).toISOString() : value;
    }
    return json;
  },
};

describe("the mappings compiled from COUNTRY_FIELDS", () => {
  it("agree with the descriptor read plainly, key for key and in its order, on a stored row", async () => {
    const stored = await read((await freshCountry("Compiled Views")).id);
    const row = { ...stored, alliance_id: null, cash: 123456789012 as unknown as CountryRow["cash"], victories: 3 } as CountryRow;
    const now = Date.now();
    const protection = computeProtectionStatus({ protectedUntil: row.protected_until.getTime(), gdiMember: row.gdi_protection }, now);

    expect(rowToState(row)).toEqual(plain.rowToState(row));
    expect(JSON.stringify(rowToState(row))).toBe(JSON.stringify(plain.rowToState(row)));

    const publicJson = toPublicCountryJson(row, now);
    expect(Object.keys(publicJson)).toEqual([...Object.keys(plain.view(row, "public")), "protection_status"]);
    expect(publicJson).toEqual({ ...plain.view(row, "public"), protection_status: protection });
    expect(publicJson).not.toHaveProperty("cash");

    const own = toOwnCountryJson(row);
    const expected = {
      ...plain.view(row, "public"),
      protection_status: own.protection_status,
      ...plain.view(row, "own"),
      unit_allocation: { troops: row.alloc_troops, jets: row.alloc_jets, turrets: row.alloc_turrets, tanks: row.alloc_tanks },
    };
    expect(JSON.stringify(own)).toBe(JSON.stringify(expected));
    expect(own.cash).toBe("123456789012");
    expect(own.alliance_id).toBeNull();
    expect(own.created_at).toBe(row.created_at.toISOString());
  });

  it("write back what they read: a state read from a row writes no column but the timestamps", async () => {
    const row = await read((await freshCountry("Round Trip")).id);
    const { sql, after } = countryWriteStatement(row, rowToState(row), new Date());
    expect([...sql.matchAll(/(\w+) = /g)].map((m) => m[1])).toEqual(["updated_at", "last_active", "id"]);
    expect(rowToState(after)).toEqual(rowToState(row));
  });
});
