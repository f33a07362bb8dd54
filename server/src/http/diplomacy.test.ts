import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUtc } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { countryTopic, type GameEvent } from "../events.js";
import { foundAlliance } from "../test/alliances.js";

/** Diplomacy over REST against real Postgres: proposals, mutual proposals, answers, the cancel lock. */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;
const relations = async (p: { countryId: number; token: string }) => (await t.api("GET", `/diplomatic-relations/${p.countryId}`, undefined, p.token)).body.data;

describe("diplomacy", () => {
  it("a proposal waits 3 days for the partner, who accepts it: both hold the relation and pay for it", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "pa"), registerPlayer(t, "pb")]);
    const heard: GameEvent[] = [];
    const off = t.server.ctx.events.subscribe(countryTopic(b.countryId), (e) => heard.push(e));
    await t.server.ctx.events.ready();
    const sent = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "defensive", message: "stand with us" }, a.token);
    expect(sent.status).toBe(201);
    const proposal = sent.body.data.proposal;
    expect(proposal).toMatchObject({ fromCountryId: a.countryId, toCountryId: b.countryId, relationType: "defensive", status: "pending", message: "stand with us" });
    expect(Date.parse(proposal.expiresAt) - Date.parse(proposal.proposedAt)).toBe(3 * 86_400_000);
    expect((await relations(a)).outgoing).toHaveLength(1);
    expect((await relations(b)).incoming).toEqual([expect.objectContaining({ id: proposal.id, fromCountryName: a.body.countryName })]);
    await new Promise((r) => setTimeout(r, 100));
    off();
    expect(heard.some((e) => e.type === "notice" && e.notice.kind === "diplomacy_proposal")).toBe(true);

    // Only the addressee answers.
    expect((await t.api("POST", `/diplomacy/proposals/${proposal.id}/accept`, {}, a.token)).status).toBe(403);
    const accepted = await t.api("POST", `/diplomacy/proposals/${proposal.id}/accept`, {}, b.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.relation).toMatchObject({ relationType: "defensive", partnerId: a.countryId, dailyCost: 100, pays: true, status: "active" });
    const mine = await relations(a);
    expect(mine.incoming).toEqual([]);
    expect(mine.outgoing).toEqual([]);
    expect(mine.active).toEqual([expect.objectContaining({ relationType: "defensive", partnerName: b.body.countryName, benefits: { combatBonus: 25, marketFeeReduction: 0, spyBonus: 0, tradeBonus: 0, techSharing: 0 } })]);
    expect(mine.dailyTotal).toBe(100);
    const news = await sql("SELECT kind, category FROM news_items WHERE params->'a'->>'id' = $1::text OR country_id = $2 ORDER BY id", [a.countryId, b.countryId]);
    expect(news.map((n) => `${n.kind}:${n.category}`)).toEqual(["diplomatic_proposal:personal", "diplomatic_relation:global"]);
    expect((await relations(b)).dailyTotal).toBe(100);
    // Answered: it cannot be answered again, and the pair cannot sign an offensive alliance (conflict) or a second pact.
    expect((await t.api("POST", `/diplomacy/proposals/${proposal.id}/reject`, {}, b.token)).status).toBe(409);
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "offensive" }, a.token)).body).toMatchObject({
      code: "diplomacy/conflict",
      error: "Conflicts with your Defensive Pact with that country",
    });
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: a.countryId, relationType: "defensive" }, b.token)).body.code).toBe("diplomacy/exists");
  });

  it("mutual proposals: proposing back what the partner proposed establishes it at once", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "ma"), registerPlayer(t, "mb")]);
    const first = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "research" }, a.token);
    expect(first.body.data.proposal.status).toBe("pending");
    const again = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "research" }, a.token);
    expect(again.body.code).toBe("diplomacy/pending");
    const back = await t.api("POST", "/diplomacy/proposals", { toCountryId: a.countryId, relationType: "research" }, b.token);
    expect(back.status).toBe(201);
    expect(back.body.data).toMatchObject({ proposal: null, relation: { relationType: "research", partnerId: a.countryId, status: "active" } });
    expect((await sql("SELECT status FROM diplomatic_proposals WHERE id = $1", [first.body.data.proposal.id]))[0].status).toBe("accepted");
    expect((await relations(a)).active).toHaveLength(1);
    expect((await sql("SELECT count(*)::int AS n FROM diplomatic_relations WHERE status = 'active' AND relation_type = 'research' AND $1 IN (from_country_id, to_country_id)", [a.countryId]))[0].n).toBe(1);
  });

  it("two racing counter-proposals and accepts still make one relation", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "ra"), registerPlayer(t, "rb")]);
    const sent = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "intelligence" }, a.token);
    const results = await Promise.all([t.api("POST", `/diplomacy/proposals/${sent.body.data.proposal.id}/accept`, {}, b.token), t.api("POST", "/diplomacy/proposals", { toCountryId: a.countryId, relationType: "intelligence" }, b.token)]);
    expect(results.filter((r) => r.status < 300)).toHaveLength(1);
    expect((await sql("SELECT count(*)::int AS n FROM diplomatic_relations WHERE status = 'active' AND $1 IN (from_country_id, to_country_id)", [a.countryId]))[0].n).toBe(1);
  });

  it("technology transfer: a research partner gains 10% of the points spent on a level it lacks, and is told", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "ta"), registerPlayer(t, "tb")]);
    await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "research" }, a.token);
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: a.countryId, relationType: "research" }, b.token)).body.data.relation.status).toBe("active");
    for (const p of [a, b]) await sql("UPDATE countries SET research_labs = 5, research_points = 50000 WHERE id = $1", [p.countryId]);
    const heard: GameEvent[] = [];
    const off = t.server.ctx.events.subscribe(countryTopic(b.countryId), (e) => heard.push(e));
    await t.server.ctx.events.ready();
    const cost = async (p: { countryId: number; token: string }) => (await t.api("GET", `/research/status/${p.countryId}`, undefined, p.token)).body.data.technologies.find((x: { id: string }) => x.id === "agricultural").cost as number;
    const points = async (id: number) => Number((await sql("SELECT research_points FROM countries WHERE id = $1", [id]))[0].research_points);

    const aCost = await cost(a);
    expect((await t.api("POST", "/research/allocate", { countryId: a.countryId, allocations: { agricultural: aCost } }, a.token)).status).toBe(200);
    expect(await points(a.countryId)).toBe(50_000 - aCost);
    expect(await points(b.countryId)).toBe(50_000 + Math.floor(aCost / 10));
    // b catches up: a already holds that level, so nothing flows back
    const bCost = await cost(b);
    expect((await t.api("POST", "/research/allocate", { countryId: b.countryId, allocations: { agricultural: bCost } }, b.token)).status).toBe(200);
    expect(await points(a.countryId)).toBe(50_000 - aCost);
    await new Promise((r) => setTimeout(r, 100));
    off();
    expect(heard.some((e) => e.type === "notice" && e.notice.kind === "tech_transfer")).toBe(true);
  });

  it("a trade agreement needs no consent: its proposer holds and pays it; the partner may end it at once (issue 30 #4)", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "ta"), registerPlayer(t, "tb")]);
    const made = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "trade" }, a.token);
    expect(made.body.data).toMatchObject({ proposal: null, relation: { relationType: "trade", pays: true, dailyCost: 50 } });
    const theirs = await relations(b);
    expect(theirs.active).toEqual([expect.objectContaining({ relationType: "trade", partnerId: a.countryId, pays: false, canCancel: true })]);
    expect(theirs.dailyTotal).toBe(0);
    // the holder is bound until canCancelAfter; the partner, who never agreed, is not
    expect((await t.api("POST", `/diplomacy/relations/${made.body.data.relation.id}/cancel`, {}, a.token)).body.code).toBe("diplomacy/cancel_locked");
    expect((await t.api("POST", `/diplomacy/relations/${made.body.data.relation.id}/cancel`, {}, b.token)).status).toBe(200);
    expect((await relations(b)).active).toEqual([]);
  });

  it("cancelling is locked until canCancelAfter, with the spec's message and date", async () => {
    const [a, b, c] = await Promise.all([registerPlayer(t, "ca"), registerPlayer(t, "cb"), registerPlayer(t, "cc")]);
    const sent = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "offensive" }, a.token);
    const relation = (await t.api("POST", `/diplomacy/proposals/${sent.body.data.proposal.id}/accept`, {}, b.token)).body.data.relation;
    expect(Date.parse(relation.canCancelAfter) - Date.parse(relation.establishedAt)).toBe(48 * 3_600_000);
    const locked = await t.api("POST", `/diplomacy/relations/${relation.id}/cancel`, {}, a.token);
    expect(locked.status).toBe(409);
    expect(locked.body.error).toBe(`Cancellation locked until ${formatUtc(Date.parse(relation.canCancelAfter))}`);
    expect((await t.api("POST", `/diplomacy/relations/${relation.id}/cancel`, {}, c.token)).status).toBe(404);
    // Two days later.
    await sql("UPDATE diplomatic_relations SET can_cancel_after = now() - interval '1 second' WHERE id = $1", [relation.id]);
    expect((await t.api("POST", `/diplomacy/relations/${relation.id}/cancel`, {}, b.token)).status).toBe(200);
    expect((await relations(a)).active).toEqual([]);
    expect((await sql("SELECT status, ended_by FROM diplomatic_relations WHERE id = $1", [relation.id]))[0]).toEqual({ status: "cancelled", ended_by: b.countryId });
    expect((await t.api("POST", `/diplomacy/relations/${relation.id}/cancel`, {}, a.token)).body.code).toBe("diplomacy/not_active");
  });

  it("rejects and withdraws; refuses bad input and other countries' lists", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "xa"), registerPlayer(t, "xb")]);
    const one = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "intelligence" }, a.token);
    expect((await t.api("POST", `/diplomacy/proposals/${one.body.data.proposal.id}/reject`, {}, b.token)).status).toBe(200);
    const two = await t.api("POST", "/diplomacy/proposals", { toCountryId: b.countryId, relationType: "intelligence" }, a.token);
    expect((await t.api("POST", `/diplomacy/proposals/${two.body.data.proposal.id}/cancel`, {}, b.token)).status).toBe(404);
    expect((await t.api("POST", `/diplomacy/proposals/${two.body.data.proposal.id}/cancel`, {}, a.token)).status).toBe(200);
    for (const body of [{ toCountryId: b.countryId, relationType: "marriage" }, { toCountryId: b.countryId, relationType: "trade", message: "x".repeat(201) }, { relationType: "trade" }]) {
      const res = await t.api("POST", "/diplomacy/proposals", body, a.token);
      expect(res.status).toBe(400);
    }
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: a.countryId, relationType: "trade" }, a.token)).body.code).toBe("diplomacy/self");
    expect((await t.api("POST", "/diplomacy/proposals", { toCountryId: 987654321, relationType: "trade" }, a.token)).status).toBe(404);
    expect((await t.api("GET", `/diplomatic-relations/${b.countryId}`, undefined, a.token)).status).toBe(403);
  });

  it("partner candidates come with a trust rating and alliance, searchable by country or alliance name", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "na"), registerPlayer(t, "nb")]);
    const alliance = await foundAlliance(t, b);
    const byCountry = await t.api("GET", `/diplomacy/candidates?search=${encodeURIComponent(b.body.countryName.toUpperCase())}`, undefined, a.token);
    expect(byCountry.body.data).toEqual([expect.objectContaining({ id: b.countryId, name: b.body.countryName, allianceName: alliance.name, trustRating: 50 })]);
    const byAlliance = await t.api("GET", `/diplomacy/candidates?search=${encodeURIComponent(alliance.name.toLowerCase())}`, undefined, a.token);
    expect(byAlliance.body.data.map((c: any) => c.id)).toEqual([b.countryId]);
    const all = await t.api("GET", "/diplomacy/candidates?limit=50", undefined, a.token);
    expect(all.body.data.some((c: any) => c.id === a.countryId)).toBe(false);
  });
});
