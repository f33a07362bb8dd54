import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { Rng } from "@game/schema/rules";
import { createAiCountry } from "../services/ai.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

describe("GET /chat/channels/{countryId}", () => {
  it("lists the open channels to a player without an alliance, and adds the alliance channel for a member", async () => {
    const p = await registerPlayer(t, "chan");
    const res = await t.api("GET", `/chat/channels/${p.countryId}`, undefined, p.token);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.map((c: any) => c.id)).toEqual(["general", "trade", "war"]);
    expect(res.body.data[0]).toEqual({
      id: "general",
      name: "General",
      description: expect.any(String),
      icon: expect.any(String),
      color: expect.stringMatching(/^#/),
      accessLevel: "all",
      isActive: true,
      userCount: expect.any(Number),
    });

    await sql("UPDATE countries SET alliance_id = 77 WHERE id = $1", [p.countryId]);
    const member = await t.api("GET", `/chat/channels/${p.countryId}`, undefined, p.token);
    // Leadership is never listed to a plain member.
    expect(member.body.data.map((c: any) => c.id)).toEqual(["general", "trade", "war", "alliance"]);
  });

  it("answers 403 for another player's country, 400 for a bad id and 401 without a token", async () => {
    const a = await registerPlayer(t, "chanA");
    const b = await registerPlayer(t, "chanB");
    expect(await t.api("GET", `/chat/channels/${b.countryId}`, undefined, a.token)).toMatchObject({ status: 403, body: { success: false } });
    expect(await t.api("GET", "/chat/channels/abc", undefined, a.token)).toMatchObject({ status: 400, body: { success: false, error: "Invalid id" } });
    expect((await t.api("GET", `/chat/channels/${a.countryId}`)).status).toBe(401);
  });
});

