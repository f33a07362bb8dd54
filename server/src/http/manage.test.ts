import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_COUNTRY_OPTIONS, cheapestAffordableTechnology, computeTechnologyCost, startingCountry } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { runTick } from "../tick/turnTick.js";
import { tickNumberAt } from "../turnClock.js";
import { firstOfTicksOnOneDay } from "../tick/testSupport.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;
const row = async (id: number) => (await sql("SELECT * FROM countries WHERE id = $1", [id]))[0];
const personalNews = async (id: number) => (await sql("SELECT kind, title, description FROM news_items WHERE country_id = $1 ORDER BY id", [id])) as { kind: string; title: string; description: string }[];
let tickBase = tickNumberAt(Date.now(), 1_200_000) + 10_000;
const tick = async () => runTick(t.server.ctx, ++tickBase);
const ALL_OFF = { ...DEFAULT_COUNTRY_OPTIONS };

describe("country options (Manage > Settings)", () => {
  it("answers the spec's defaults, then keeps what was saved", async () => {
    const p = await registerPlayer(t, "opt");
    expect((await t.api("GET", "/manage/options", undefined, p.token)).body).toEqual({ success: true, options: DEFAULT_COUNTRY_OPTIONS });
    const saved = { ...ALL_OFF, autoResearch: true, notifyMarket: true, notifyAttacks: false };
    expect((await t.api("PUT", "/manage/options", saved, p.token)).body).toEqual({ success: true, options: saved });
    expect((await t.api("GET", "/manage/options", undefined, p.token)).body.options).toEqual(saved);
  });

  it("refuses a missing, mistyped or unknown option and an anonymous caller", async () => {
    const p = await registerPlayer(t, "optv");
    for (const body of [{ ...ALL_OFF, autoFarms: "yes" }, { autoFarms: true }, { ...ALL_OFF, countryName: "x" }]) {
      const res = await t.api("PUT", "/manage/options", body, p.token);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await t.api("GET", "/manage/options")).status).toBe(401);
    expect((await t.api("GET", "/manage/options", undefined, p.token)).body.options).toEqual(DEFAULT_COUNTRY_OPTIONS);
  });
});

describe("auto-build tick phase", () => {
  it("spends research points on one level per tick, once per tick, with news and a turn result", async () => {
    const p = await registerPlayer(t, "auto");
    const cost = computeTechnologyCost("medical", 0, "monarchy");
    await sql("UPDATE countries SET research_labs = 1, research_points = $2 WHERE id = $1", [p.countryId, cost]);
    await t.api("PUT", "/manage/options", { ...ALL_OFF, autoResearch: true }, p.token);
    // its two ticks on one UTC day: a daily news retention between them (its ticks are months
    // ahead of the news' real creation time) would delete the news this test counts
    tickBase = firstOfTicksOnOneDay(tickBase + 1, 2, 1_200_000) - 1;
    await tick();
    const after = await row(p.countryId);
    // the cheapest available technology under monarchy: agricultural (800 / 1.6 = 500 points)
    const pick = cheapestAffordableTechnology({ ...startingCountry(), buildings: { ...startingCountry().buildings, research_labs: 1 }, researchPoints: cost })!;
    expect(pick).toEqual({ id: "agricultural", cost: 500 });
    expect(Number(after.research_points)).toBe(cost - 500);
    expect(after.agricultural_tech).toBe(1);
    const news = await personalNews(p.countryId);
    expect(news.map((n) => n.kind)).toEqual(expect.arrayContaining(["research_level", "automation"]));
    const history = (await t.api("GET", "/turns/history", undefined, p.token)).body.data;
    expect(history[0]).toMatchObject({ actionType: "auto_build", turnsConsumed: 0 });
    // the same tick again, and a tick with nothing to do, change nothing
    await runTick(t.server.ctx, tickBase);
    await tick();
    expect((await personalNews(p.countryId)).length).toBe(news.length);
  });

  it("does nothing for a country whose options are off", async () => {
    const p = await registerPlayer(t, "autooff");
    await sql("UPDATE countries SET research_labs = 1, research_points = 100000 WHERE id = $1", [p.countryId]);
    await t.api("PUT", "/manage/options", ALL_OFF, p.token);
    await tick();
    expect(Number((await row(p.countryId)).research_points)).toBe(100_000);
  });

  it("builds farms when food is low and processes a production turn near the turn cap", async () => {
    const p = await registerPlayer(t, "autofarm");
    await sql("UPDATE countries SET food = 10, population = 20000, land = 1000, cash = 10000000, turns = 145, industrial_complexes = 2 WHERE id = $1", [p.countryId]);
    const before = await row(p.countryId);
    await t.api("PUT", "/manage/options", { ...ALL_OFF, autoFarms: true, autoMilitary: true }, p.token);
    await tick();
    const after = await row(p.countryId);
    expect(Number(after.farms)).toBeGreaterThan(Number(before.farms));
    expect(Number(after.farms) - Number(before.farms)).toBeLessThanOrEqual(5);
    const news = await personalNews(p.countryId);
    expect(news.find((n) => n.kind === "automation")?.description).toMatch(/farms? built.*unit production processed/);
  });
});

