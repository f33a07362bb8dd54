import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { exploreLand } from "../services/economy.js";
import { auditDifference, auditTotals } from "./audit.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe("auditTotals", () => {
  it("sums every country, and an escrow counts as held", async () => {
    const a = await registerPlayer(t, "audA");
    await registerPlayer(t, "audB");
    const before = await auditTotals(t.server.database.pool, []);
    expect(before.cash).toBe(200_000);
    expect(before.troops).toBe(200);
    expect(before.land).toBe(200);
    // A documented sink: exploring spends cash and creates land; the audit shows exactly that.
    const { extra } = await exploreLand(t.server.ctx, a.user.id, a.countryId, 1);
    const after = await auditTotals(t.server.database.pool, []);
    expect(auditDifference(before, after).land).toBe(extra.acresGained);
    // An escrow holding 500 cash: moving cash from a country into it leaves the totals equal.
    await t.server.database.pool.query("CREATE TABLE test_escrow (cash bigint NOT NULL)");
    const escrow = { name: "test", sql: "SELECT coalesce(sum(cash), 0) AS cash FROM test_escrow" };
    const held = await auditTotals(t.server.database.pool, [escrow]);
    await t.server.database.pool.query("BEGIN; UPDATE countries SET cash = cash - 500 WHERE id = $1; INSERT INTO test_escrow VALUES (500); COMMIT".replace("$1", String(a.countryId)));
    const moved = await auditTotals(t.server.database.pool, [escrow]);
    expect(auditDifference(held, moved)).toEqual({});
    expect(moved.byEscrow.test).toEqual({ cash: 500 });
  });
});
