import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { AiWorld, aiView, createAiCountry, ensureAiCountries, performAiIntent, playAiCountry, playAiRound, type AiCountryRow } from "./ai.js";
import { AI_ACTIONS_PER_SESSION, AI_REPELLED_MEMORY_HOURS, AI_SESSIONS_PER_DAY, DAILY_OPS_LIMIT, Rng, aiAllianceFounding, computeStorePrices, startingCountry, utcDay } from "@game/schema/rules";

/**
 * AI countries against real Postgres: they are ordinary countries played through the
 * services (their actions land in the turn history and the action metrics like a player's),
 * the protection rules hold for them, and a seed replays the same decisions.
 */

/** Redis database of this file's BullMQ test (each file that uses Redis has its own: see the others' REDIS_DB). */
const AI_REDIS_DB = 15;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;
/** Intents whose service records a turn result (the others spend no turns, or keep their own records). */
const TURN_HISTORY_KINDS: readonly string[] = ["explore", "build", "research_generate", "research_allocate", "produce", "attack"];
/** Tables an AI's actions add rows to, beside its country: the replay test puts them back. */
const WORLD_TABLES = ["market_listings", "standing_orders", "market_trades", "alliance_applications", "diplomatic_proposals", "diplomatic_relations", "spy_missions", "spy_reports", "alliances"];
const worldMarks = async () => Object.fromEntries(await Promise.all(WORLD_TABLES.map(async (table) => [table, Number((await sql(`SELECT coalesce(max(id), 0) AS n FROM ${table}`))[0].n)] as const)));
/** Undoes what one country's actions added to the world since `marks` (a test's rewind, not a game action). */
async function rewindWorld(marks: Record<string, number>, countryId: number): Promise<void> {
  await sql("UPDATE alliances SET disbanded_at = now() WHERE id > $1", [marks.alliances]);
  await sql("DELETE FROM alliance_members WHERE country_id = $1", [countryId]);
  await sql("DELETE FROM spy_daily_counters WHERE country_id = $1", [countryId]);
  for (const table of WORLD_TABLES.filter((tb) => tb !== "alliances")) await sql(`DELETE FROM ${table} WHERE id > $1`, [marks[table]]);
}
const aiRow = async (countryId: number): Promise<AiCountryRow> => (await sql("SELECT * FROM ai_countries WHERE country_id = $1", [countryId]))[0];
const metric = async (name: string, ...labels: string[]) => {
  const text = await t.server.ctx.metrics.render();
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)))
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
    // turns spent are in the turn history; market, alliance and diplomacy calls spend none (as a player's)
    expect(historyAfter - historyBefore).toBe(played.intents.filter((i) => TURN_HISTORY_KINDS.includes(i.kind)).length);
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
    const marks = await worldMarks();
    const first = await playAiCountry(t.server.ctx, await aiRow(country.id), 6);
    // put the world back as it was and replay round 0
    await rewindWorld(marks, country.id);
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

  it("plays each AI country at a person's cadence: a session, then none until a day / AI_SESSIONS_PER_DAY has passed", async () => {
    expect(t.server.ctx.config.aiSessionsPerDay).toBe(AI_SESSIONS_PER_DAY);
    expect(t.server.ctx.config.aiActionsPerCountry).toBe(AI_ACTIONS_PER_SESSION);
    await sql("UPDATE ai_countries SET paused = true"); // the other tests' AI countries rest
    const ai = await createAiCountry(t.server.ctx, "farmer", 5, Rng.fromSeed(5));
    await sql("UPDATE countries SET turns = 150 WHERE id = $1", [ai.id]);
    const start = Date.now();
    expect((await playAiRound(t.server.ctx, new Date(start))).countries).toBe(1);
    // a minute later (the live round interval) it does not sit down again
    expect((await playAiRound(t.server.ctx, new Date(start + 60_000))).countries).toBe(0);
    const gap = 86_400_000 / AI_SESSIONS_PER_DAY;
    expect((await playAiRound(t.server.ctx, new Date(start + gap - 1_000))).countries).toBe(0);
    expect((await playAiRound(t.server.ctx, new Date(start + gap))).countries).toBe(1);
    await sql("UPDATE ai_countries SET paused = false WHERE country_id <> $1", [ai.id]);
  });
});