describe("personal news from actions", () => {
  it("a research allocation that reaches a level records research_level", async () => {
    const p = await registerPlayer(t, "rnews");
    const cost = computeTechnologyCost("business", 0, "monarchy");
    await sql("UPDATE countries SET research_labs = 1, research_points = $2 WHERE id = $1", [p.countryId, cost]);
    const res = await t.api("POST", "/research/allocate", { countryId: p.countryId, allocations: { business: cost } }, p.token);
    expect(res.status).toBe(200);
    const news = await personalNews(p.countryId);
    expect(news).toContainEqual(expect.objectContaining({ kind: "research_level", title: "Business research reached level 1" }));
    const happenings = await t.api("GET", "/news?category=personal", undefined, p.token);
    expect(happenings.body.data[0].title).toBe("Business research reached level 1");
  });

  it("turns run without food record starving; without cash, bankrupt", async () => {
    const p = await registerPlayer(t, "starve");
    await sql("UPDATE countries SET food = 0, cash = 0, population = 50000 WHERE id = $1", [p.countryId]);
    const res = await t.api("POST", "/production/process", { countryId: p.countryId, turnsToProcess: 2 }, p.token);
    expect(res.status).toBe(200);
    expect(res.body.turnResult.actionResults[0].description).toBe("2 turns of production processed.");
    const kinds = (await personalNews(p.countryId)).map((n) => n.kind);
    expect(kinds).toContain("starving");
    if (res.body.turnResult.economicEffects.expenses > res.body.turnResult.economicEffects.taxRevenue) expect(kinds).toContain("bankrupt");
  });
});

describe("intelligence briefs", () => {
  it("answers all quiet for a new country, then the attacks it suffered and the war declared on it, most threatening first", async () => {
    const me = await registerPlayer(t, "brief");
    const them = await registerPlayer(t, "foe");
    const quiet = await t.api("GET", "/news/briefs", undefined, me.token);
    expect(quiet.status).toBe(200);
    expect(quiet.body.briefs.map((b: { id: string }) => b.id)).toEqual([expect.stringMatching(/^(quiet|weak-defenses)$/)]);
    const foeName = (await row(them.countryId)).name;
    await sql(
      `INSERT INTO battles (attacker_id, defender_id, attacker_name, defender_name, attack_type, outcome, land_captured, land_destroyed, seed, report, economy)
       VALUES ($1, $2, $3, 'x', 'ground_assault', 'attacker_victory', 30, 0, 1, '{}', '{}')`,
      [them.countryId, me.countryId, foeName],
    );
    await sql(`INSERT INTO war_declarations (declarer_id, target_id, declared_at, declared_tick, charged_through_tick) VALUES ($1, $2, now(), 0, 0)`, [them.countryId, me.countryId]);
    const res = await t.api("GET", "/news/briefs", undefined, me.token);
    expect(res.body.briefs.map((b: { id: string; threat: string }) => [b.id, b.threat])).toEqual([
      ["attacks", "critical"], // 30 of 130 acres: over a tenth
      [`war-${foeName}`, "high"],
    ]);
    expect(res.body.briefs[0].summary).toContain("30 acres lost");
    // the attacker's briefs do not list the battle as an attack on it
    const theirs = await t.api("GET", "/news/briefs", undefined, them.token);
    expect(theirs.body.briefs.map((b: { id: string }) => b.id)).toEqual([`war-${(await row(me.countryId)).name}`]);
    expect((await t.api("GET", "/news/briefs")).status).toBe(401);
  });
});
