import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { UNIT_TYPES } from "@game/schema/rules";
import { auditTotals, conservationErrors, type Audited } from "../db/audit.js";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";

/**
 * What a read of a bot's (or a browser's) view costs the connection pool (issue 29): every play
 * action of the load tester first reads 7-14 of these routes, and at 2,000 playing clients the
 * wait was for the pool's connections, not for Postgres (docs/performance.md, stop 33). A read
 * of one screen takes one connection once and holds it for one statement: no transaction, no
 * second connection for a part of the same answer, no second read of a row the route already
 * has. The token's own look-up (once per token per second, auth/tokens.ts) is not the route's
 * and is left out. An action holds one connection at a time: no read of the row before the
 * action's own lock, nothing read on a second connection while the transaction holds its own.
 */

let t: TestServer;
type Player = Awaited<ReturnType<typeof registerPlayer>>;
let player: Player;
let other: Player;

beforeAll(async () => {
  // The world's rankings (rank board, alliance ladder) are read once a second per process and
  // shared by every request (docs/architecture.md "The rank board"): counted here warm, as a
  // request under load finds them; the age is long so no reading falls inside a count.
  t = await startTestServer({ newPlayerProtectionHours: 0, rankingsMaxAgeMs: 600_000 });
  [player, other] = await Promise.all([registerPlayer(t, "vcon"), registerPlayer(t, "vcot")]);
  const armed = { troops: 6_000, tanks: 300, jets: 100, turrets: 400, cash: 5_000_000, food: 500_000, oil: 50_000, turns: 150, land: 1_000, population: 10_000 };
  await setCountry(t.server.database.pool, player.countryId, armed);
  await setCountry(t.server.database.pool, other.countryId, { ...armed, troops: 1_500, turrets: 300 });
  // something in the market book
  const listed = await t.api("POST", "/market/listings", { countryId: other.countryId, itemType: "troops", quantity: 100, pricePerUnit: 120 }, other.token);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/**
 * What the request under way has taken of the pool: check-outs, the round trips sent on them,
 * the most held at once. A check-out counts from its first statement, unless that is the
 * process's own background work (the authentication epoch read four times a second, the
 * day's ranking snapshot) or the token's look-up (once per token per second, not the route's).
 */
const use = { checkouts: 0, statements: 0, held: 0, peak: 0, counting: false };
const BACKGROUND = /^\s*(SELECT epoch::text AS epoch FROM auth_epoch|SELECT EXISTS \(SELECT 1 FROM ranking_snapshots|INSERT INTO ranking_snapshots|DELETE FROM ranking_snapshots)|FROM revoked_tokens/;
/** per checked-out client: undefined until its first statement, then whether it counts */
const counted = new Map<pg.PoolClient, boolean | undefined>();
const watched = new WeakSet<pg.PoolClient>();

/** Counts the round trips sent on `client` while a request is measured (pool.query uses a checked-out client too). */
function watch(client: pg.PoolClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const text = String((args[0] as { text?: string }).text ?? args[0]);
    if (use.counting && counted.has(client)) {
      if (counted.get(client) === undefined) {
        const counts = !BACKGROUND.test(text);
        counted.set(client, counts);
        if (counts) {
          use.checkouts++;
          use.peak = Math.max(use.peak, ++use.held);
        }
      }
      if (counted.get(client)) use.statements++;
    }
    return query(...args);
  };
}

/** Pool check-outs and round trips a request took, and the most connections it held at once. */
async function poolUse(method: "GET" | "POST", path: string, token: string, body?: unknown): Promise<{ status: number; body: any; checkouts: number; statements: number; peak: number }> {
  Object.assign(use, { checkouts: 0, statements: 0, held: 0, peak: 0, counting: true });
  try {
    const res = await t.api(method, path, body, token);
    return { status: res.status, body: res.body, checkouts: use.checkouts, statements: use.statements, peak: use.peak };
  } finally {
    use.counting = false;
  }
}

/** Watches the pool's check-outs while requests are measured; returns the function that stops it. */
function countPoolUse(): () => void {
  const pool: pg.Pool = t.server.database.pool;
  const onAcquire = (client: pg.PoolClient) => {
    watch(client);
    counted.set(client, undefined);
  };
  const onRelease = (_err: Error | undefined, client: pg.PoolClient) => {
    if (use.counting && counted.get(client)) use.held--;
    counted.delete(client);
  };
  pool.on("acquire", onAcquire);
  pool.on("release", onRelease);
  return () => {
    pool.off("acquire", onAcquire);
    pool.off("release", onRelease);
  };
}

describe("a view read takes one pool connection, for one statement", () => {
  const views = (): Array<[string, string]> => [
    ["own country", `/country/${player.countryId}`],
    ["the store", `/market/store/${player.countryId}`],
    ["networth rank", "/rankings/networth?limit=1"],
    ["wars", "/war/declarations"],
    ["target list", "/countries?limit=25&offset=0"],
    ["brigades", `/military/brigades/${player.countryId}`],
    ["intelligence status", `/intelligence/status/${player.countryId}`],
    ["known intelligence", "/intelligence/known"],
    ["market book", "/market/listings?itemType=troops"],
    ["own standing orders", `/market/standing-orders/${player.countryId}`],
    ["alliance status", `/alliance/status/${player.countryId}`],
    ["alliance applications", "/alliance/applications"],
    ["alliance list", "/alliance/list"],
    ["diplomatic relations", `/diplomatic-relations/${player.countryId}`],
  ];

  it("every route of the play mix's view", async () => {
    for (const [, path] of views()) await t.api("GET", path, undefined, player.token); // the shared readings, read once
    const stop = countPoolUse();
    const costs: Record<string, { checkouts: number; statements: number }> = {};
    try {
      for (const [name, path] of views()) {
        const { status, checkouts, statements } = await poolUse("GET", path, player.token);
        expect(status, name).toBe(200);
        costs[name] = { checkouts, statements };
      }
    } finally {
      stop();
    }
    // the alliance list is the alliance ladder itself: nothing read per request once it is warm
    const expected = (name: string) => (name === "alliance list" ? { checkouts: 0, statements: 0 } : { checkouts: 1, statements: 1 });
    expect(costs).toEqual(Object.fromEntries(views().map(([name]) => [name, expected(name)])));
  });
});

describe("an action holds one connection at a time", () => {
  /** What the battles since `sinceId` account for: the documented change of each audited quantity (services/combat.test.ts). */
  async function battleLedger(sinceId: number): Promise<Partial<Record<Audited, number>>> {
    const { rows } = await t.server.database.pool.query("SELECT report, economy, land_destroyed FROM battles WHERE id > $1", [sinceId]);
    const ledger: Record<Audited, number> = { cash: 0, food: 0, oil: 0, land: 0, troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0, missiles: 0, turns: 0, stored_turns: 0 };
    for (const { report, economy, land_destroyed } of rows) {
      ledger.turns -= economy.turnsSpent;
      ledger.cash += economy.netCashChange;
      ledger.food += economy.netFoodChange;
      ledger.oil += economy.netOilChange;
      ledger.land -= land_destroyed;
      ledger.missiles -= report.missilesLaunched;
      for (const u of UNIT_TYPES) ledger[u] += (economy.militaryProduced[u] ?? 0) - economy.unitsLost[u] - report.attackerCasualties[u] - report.defenderCasualties[u];
    }
    return ledger;
  }

  it("an attack: its alliance support read before the lock, never beside it; every count conserved", async () => {
    const since = Number((await t.server.database.pool.query("SELECT coalesce(max(id), 0)::bigint AS id FROM battles")).rows[0].id);
    const before = await auditTotals(t.server.database.pool);
    const stop = countPoolUse();
    let attack;
    try {
      attack = await poolUse("POST", "/attack/launch", player.token, { countryId: player.countryId, targetCountryId: other.countryId, attackType: "standard_strike", units: { troops: 4_000, tanks: 200, jets: 50 } });
    } finally {
      stop();
    }
    expect(attack.status).toBe(200);
    expect(conservationErrors(before, await auditTotals(t.server.database.pool), await battleLedger(since))).toEqual([]);
    // the support's reads (one round trip), then the battle's transaction; one at a time
    expect({ checkouts: attack.checkouts, peak: attack.peak }).toEqual({ checkouts: 2, peak: 1 });
  });

  it("a store purchase and the store it answers with: one connection each; money and goods conserved", async () => {
    const before = await auditTotals(t.server.database.pool);
    const stop = countPoolUse();
    let bought;
    try {
      bought = await poolUse("POST", "/market/store/buy", player.token, { countryId: player.countryId, itemId: "food", quantity: 100 });
    } finally {
      stop();
    }
    expect(bought.status).toBe(200);
    expect(conservationErrors(before, await auditTotals(t.server.database.pool), { cash: -bought.body.transaction.totalCost, food: 100 })).toEqual([]);
    expect({ checkouts: bought.checkouts, peak: bought.peak }).toEqual({ checkouts: 2, peak: 1 });
  });
});
