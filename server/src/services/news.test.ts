import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";
import { countryTopic, WORLD_TOPIC, type GameEvent } from "../events.js";
import { AppError } from "../errors.js";
import { runCountriesAction } from "./actions.js";
import { publishNews, recordNews } from "./news.js";

/**
 * News recorded in the producer's transaction (atomic, exactly once), published on its
 * audience's topic, read per user over REST, and counted live in the world room.
 */

let t: TestServer;
const open: WorldTestClient[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.leave()));
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);
const A = { id: 1, name: "Avalon" };
const B = { id: 2, name: "Brigadoon" };

/** Collects the events published on `topicName` while `work` runs and shortly after. */
async function eventsOn(topicName: string, work: () => Promise<unknown>): Promise<GameEvent[]> {
  const seen: GameEvent[] = [];
  const topic = topicName === "world" ? WORLD_TOPIC : countryTopic(Number(topicName.split(":")[1]));
  const off = t.server.ctx.events.subscribe(topic as never, (e: GameEvent) => seen.push(e));
  await t.server.ctx.events.ready();
  try {
    await work().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    off();
  }
  return seen;
}

/** A personal item recorded inside a one-country action of the player; `fail` rolls it back. */
function actionWithNews(p: { user: { id: number }; countryId: number }, fail: boolean) {
  return runCountriesAction(t.server.ctx, {
    name: "test_news",
    actor: { userId: p.user.id, countryId: p.countryId },
    countryIds: [p.countryId],
    async step(countries, tx) {
      await recordNews(tx, { kind: "battle_won", params: { attacker: A, defender: B, landCaptured: 10, defenderLandBefore: 100 }, countryId: p.countryId });
      if (fail) throw new AppError(400, "refused after the news", "test/refused");
      return { next: new Map([[p.countryId, countries.get(p.countryId)!.state]]), result: null };
    },
  });
}

