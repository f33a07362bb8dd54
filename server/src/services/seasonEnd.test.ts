import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { newPlayer, registerPlayer, startTestServer, type TestServer } from "../test/harness.js";

const ADMIN_EMAIL = "season-admin@example.com";
let t: TestServer;
let admin: { token: string };
const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

beforeAll(async () => {
  t = await startTestServer({ adminEmails: [ADMIN_EMAIL], seasonLengthDays: 30 });
  const res = await t.api("POST", "/auth/register", { ...newPlayer("sadm"), email: ADMIN_EMAIL });
  expect(res.status).toBe(201);
  admin = { token: res.body.token };
});
afterAll(async () => {
  await t?.close();
});

async function activeSeason(): Promise<{ id: number; name: string }> {
  return (await sql("SELECT id, name FROM seasons WHERE is_active")).rows[0];
}

/** Waits until `count` statements of this database wait for a lock (the end-season transaction is parked). */
async function untilWaitingOnLocks(count: number): Promise<void> {
  for (;;) {
    const { rows } = await sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (rows[0].n >= count) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("issue 28: the season end is ordered, retried and idempotent by season id", () => {
  it("an action holding a low country and then locking a higher one does not deadlock with the season end", async () => {
    // the archive used to take key-share locks in ranking order (highest networth first):
    // the richer country has the higher id, the action locks the lower id first, as actions do
    const low = await registerPlayer(t, "low");
    const high = await registerPlayer(t, "high");
    expect(high.countryId).toBeGreaterThan(low.countryId);
    await sql("UPDATE countries SET networth = 90000000 WHERE id = $1", [high.countryId]);
    await sql("UPDATE countries SET networth = 80000000 WHERE id = $1", [low.countryId]);

    const action = new pg.Client({ connectionString: t.databaseUrl });
    await action.connect();
    try {
      await action.query("BEGIN");
      await action.query("SELECT id FROM countries WHERE id = $1 FOR UPDATE", [low.countryId]);
      const ending = t.api("POST", "/admin/season/end", {}, admin.token);
      await untilWaitingOnLocks(1);
      // the action's second lock, in ascending id order: must not be a deadlock
      await action.query("SELECT id FROM countries WHERE id = $1 FOR UPDATE", [high.countryId]);
      await action.query("COMMIT");
      const res = await ending;
      expect(res.status).toBe(200);
    } finally {
      await action.end();
    }
  });

  it("three parallel end-season requests end one season and reset the world once; the others and a repeat answer 409", async () => {
    const season = await activeSeason();
    const p = await registerPlayer(t, "reset");
    const seasonsBefore = (await sql("SELECT count(*)::int AS n FROM seasons")).rows[0].n;
    // Each names the season it means to end: that is what makes the request idempotent. A request
    // without an id ends the season active when it arrives, so on a quiet machine a third request
    // arriving after the first had committed ended the next season (200, 200, 409).
    const answers = await Promise.all([1, 2, 3].map(() => t.api("POST", "/admin/season/end", { seasonId: season.id }, admin.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body).toMatchObject({ success: false, code: "season/already_ended" });
    // one season ended and one started
    expect((await sql("SELECT count(*)::int AS n FROM seasons")).rows[0].n).toBe(seasonsBefore + 1);
    expect((await sql("SELECT count(*)::int AS n FROM seasons WHERE ended_at IS NOT NULL AND id >= $1", [season.id])).rows[0].n).toBe(1);
    const next = await activeSeason();
    expect(next.id).not.toBe(season.id);
    // the world reset once: one season_ended news of that season
    expect((await sql("SELECT count(*)::int AS n FROM news_items WHERE dedupe_key = $1", [`season_ended:${season.id}`])).rows[0].n).toBe(1);
    expect((await sql("SELECT count(*)::int AS n FROM news_items WHERE dedupe_key = $1", [`season_ended:${next.id}`])).rows[0].n).toBe(0);
    expect((await sql("SELECT land FROM countries WHERE id = $1", [p.countryId])).rows[0].land).toBe(100);

    // a repeat naming the season that ended answers 409 and ends nothing
    const repeat = await t.api("POST", "/admin/season/end", { seasonId: season.id }, admin.token);
    expect(repeat).toMatchObject({ status: 409, body: { code: "season/already_ended" } });
    expect((await activeSeason()).id).toBe(next.id);
  });

  it("a seasonId that is not a positive integer answers 400 and ends nothing", async () => {
    const season = await activeSeason();
    for (const seasonId of ["1", -1, 1.5]) {
      expect((await t.api("POST", "/admin/season/end", { seasonId }, admin.token)).status).toBe(400);
    }
    expect((await activeSeason()).id).toBe(season.id);
  });
});
