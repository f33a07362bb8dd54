import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSettings } from "@game/schema/api";
import { registerPlayer, startTestServer, newPlayer, type TestServer } from "../test/harness.js";
import { runTick } from "../tick/turnTick.js";
import { tickNumberAt } from "../turnClock.js";
import { firstOfTicksOnOneDay } from "../tick/testSupport.js";
import { achievementsPhase, countrySnapshotPhase, seasonEndPhase } from "../tick/seasonPhases.js";
import { runAdminCommand } from "../cli/admin.js";

const ADMIN_EMAIL = "chief-admin@example.com";
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ adminEmails: [ADMIN_EMAIL], seasonLengthDays: 30 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
let tickCursor = tickNumberAt(Date.now(), 1_200_000);
/** Runs the given phases as one new tick (tick numbers near now, so daily snapshots are today's). */
/**
 * Moves the tick cursor so the next two ticks fall on one UTC day: from the current tick they
 * straddled midnight when the suite ran between 23:20 and 23:40 UTC, and a daily phase ran twice.
 */
function nextTwoTicksOnOneDay(): void {
  tickCursor = firstOfTicksOnOneDay(tickCursor + 1, 2, 1_200_000) - 1;
}
const tick = (phases: Parameters<typeof runTick>[2] extends infer O ? (O extends { phases?: infer P } ? P : never) : never) => runTick(t.server.ctx, ++tickCursor, { phases });

async function registerAdmin() {
  const body = { ...newPlayer("adm"), email: ADMIN_EMAIL };
  const res = await t.api("POST", "/auth/register", body);
  expect(res.status).toBe(201);
  return { token: res.body.token as string, userId: res.body.user.id as number, countryId: res.body.user.countryId as number };
}
let admin: Awaited<ReturnType<typeof registerAdmin>>;
beforeAll(async () => {
  admin = await registerAdmin();
});

describe("settings", () => {
  it("answers the spec's defaults with the account's email, then keeps what was saved, per user", async () => {
    const p = await registerPlayer(t, "set");
    const first = await t.api("GET", "/settings", undefined, p.token);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ settings: defaultSettings(), email: p.body.email, updatedAt: null });
    expect(first.body.data.settings.gameplay.refreshInterval).toBe(30);
    expect(first.body.data.settings.profile.timezone).toBe("UTC-5");
    expect(first.body.data.settings.notifications.marketUpdates).toBe(false);

    const changed = defaultSettings();
    changed.display.theme = "light";
    changed.gameplay.autoRefresh = false;
    changed.gameplay.refreshInterval = 120;
    changed.privacy.allowSpyOperations = false;
    changed.profile.displayName = "  The General ";
    const saved = await t.api("PUT", "/settings", changed, p.token);
    expect(saved.status).toBe(200);
    expect(saved.body.data.settings.profile.displayName).toBe("The General");
    const again = await t.api("GET", "/settings", undefined, p.token);
    expect(again.body.data.settings).toMatchObject({ display: { theme: "light" }, gameplay: { autoRefresh: false, refreshInterval: 120 }, privacy: { allowSpyOperations: false } });
    expect(again.body.data.updatedAt).toEqual(expect.any(String));

    const other = await registerPlayer(t, "set2");
    expect((await t.api("GET", "/settings", undefined, other.token)).body.data.settings).toEqual(defaultSettings());
  });

  it.each([
    [{ gameplay: { refreshInterval: 45 } }, "refreshInterval must be one of 15, 30, 60, 120, 300"],
    [{ display: { theme: "neon" } }, "theme must be one of dark, light, auto"],
    [{ profile: { timezone: "UTC+3" } }, "timezone must be one of UTC-12, UTC-8, UTC-5, UTC+0, UTC+1, UTC+8, UTC+9"],
    [{ privacy: { showInRankings: "yes" } }, "showInRankings must be true or false"],
    [{ profile: { displayName: "x".repeat(31) } }, "Display name must be at most 30 characters"],
  ])("refuses %j with 400", async (patch, message) => {
    const p = await registerPlayer(t, "bad");
    const body = defaultSettings() as any;
    for (const [tab, values] of Object.entries(patch)) body[tab] = { ...body[tab], ...values };
    const res = await t.api("PUT", "/settings", body, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: message } });
  });

  it("refuses a document without a tab, and any call without a token", async () => {
    const p = await registerPlayer(t, "bad");
    const { display: _d, ...partial } = defaultSettings();
    expect((await t.api("PUT", "/settings", partial, p.token)).status).toBe(400);
    expect((await t.api("GET", "/settings")).status).toBe(401);
    expect((await t.api("PUT", "/settings", defaultSettings())).status).toBe(401);
  });
});