describe("recordNews", () => {
  it("is atomic with the action: a refused action leaves no item and publishes nothing", async () => {
    const p = await registerPlayer(t, "atom");
    const events = await eventsOn(`country:${p.countryId}`, () => actionWithNews(p, true));
    expect(events.filter((e) => e.type === "newsPublished")).toEqual([]);
    const { rows } = await sql("SELECT count(*)::int AS n FROM news_items WHERE country_id = $1", [p.countryId]);
    expect(rows[0].n).toBe(0);
  });

  it("a committed action leaves one item and publishes it once on the country's topic, after the commit", async () => {
    const p = await registerPlayer(t, "commit");
    const events = await eventsOn(`country:${p.countryId}`, () => actionWithNews(p, false));
    const published = events.filter((e) => e.type === "newsPublished");
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ item: { kind: "battle_won", category: "personal", countryId: p.countryId, title: "Victory over Brigadoon" } });
    const { rows } = await sql("SELECT kind, category, priority, impact, country_id FROM news_items WHERE country_id = $1", [p.countryId]);
    expect(rows).toEqual([{ kind: "battle_won", category: "personal", priority: "medium", impact: "moderate", country_id: p.countryId }]);
  });

  it("a dedupe key makes an item recorded by many processes at once exist once", async () => {
    const key = `test-season-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => publishNews(t.server.ctx, { kind: "season_started", params: { season: "Season 9", endsAt: Date.now() + 1000 }, dedupeKey: key })));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const { rows } = await sql("SELECT count(*)::int AS n FROM news_items WHERE dedupe_key = $1", [key]);
    expect(rows[0].n).toBe(1);
  });

  it("global items go to the world topic", async () => {
    const events = await eventsOn("world", () => publishNews(t.server.ctx, { kind: "war_declared", params: { aggressor: A, target: B, kind: "country" } }));
    expect(events.find((e) => e.type === "newsPublished")).toMatchObject({ item: { kind: "war_declared", category: "global", type: "war" } });
  });

  it("a personal kind without its country is a programming error, not an item", async () => {
    await expect(publishNews(t.server.ctx, { kind: "bankrupt", params: { turns: 1, unpaid: 5 } })).rejects.toThrow(/countryId required/);
  });
});

describe("GET /news, POST /news/{id}/read, POST /news/read-all", () => {
  it("lists what the player may see, filtered and paged, with the unread count; reading lowers it once; read-all clears it", async () => {
    const me = await registerPlayer(t, "reader");
    const other = await registerPlayer(t, "other");
    // Items before the account are history: they count as read.
    await sql("UPDATE users SET created_at = now() - interval '1 minute' WHERE id = $1", [me.user.id]);
    const mine = await publishNews(t.server.ctx, { kind: "starving", params: { turns: 1, peopleLost: 5, troopsLost: 1 }, countryId: me.countryId });
    await publishNews(t.server.ctx, { kind: "bankrupt", params: { turns: 1, unpaid: 10 }, countryId: other.countryId });
    const global1 = await publishNews(t.server.ctx, { kind: "large_trade", params: { item: "food", quantity: 5000, totalValue: 150_000, buyer: A, seller: B } });
    const global2 = await publishNews(t.server.ctx, { kind: "system_announcement", params: { title: "Hello", message: "World", priority: "low" } });

    const all = await t.api("GET", "/news?limit=100", undefined, me.token);
    expect(all.status).toBe(200);
    const ids = all.body.data.map((n: { id: string }) => n.id);
    expect(ids).toContain(mine!.id);
    expect(ids).toContain(global1!.id);
    // Another player's personal news is never listed.
    expect(all.body.data.every((n: { category: string; kind: string }) => n.kind !== "bankrupt")).toBe(true);
    // Newest first, the spec's fields.
    expect(ids).toEqual([...ids].sort((a: string, b: string) => Number(b) - Number(a)));
    expect(all.body.data.find((n: { id: string }) => n.id === mine!.id)).toMatchObject({
      type: "system",
      category: "personal",
      priority: "high",
      impact: "minor",
      isRead: false,
      participants: [],
      tags: ["economy", "food"],
      location: "",
    });
    const unread = all.body.unreadCount;
    expect(unread).toBeGreaterThanOrEqual(3);

    const personal = await t.api("GET", "/news?category=personal", undefined, me.token);
    expect(personal.body.data.map((n: { id: string }) => n.id)).toEqual([mine!.id]);
    const market = await t.api("GET", "/news?type=market&category=global", undefined, me.token);
    expect(market.body.data.every((n: { type: string }) => n.type === "market")).toBe(true);
    expect(market.body.data.map((n: { id: string }) => n.id)).toContain(global1!.id);
    const page2 = await t.api("GET", "/news?limit=1&page=2", undefined, me.token);
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.data[0].id).toBe(ids[1]);
    expect(page2.body.total).toBe(all.body.total);

    const read = await t.api("POST", `/news/${mine!.id}/read`, undefined, me.token);
    expect(read.status).toBe(200);
    expect(read.body.unreadCount).toBe(unread - 1);
    const again = await t.api("POST", `/news/${mine!.id}/read`, undefined, me.token);
    expect(again.body.unreadCount).toBe(unread - 1);
    const after = await t.api("GET", "/news?category=personal", undefined, me.token);
    expect(after.body.data[0].isRead).toBe(true);
    const unreadOnly = await t.api("GET", "/news?unread=true&limit=100", undefined, me.token);
    expect(unreadOnly.body.data.map((n: { id: string }) => n.id)).not.toContain(mine!.id);
    expect(unreadOnly.body.data.map((n: { id: string }) => n.id)).toContain(global2!.id);

    const readAll = await t.api("POST", "/news/read-all", undefined, me.token);
    expect(readAll.body.unreadCount).toBe(0);
    // Read state is per user: the other player still has the global items unread.
    const theirs = await t.api("GET", "/news?unread=true&category=global", undefined, other.token);
    expect(theirs.body.data.map((n: { id: string }) => n.id)).toContain(global2!.id);
    // A new item after read-all is unread again.
    await publishNews(t.server.ctx, { kind: "research_level", params: { technology: "business", name: "Business", level: 1, maxLevel: 20 }, countryId: me.countryId });
    expect((await t.api("GET", "/news", undefined, me.token)).body.unreadCount).toBe(1);
  });

  it("items from before the account was created count as read", async () => {
    const old = await publishNews(t.server.ctx, { kind: "system_announcement", params: { title: "Old", message: "news", priority: "low" } });
    await new Promise((r) => setTimeout(r, 20));
    const newcomer = await registerPlayer(t, "newbie");
    const list = await t.api("GET", "/news?limit=100", undefined, newcomer.token);
    expect(list.body.data.find((n: { id: string }) => n.id === old!.id)?.isRead).toBe(true);
    expect(list.body.unreadCount).toBe(0);
  });

  it("refuses bad input with 4xx and changes nothing", async () => {
    const me = await registerPlayer(t, "bad");
    const other = await registerPlayer(t, "bad2");
    const theirs = await publishNews(t.server.ctx, { kind: "bankrupt", params: { turns: 1, unpaid: 10 }, countryId: other.countryId });
    expect((await t.api("GET", "/news?category=secret", undefined, me.token)).body).toMatchObject({ success: false, code: "request/invalid" });
    expect((await t.api("GET", "/news?type=gossip", undefined, me.token)).status).toBe(400);
    expect((await t.api("GET", "/news?page=0", undefined, me.token)).status).toBe(400);
    expect((await t.api("GET", "/news?limit=1000", undefined, me.token)).status).toBe(400);
    expect((await t.api("POST", "/news/abc/read", undefined, me.token)).status).toBe(400);
    expect((await t.api("POST", `/news/${theirs!.id}/read`, undefined, me.token)).body).toMatchObject({ success: false, error: "News item not found" });
    expect((await t.api("POST", "/news/999999999/read", undefined, me.token)).status).toBe(404);
    expect((await t.api("GET", "/news")).status).toBe(401);
    const { rows } = await sql("SELECT count(*)::int AS n FROM news_reads WHERE user_id = $1", [me.user.id]);
    expect(rows[0].n).toBe(0);
  });
});

describe("world room: ticker and unread count", () => {
  it("a global item reaches every client's ticker and count; a personal one only its player's; a read on REST follows live", async () => {
    const a = await registerPlayer(t, "livea");
    const b = await registerPlayer(t, "liveb");
    const ca = await joinWorld(t.baseUrl, a.token);
    const cb = await joinWorld(t.baseUrl, b.token);
    open.push(ca, cb);
    await eventually(() => ca.own()?.countryId === a.countryId && cb.own()?.countryId === b.countryId, "own summaries");
    // the join-time counts (read after the join, sent within UNREAD_FLUSH_MS)
    await new Promise((r) => setTimeout(r, 500));
    const baseA = ca.unreadNews()!;
    const baseB = cb.unreadNews()!;

    const item = await publishNews(t.server.ctx, { kind: "alliance_founded", params: { alliance: { id: 5, name: "Pact", tag: "PCT" }, founder: A } });
    await eventually(() => ca.json().news?.[0]?.id === item!.id && cb.json().news?.[0]?.id === item!.id, "the headline on both tickers");
    expect(ca.json().news[0]).toMatchObject({ kind: "alliance_founded", type: "alliance", title: "Alliance [PCT] Pact founded", priority: "medium" });
    await eventually(() => ca.unreadNews() === baseA + 1 && cb.unreadNews() === baseB + 1, "both counts up by one");

    await publishNews(t.server.ctx, { kind: "starving", params: { turns: 1, peopleLost: 1, troopsLost: 0 }, countryId: a.countryId });
    await eventually(() => ca.unreadNews() === baseA + 2, "A's count up by one more");
    await new Promise((r) => setTimeout(r, 400));
    expect(cb.unreadNews()).toBe(baseB + 1);

    await t.api("POST", "/news/read-all", undefined, a.token);
    await eventually(() => ca.unreadNews() === 0, "A's count cleared live");
    expect(cb.unreadNews()).toBe(baseB + 1);
  });

  it("a global item costs each client nothing but the shard's patch: no message to anyone, every count one up, a repeated delivery and an item the join's count saw counted once", async () => {
    const players = await Promise.all(["gla", "glb", "glc"].map((name) => registerPlayer(t, name)));
    const clients = await Promise.all(players.map((p) => joinWorld(t.baseUrl, p.token)));
    open.push(...clients);
    await eventually(() => clients.every((c, i) => c.own()?.countryId === players[i]!.countryId), "own summaries");
    await new Promise((r) => setTimeout(r, 500));
    const bases = clients.map((c) => c.unreadNews()!);
    const ownMessages = () => clients.map((c) => c.received.get("own")?.length ?? 0);
    const before = ownMessages();
    const seqBefore = clients[0]!.json().newsSeq as number;

    const item = await publishNews(t.server.ctx, { kind: "alliance_founded", params: { alliance: { id: 7, name: "Quiet", tag: "QUI" }, founder: A } });
    await eventually(() => clients.every((c, i) => c.unreadNews() === bases[i]! + 1), "every count up by one");
    expect(clients[0]!.json().newsSeq).toBe(seqBefore + 1);
    // the same event delivered again (a second process's copy, a replay) counts nothing
    t.server.ctx.events.publish(WORLD_TOPIC, { type: "newsPublished", item: item! });
    await new Promise((r) => setTimeout(r, 1_300));
    expect(clients.map((c) => c.unreadNews())).toEqual(bases.map((b) => b + 1));
    expect(ownMessages()).toEqual(before);

    // An item committed before a player's join but delivered after the join's count was read:
    // the count has it, so the seq's +1 is taken back for that player only.
    const d = await registerPlayer(t, "gld");
    const late: Array<{ topic: typeof WORLD_TOPIC; event: GameEvent }> = [];
    const db = await t.server.database.pool.connect();
    try {
      await db.query("BEGIN");
      await recordNews(
        { client: db, emit: (topic, event) => late.push({ topic: topic as typeof WORLD_TOPIC, event: event as GameEvent }) },
        { kind: "alliance_founded", params: { alliance: { id: 8, name: "Late", tag: "LAT" }, founder: B } },
      );
      await db.query("COMMIT");
    } finally {
      db.release();
    }
    const cd = await joinWorld(t.baseUrl, d.token);
    open.push(cd);
    await eventually(() => cd.own()?.countryId === d.countryId, "D's own summary");
    await new Promise((r) => setTimeout(r, 500));
    const baseD = cd.unreadNews()!;
    for (const { topic, event } of late) t.server.ctx.events.publish(topic, event as never);
    await eventually(() => clients.every((c, i) => c.unreadNews() === bases[i]! + 2), "the others count it");
    await new Promise((r) => setTimeout(r, 600));
    expect(cd.unreadNews()).toBe(baseD);
  });
});
