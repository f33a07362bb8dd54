import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { Writable } from "node:stream";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { addMember, foundAlliance, type TestPlayer } from "../test/alliances.js";

/**
 * Issue 27: once AI owners bought bonuses, seasons logged retried deadlocks around alliance
 * rows. A trade between members of two alliances credits both alliances' points in its own
 * transaction; crediting them in country order, two trades one each way took the two alliance
 * rows in opposite orders. Every path now takes alliance rows after the countries' rows and in
 * ascending alliance id order (docs/architecture.md "Lock order").
 */

let t: TestServer;
const warnings: Array<{ msg: string; action?: string; err?: { code?: string; detail?: string } }> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) warnings.push(JSON.parse(line));
      done();
    },
  });
  t = await startTestServer({ logger: pino({ level: "warn" }, sink) });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

/** Transactions run again after a deadlock or serialization failure (each is logged at warn). */
function retries(): number {
  return warnings.filter((w) => w.msg.endsWith("retried after a lock conflict")).length;
}

const list = (p: TestPlayer, quantity: number, pricePerUnit: number) => t.api("POST", "/market/listings", { countryId: p.countryId, itemType: "food", quantity, pricePerUnit }, p.token);
const buy = (p: TestPlayer, id: number, quantity: number) => t.api("POST", `/market/listings/${id}/buy`, { countryId: p.countryId, quantity }, p.token);