describe("administration", () => {
  const ADMIN_CALLS: Array<[string, string, unknown?]> = [
    ["GET", "/admin/users"],
    ["GET", "/admin/log"],
    ["GET", "/admin/countries/1"],
    ["POST", "/admin/users/1/suspend", {}],
    ["POST", "/admin/users/1/unsuspend", {}],
    ["POST", "/admin/announcements", { message: "hello" }],
    ["POST", "/admin/season/end", {}],
    ["POST", "/admin/season/start", {}],
  ];

  it("answers 403 to a player for every admin route, before reading the body", async () => {
    const p = await registerPlayer(t, "plain");
    expect((await t.api("GET", "/admin/me", undefined, p.token)).body.data).toEqual({ isAdmin: false });
    for (const [method, path, body] of ADMIN_CALLS) {
      const res = await t.api(method, path, body, p.token);
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { success: false, code: "admin/forbidden" } });
    }
    expect((await t.api("POST", "/admin/announcements", { message: 5 }, p.token)).status).toBe(403);
    expect((await t.api("GET", "/admin/log")).status).toBe(401);
  });

  it("no request grants the role: registration and settings fields are ignored", async () => {
    const body = { ...newPlayer("sneak"), isAdmin: true, is_admin: true, role: "admin" };
    const reg = await t.api("POST", "/auth/register", body);
    expect(reg.status).toBe(201);
    const token = reg.body.token as string;
    await t.api("PUT", "/settings", { ...defaultSettings(), isAdmin: true, is_admin: true }, token);
    expect((await t.api("GET", "/admin/me", undefined, token)).body.data).toEqual({ isAdmin: false });
    expect((await sql("SELECT is_admin FROM users WHERE id = $1", [reg.body.user.id])).rows[0].is_admin).toBe(false);
    expect((await t.api("GET", "/admin/log", undefined, token)).status).toBe(403);
  });

  it("ADMIN_EMAILS makes an administrator; the CLI grants and revokes the stored role", async () => {
    expect((await t.api("GET", "/admin/me", undefined, admin.token)).body.data).toEqual({ isAdmin: true });
    const p = await registerPlayer(t, "cli");
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = t.databaseUrl;
    try {
      expect(await runAdminCommand(["grant", p.body.email.toUpperCase()])).toMatchObject({ code: 0 });
      expect((await t.api("GET", "/admin/me", undefined, p.token)).body.data).toEqual({ isAdmin: true });
      expect(await runAdminCommand(["revoke", p.body.email])).toMatchObject({ code: 0 });
      expect((await t.api("GET", "/admin/me", undefined, p.token)).body.data).toEqual({ isAdmin: false });
      expect(await runAdminCommand(["grant", "nobody@example.com"])).toMatchObject({ code: 1 });
      expect(await runAdminCommand(["promote"])).toMatchObject({ code: 2 });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it("suspends a player: their token and login are refused until unsuspended; every action is logged", async () => {
    const p = await registerPlayer(t, "susp");
    expect((await t.api("GET", "/settings", undefined, p.token)).status).toBe(200);
    const res = await t.api("POST", `/admin/users/${p.user.id}/suspend`, { reason: "spam" }, admin.token);
    expect(res).toMatchObject({ status: 200, body: { data: { id: p.user.id, suspendedAt: expect.any(String) } } });
    expect((await t.api("GET", "/settings", undefined, p.token)).status).toBe(401);
    expect((await t.api("GET", "/news", undefined, p.token)).status).toBe(401);
    const login = await t.api("POST", "/auth/login", { email: p.body.email, password: p.body.password });
    expect(login).toMatchObject({ status: 403, body: { error: "This account is suspended" } });
    expect((await t.api("POST", `/admin/users/${p.user.id}/suspend`, {}, admin.token)).status).toBe(409);
    expect((await t.api("POST", `/admin/users/${admin.userId}/suspend`, {}, admin.token)).status).toBe(409);

    expect((await t.api("POST", `/admin/users/${p.user.id}/unsuspend`, {}, admin.token)).status).toBe(200);
    const back = await t.api("POST", "/auth/login", { email: p.body.email, password: p.body.password });
    expect(back.status).toBe(200);

    const log = await t.api("GET", "/admin/log", undefined, admin.token);
    expect(log.body.data.slice(0, 2).map((e: any) => [e.action, e.targetUsername])).toEqual([
      ["unsuspend", p.user.username],
      ["suspend", p.user.username],
    ]);
    expect(log.body.data[1].details).toEqual({ reason: "spam" });
  });

  it("views a player's country with every number, posts an announcement to global chat, finds players", async () => {
    const p = await registerPlayer(t, "view");
    const view = await t.api("GET", `/admin/countries/${p.countryId}`, undefined, admin.token);
    expect(view).toMatchObject({ status: 200, body: { data: { country: { id: p.countryId, cash: "100000" }, user: { username: p.user.username } } } });
    expect((await t.api("GET", "/admin/countries/999999", undefined, admin.token)).status).toBe(404);

    const post = await t.api("POST", "/admin/announcements", { message: "  Maintenance at noon  " }, admin.token);
    expect(post.status).toBe(200);
    const chat = await t.api("GET", "/chat/messages/general?limit=5", undefined, p.token);
    expect(chat.body.data.at(-1)).toMatchObject({ content: "Maintenance at noon", type: "announcement", senderRole: "admin" });
    expect((await t.api("POST", "/admin/announcements", { message: "" }, admin.token)).status).toBe(400);

    const found = await t.api("GET", `/admin/users?search=${encodeURIComponent(p.user.username)}`, undefined, admin.token);
    expect(found.body.data.map((u: any) => u.id)).toEqual([p.user.id]);
    const actions = (await sql("SELECT action FROM admin_log ORDER BY id DESC LIMIT 2")).rows.map((r) => r.action);
    expect(actions).toEqual(["announcement", "view_country"]);
  });
});

describe("rankings by metric and achievements", () => {
  it("ranks every metric with the change since the period's snapshot; population and force as estimates", async () => {
    const a = await registerPlayer(t, "rka");
    const b = await registerPlayer(t, "rkb");
    await sql("UPDATE countries SET land = 400, population = 12345, victories = 3 WHERE id = $1", [a.countryId]);
    await sql("UPDATE countries SET land = 300, victories = 5 WHERE id = $1", [b.countryId]);
    nextTwoTicksOnOneDay();
    await tick([countrySnapshotPhase]);
    await tick([countrySnapshotPhase]); // same day: no second snapshot
    expect((await sql("SELECT count(*)::int AS n FROM country_snapshots WHERE country_id = $1", [a.countryId])).rows[0].n).toBe(1);
    await sql("UPDATE countries SET land = 250 WHERE id = $1", [a.countryId]);
    await sql("UPDATE countries SET land = 500 WHERE id = $1", [b.countryId]);

    const land = await t.api("GET", "/rankings/land?period=daily&limit=500", undefined, a.token);
    expect(land.status).toBe(200);
    const rows = land.body.data.rows as any[];
    const rowA = rows.find((r) => r.countryId === a.countryId);
    const rowB = rows.find((r) => r.countryId === b.countryId);
    expect(rowB).toMatchObject({ value: 500, change: 200, trend: "up", estimated: false });
    expect(rowA).toMatchObject({ value: 250, change: -150, trend: "down" });
    expect(rowB.rank).toBeLessThan(rowA.rank);

    const pop = await t.api("GET", "/rankings/population?period=weekly", undefined, a.token);
    expect(pop.body.data.rows.find((r: any) => r.countryId === a.countryId)).toMatchObject({ value: 12_000, estimated: true });
    const wars = await t.api("GET", "/rankings/wars_won", undefined, a.token);
    expect(wars.body.data.period).toBe("weekly");
    expect(wars.body.data.rows.find((r: any) => r.countryId === b.countryId).value).toBe(5);
    expect((await t.api("GET", "/rankings/military?period=all_time", undefined, a.token)).status).toBe(200);

    // the spec's networth list is unchanged without a period; with one it is a metric ranking
    const spec = await t.api("GET", "/rankings/networth?limit=5", undefined, a.token);
    expect(Array.isArray(spec.body.data)).toBe(true);
    const nw = await t.api("GET", "/rankings/networth?period=monthly&limit=1", undefined, a.token);
    expect(nw.body.data).toMatchObject({ metric: "networth", period: "monthly" });
    expect(nw.body.data.rows).toHaveLength(1);
    expect(nw.body.data.own).toMatchObject({ countryId: a.countryId });

    expect((await t.api("GET", "/rankings/land?period=yearly", undefined, a.token)).status).toBe(400);
    expect((await t.api("GET", "/rankings/happiness", undefined, a.token)).status).toBe(404);
    expect((await t.api("GET", "/rankings/land")).status).toBe(401);
  });

  it("awards an achievement once per country and season, with personal news", async () => {
    const p = await registerPlayer(t, "ach");
    await sql("UPDATE countries SET land = 1000, victories = 1 WHERE id = $1", [p.countryId]);
    await tick([achievementsPhase]);
    await tick([achievementsPhase]);
    const held = await sql("SELECT achievement_id FROM achievements WHERE country_id = $1 ORDER BY achievement_id", [p.countryId]);
    expect(held.rows.map((r) => r.achievement_id)).toEqual(["first_victory", "landholder"]);
    const news = await t.api("GET", "/news?type=achievement&category=personal", undefined, p.token);
    expect(news.body.data.map((n: any) => n.title).sort()).toEqual(["Achievement unlocked: First Blood", "Achievement unlocked: Landholder"]);
    const overview = await t.api("GET", "/rankings/achievements", undefined, p.token);
    const landholder = overview.body.data.achievements.find((a: any) => a.id === "landholder");
    expect(landholder).toMatchObject({ name: "Landholder", earnedAt: expect.any(String) });
    expect(landholder.holders).toBeGreaterThanOrEqual(1);
    expect(overview.body.data.recent.some((r: any) => r.countryId === p.countryId)).toBe(true);
  });
});

describe("season lifecycle", () => {
  it("an administrator ends the season: scores archived, every country reset, wars and listings closed, a new season and news", async () => {
    const p = await registerPlayer(t, "sea");
    const rival = await registerPlayer(t, "sea2");
    await sql("UPDATE countries SET land = 5000, cash = 9000000, victories = 7, farms = 30, turns = 3, networth = 99999999 WHERE id = $1", [p.countryId]);
    await sql(`INSERT INTO war_declarations (declarer_id, target_id, declared_at, declared_tick, charged_through_tick) VALUES ($1, $2, now(), 1, 1)`, [p.countryId, rival.countryId]);
    await sql(
      `INSERT INTO market_listings (seller_id, item_type, quantity, listed_quantity, price_per_unit, held_quantity, status, listed_at, expires_at)
       VALUES ($1, 'food', 10, 10, 5, 10, 'open', now(), now() + interval '7 days')`,
      [p.countryId],
    );
    await sql("INSERT INTO spy_daily_counters (country_id, day, used) VALUES ($1, $2, 3)", [p.countryId, Math.floor(Date.now() / 86_400_000)]);
    const before = (await t.api("GET", "/season/current", undefined, p.token)).body.data;
    expect(before.is_active).toBe(true);

    const res = await t.api("POST", "/admin/season/end", {}, admin.token);
    expect(res).toMatchObject({ status: 200, body: { data: { ended: before.name, started: expect.stringMatching(/^Season \d+$/) } } });

    const archived = await t.api("GET", `/season/scores?season=${before.id}`, undefined, p.token);
    expect(archived.body.data).toMatchObject({ id: before.id, isActive: false });
    expect(archived.body.data.scores[0]).toMatchObject({ rank: 1, countryId: p.countryId, land: 5000, victories: 7, networth: 99999999 });

    const country = (await sql("SELECT land, cash, victories, farms, turns, government_type FROM countries WHERE id = $1", [p.countryId])).rows[0];
    expect(country).toMatchObject({ land: 100, cash: 100_000, victories: 0, farms: 0, turns: 100, government_type: "monarchy" });
    expect((await sql("SELECT count(*)::int AS n FROM war_declarations WHERE ended_at IS NULL")).rows[0].n).toBe(0);
    expect((await sql("SELECT status FROM market_listings WHERE seller_id = $1", [p.countryId])).rows[0].status).toBe("cancelled");
    expect((await sql("SELECT count(*)::int AS n FROM spy_daily_counters")).rows[0].n).toBe(0);

    const now = (await t.api("GET", "/season/current", undefined, p.token)).body.data;
    expect(now).toMatchObject({ name: res.body.data.started, is_active: true });
    const lengthDays = (Date.parse(now.ends_at) - Date.parse(now.starts_at)) / 86_400_000;
    expect(lengthDays).toBeCloseTo(30, 5);
    const news = await t.api("GET", "/news?type=seasonal", undefined, p.token);
    expect(news.body.data.map((n: any) => n.title)).toEqual(expect.arrayContaining([`${before.name} has ended`, `${now.name} has begun`]));
    const history = await t.api("GET", "/season/history", undefined, p.token);
    expect(history.body.data[0]).toMatchObject({ id: before.id, winner: { countryName: p.body.countryName, networth: 99999999 } });
  });

  it("ends without a successor, refuses a second end, starts again by hand", async () => {
    const ended = await t.api("POST", "/admin/season/end", { startNext: false }, admin.token);
    expect(ended.body.data.started).toBeNull();
    expect((await t.api("GET", "/season/current", undefined, admin.token)).body.data).toMatchObject({ is_active: false, status: "INACTIVE" });
    expect(await t.api("POST", "/admin/season/end", {}, admin.token)).toMatchObject({ status: 409, body: { code: "season/none_active" } });
    const started = await t.api("POST", "/admin/season/start", {}, admin.token);
    expect(started.status).toBe(200);
    expect((await t.api("POST", "/admin/season/start", {}, admin.token)).status).toBe(409);
    expect((await t.api("GET", "/season/current", undefined, admin.token)).body.data).toMatchObject({ name: started.body.data.started, is_active: true });
  });

  it("the tick ends a season that ran out, once, however often it runs", async () => {
    const p = await registerPlayer(t, "tickend");
    await sql("UPDATE countries SET land = 777 WHERE id = $1", [p.countryId]);
    const { rows } = await sql("UPDATE seasons SET starts_at = now() - interval '2 days', ends_at = now() - interval '1 second' WHERE is_active RETURNING id, name");
    const old = rows[0];
    await tick([seasonEndPhase]);
    await tick([seasonEndPhase]);
    await Promise.all([tick([seasonEndPhase]), tick([seasonEndPhase])]);
    const seasons = (await sql("SELECT id, is_active FROM seasons WHERE id >= $1 ORDER BY id", [old.id])).rows;
    expect(seasons).toHaveLength(2);
    expect(seasons.map((s) => s.is_active)).toEqual([false, true]);
    expect((await sql("SELECT land FROM countries WHERE id = $1", [p.countryId])).rows[0].land).toBe(100);
    expect((await sql("SELECT count(*)::int AS n FROM season_scores WHERE season_id = $1 AND country_id = $2", [old.id, p.countryId])).rows[0].n).toBe(1);
    expect((await sql("SELECT count(*)::int AS n FROM news_items WHERE kind = 'season_ended' AND dedupe_key = $1", [`season_ended:${old.id}`])).rows[0].n).toBe(1);
  });
});
