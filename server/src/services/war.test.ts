import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeNetworth, splitWarCost, WAR_MIN_DURATION_MS } from "@game/schema/rules";
import type { WarDeclarationJson } from "@game/schema/api";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { setCountry } from "../test/military.js";
import { buildAlliance } from "../test/alliances.js";
import { countryTopic, WORLD_TOPIC, type GameEvent } from "../events.js";
import { rowToState } from "../db/countries.js";
import { runTick } from "../tick/turnTick.js";

/**
 * War declarations over REST and the war_costs tick phase: declare, the +10% and the GDI
 * bypass in battle, the 48-hour minimum, cooldown, $10 per target acre per turn charged once
 * per tick whatever is retried or caught up, automatic peace when the declarer cannot pay.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ newPlayerProtectionHours: 0 });
});
afterAll(async () => {
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.server.database.pool.query(text, values);

async function player(prefix: string, patch: Record<string, number> = {}) {
  const p = await registerPlayer(t, prefix);
  const values = { troops: 5_000, tanks: 300, jets: 100, turrets: 300, cash: 2_000_000, turns: 150, land: 500, population: 5_000, ...patch };
  await setCountry(t.server.database.pool, p.countryId, values);
  return p;
}

const declare = (token: string, targetCountryId: unknown) => t.api("POST", "/war/declare", { targetCountryId }, token);
const row = async (id: number) => (await sql("SELECT * FROM countries WHERE id = $1", [id])).rows[0];

describe("war declarations", () => {
  it("declares: listed for both sides, the target is alerted, the world hears of it", async () => {
    const a = await player("warA");
    const b = await player("warB");
    const got: GameEvent[] = [];
    const offs = [t.server.ctx.events.subscribe(countryTopic(b.countryId), (e) => got.push(e)), t.server.ctx.events.subscribe(WORLD_TOPIC, (e) => got.push(e))];
    await t.server.ctx.events.ready();
    const res = await declare(a.token, b.countryId);
    expect(res.status).toBe(200);
    const decl: WarDeclarationJson = res.body.declaration;
    expect(decl).toMatchObject({ targetId: b.countryId, status: "active", isDeclarer: true, canEnd: false, totalCost: 0, costPerTurn: 5_000 });
    expect(decl.remainingTime).toBeGreaterThan(48 * 3600 - 5);
    expect(decl.remainingTime).toBeLessThanOrEqual(48 * 3600);

    const theirs = await t.api("GET", "/war/declarations", undefined, b.token);
    expect(theirs.body.declarations[0]).toMatchObject({ id: decl.id, isDeclarer: false, declarerId: a.countryId, status: "active" });
    await waitFor(() => got.some((e) => e.type === "notice") && got.some((e) => e.type === "warDeclared"));
    expect((got.find((e) => e.type === "notice") as Extract<GameEvent, { type: "notice" }>).notice).toMatchObject({ kind: "war_declared", view: "war-room", refId: decl.id });
    offs.forEach((off) => off());

    expect((await declare(a.token, b.countryId)).body).toMatchObject({ error: "You are already at war with this country", code: "war/already_at_war" });
    expect((await declare(a.token, a.countryId)).body.error).toBe("You cannot declare war on your own country");
    expect((await declare(a.token, null)).body.error).toBe("No target selected");
    expect((await declare(a.token, 99_999_999)).status).toBe(404);
  });

  it("at war: +10% attack power and the GDI is bypassed", async () => {
    // B has about half A's networth: inside the attack band (40%), outside the GDI band (67%)
    const a = await player("gdiA", { land: 1_000 });
    const b = await player("gdiB", { troops: 1_000 });
    await sql("UPDATE countries SET gdi_protection = true WHERE id = $1", [b.countryId]);
    const order = { countryId: a.countryId, targetCountryId: b.countryId, attackType: "standard_strike", units: { troops: 2_000 } };
    const refused = await t.api("POST", "/attack/launch", order, a.token);
    expect(refused.body).toMatchObject({ code: "combat/gdi_protected", error: "Target is protected by the GDI: your networth is out of its range" });
    expect((await declare(a.token, b.countryId)).status).toBe(200);
    const res = await t.api("POST", "/attack/launch", order, a.token);
    expect(res.status).toBe(200);
    expect(res.body.report.warDeclared).toBe(true);
    expect(res.body.report.combatLog).toContain("War declaration in force: +10% attack strength.");
  });

  it("protected targets are refused; declaring ends the declarer's own protection", async () => {
    const a = await player("protA");
    const b = await player("protB");
    await sql("UPDATE countries SET protected_until = now() + interval '5 hours' WHERE id IN ($1, $2)", [a.countryId, b.countryId]);
    expect((await declare(a.token, b.countryId)).body.code).toBe("war/target_protected");
    await sql("UPDATE countries SET protected_until = now() WHERE id = $1", [b.countryId]);
    expect((await declare(a.token, b.countryId)).status).toBe(200);
    expect((await row(a.countryId)).protected_until.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("ends only after 48 hours; cooldown follows; the declarer cannot re-declare during it", async () => {
    const a = await player("endA");
    const b = await player("endB");
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    const early = await t.api("POST", "/war/end", { declarationId: decl.id }, a.token);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/^A war lasts at least 48 hours: \d+ hour\(s\) left$/);
    expect((await t.api("POST", "/war/end", { declarationId: decl.id }, b.token)).body.code).toBe("war/not_yours");
    await sql("UPDATE war_declarations SET declared_at = now() - $2::interval WHERE id = $1", [decl.id, `${WAR_MIN_DURATION_MS / 1000 + 60} seconds`]);
    const ended = await t.api("POST", "/war/end", { declarationId: decl.id }, a.token);
    expect(ended.status).toBe(200);
    expect(ended.body.declaration).toMatchObject({ status: "cooldown", endReason: "declared_peace" });
    expect(ended.body.declaration.remainingTime).toBeGreaterThan(24 * 3600 - 5);
    expect((await declare(a.token, b.countryId)).body.code).toBe("war/cooldown");
    const c = await registerPlayer(t, "endC");
    expect((await t.api("POST", "/war/end", { declarationId: decl.id }, c.token)).status).toBe(404);
  });
});

describe("war costs (tick phase)", () => {
  it("$10 per target acre per tick after the declaration, once per tick whatever is retried or caught up", async () => {
    const a = await player("costA", { cash: 1_000_000 });
    const b = await player("costB", { land: 700 });
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    const { rows } = await sql("SELECT declared_tick FROM war_declarations WHERE id = $1", [decl.id]);
    const declared = Number(rows[0].declared_tick);
    const cash0 = Number((await row(a.countryId)).cash);

    await runTick(t.server.ctx, declared + 1);
    expect(Number((await row(a.countryId)).cash)).toBe(cash0 - 7_000);
    await runTick(t.server.ctx, declared + 1); // a duplicated delivery
    expect(Number((await row(a.countryId)).cash)).toBe(cash0 - 7_000);
    await runTick(t.server.ctx, declared + 4); // a catch-up of three ticks at once
    const after = await row(a.countryId);
    expect(Number(after.cash)).toBe(cash0 - 4 * 7_000);
    expect(Number(after.war_expenses)).toBe(4 * 7_000);
    expect(after.networth).toBe(computeNetworth(rowToState(after)));
    await runTick(t.server.ctx, declared + 3); // an older tick applied late: already charged
    expect(Number((await row(a.countryId)).cash)).toBe(cash0 - 4 * 7_000);
    const list = await t.api("GET", "/war/declarations", undefined, a.token);
    expect(list.body.declarations.find((d: WarDeclarationJson) => d.id === decl.id)).toMatchObject({ totalCost: 4 * 7_000, status: "active" });
  });

  it("a declarer's alliance carries half of the charge, by networth, each ally within its cash", async () => {
    const a = await player("shareA", { cash: 1_000_000 });
    const rich = await player("shareR", { cash: 1_000_000, troops: 20_000 });
    const poor = await player("shareP", { cash: 500 });
    await buildAlliance(t, a, [], [rich, poor]);
    const b = await player("shareB", { land: 900 });
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    // ticks are global: start after every tick the tests applied so far
    const { rows: last } = await sql("SELECT coalesce(max(tick_number), 0)::bigint AS n FROM turn_ticks");
    await sql("UPDATE war_declarations SET declared_tick = $2, charged_through_tick = $2 WHERE id = $1", [decl.id, Number(last[0].n) + 10]);
    const { rows } = await sql("SELECT declared_tick FROM war_declarations WHERE id = $1", [decl.id]);
    const before = await Promise.all([a, rich, poor].map((p) => row(p.countryId)));
    const payer = (r: Record<string, string | number>) => ({ countryId: Number(r.id), networth: Number(r.networth), available: Number(r.cash) });
    const expected = splitWarCost(9_000, payer(before[0]), [payer(before[1]), payer(before[2])])!;
    expect(expected.get(poor.countryId)).toBe(500); // its share is more than it has
    expect(expected.get(rich.countryId)).toBeGreaterThan(0);

    await runTick(t.server.ctx, Number(rows[0].declared_tick) + 1);
    await runTick(t.server.ctx, Number(rows[0].declared_tick) + 1); // a duplicated delivery charges nothing
    const after = await Promise.all([a, rich, poor].map((p) => row(p.countryId)));
    after.forEach((r, i) => {
      const paid = expected.get(Number(r.id)) ?? 0;
      expect(Number(r.cash)).toBe(Number(before[i].cash) - paid);
      expect(Number(r.war_expenses)).toBe(Number(before[i].war_expenses) + paid);
      expect(r.networth).toBe(computeNetworth(rowToState(r)));
    });
    const paidInAll = after.reduce((sum, r, i) => sum + Number(before[i].cash) - Number(r.cash), 0);
    expect(paidInAll).toBe(9_000);
    const list = await t.api("GET", "/war/declarations", undefined, a.token);
    expect(list.body.declarations.find((d: WarDeclarationJson) => d.id === decl.id)).toMatchObject({ totalCost: 9_000, status: "active" });
  });

  it("joining the alliance of the other side makes peace: the war ends at once, both are told, nothing more is charged (issue 30 #20)", async () => {
    const a = await player("allyA", { cash: 1_000_000 });
    const b = await player("allyB", { land: 800 });
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    const { rows: last } = await sql("SELECT coalesce(max(tick_number), 0)::bigint AS n FROM turn_ticks");
    const declared = Number(last[0].n) + 10;
    await sql("UPDATE war_declarations SET declared_tick = $2, charged_through_tick = $2 WHERE id = $1", [decl.id, declared]);
    const got: GameEvent[] = [];
    const offs = [a.countryId, b.countryId].map((id) => t.server.ctx.events.subscribe(countryTopic(id), (e) => got.push(e)));
    await t.server.ctx.events.ready();
    await buildAlliance(t, b, [], [a]); // the declarer joins the target's alliance
    const ended = (await sql("SELECT ended_at, end_reason FROM war_declarations WHERE id = $1", [decl.id])).rows[0];
    expect(ended.ended_at).not.toBeNull();
    expect(ended.end_reason).toBe("declared_peace");
    await waitFor(() => got.filter((e) => e.type === "notice" && e.notice.kind === "war_ended").length === 2);
    offs.forEach((off) => off());
    const cash = Number((await row(a.countryId)).cash);
    await runTick(t.server.ctx, declared + 1);
    expect(Number((await row(a.countryId)).cash)).toBe(cash);
    const list = await t.api("GET", "/war/declarations", undefined, a.token);
    expect(list.body.declarations.find((d: WarDeclarationJson) => d.id === decl.id)).toMatchObject({ totalCost: 0 });
    expect(list.body.declarations.find((d: WarDeclarationJson) => d.id === decl.id).status).not.toBe("active");
  });

  it("the war costs phase ends, uncharged, a war whose two sides are in one alliance however they got there", async () => {
    const a = await player("netA", { cash: 1_000_000 });
    const b = await player("netB", { land: 800 });
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    const alliance = await buildAlliance(t, a, [], []);
    await sql("UPDATE countries SET alliance_id = $1 WHERE id = $2", [alliance.id, b.countryId]);
    const { rows: last } = await sql("SELECT coalesce(max(tick_number), 0)::bigint AS n FROM turn_ticks");
    const declared = Number(last[0].n) + 10;
    await sql("UPDATE war_declarations SET declared_tick = $2, charged_through_tick = $2 WHERE id = $1", [decl.id, declared]);
    const cash = Number((await row(a.countryId)).cash);
    await runTick(t.server.ctx, declared + 1);
    expect(Number((await row(a.countryId)).cash)).toBe(cash);
    expect((await sql("SELECT end_reason FROM war_declarations WHERE id = $1", [decl.id])).rows[0].end_reason).toBe("declared_peace");
  });

  it("automatic peace when the declarer cannot pay: the war ends, nothing is charged, both are told", async () => {
    const a = await player("poorA", { cash: 20_000 });
    const b = await player("poorB", { land: 1_500 });
    const decl: WarDeclarationJson = (await declare(a.token, b.countryId)).body.declaration;
    // ticks are global: start after every tick the tests applied so far
    const { rows: last } = await sql("SELECT coalesce(max(tick_number), 0)::bigint AS n FROM turn_ticks");
    await sql("UPDATE war_declarations SET declared_tick = $2, charged_through_tick = $2 WHERE id = $1", [decl.id, Number(last[0].n) + 10]);
    const { rows } = await sql("SELECT declared_tick FROM war_declarations WHERE id = $1", [decl.id]);
    const got: GameEvent[] = [];
    const offs = [a.countryId, b.countryId].map((id) => t.server.ctx.events.subscribe(countryTopic(id), (e) => got.push(e)));
    await t.server.ctx.events.ready();
    await runTick(t.server.ctx, Number(rows[0].declared_tick) + 1); // 15,000: paid, 5,000 left
    expect(Number((await row(a.countryId)).cash)).toBe(5_000);
    await runTick(t.server.ctx, Number(rows[0].declared_tick) + 2); // 15,000 more: cannot pay
    expect(Number((await row(a.countryId)).cash)).toBe(5_000);
    const list = await t.api("GET", "/war/declarations", undefined, a.token);
    expect(list.body.declarations.find((d: WarDeclarationJson) => d.id === decl.id)).toMatchObject({ status: "cooldown", endReason: "bankrupt", totalCost: 15_000 });
    await waitFor(() => got.filter((e) => e.type === "notice" && e.notice.kind === "war_ended").length === 2);
    offs.forEach((off) => off());
  });
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