describe("alliance lock order (issue 27)", () => {
  let low: TestPlayer; // the lower country id, in the alliance with the higher id
  let high: TestPlayer;
  let first: { id: number };
  let second: { id: number };

  beforeAll(async () => {
    low = await registerPlayer(t, "lockLow");
    high = await registerPlayer(t, "lockHigh");
    first = await foundAlliance(t, high);
    second = await foundAlliance(t, low);
    expect(low.countryId).toBeLessThan(high.countryId);
    expect(first.id).toBeLessThan(second.id);
    await sql("UPDATE countries SET food = 10000000, cash = 100000000 WHERE id = ANY($1::bigint[])", [[low.countryId, high.countryId]]);
    await sql("UPDATE alliances SET bonus_points = 1000000 WHERE id = ANY($1::bigint[])", [[first.id, second.id]]);
  });

  it("a trade between members of two alliances credits them in ascending alliance id order, whatever the countries' order", async () => {
    const listing = await list(low, 1_000, 100);
    expect(listing.status).toBe(200);
    // the buyer's row written last: a read of both rows in table order meets the seller first
    await sql("UPDATE countries SET cash = cash + 1 WHERE id = $1", [high.countryId]);
    expect((await buy(high, listing.body.listing.id, 1_000)).status).toBe(200);
    const { rows } = await sql("SELECT alliance_id FROM alliance_point_ledger WHERE source = 'trade' AND alliance_id = ANY($1::bigint[]) ORDER BY id", [[first.id, second.id]]);
    expect(rows.map((r) => Number(r.alliance_id))).toEqual([first.id, second.id]);
  });

  it("trades both ways between two alliances and bonus purchases of both, all at once: no deadlock, not even a retried one; points conserved", async () => {
    const before = retries();
    const pointsBefore = await sql("SELECT id, bonus_points FROM alliances WHERE id = ANY($1::bigint[]) ORDER BY id", [[first.id, second.id]]);
    const ledgerBefore = await sql("SELECT alliance_id, coalesce(sum(points), 0)::bigint AS points FROM alliance_point_ledger WHERE alliance_id = ANY($1::bigint[]) GROUP BY 1", [[first.id, second.id]]);
    // 1,000 bushels at 100: 100,000 dollars a trade, 10 points for each side's alliance
    const lowListings: number[] = [];
    const highListings: number[] = [];
    for (let i = 0; i < 15; i++) {
      lowListings.push((await list(low, 1_000, 100)).body.listing.id);
      highListings.push((await list(high, 1_000, 100)).body.listing.id);
    }
    const bonuses = ["military_support", "market_discount", "collaborative_research", "intelligence_network"];
    const work: Array<Promise<{ status: number }>> = [];
    for (let i = 0; i < 15; i++) {
      work.push(buy(high, lowListings[i]!, 1_000), buy(low, highListings[i]!, 1_000));
      if (i % 3 === 0) for (const owner of [low, high]) work.push(t.api("POST", "/alliance/bonuses/purchase", { bonusId: bonuses[(i / 3) % bonuses.length] }, owner.token));
    }
    const answers = await Promise.all(work);
    for (const answer of answers) expect([200, 400]).toContain(answer.status);

    expect(warnings.filter((w) => w.err?.code === "40P01").map((w) => `${w.action}: ${w.err?.detail}`)).toEqual([]);
    expect(retries()).toBe(before);

    const { rows } = await sql(
      `SELECT a.id, a.bonus_points,
              (SELECT coalesce(sum(points), 0)::bigint FROM alliance_point_ledger l WHERE l.alliance_id = a.id) AS credited,
              (SELECT coalesce(sum(cost), 0)::bigint FROM alliance_bonus_purchases p WHERE p.alliance_id = a.id) AS spent
         FROM alliances a WHERE a.id = ANY($1::bigint[]) ORDER BY a.id`,
      [[first.id, second.id]],
    );
    rows.forEach((r, i) => {
      const creditedBefore = Number(ledgerBefore.rows.find((l) => Number(l.alliance_id) === Number(r.id))?.points ?? 0);
      const spentBefore = 0;
      expect(Number(r.bonus_points)).toBe(Number(pointsBefore.rows[i].bonus_points) + Number(r.credited) - creditedBefore - (Number(r.spent) - spentBefore));
    });
  });

  it("members' trades while the owner buys bonuses: the purchase locks the members before the alliance row, so no deadlock", async () => {
    // the purchase touches every member's row (migration 020); a member's trade holds its own
    // row and then credits the alliance: before the purchase locked the members first, the two
    // orders met as a deadlock (issue 27's seasons)
    const owner = await registerPlayer(t, "lockOwner");
    const members = [await registerPlayer(t, "lockMemA"), await registerPlayer(t, "lockMemB"), await registerPlayer(t, "lockMemC")];
    const seller = await registerPlayer(t, "lockSeller");
    const alliance = await foundAlliance(t, owner);
    for (const m of members) await addMember(t, owner, m);
    await sql("UPDATE countries SET food = 10000000, cash = 100000000 WHERE id = ANY($1::bigint[])", [[owner.countryId, seller.countryId, ...members.map((m) => m.countryId)]]);
    await sql("UPDATE alliances SET bonus_points = 1000000 WHERE id = $1", [alliance.id]);
    const listings: number[] = [];
    // bought a part at a time (a country holds a few listings at once)
    for (let i = 0; i < 4; i++) listings.push((await list(seller, 6_000, 100)).body.listing.id);
    const before = retries();
    const pointsBefore = Number((await sql("SELECT bonus_points FROM alliances WHERE id = $1", [alliance.id])).rows[0].bonus_points);
    const ledgerBefore = Number((await sql("SELECT coalesce(sum(points), 0)::bigint AS p FROM alliance_point_ledger WHERE alliance_id = $1", [alliance.id])).rows[0].p);

    const bonuses = ["military_support", "market_discount", "collaborative_research", "intelligence_network"];
    const work: Array<Promise<{ status: number }>> = [];
    for (let i = 0; i < 24; i++) {
      work.push(buy(members[i % members.length]!, listings[i % listings.length]!, 1_000));
      if (i % 2 === 0) work.push(t.api("POST", "/alliance/bonuses/purchase", { bonusId: bonuses[(i / 2) % bonuses.length] }, owner.token));
    }
    const answers = await Promise.all(work);
    for (const answer of answers) expect([200, 400]).toContain(answer.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(24);

    expect(warnings.filter((w) => w.err?.code === "40P01").map((w) => `${w.action}: ${w.err?.detail}`)).toEqual([]);
    expect(retries()).toBe(before);
    const { rows } = await sql(
      `SELECT a.bonus_points,
              (SELECT coalesce(sum(points), 0)::bigint FROM alliance_point_ledger l WHERE l.alliance_id = a.id) AS credited,
              (SELECT coalesce(sum(cost), 0)::bigint FROM alliance_bonus_purchases p WHERE p.alliance_id = a.id) AS spent
         FROM alliances a WHERE a.id = $1`,
      [alliance.id],
    );
    expect(Number(rows[0].bonus_points)).toBe(pointsBefore + Number(rows[0].credited) - ledgerBefore - Number(rows[0].spent));
  });
});