describe("POST /chat/send and GET /chat/messages/{channelId}", () => {
  it("posts, then pages the history newest-first by ?before= with oldest-first pages", async () => {
    const p = await registerPlayer(t, "page");
    const ids: string[] = [];
    for (const content of ["first", "second", "third"]) {
      const res = await t.api("POST", "/chat/send", { channel: "war", content: `  ${content} @${p.body.username} ` }, p.token);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, data: { channel: "war", content: `${content} @${p.body.username}`, mentions: [p.body.username], senderName: p.body.username } });
      ids.push(res.body.data.id);
    }
    const page1 = await t.api("GET", "/chat/messages/war?limit=2", undefined, p.token);
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((m: any) => m.content)).toEqual([`second @${p.body.username}`, `third @${p.body.username}`]);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.data[0]).toMatchObject({ type: "message", senderRole: "member", allianceTag: "", isEdited: false, isOnline: false, timestamp: expect.any(Number) });
    const page2 = await t.api("GET", `/chat/messages/war?limit=2&before=${page1.body.data[0].id}`, undefined, p.token);
    expect(page2.body.data.map((m: any) => m.id)).toEqual([ids[0]]);
    expect(page2.body.hasMore).toBe(false);
  });

  it.each([
    ["empty after trim", { channel: "general", content: "   " }, "Message cannot be empty"],
    ["too long", { channel: "general", content: "y".repeat(501) }, "Message must be at most 500 characters"],
    ["unknown channel", { channel: "secret", content: "hi" }, "Unknown chat channel"],
    ["no body fields", {}, "Unknown chat channel"],
  ])("refuses %s with 400", async (_name, body, error) => {
    const p = await registerPlayer(t, "bad");
    expect(await t.api("POST", "/chat/send", body, p.token)).toMatchObject({ status: 400, body: { success: false, error } });
  });

  it("rate limits a user to 5 messages per 10 seconds with 429", async () => {
    const p = await registerPlayer(t, "flood");
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.api("POST", "/chat/send", { channel: "general", content: `m${i}` }, p.token)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const limited = await t.api("POST", "/chat/send", { channel: "general", content: "again" }, p.token);
    expect(limited.body).toEqual({ success: false, error: "You are sending messages too fast. Wait a few seconds.", code: "chat/rate_limited" });
  });

  it("answers a command to the sender in data, without posting it", async () => {
    const p = await registerPlayer(t, "cmd");
    const res = await t.api("POST", "/chat/send", { channel: "general", content: "/help" }, p.token);
    expect(res.status).toBe(200);
    expect(res.body.data.command).toBe("help");
    expect(res.body.data.lines.length).toBeGreaterThanOrEqual(5);
    const unknown = await t.api("POST", "/chat/send", { channel: "general", content: "/dance" }, p.token);
    expect(unknown).toMatchObject({ status: 400, body: { error: "Unknown command. Type /help for the list of commands" } });
  });

  it("keeps alliance history inside the alliance and refuses outsiders with 403", async () => {
    const a = await registerPlayer(t, "histA");
    const b = await registerPlayer(t, "histB");
    const outsider = await registerPlayer(t, "histX");
    await sql("UPDATE countries SET alliance_id = 555 WHERE id = ANY($1::bigint[])", [[a.countryId, b.countryId]]);
    expect((await t.api("POST", "/chat/send", { channel: "alliance", content: "our secret" }, a.token)).status).toBe(201);
    const seen = await t.api("GET", "/chat/messages/alliance", undefined, b.token);
    expect(seen.body.data.map((m: any) => m.content)).toEqual(["our secret"]);
    expect(await t.api("GET", "/chat/messages/alliance", undefined, outsider.token)).toMatchObject({ status: 403, body: { error: "You do not have access to this channel" } });
    expect(await t.api("POST", "/chat/send", { channel: "alliance", content: "hi" }, outsider.token)).toMatchObject({ status: 403 });
    expect(await t.api("GET", "/chat/messages/leadership", undefined, a.token)).toMatchObject({ status: 403 });
    expect(await t.api("GET", "/chat/messages/nope", undefined, a.token)).toMatchObject({ status: 400, body: { error: "Unknown chat channel" } });
    // Another alliance's members see none of it.
    await sql("UPDATE countries SET alliance_id = 556 WHERE id = $1", [outsider.countryId]);
    expect((await t.api("GET", "/chat/messages/alliance", undefined, outsider.token)).body.data).toEqual([]);
  });

  it("hides messages from ignored players in the history", async () => {
    const a = await registerPlayer(t, "hideA");
    const b = await registerPlayer(t, "hideB");
    await t.api("POST", "/chat/send", { channel: "trade", content: `noise from ${b.body.username}` }, b.token);
    expect((await t.api("POST", "/chat/send", { channel: "trade", content: `/ignore ${b.body.username}` }, a.token)).body.data.lines).toEqual([`You now ignore ${b.body.username}`]);
    const history = await t.api("GET", "/chat/messages/trade?limit=100", undefined, a.token);
    expect(history.body.data.some((m: any) => m.senderName === b.body.username)).toBe(false);
    expect((await t.api("POST", "/chat/send", { channel: "trade", content: "/ignore" }, a.token)).body.data.lines).toEqual([`You ignore: ${b.body.username}`]);
  });
});

describe("GET /chat/online-users", () => {
  let client: WorldTestClient | undefined;
  afterAll(async () => client?.leave());

  it("lists players joined to a world room with public fields only", async () => {
    const p = await registerPlayer(t, "online");
    client = await joinWorld(t.baseUrl, p.token);
    const res = await t.api("GET", "/chat/online-users", undefined, p.token);
    expect(res.status).toBe(200);
    const me = res.body.data.find((u: any) => u.id === String(p.user.id));
    expect(me).toEqual({ id: String(p.user.id), name: p.body.username, role: "member", isOnline: true, allianceName: "", allianceTag: "", government: "monarchy", networth: expect.any(Number) });
    await client.leave();
    const after = await t.api("GET", "/chat/online-users", undefined, p.token);
    expect(after.body.data.some((u: any) => u.id === String(p.user.id))).toBe(false);
  });
});

