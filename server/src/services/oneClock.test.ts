import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { foundAlliance } from "../test/alliances.js";

let t: TestServer;
const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

/** Waits until `count` statements of this database wait for a lock. */
async function untilWaitingOnLocks(count: number): Promise<void> {
  for (;;) {
    const { rows } = await sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (rows[0].n >= count) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("issue 28: one clock for every record a transaction writes", () => {
  it("a bonus purchase applied before the owner's leave disbands the alliance is recorded before the disband", async () => {
    const owner = await registerPlayer(t, "clock");
    const alliance = await foundAlliance(t, owner);
    await sql("UPDATE alliances SET bonus_points = 10000 WHERE id = $1", [alliance.id]);

    // Both actions queue on the owner's country: the purchase first, then the leave whose
    // transaction has started (Postgres now() is then) while the purchase still waits.
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    let purchase: Promise<{ status: number }>;
    let leave: Promise<{ status: number }>;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM countries WHERE id = $1 FOR UPDATE", [owner.countryId]);
      purchase = t.api("POST", "/alliance/bonuses/purchase", { bonusId: "military_support" }, owner.token);
      await untilWaitingOnLocks(1);
      leave = t.api("POST", "/alliance/leave", {}, owner.token);
      await untilWaitingOnLocks(2);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect((await purchase!).status).toBe(200);
    expect((await leave!).status).toBe(200);

    const { rows } = await sql(`SELECT p.purchased_at, a.disbanded_at FROM alliance_bonus_purchases p JOIN alliances a ON a.id = p.alliance_id WHERE a.id = $1`, [alliance.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].disbanded_at).not.toBeNull();
    // applied in this order, so recorded in this order
    expect(rows[0].purchased_at.getTime()).toBeLessThanOrEqual(rows[0].disbanded_at.getTime());
  });
});