describe("AI countries play the rest of the game through the players' services", () => {
  /** Plays an AI round after round (turns topped up first, a test's fixture) until `done` answers true; the rounds played. */
  async function playUntil(countryId: number, done: () => Promise<boolean>, rounds = 60, fixture: Record<string, number> = { turns: 150 }): Promise<number> {
    for (let round = 1; round <= rounds; round++) {
      await setCountry(t.server.database.pool, countryId, fixture);
      await playAiCountry(t.server.ctx, await aiRow(countryId), 6);
      if (await done()) return round;
    }
    throw new Error(`AI country ${countryId} did not get there in ${rounds} rounds`);
  }
  const count = async (text: string, values: unknown[]) => Number((await sql(`SELECT count(*) AS n FROM ${text}`, values))[0].n);
  const inBandOf = async (aiId: number, countryId: number) => {
    const [{ networth }] = await sql("SELECT networth FROM countries WHERE id = $1", [aiId]);
    await sql("UPDATE countries SET networth = $2, protected_until = now() - interval '1 second' WHERE id = $1", [countryId, Number(networth)]);
  };

  it("a raider scouts through the espionage service before attacking, and the daily cap of 30 holds for it", async () => {
    const raider = await createAiCountry(t.server.ctx, "raider", 41, Rng.fromSeed(41));
    const fixture = { troops: 40_000, tanks: 2_000, cash: 5_000_000, turns: 150, land: 2_000, spies: 100 };
    await setCountry(t.server.database.pool, raider.id, fixture);
    const victim = await registerPlayer(t, "aiscouted");
    await setCountry(t.server.database.pool, victim.countryId, { troops: 100, land: 2_000 });
    await inBandOf(raider.id, victim.countryId);
    const opsBefore = (await metric("game_actions_total", 'action="espionage.operation"')) + (await metric("game_actions_total", 'action="espionage.mission"'));
    const refusedBefore = await metric("ai_actions_total", 'kind="spy_', 'outcome="refused"');
    const attacksRefusedBefore = await metric("ai_actions_total", 'kind="attack"', 'outcome="refused"');
    const missions = () => count("spy_missions WHERE country_id = $1", [raider.id]);
    await playUntil(raider.id, async () => (await missions()) > 0, 60, { turns: 150 });
    // a player's operation: its mission row, its report, the day's counter, the action metric
    const first = await missions();
    expect(await count("spy_reports WHERE owner_id = $1", [raider.id])).toBe(first);
    expect((await sql("SELECT used FROM spy_daily_counters WHERE country_id = $1", [raider.id]))[0].used).toBe(first);
    expect((await metric("game_actions_total", 'action="espionage.operation"')) + (await metric("game_actions_total", 'action="espionage.mission"')) - opsBefore).toBe(first);
    // with spies to spare it looks at a target before it attacks it
    await playUntil(raider.id, async () => (await count("battles WHERE attacker_id = $1", [raider.id])) > 0, 60, { turns: 150, spies: 100 });
    for (const b of await sql("SELECT defender_id, created_at FROM battles WHERE attacker_id = $1 ORDER BY id", [raider.id])) {
      expect(await count("spy_missions WHERE country_id = $1 AND target_id = $2 AND started_at <= $3", [raider.id, b.defender_id, b.created_at])).toBeGreaterThan(0);
    }

    // 28 operations earlier today (a fixture): it may run two more and then none, and is never refused for trying
    await sql("UPDATE spy_daily_counters SET day = $2, used = $3 WHERE country_id = $1", [raider.id, utcDay(Date.now()), DAILY_OPS_LIMIT - 2]);
    const before = await missions();
    for (let round = 0; round < 40; round++) {
      await setCountry(t.server.database.pool, raider.id, { turns: 150, spies: 100 });
      await sql("DELETE FROM spy_reports WHERE owner_id = $1", [raider.id]); // nothing scouted: it wants to look again
      await playAiCountry(t.server.ctx, await aiRow(raider.id), 6);
    }
    expect((await sql("SELECT used FROM spy_daily_counters WHERE country_id = $1", [raider.id]))[0].used).toBe(DAILY_OPS_LIMIT);
    expect((await missions()) - before).toBe(2);
    expect(await metric("ai_actions_total", 'kind="spy_', 'outcome="refused"')).toBe(refusedBefore);
    // nor an attack: it sees its brigades, and does something else while none is ready
    expect(await metric("ai_actions_total", 'kind="attack"', 'outcome="refused"')).toBe(attacksRefusedBefore);
  });

  /** What a raider plays with in the attack tests: it sends 60% of its troops above 500 and of its tanks, about 24,900 units. */
  const RAIDER_FIXTURE = { troops: 40_000, tanks: 2_000, cash: 5_000_000, turns: 150, land: 2_000, spies: 100 };
  /**
   * A raider AI with RAIDER_FIXTURE and one registered country with `forces` in its attack
   * band; every other country out of reach (protected) until `release()` puts them back.
   */
  async function raiderFacing(seed: number, name: string, forces: Record<string, number>) {
    const raider = await createAiCountry(t.server.ctx, "raider", seed, Rng.fromSeed(seed));
    await setCountry(t.server.database.pool, raider.id, RAIDER_FIXTURE);
    const target = await registerPlayer(t, name);
    await setCountry(t.server.database.pool, target.countryId, forces);
    await inBandOf(raider.id, target.countryId);
    const others = await sql("SELECT id, protected_until FROM countries WHERE id NOT IN ($1, $2)", [raider.id, target.countryId]);
    await sql("UPDATE countries SET protected_until = now() + interval '1 day' WHERE id NOT IN ($1, $2)", [raider.id, target.countryId]);
    return {
      raider,
      target,
      battlesOn: (defender: number) => count("battles WHERE attacker_id = $1 AND defender_id = $2", [raider.id, defender]),
      /** `rounds` AI rounds, its turns and spies topped up and the target kept in its band before each */
      async playRounds(rounds: number): Promise<void> {
        for (let round = 0; round < rounds; round++) {
          await setCountry(t.server.database.pool, raider.id, { turns: 150, spies: 100 });
          await inBandOf(raider.id, target.countryId);
          await playAiCountry(t.server.ctx, await aiRow(raider.id), 6);
        }
      },
      async release(): Promise<void> {
        for (const o of others) await sql("UPDATE countries SET protected_until = $2 WHERE id = $1", [o.id, o.protected_until]);
      },
    };
  }

  it("a raider leaves alone a target its intelligence shows too strong for the force it would send, and attacks a soft one", async () => {
    const { raider, target: fortress, battlesOn, playRounds, release } = await raiderFacing(43, "aifortress", { troops: 100_000, turrets: 5_000, land: 2_000 });
    const attacksRefusedBefore = await metric("ai_actions_total", 'kind="attack"', 'outcome="refused"');
    try {
      // it looks at the fortress (its only target in reach), reads the report, and never attacks it
      await playUntil(raider.id, async () => (await count("spy_reports WHERE owner_id = $1 AND target_id = $2 AND success", [raider.id, fortress.countryId])) > 0, 60, RAIDER_FIXTURE);
      await playRounds(30);
      expect(await battlesOn(fortress.countryId)).toBe(0);

      // a soft country comes into reach: it attacks that one, through the combat service, never refused
      const soft = await registerPlayer(t, "aisoft");
      await setCountry(t.server.database.pool, soft.countryId, { troops: 100, land: 2_000 });
      await inBandOf(raider.id, soft.countryId);
      await playUntil(raider.id, async () => (await battlesOn(soft.countryId)) > 0, 60, { turns: 150, spies: 100 });
      expect(await battlesOn(fortress.countryId)).toBe(0);
      expect(await metric("ai_actions_total", 'kind="attack"', 'outcome="refused"')).toBe(attacksRefusedBefore);
    } finally {
      await release();
    }
  });

  it("a raider leaves alone for a day a country that threw back its attack (its battle reports), then attacks it again", async () => {
    const { raider, target: held, battlesOn, playRounds, release } = await raiderFacing(47, "aiheld", { troops: 100, land: 2_000 });
    // its attack on that country failed an hour ago (a report as the combat service writes it, trimmed)
    const [repelled] = await sql(
      `INSERT INTO battles (attacker_id, defender_id, attacker_name, defender_name, attack_type, outcome, seed, report, economy, created_at)
       VALUES ($1, $2, 'raider', 'held', 'standard_strike', 'defender_victory', 1, '{}', '{}', now() - interval '1 hour') RETURNING id`,
      [raider.id, held.countryId],
    );
    try {
      await playRounds(30);
      expect(await battlesOn(held.countryId)).toBe(1);
      // a day later it tries again
      await sql("UPDATE battles SET created_at = now() - make_interval(hours => $2) - interval '1 minute' WHERE id = $1", [repelled.id, AI_REPELLED_MEMORY_HOURS]);
      await playUntil(raider.id, async () => (await battlesOn(held.countryId)) > 1, 60, { turns: 150, spies: 100 });
    } finally {
      await release();
    }
  });

  it("a trader buys below the store, lists surplus with escrow and places a standing order, each through the market service", async () => {
    const seller = await registerPlayer(t, "aiseller");
    const listed = await t.api("POST", "/market/listings", { countryId: seller.countryId, itemType: "food", quantity: 2_000, pricePerUnit: 100 }, seller.token);
    expect(listed.status).toBe(200);
    const trader = await createAiCountry(t.server.ctx, "trader", 43, Rng.fromSeed(43));
    // fed by its farms (no deficit), 500 food short of the 1,000 it keeps, oil to spare
    const fixture = { turns: 150, food: 500, farms: 60, cash: 2_000_000, oil: 20_000 };
    await setCountry(t.server.database.pool, trader.id, fixture);
    const metricsBefore = { list: await metric("game_actions_total", 'action="market_list"'), buy: await metric("game_actions_total", 'action="market_buy"'), order: await metric("game_actions_total", 'action="market_order_create"') };
    const bought = () => count("market_trades WHERE buyer_id = $1 AND market_type = 'public'", [trader.id]);
    const listings = () => count("market_listings WHERE seller_id = $1", [trader.id]);
    const orders = () => count("standing_orders WHERE buyer_id = $1", [trader.id]);
    await playUntil(trader.id, async () => (await bought()) > 0, 40, { turns: 150, food: 500 });
    // its public purchase (it also buys its army from the store)
    const trade = (await sql("SELECT listing_id, quantity, price_per_unit, seller_id FROM market_trades WHERE buyer_id = $1 AND market_type = 'public'", [trader.id]))[0];
    expect(Number(trade.listing_id)).toBe(listed.body.listing.id);
    expect(Number(trade.price_per_unit)).toBeLessThan(computeStorePrices("food", startingCountry()).buy);
    await playUntil(trader.id, async () => (await listings()) > 0 && (await orders()) > 0, 60, { turns: 150, oil: 20_000 });
    const listing = (await sql("SELECT item_type, quantity, held_quantity, price_per_unit FROM market_listings WHERE seller_id = $1 ORDER BY id LIMIT 1", [trader.id]))[0];
    expect(Number(listing.held_quantity)).toBe(Number(listing.quantity)); // in escrow, as a player's listing
    const order = (await sql("SELECT item_type, max_price, held_cash, status FROM standing_orders WHERE buyer_id = $1", [trader.id]))[0];
    expect(order).toMatchObject({ item_type: "food", status: "pending" });
    expect(Number(order.max_price)).toBeLessThan(computeStorePrices("food", startingCountry()).buy);
    expect((await metric("game_actions_total", 'action="market_list"')) - metricsBefore.list).toBe(await listings());
    expect((await metric("game_actions_total", 'action="market_buy"')) - metricsBefore.buy).toBe(await bought());
    expect((await metric("game_actions_total", 'action="market_order_create"')) - metricsBefore.order).toBe(await orders());
    // never more open listings than an AI keeps, never a second open order for one item (the
    // store buys only its demand of the food, so a trader short of cash may have cancelled its
    // order to get the escrow back: at most one, not exactly one)
    for (let round = 0; round < 20; round++) await playUntil(trader.id, async () => true, 1, { turns: 150, oil: 20_000, food: 400_000 });
    expect(await count("market_listings WHERE seller_id = $1 AND status = 'open'", [trader.id])).toBeLessThanOrEqual(3);
    expect(await count("standing_orders WHERE buyer_id = $1 AND status IN ('pending', 'active', 'partial')", [trader.id])).toBeLessThanOrEqual(1);
  });

  it("a farmer sells its food surplus on the player market as well as to the store", async () => {
    const farmer = await createAiCountry(t.server.ctx, "farmer", 47, Rng.fromSeed(47));
    const fixture = { turns: 150, food: 400_000, cash: 0, land: 100, residential_areas: 100 };
    await playUntil(
      farmer.id,
      async () => (await count("market_listings WHERE seller_id = $1 AND item_type = 'food'", [farmer.id])) > 0 && (await count("market_trades WHERE seller_id = $1 AND market_type = 'private'", [farmer.id])) > 0,
      60,
      fixture,
    );
  });

  it("a farmer's view carries what the store still buys, and it never sells the store more food than that (issue 27, sixth stop)", async () => {
    const farmer = await createAiCountry(t.server.ctx, "farmer", 59, Rng.fromSeed(59));
    // 100 acres: the store buys 1,000 bushels a day; half a day already used
    await setCountry(t.server.database.pool, farmer.id, { land: 100 });
    await sql("INSERT INTO market_store_demand (country_id, item_type, full_at) VALUES ($1, 'food', now() + interval '12 hours')", [farmer.id]);
    const look = await aiView(t.server.ctx.db, farmer.id, new Date(), "farmer");
    expect(look!.view.storeDemand).toEqual({ troops: 50_000, turrets: 4_000, tanks: 1_500, food: 500 });
    const refusedBefore = await metric("ai_actions_total", 'kind="store_sell"', 'outcome="refused"');
    const fixture = { turns: 150, food: 400_000, cash: 0, land: 100 };
    for (let round = 0; round < 15; round++) await playUntil(farmer.id, async () => true, 1, fixture);
    // 500 left today (and a bushel back every 86.4 s): what it sold is that, the rest it listed
    const [{ sold }] = await sql("SELECT coalesce(sum(quantity), 0)::int AS sold FROM market_trades WHERE seller_id = $1 AND market_type = 'private' AND item_type = 'food'", [farmer.id]);
    expect(sold).toBeLessThanOrEqual(510);
    expect(await count("market_listings WHERE seller_id = $1 AND item_type = 'food'", [farmer.id])).toBeGreaterThan(0);
    expect((await metric("ai_actions_total", 'kind="store_sell"', 'outcome="refused"')) - refusedBefore).toBe(0);
  });

  it("AiWorld: the countries of a round share one read of the world; a battle makes the next look read it again", async () => {
    const looker = await createAiCountry(t.server.ctx, "raider", 61, Rng.fromSeed(61));
    const other = await createAiCountry(t.server.ctx, "farmer", 67, Rng.fromSeed(67));
    // public facts written as they are (setCountry would recompute the networth)
    const facts = (id: number, networth: number, land: number) => sql("UPDATE countries SET networth = $2, land = $3 WHERE id = $1", [id, networth, land]);
    await facts(looker.id, 10_000, 100);
    await facts(other.id, 10_000, 5_000);
    const world = new AiWorld(t.server.ctx.db, new Date());
    const first = await aiView(t.server.ctx.db, looker.id, new Date(), "raider", world);
    expect(first!.view.targets.find((c) => c.id === other.id)).toMatchObject({ networth: 10_000, land: 5_000, landLostToday: 0 });
    // another country moves within the round: the round's world is as old as its read
    await facts(other.id, 10_500, 5_200);
    const same = await aiView(t.server.ctx.db, looker.id, new Date(), "raider", world);
    expect(same!.view.targets.find((c) => c.id === other.id)).toMatchObject({ networth: 10_000, land: 5_000 });
    world.battleFought();
    const after = await aiView(t.server.ctx.db, looker.id, new Date(), "raider", world);
    expect(after!.view.targets.find((c) => c.id === other.id)).toMatchObject({ networth: 10_500, land: 5_200 });
  });

  it("alliances: an AI founds one through the alliance service, another applies, the founder accepts it", async () => {
    const founder = await createAiCountry(t.server.ctx, "trader", 53, Rng.fromSeed(53));
    await performAiIntent(t.server.ctx, Number(founder.user_id), founder.id, { kind: "alliance_create", ...aiAllianceFounding(Rng.fromSeed(53)) });
    const [alliance] = await sql("SELECT a.id, a.name, m.role FROM alliances a JOIN alliance_members m ON m.alliance_id = a.id AND m.country_id = a.founded_by WHERE a.founded_by = $1", [founder.id]);
    expect(alliance.role).toBe("owner");
    expect(alliance.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{2}$/);

    const joiner = await createAiCountry(t.server.ctx, "turtle", 59, Rng.fromSeed(59));
    const applied = () => count("alliance_applications WHERE applicant_country_id = $1", [joiner.id]);
    await playUntil(joiner.id, async () => (await applied()) > 0, 80);
    const [application] = await sql("SELECT id, alliance_id, status FROM alliance_applications WHERE applicant_country_id = $1", [joiner.id]);
    expect(application.status).toBe("pending");
    // it applies once and waits: no second application, no founding meanwhile
    for (let round = 0; round < 10; round++) await playUntil(joiner.id, async () => true, 1);
    expect(await applied()).toBe(1);
    expect(await count("alliances WHERE founded_by = $1", [joiner.id])).toBe(0);

    // whichever alliance it chose, an AI leads it (only AI countries found alliances in this file): that leader accepts
    const [leader] = await sql("SELECT m.country_id, c.is_ai FROM alliance_members m JOIN countries c ON c.id = m.country_id WHERE m.alliance_id = $1 AND m.role = 'owner'", [application.alliance_id]);
    expect(leader.is_ai).toBe(true);
    const accepted = await metric("game_actions_total", 'action="alliance.application.accept"');
    await playUntil(Number(leader.country_id), async () => (await sql("SELECT status FROM alliance_applications WHERE id = $1", [application.id]))[0].status === "accepted", 3);
    expect(Number((await sql("SELECT alliance_id FROM countries WHERE id = $1", [joiner.id]))[0].alliance_id)).toBe(Number(application.alliance_id));
    expect((await sql("SELECT role FROM alliance_members WHERE country_id = $1", [joiner.id]))[0].role).toBe("member");
    // (the leader answers every pending application, other AIs' too)
    expect((await metric("game_actions_total", 'action="alliance.application.accept"')) - accepted).toBeGreaterThanOrEqual(1);
  });

  it("diplomacy: an AI accepts a proposal addressed to it and proposes its own relation, through the diplomacy service", async () => {
    const turtle = await createAiCountry(t.server.ctx, "turtle", 61, Rng.fromSeed(61));
    await setCountry(t.server.database.pool, turtle.id, { turns: 150, cash: 1_000_000 });
    const player = await registerPlayer(t, "aidiplomat");
    const proposed = await t.api("POST", "/diplomacy/proposals", { toCountryId: turtle.id, relationType: "defensive", message: "" }, player.token);
    expect(proposed.status).toBe(201);
    const accepts = await metric("game_actions_total", 'action="diplomacy.accept"');
    await playUntil(turtle.id, async () => (await count("diplomatic_relations WHERE status = 'active' AND to_country_id = $1", [turtle.id])) > 0, 2);
    const [relation] = await sql("SELECT relation_type, from_country_id FROM diplomatic_relations WHERE to_country_id = $1", [turtle.id]);
    expect(relation).toMatchObject({ relation_type: "defensive", from_country_id: player.countryId });
    expect((await metric("game_actions_total", 'action="diplomacy.accept"')) - accepts).toBe(1);

    // its own proposals: its defensive pact, to countries near its size it holds none with
    const partner = await registerPlayer(t, "aipartner");
    await inBandOf(turtle.id, partner.countryId);
    await playUntil(turtle.id, async () => (await count("diplomatic_proposals WHERE from_country_id = $1", [turtle.id])) > 0, 80, { turns: 150, cash: 1_000_000 });
    const own = await sql("SELECT relation_type, to_country_id FROM diplomatic_proposals WHERE from_country_id = $1", [turtle.id]);
    expect(own.every((p) => p.relation_type === "defensive" && Number(p.to_country_id) !== player.countryId)).toBe(true);
  });
});

