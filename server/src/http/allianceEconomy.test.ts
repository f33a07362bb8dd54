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
    await sql("INSERT INTO alliance_bonus_purchases (alliance_id, bonus_id, level, cost, purchased_at, expires_at, purchased_by_name) VALUES ($1, 'research_sprint', 1, 250, now() - interval '7 hours', now() - interval '1 hour', 'x')", [alliance.id]);
    expect(await gained()).toBe(Math.floor((base * 130) / 100));
  });
});
