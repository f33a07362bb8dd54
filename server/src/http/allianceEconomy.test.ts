import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeResearchPointsPerTurn, startingCountry } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { foundAlliance } from "../test/alliances.js";

/** Alliance and diplomatic bonuses in the economy turn: research points and tax income. */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;

describe("economy bonuses", () => {
  it("Collaborative Research and a research relation add to the points a turn of research generates", async () => {
    const [p, partner] = await Promise.all([registerPlayer(t, "er"), registerPlayer(t, "ep")]);
    await sql("UPDATE countries SET research_labs = 4 WHERE id = $1", [p.countryId]);
    const base = computeResearchPointsPerTurn({ ...startingCountry(), governmentType: "monarchy", buildings: { ...startingCountry().buildings, research_labs: 4 } });
    const gained = async () => {
      const res = await t.api("POST", "/research/generate", { countryId: p.countryId }, p.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.turnResult.researchPointsGained;
    };
    expect(await gained()).toBe(base);

    const alliance = await foundAlliance(t, p);
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name) VALUES ($1, 'collaborative_research', 1, 800, 'x'), ($1, 'collaborative_research', 2, 960, 'x')", [alliance.id]);
    expect(await gained()).toBe(Math.floor((base * 110) / 100));

    const sent = await t.api("POST", "/diplomacy/proposals", { toCountryId: partner.countryId, relationType: "research" }, p.token);
    expect((await t.api("POST", `/diplomacy/proposals/${sent.body.data.proposal.id}/accept`, {}, partner.token)).status).toBe(200);
    expect(await gained()).toBe(Math.floor((base * 130) / 100));

    // A Research Sprint that ran out adds nothing.
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_at, expires_at, purchased_by_name) VALUES ($1, 'research_sprint', 1, 250, now() - interval '7 hours', now() - interval '1 hour', 'x')", [
      alliance.id,
    ]);
    expect(await gained()).toBe(Math.floor((base * 130) / 100));
  });

  it("whatever changes a country's bonus inputs moves its row's version, and only its row's (migration 020)", async () => {
    const [owner, member, outsider, partner] = await Promise.all([registerPlayer(t, "vo"), registerPlayer(t, "vm"), registerPlayer(t, "vx"), registerPlayer(t, "vp")]);
    const alliance = await foundAlliance(t, owner);
    await sql("UPDATE countries SET alliance_id = $1 WHERE id = $2", [alliance.id, member.countryId]);
    const ids = [owner.countryId, member.countryId, outsider.countryId, partner.countryId];
    const versions = async () => new Map((await sql("SELECT id, xmin::text AS version FROM countries WHERE id = ANY($1)", [ids])).map((r) => [Number(r.id), r.version as string]));
    /** Which of the four countries' rows got a new version from `change`. */
    const moved = async (change: () => Promise<unknown>) => {
      const before = await versions();
      await change();
      const after = await versions();
      return ids.filter((id) => before.get(id) !== after.get(id));
    };

    const [{ id: purchase }] = await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_by_name) VALUES ($1, 'collaborative_research', 1, 800, 'x') RETURNING id", [alliance.id]);
    expect(await moved(() => sql("UPDATE alliance_bonus_purchases SET level = 2 WHERE id = $1", [purchase]))).toEqual([owner.countryId, member.countryId]);
    expect(await moved(() => sql("UPDATE alliance_bonus_purchases SET end_announced = true WHERE id = $1", [purchase]))).toEqual([]);
    expect(await moved(() => sql("DELETE FROM alliance_bonus_purchases WHERE id = $1", [purchase]))).toEqual([owner.countryId, member.countryId]);

    const [{ id: relation }] = await sql("INSERT INTO diplomatic_relations (relation_type, from_country_id, to_country_id, can_cancel_after, daily_cost) VALUES ('research', $1, $2, now(), 0) RETURNING id", [
      outsider.countryId,
      partner.countryId,
    ]);
    expect(await moved(() => sql("UPDATE diplomatic_relations SET status = 'cancelled' WHERE id = $1", [relation]))).toEqual([outsider.countryId, partner.countryId]);
    expect(await moved(() => sql("UPDATE diplomatic_relations SET total_paid = 5 WHERE id = $1", [relation]))).toEqual([]);
  });
});