describe("operators", () => {
  it("list AI countries and pause or resume one; others get 403; every change is logged", async () => {
    const admin = await registerPlayer(t, "aiadmin");
    const player = await registerPlayer(t, "ainotadmin");
    await sql("UPDATE users SET is_admin = true WHERE id = $1", [admin.user.id]);
    expect((await t.api("GET", "/admin/ai", undefined, player.token)).status).toBe(403);
    const list = await t.api("GET", "/admin/ai", undefined, admin.token);
    expect(list.status).toBe(200);
    const first = list.body.data[0];
    expect(first).toMatchObject({ countryId: expect.any(Number), countryName: expect.any(String), personality: expect.any(String), paused: expect.any(Boolean) });
    expect((await t.api("POST", `/admin/ai/${first.countryId}/pause`, { paused: true }, player.token)).status).toBe(403);
    expect((await t.api("POST", `/admin/ai/${first.countryId}/pause`, { paused: "yes" }, admin.token)).status).toBe(400);
    expect((await t.api("POST", "/admin/ai/999999999/pause", { paused: true }, admin.token)).status).toBe(404);
    const paused = await t.api("POST", `/admin/ai/${first.countryId}/pause`, { paused: true }, admin.token);
    expect(paused.body.data).toMatchObject({ countryId: first.countryId, paused: true });
    expect((await aiRow(first.countryId)).paused).toBe(true);
    const log = await sql("SELECT action, details FROM admin_log WHERE admin_user_id = $1 ORDER BY id", [admin.user.id]);
    expect(log.map((l) => l.action)).toEqual(["ai_pause"]);
    expect((await t.api("POST", `/admin/ai/${first.countryId}/pause`, { paused: false }, admin.token)).body.data.paused).toBe(false);
  });
});

describe("AI rounds on their own schedule", () => {
  for (const driver of ["timer", "BullMQ"] as const) {
    it(`with ${driver === "timer" ? "no Redis, an in-process timer" : "Redis, a BullMQ job scheduler"} plays the configured AI countries`, async () => {
      if (driver === "BullMQ") {
        const redis = new Redis(`${TEST_REDIS_URL}/${AI_REDIS_DB}`);
        await redis.flushdb();
        redis.disconnect();
      }
      const s = await startTestServer({ tickEnabled: true, aiCountries: 2, aiIntervalMs: 150, newPlayerProtectionHours: 0, ...(driver === "BullMQ" ? { redisDb: AI_REDIS_DB } : {}) });
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