describe("season", () => {
  it("GET /season/current answers data {name, is_active} and the turn clock", async () => {
    const p = await registerPlayer(t, "season");
    const res = await t.api("GET", "/season/current", undefined, p.token);
    expect(res).toMatchObject({ status: 200, body: { success: true, data: { name: "Season 1", is_active: true, status: "ACTIVE" } } });
    expect(Date.parse(res.body.data.ends_at)).toBeGreaterThan(Date.now());
    expect(Date.parse(res.body.data.next_tick_at)).toBeGreaterThan(Date.now());
    expect((await t.api("GET", "/season/current")).status).toBe(401);
  });

  it("GET /season/scores answers the season stats", async () => {
    const p = await registerPlayer(t, "scores");
    const res = await t.api("GET", "/season/scores", undefined, p.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ season: "Season 1", totalPlayers: expect.any(Number), activeAlliances: expect.any(Number), warsTotal: expect.any(Number), topAlliance: null });
    expect(res.body.data.topPlayer.networth).toBe(res.body.data.scores[0].value);
    expect(res.body.data.totalPlayers).toBeGreaterThan(0);
  });
});

describe("GET /rankings/networth", () => {
  it("ranks by networth with the spec's row fields and appends the caller when missing", async () => {
    const rich = await registerPlayer(t, "rich");
    const poor = await registerPlayer(t, "poor");
    await sql("UPDATE countries SET networth = 99000000 WHERE id = $1", [rich.countryId]);
    await sql("UPDATE countries SET networth = 1 WHERE id = $1", [poor.countryId]);
    const res = await t.api("GET", "/rankings/networth?limit=1", undefined, poor.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({
      rank: 1,
      countryId: rich.countryId,
      id: String(rich.countryId),
      value: 99000000,
      playerName: rich.body.username,
      countryName: rich.body.countryName,
      governmentType: "monarchy",
      trend: "same",
      change: 0,
      isOnline: false,
    });
    const own = res.body.data[1];
    expect(own.countryId).toBe(poor.countryId);
    const total = (await sql("SELECT count(*)::int AS n FROM countries WHERE networth > 0")).rows[0].n;
    expect(own.rank).toBe(total);
    for (const field of ["cash", "food", "oil", "troops", "turns"]) expect(own).not.toHaveProperty(field);

    const all = await t.api("GET", "/rankings/networth", undefined, poor.token);
    const values = all.body.data.map((r: any) => r.value);
    expect(values).toEqual([...values].sort((x: number, y: number) => y - x));
    expect(all.body.data.map((r: any) => r.rank)).toEqual(all.body.data.map((_: unknown, i: number) => i + 1));
  });

  it("refuses a bad limit with 400 and no token with 401", async () => {
    const p = await registerPlayer(t, "lim");
    expect(await t.api("GET", "/rankings/networth?limit=0", undefined, p.token)).toMatchObject({ status: 400, body: { error: "limit must be at least 1" } });
    expect(await t.api("GET", "/rankings/networth?limit=501", undefined, p.token)).toMatchObject({ status: 400, body: { error: "limit must be at most 500" } });
    expect(await t.api("GET", "/rankings/networth?limit=abc", undefined, p.token)).toMatchObject({ status: 400 });
    expect((await t.api("GET", "/rankings/networth")).status).toBe(401);
  });

  it("reports climbing since today's snapshot as change and trend", async () => {
    const p = await registerPlayer(t, "climb");
    await t.api("GET", "/rankings/networth", undefined, p.token); // starts today's snapshot in the background
    await eventually(async () => (await sql("SELECT 1 FROM ranking_snapshots WHERE taken_on = (now() AT TIME ZONE 'UTC')::date LIMIT 1")).rowCount === 1, "today's snapshot");
    // Pretend the country was 400th when the day's snapshot was taken.
    await sql(
      `INSERT INTO ranking_snapshots (taken_on, country_id, rank, networth) VALUES ((now() AT TIME ZONE 'UTC')::date, $1, 400, 1)
       ON CONFLICT (taken_on, country_id) DO UPDATE SET rank = 400`,
      [p.countryId],
    );
    await sql("UPDATE countries SET networth = 500000000 WHERE id = $1", [p.countryId]);
    const row = (await t.api("GET", "/rankings/networth", undefined, p.token)).body.data.find((r: any) => r.countryId === p.countryId);
    expect(row).toMatchObject({ rank: 1, change: 399, trend: "up" });
  });

  it("marks AI countries (named by their country, never their internal owner) and ranks players only on ?playersOnly=true", async () => {
    const player = await registerPlayer(t, "human");
    const ai = await createAiCountry(t.server.ctx, "farmer", 7, Rng.fromSeed(7));
    await sql("UPDATE countries SET networth = 900000000, land = 90000 WHERE id = $1", [ai.id]);
    const all = (await t.api("GET", "/rankings/networth", undefined, player.token)).body.data;
    expect(all[0]).toMatchObject({ countryId: ai.id, rank: 1, isAi: true, playerName: ai.name, countryName: ai.name });
    expect(JSON.stringify(all)).not.toMatch(/ai_[0-9a-f]{12}/);
    expect(all.find((r: any) => r.countryId === player.countryId)?.isAi ?? false).toBe(false);
    expect(all.filter((r: any) => !r.isAi).every((r: any) => r.isAi === false)).toBe(true);

    const players = await t.api("GET", "/rankings/networth?playersOnly=true&limit=500", undefined, player.token);
    expect(players.status).toBe(200);
    expect(players.body.data.some((r: any) => r.isAi || r.countryId === ai.id)).toBe(false);
    // ranks among players: 1..N with no gap where the AI stood
    expect(players.body.data.map((r: any) => r.rank)).toEqual(players.body.data.map((_: unknown, i: number) => i + 1));
    const humans = (await sql("SELECT count(*)::int AS n FROM countries WHERE networth > 0 AND NOT is_eliminated AND NOT is_ai")).rows[0].n;
    expect(players.body.data).toHaveLength(humans);

    // the metric rankings take the same option
    const land = await t.api("GET", "/rankings/land?playersOnly=true", undefined, player.token);
    expect(land.status).toBe(200);
    expect(land.body.data.rows.some((r: any) => r.countryId === ai.id)).toBe(false);
    const landAll = await t.api("GET", "/rankings/land", undefined, player.token);
    expect(landAll.body.data.rows[0]).toMatchObject({ countryId: ai.id, isAi: true, playerName: ai.name });

    // the season card's count is the list's: AI countries in, unranked (networth 0) out; players only without AI (#23)
    const unranked = await registerPlayer(t, "zero");
    await sql("UPDATE countries SET networth = 0 WHERE id = $1", [unranked.countryId]);
    const listAll = (await t.api("GET", "/rankings/networth?limit=500", undefined, player.token)).body.data;
    const listPlayers = (await t.api("GET", "/rankings/networth?playersOnly=true&limit=500", undefined, player.token)).body.data;
    expect(listAll.length).toBeLessThan(500);
    const stats = (await t.api("GET", "/season/scores", undefined, player.token)).body.data;
    expect({ rankedCountries: stats.rankedCountries, rankedPlayers: stats.rankedPlayers }).toEqual({ rankedCountries: listAll.length, rankedPlayers: listPlayers.length });
    expect(listAll.some((r: any) => r.countryId === unranked.countryId)).toBe(false);

    for (const bad of ["yes", "1", ""]) {
      expect(await t.api("GET", `/rankings/networth?playersOnly=${bad}`, undefined, player.token)).toMatchObject({ status: 400, body: { success: false, error: "playersOnly must be true or false" } });
    }
  });
});
