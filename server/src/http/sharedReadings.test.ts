import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";

/**
 * The world's rankings read once per `rankingsMaxAgeMs` and shared by every request
 * (docs/architecture.md "The rank board"), at an age long enough that nothing is read again
 * by time during the test: what a player sees must still be right where it matters.
 */
let t: TestServer;
const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const FLAG = { backgroundColor: "#102030", symbol: "⚔", symbolColor: "#ffffff" };

beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0, rankingsMaxAgeMs: 600_000 });
});

afterAll(async () => {
  await t?.close();
});

describe("the shared rankings at their production age", () => {
  it("a player's own networth moves their rank at once; other countries' moves wait for the next reading", async () => {
    const a = await registerPlayer(t, "sra");
    const b = await registerPlayer(t, "srb");
    await sql("UPDATE countries SET networth = 2000 WHERE id = $1", [a.countryId]);
    await sql("UPDATE countries SET networth = 1000 WHERE id = $1", [b.countryId]);
    const rankOf = async (p: typeof a) => (await t.api("GET", "/rankings/networth?limit=1", undefined, p.token)).body.data.find((r: { countryId: number }) => r.countryId === p.countryId);
    const before = (await rankOf(b)).rank; // the board is read here
    expect((await rankOf(a)).rank).toBe(before - 1);

    await sql("UPDATE countries SET networth = 3000 WHERE id = $1", [b.countryId]);
    // b's own row is read fresh and placed on the board: above a at once
    expect((await rankOf(b)).rank).toBe(before - 1);
    // a is placed against b's networth as the board read it (1000): still ahead of b there
    expect((await rankOf(a)).rank).toBe(before - 1);
  });

  it("a country registered after the reading is on this process's next target list", async () => {
    const a = await registerPlayer(t, "srl");
    const first = await t.api("GET", "/countries?limit=500", undefined, a.token);
    const late = await registerPlayer(t, "srlate");
    const next = await t.api("GET", "/countries?limit=500", undefined, a.token);
    expect(next.body.total).toBe(first.body.total + 1);
    expect(next.body.countries.map((c: { id: number }) => c.id)).toContain(late.countryId);
  });

  it("an alliance founded after the reading is on this process's next alliance list", async () => {
    const a = await registerPlayer(t, "srf");
    const before = await t.api("GET", "/alliance/list?limit=50", undefined, a.token);
    expect(before.status).toBe(200);
    const created = await t.api("POST", "/alliance/create", { name: "Shared Reading Pact", tag: "SRP", flag: FLAG }, a.token);
    expect(created.status).toBe(201);
    const after = await t.api("GET", "/alliance/list?limit=50&search=reading", undefined, a.token);
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.data.map((x: { tag: string }) => x.tag)).toContain("SRP");
  });
});
