import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANKINGS_DEFAULT_LIMIT } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { announceCountryChange } from "../services/actions.js";

/**
 * The rankings a client watches are a projection of Postgres: whatever sequence of changes
 * happens (countries entering and leaving the top, swapping places, ties), a client that
 * applies the "rankings" messages ends up with exactly the top N rows of the database, in
 * order, each with its own country's fields (the world summary converges to Postgres).
 */
describe("world room: rankings stay equal to the database's top N", () => {
  let t: TestServer;
  let client: WorldTestClient;
  const EXTRA_COUNTRIES = RANKINGS_DEFAULT_LIMIT + 30;

  beforeAll(async () => {
    t = await startTestServer();
    const p = await registerPlayer(t, "rank");
    // Countries without players, inserted directly: more than the top N so some are outside it.
    await t.server.database.pool.query(
      `INSERT INTO countries (name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, networth)
       SELECT 'Ranked ' || g, 'republic', 0, 0, 100 + g, 0, 0, 0, 0, 0, 0, 0, 0, 1000 + g * 10 FROM generate_series(1, ${EXTRA_COUNTRIES}) g`,
    );
    client = await joinWorld(t.baseUrl, p.token);
    await client.watch("rankings");
  });
  afterAll(async () => {
    await client?.leave();
    await t?.close();
  });

  async function databaseTop(): Promise<Array<{ countryId: number; countryName: string; value: number; land: number }>> {
    const { rows } = await t.server.database.pool.query(`SELECT id, name, networth, land FROM countries WHERE networth > 0 AND NOT is_eliminated ORDER BY networth DESC, id ASC LIMIT $1`, [RANKINGS_DEFAULT_LIMIT]);
    return rows.map((r) => ({ countryId: Number(r.id), countryName: r.name, value: Number(r.networth), land: Number(r.land) }));
  }

  const clientTop = () =>
    client.rankings().map((r, i) => {
      expect(r.rank, `rank of row ${i}`).toBe(i + 1);
      return { countryId: r.countryId, countryName: r.countryName, value: r.value, land: r.land };
    });

  async function expectInSync(what: string): Promise<void> {
    const expected = await databaseTop();
    await eventually(() => JSON.stringify(clientTop()) === JSON.stringify(expected), what);
    expect(clientTop()).toEqual(expected);
  }

  it("follows entries, exits, reorders and ties over random rounds of changes", async () => {
    await eventually(async () => JSON.stringify(clientTop()) === JSON.stringify(await databaseTop()), "the initial rankings");
    // A seeded generator keeps the rounds reproducible.
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const { rows } = await t.server.database.pool.query("SELECT id FROM countries ORDER BY id");
    const ids = rows.map((r) => Number(r.id));
    for (let round = 0; round < 12; round++) {
      const changed = new Set<number>();
      for (let k = 0; k < 1 + Math.floor(random() * 8); k++) {
        const id = ids[Math.floor(random() * ids.length)]!;
        // Anything from dropping out (0 is unranked) to jumping to the top; sometimes a tie.
        const networth = random() < 0.15 ? 0 : random() < 0.2 ? 2_000 : Math.floor(random() * 3_000);
        await t.server.database.pool.query("UPDATE countries SET networth = $2, land = land + 1 WHERE id = $1", [id, networth]);
        changed.add(id);
      }
      for (const id of changed) await announceCountryChange(t.server.ctx, id, "test");
      await expectInSync(`round ${round}`);
    }
  });
});
