import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { createAiCountry, ensureAiCountries, playAiCountry, playAiRound, type AiCountryRow } from "./ai.js";
import { Rng } from "@game/schema/rules";

/**
 * AI countries against real Postgres: they are ordinary countries played through the
 * services (their actions land in the turn history and the action metrics like a player's),
 * the protection rules hold for them, and a seed replays the same decisions.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;
const aiRow = async (countryId: number): Promise<AiCountryRow> => (await sql("SELECT * FROM ai_countries WHERE country_id = $1", [countryId]))[0];
const metric = async (name: string, labels: string) => {
  const text = await t.server.ctx.metrics.render();
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${name}{`) && l.includes(labels))
    .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
};

describe("AI countries", () => {
  it("are kept at the configured number: created as ordinary countries, paused and resumed, listed publicly", async () => {
    expect(await ensureAiCountries(t.server.ctx, 3, 11)).toEqual({ created: 3, resumed: 0, paused: 0 });
    expect(await ensureAiCountries(t.server.ctx, 3, 11)).toEqual({ created: 0, resumed: 0, paused: 0 });
    expect(await ensureAiCountries(t.server.ctx, 1, 11)).toEqual({ created: 0, resumed: 0, paused: 2 });
    expect(await ensureAiCountries(t.server.ctx, 3, 11)).toEqual({ created: 0, resumed: 2, paused: 0 });
    const viewer = await registerPlayer(t, "aiview");
    const list = await t.api("GET", "/countries/ai", undefined, viewer.token);
    expect(list.status).toBe(200);
    const rows = JSON.stringify(list.body);
    const ai = await sql("SELECT c.id, c.name, c.user_id, u.email FROM ai_countries a JOIN countries c ON c.id = a.country_id JOIN users u ON u.id = c.user_id");
    expect(ai).toHaveLength(3);
    for (const a of ai) expect(rows).toContain(a.name);
    expect(rows).not.toContain('"cash"');
    // nobody logs in as an AI's owner
    const login = await t.api("POST", "/auth/login", { email: ai[0].email, password: "password" });
    expect(login.status).toBe(401);
  });

  it("act only through the services: each action is in the turn history and the action metrics", async () => {
    const country = await createAiCountry(t.server.ctx, "farmer", 5, Rng.fromSeed(5));
    const historyBefore = Number((await sql("SELECT count(*) AS n FROM turn_results WHERE country_id = $1", [country.id]))[0].n);
    const actionsBefore = await metric("game_actions_total", "action=");
    const played = await playAiCountry(t.server.ctx, await aiRow(country.id), 6);
    expect(played.actions).toBeGreaterThan(0);
    const historyAfter = Number((await sql("SELECT count(*) AS n FROM turn_results WHERE country_id = $1", [country.id]))[0].n);
    expect(historyAfter - historyBefore).toBe(played.actions);
    expect((await metric("game_actions_total", "action=")) - actionsBefore).toBe(played.actions);
    expect(Number((await sql("SELECT turns FROM countries WHERE id = $1", [country.id]))[0].turns)).toBeLessThan(100);
    expect(await metric("ai_actions_total", 'outcome="done"')).toBeGreaterThanOrEqual(played.actions);
    const after = await aiRow(country.id);
    expect(Number(after.rounds)).toBe(1);
    expect(Number(after.actions_total)).toBe(played.actions);
  });

  it("protection holds for AI raiders: a protected player is never attacked, an unprotected one is", async () => {
    const raider = await createAiCountry(t.server.ctx, "raider", 9, Rng.fromSeed(9));
    await setCountry(t.server.database.pool, raider.id, { troops: 40_000, tanks: 2_000, cash: 5_000_000, turns: 150, land: 600 });
    const victim = await registerPlayer(t, "aivictim");
    await setCountry(t.server.database.pool, victim.countryId, { troops: 100, cash: 100_000, land: 2_000, turns: 100 });
    // bring the victim into the raider's band: similar networth
    const [{ networth: rn }] = await sql("SELECT networth FROM countries WHERE id = $1", [raider.id]);
    await sql("UPDATE countries SET networth = $2, protected_until = now() + interval '1 day' WHERE id = $1", [victim.countryId, Number(rn)]);
    await sql("UPDATE countries SET networth = networth * 100, protected_until = now() + interval '1 day' WHERE is_ai = false AND id <> $1", [victim.countryId]);
    await sql("UPDATE countries SET protected_until = now() + interval '1 day' WHERE is_ai AND id <> $1", [raider.id]);
    for (let round = 0; round < 15; round++) await playAiCountry(t.server.ctx, await aiRow(raider.id), 4);
    expect(await sql("SELECT id FROM battles WHERE attacker_id = $1", [raider.id])).toHaveLength(0);

    await sql("UPDATE countries SET protected_until = now() - interval '1 second' WHERE id = $1", [victim.countryId]);
    await setCountry(t.server.database.pool, raider.id, { turns: 150 });
    const [{ networth: rn2 }] = await sql("SELECT networth FROM countries WHERE id = $1", [raider.id]);
    await sql("UPDATE countries SET networth = $2 WHERE id = $1", [victim.countryId, Number(rn2)]);
    let attacked = 0;
    for (let round = 0; round < 40 && attacked === 0; round++) {
      await playAiCountry(t.server.ctx, await aiRow(raider.id), 4);
      attacked = (await sql("SELECT id FROM battles WHERE attacker_id = $1 AND defender_id = $2", [raider.id, victim.countryId])).length;
    }
    expect(attacked).toBeGreaterThan(0);
  });

  it("the same seed and the same world give the same decisions", async () => {
    const country = await createAiCountry(t.server.ctx, "trader", 77, Rng.fromSeed(77));
    await sql("UPDATE countries SET protected_until = now() + interval '1 day' WHERE id = $1", [country.id]);
    const snapshot = (await sql("SELECT * FROM countries WHERE id = $1", [country.id]))[0];
    const first = await playAiCountry(t.server.ctx, await aiRow(country.id), 6);
    // put the world back as it was and replay round 0
    const columns = Object.keys(snapshot).filter((c) => !["id", "user_id", "name", "created_at"].includes(c));
    await sql(`UPDATE countries SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(", ")} WHERE id = $1`, [country.id, ...columns.map((c) => snapshot[c])]);
    await sql("UPDATE ai_countries SET rounds = 0 WHERE country_id = $1", [country.id]);
    const second = await playAiCountry(t.server.ctx, await aiRow(country.id), 6);
    expect(second.intents).toEqual(first.intents);
    expect(first.intents.length).toBeGreaterThan(0);
  });

  it("a round spends at most its budget and never plays one country in two overlapping rounds", async () => {
    await ensureAiCountries(t.server.ctx, 6, 3);
    await sql("UPDATE countries SET turns = 150 WHERE is_ai");
    const rounds = await Promise.all([playAiRound(t.server.ctx), playAiRound(t.server.ctx)]);
    const budget = t.server.ctx.config.aiActionsPerRound;
    for (const r of rounds) expect(r.actions + r.refused).toBeLessThanOrEqual(budget);
    expect(rounds.reduce((n, r) => n + r.countries, 0)).toBeGreaterThan(0);
  });
});

describe("AI rounds on their own schedule", () => {
  for (const driver of ["timer", "BullMQ"] as const) {
    it(`with ${driver === "timer" ? "no Redis, an in-process timer" : "Redis, a BullMQ job scheduler"} plays the configured AI countries`, async () => {
      if (driver === "BullMQ") {
        const redis = new Redis(`${TEST_REDIS_URL}/12`);
        await redis.flushdb();
        redis.disconnect();
      }
      const s = await startTestServer({ tickEnabled: true, aiCountries: 2, aiIntervalMs: 150, newPlayerProtectionHours: 0, ...(driver === "BullMQ" ? { redisDb: 12 } : {}) });
      try {
        const rows = async () => (await s.server.database.pool.query("SELECT count(*)::int AS n, coalesce(sum(rounds), 0)::int AS rounds FROM ai_countries WHERE NOT paused")).rows[0];
        expect((await rows()).n).toBe(2);
        const until = Date.now() + 15_000;
        while ((await rows()).rounds < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        expect((await rows()).rounds).toBeGreaterThanOrEqual(2);
      } finally {
        await s.close();
      }
    });
  }
});
