import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startingCountry } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { AUDITED, auditTotals, conservationErrors, diffTotals, type AuditHolding } from "./audit.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const START = startingCountry();
const startOf = {
  cash: START.cash,
  food: START.food,
  oil: START.oil,
  troops: START.troops,
  jets: START.jets,
  turrets: START.turrets,
  tanks: START.tanks,
  spies: START.spies,
  missiles: START.missiles,
  land: START.land,
  turns: START.turns,
  stored_turns: START.storedTurns,
};

describe("the conservation audit (money, goods, units, land and turns)", () => {
  it("totals three new countries as three starting countries", async () => {
    const before = await auditTotals(t.server.database.pool);
    for (let i = 0; i < 3; i++) await registerPlayer(t, `audit${i}x`);
    const after = await auditTotals(t.server.database.pool);
    expect(conservationErrors(before, after, Object.fromEntries(AUDITED.map((q) => [q, 3 * startOf[q]])))).toEqual([]);
  });

  it("an exploration changes the totals by exactly what its turn result documents", async () => {
    const p = await registerPlayer(t, "auditexp");
    const before = await auditTotals(t.server.database.pool);
    const res = await t.api("POST", "/exploration/explore", { countryId: p.countryId, turnsToSpend: 2 }, p.token);
    expect(res.status).toBe(200);
    const after = await auditTotals(t.server.database.pool);
    const effects = res.body.turnResult.economicEffects;
    const produced = res.body.turnResult.militaryProduced;
    expect(
      conservationErrors(before, after, {
        turns: -2,
        land: res.body.acresGained,
        cash: effects.netCashChange - res.body.totalCost,
        food: effects.netFoodChange,
        oil: effects.netOilChange,
        troops: produced.troops,
        jets: produced.jets,
        turrets: produced.turrets,
        tanks: produced.tanks,
      }),
    ).toEqual([]);
  });

  it("counts what a holding keeps outside the countries, and reports what a broken transfer lost", async () => {
    const db = t.server.database.pool;
    await db.query("CREATE TABLE audit_test_escrow (id serial PRIMARY KEY, country_id bigint NOT NULL, cash bigint NOT NULL, troops bigint NOT NULL)");
    const escrow: AuditHolding = { name: "test escrow", sql: "SELECT COALESCE(sum(cash), 0) AS cash, COALESCE(sum(troops), 0) AS troops FROM audit_test_escrow" };
    const p = await registerPlayer(t, "auditesc");
    const before = await auditTotals(db, [escrow]);
    // a listing: cash and troops move from the country into escrow in one transaction
    await db.query(
      `WITH debit AS (UPDATE countries SET cash = cash - 500, troops = troops - 10 WHERE id = $1 RETURNING id)
       INSERT INTO audit_test_escrow (country_id, cash, troops) SELECT id, 500, 10 FROM debit`,
      [p.countryId],
    );
    const moved = await auditTotals(db, [escrow]);
    expect(conservationErrors(before, moved)).toEqual([]);
    // without the holding the audit sees them gone
    expect(diffTotals(before, await auditTotals(db, [])).cash).toBe(-500n);
    // a bug: the escrow row deleted without paying anyone
    await db.query("DELETE FROM audit_test_escrow");
    expect(conservationErrors(before, await auditTotals(db, [escrow]))).toEqual(["cash: changed by -500, documented 0", "troops: changed by -10, documented 0"]);
    await db.query("DROP TABLE audit_test_escrow");
  });

  it("reads one snapshot: totals stay exact while cash moves between a country and a holding", async () => {
    const db = t.server.database.pool;
    await db.query("CREATE TABLE audit_test_vault (country_id bigint PRIMARY KEY, cash bigint NOT NULL)");
    const p = await registerPlayer(t, "auditsnap");
    await db.query("INSERT INTO audit_test_vault VALUES ($1, 0)", [p.countryId]);
    // a pause between reading the countries and reading the vault, where a transfer can commit
    const holdings: AuditHolding[] = [
      { name: "pause", sql: "SELECT 0 AS cash FROM pg_sleep(0.01)" },
      { name: "vault", sql: "SELECT COALESCE(sum(cash), 0) AS cash FROM audit_test_vault" },
    ];
    const before = await auditTotals(db, holdings);
    let running = true;
    const transfers = (async () => {
      for (let i = 0; running; i++) {
        const amount = i % 2 ? 7 : -7;
        await db.query(
          `WITH moved AS (UPDATE countries SET cash = cash - $2 WHERE id = $1 RETURNING id)
           UPDATE audit_test_vault SET cash = cash + $2 WHERE country_id IN (SELECT id FROM moved)`,
          [p.countryId, amount],
        );
      }
    })();
    const reads = [];
    for (let i = 0; i < 20; i++) reads.push(conservationErrors(before, await auditTotals(db, holdings)));
    running = false;
    await transfers;
    await db.query("DROP TABLE audit_test_vault");
    expect(reads.flat()).toEqual([]);
  });
});
