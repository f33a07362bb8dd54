import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLIANCE_MAX_MEMBERS } from "@game/schema/rules";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { addMember, buildAlliance, foundAlliance, promote, uniqueTag, type TestPlayer } from "../test/alliances.js";
import { allianceTopic, countryTopic, type GameEvent } from "../events.js";

/**
 * The alliance calls over REST against real Postgres: the spec's permission matrix (every
 * call x owner / manager / member / outsider), the rules around it (kick, managers, seats,
 * succession) and races for the last seat.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, values: unknown[] = []) => (await t.server.database.pool.query(text, values)).rows;
const allianceOf = async (countryId: number) => (await sql("SELECT alliance_id FROM countries WHERE id = $1", [countryId]))[0].alliance_id as number | null;
const roleOf = async (countryId: number) => (await sql("SELECT role FROM alliance_members WHERE country_id = $1", [countryId]))[0]?.role as string | undefined;

type Role = "owner" | "manager" | "member" | "outsider";
const ROLES: Role[] = ["owner", "manager", "member", "outsider"];

describe("permission matrix: every alliance call x owner / manager / member / outsider", () => {
  let owner: TestPlayer, manager: TestPlayer, member: TestPlayer, outsider: TestPlayer;
  let alliance: { id: number; tag: string; name: string };
  const as: Record<Role, () => TestPlayer> = { owner: () => owner, manager: () => manager, member: () => member, outsider: () => outsider };

  beforeAll(async () => {
    [owner, manager, member, outsider] = await Promise.all([registerPlayer(t, "own"), registerPlayer(t, "man"), registerPlayer(t, "mem"), registerPlayer(t, "out")]);
    alliance = await buildAlliance(t, owner, [manager], [member]);
  });

  /** A fresh member of the alliance (added by the owner), to act upon. */
  const freshMember = async (prefix: string) => {
    const p = await registerPlayer(t, prefix);
    await addMember(t, owner, p);
    return p;
  };

  /** Each call: prepare what it acts on, call as `actor`, then say what must have changed if it was allowed. */
  const calls: Record<string, { expect: Record<Role, number>; run(actor: TestPlayer): Promise<{ status: number; changed(): Promise<boolean> }> }> = {
    invite: {
      expect: { owner: 201, manager: 201, member: 403, outsider: 403 },
      async run(actor) {
        const target = await registerPlayer(t, "inv");
        const res = await t.api("POST", "/alliance/invitations", { targetCountryName: target.body.countryName, message: "join us" }, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT 1 FROM alliance_invitations WHERE target_country_id = $1 AND status = 'pending'", [target.countryId])).length === 1 };
      },
    },
    "cancel invitation": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const target = await registerPlayer(t, "cin");
        const invite = await t.api("POST", "/alliance/invitations", { targetCountryName: target.body.countryName }, owner.token);
        const res = await t.api("POST", `/alliance/invitations/${invite.body.invitationId}/cancel`, {}, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT status FROM alliance_invitations WHERE id = $1", [invite.body.invitationId]))[0].status === "cancelled" };
      },
    },
    "accept application": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const applicant = await registerPlayer(t, "app");
        const applied = await t.api("POST", "/alliance/join", { allianceId: alliance.id, message: "let me in" }, applicant.token);
        expect(applied.status).toBe(201);
        const res = await t.api("POST", `/alliance/applications/${applied.body.applicationId}/accept`, {}, actor.token);
        return { status: res.status, changed: async () => (await allianceOf(applicant.countryId)) === alliance.id };
      },
    },
    "reject application": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const applicant = await registerPlayer(t, "rej");
        const applied = await t.api("POST", "/alliance/join", { allianceId: alliance.id }, applicant.token);
        const res = await t.api("POST", `/alliance/applications/${applied.body.applicationId}/reject`, {}, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT status FROM alliance_applications WHERE id = $1", [applied.body.applicationId]))[0].status === "rejected" };
      },
    },
    kick: {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const victim = await freshMember("kic");
        const res = await t.api("POST", "/alliance/kick", { countryId: victim.countryId }, actor.token);
        return { status: res.status, changed: async () => (await allianceOf(victim.countryId)) === null && (await roleOf(victim.countryId)) === undefined };
      },
    },
    promote: {
      expect: { owner: 200, manager: 403, member: 403, outsider: 403 },
      async run(actor) {
        const target = await freshMember("pro");
        const res = await t.api("POST", "/alliance/promote", { countryId: target.countryId }, actor.token);
        const changed = async () => (await roleOf(target.countryId)) === "manager";
        // Keep the manager seats free for the next cells.
        if (res.status === 200) await t.api("POST", "/alliance/demote", { countryId: target.countryId }, owner.token);
        return { status: res.status, changed: async () => res.status === 200 || (await changed()) };
      },
    },
    demote: {
      expect: { owner: 200, manager: 403, member: 403, outsider: 403 },
      async run(actor) {
        const target = await freshMember("dem");
        await promote(t, owner, target);
        const res = await t.api("POST", "/alliance/demote", { countryId: target.countryId }, actor.token);
        const role = await roleOf(target.countryId);
        if (role === "manager") await t.api("POST", "/alliance/demote", { countryId: target.countryId }, owner.token);
        return { status: res.status, changed: async () => role === "member" };
      },
    },
    "buy bonus": {
      expect: { owner: 200, manager: 403, member: 403, outsider: 403 },
      async run(actor) {
        await sql("UPDATE alliances SET bonus_points = 100000 WHERE id = $1", [alliance.id]);
        const before = (await sql("SELECT count(*)::int AS n FROM alliance_bonus_purchases WHERE alliance_id = $1", [alliance.id]))[0].n;
        const res = await t.api("POST", "/alliance/bonuses/purchase", { bonusId: "military_support" }, actor.token);
        if (res.status === 403 && actor !== outsider) expect(res.body.error).toBe("Owner only");
        return { status: res.status, changed: async () => (await sql("SELECT count(*)::int AS n FROM alliance_bonus_purchases WHERE alliance_id = $1", [alliance.id]))[0].n === before + 1 };
      },
    },
    "edit settings": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const description = `by ${actor.countryId}`;
        const res = await t.api("POST", "/alliance/settings", { description }, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT description FROM alliances WHERE id = $1", [alliance.id]))[0].description === description };
      },
    },
    "plan operation": {
      expect: { owner: 201, manager: 201, member: 403, outsider: 403 },
      async run(actor) {
        const name = `Op ${actor.countryId} ${uniqueTag()}`;
        const res = await t.api("POST", "/alliance/operations", plan(name), actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT 1 FROM alliance_operations WHERE name = $1", [name])).length === 1 };
      },
    },
    "launch operation": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const planned = await t.api("POST", "/alliance/operations", plan(`Launch ${uniqueTag()}`), owner.token);
        const joined = await t.api("POST", `/alliance/operations/${planned.body.operationId}/respond`, { response: "join", contribution: { troops: 10 } }, owner.token);
        expect(joined.status).toBe(200);
        const res = await t.api("POST", `/alliance/operations/${planned.body.operationId}/launch`, {}, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT status FROM alliance_operations WHERE id = $1", [planned.body.operationId]))[0].status === "completed" };
      },
    },
    "cancel operation": {
      expect: { owner: 200, manager: 200, member: 403, outsider: 403 },
      async run(actor) {
        const planned = await t.api("POST", "/alliance/operations", plan(`Cancel ${uniqueTag()}`), owner.token);
        const res = await t.api("POST", `/alliance/operations/${planned.body.operationId}/cancel`, {}, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT status FROM alliance_operations WHERE id = $1", [planned.body.operationId]))[0].status === "cancelled" };
      },
    },
    "join operation": {
      expect: { owner: 200, manager: 200, member: 200, outsider: 403 },
      async run(actor) {
        const planned = await t.api("POST", "/alliance/operations", plan(`Join ${uniqueTag()}`), owner.token);
        const res = await t.api("POST", `/alliance/operations/${planned.body.operationId}/respond`, { response: "join", contribution: { troops: 5 } }, actor.token);
        return {
          status: res.status,
          changed: async () => (await sql("SELECT status FROM alliance_operation_participants WHERE operation_id = $1 AND country_id = $2", [planned.body.operationId, actor.countryId]))[0]?.status === "confirmed",
        };
      },
    },
    "request defense": {
      expect: { owner: 201, manager: 201, member: 201, outsider: 403 },
      async run(actor) {
        const res = await t.api("POST", "/alliance/defense-requests", { urgency: "high", supportNeeded: { military: true } }, actor.token);
        return { status: res.status, changed: async () => (await sql("SELECT 1 FROM alliance_defense_requests WHERE requester_id = $1", [actor.countryId])).length === 1 };
      },
    },
    "respond to defense request": {
      expect: { owner: 200, manager: 200, member: 200, outsider: 403 },
      async run(actor) {
        const requester = await freshMember("req");
        const requested = await t.api("POST", "/alliance/defense-requests", { urgency: "medium", supportNeeded: { military: true } }, requester.token);
        const res = await t.api("POST", `/alliance/defense-requests/${requested.body.requestId}/respond`, { responseType: "military_support", commitment: { troops: 20 } }, actor.token);
        return {
          status: res.status,
          changed: async () => (await sql("SELECT troops FROM alliance_defense_responses WHERE request_id = $1 AND responder_id = $2", [requested.body.requestId, actor.countryId]))[0]?.troops === 20,
        };
      },
    },
    "read operations": {
      expect: { owner: 200, manager: 200, member: 200, outsider: 403 },
      async run(actor) {
        const res = await t.api("GET", "/alliance/operations", undefined, actor.token);
        return { status: res.status, changed: async () => Array.isArray(res.body.data) };
      },
    },
  };

  function plan(name: string) {
    return {
      name,
      operationType: "reconnaissance",
      targetCountryId: outsider.countryId,
      scheduledFor: Date.now() + 3_600_000,
      requirements: { minParticipants: 1, maxParticipants: 8, minTotalForce: 1 },
    };
  }

  for (const [name, call] of Object.entries(calls)) {
    for (const role of ROLES) {
      it(`${name} as ${role}: ${call.expect[role]}`, async () => {
        const { status, changed } = await call.run(as[role]());
        expect(status).toBe(call.expect[role]);
        expect(await changed()).toBe(status < 300);
      });
    }
  }

  it("finances and applications are shown to leaders only; permissions come with each member", async () => {
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) {
      const p = as[role]();
      const status = await t.api("GET", `/alliance/status/${p.countryId}`, undefined, p.token);
      expect(status.status).toBe(200);
      seen[role] = status.body.data.finances === null ? "no finances" : "finances";
      if (role !== "outsider") {
        const mine = status.body.data.members.find((m: any) => m.countryId === p.countryId);
        expect(mine.role).toBe(role);
        expect(mine.permissions).toEqual({ canInvite: role !== "member", canKick: role !== "member", canManageBonuses: role === "owner", canViewFinances: role !== "member" });
      }
    }
    expect(seen).toEqual({ owner: "finances", manager: "finances", member: "no finances", outsider: "no finances" });
    // Another country's status is not for the caller.
    expect((await t.api("GET", `/alliance/status/${owner.countryId}`, undefined, member.token)).status).toBe(403);
  });

  it("leave as every role (the owner last, passing the alliance on)", async () => {
    const o = await registerPlayer(t, "lo");
    const m = await registerPlayer(t, "lm");
    const e = await registerPlayer(t, "le");
    const x = await registerPlayer(t, "lx");
    const own = await buildAlliance(t, o, [m], [e]);
    expect((await t.api("POST", "/alliance/leave", {}, x.token)).status).toBe(403);
    expect((await t.api("POST", "/alliance/leave", {}, e.token)).status).toBe(200);
    expect(await allianceOf(e.countryId)).toBeNull();
    expect((await t.api("POST", "/alliance/leave", {}, o.token)).status).toBe(200);
    // The manager succeeds the owner.
    expect(await roleOf(m.countryId)).toBe("owner");
    expect((await t.api("POST", "/alliance/leave", {}, m.token)).body).toMatchObject({ success: true, disbanded: true });
    expect((await sql("SELECT disbanded_at FROM alliances WHERE id = $1", [own.id]))[0].disbanded_at).not.toBeNull();
    // A disbanded alliance's name and tag are free again.
    const again = await foundAlliance(t, o, { name: own.name, tag: own.tag });
    expect(again.id).not.toBe(own.id);
  });
});

describe("alliance rules over REST", () => {
  it("kick: never oneself, never the owner, never someone outside the alliance", async () => {
    const [o, m, x] = await Promise.all([registerPlayer(t, "ko"), registerPlayer(t, "km"), registerPlayer(t, "kx")]);
    await buildAlliance(t, o, [m], []);
    expect((await t.api("POST", "/alliance/kick", { countryId: m.countryId }, m.token)).body).toMatchObject({ code: "alliance/kick_self", error: "You cannot kick yourself" });
    const kickOwner = await t.api("POST", "/alliance/kick", { countryId: o.countryId }, m.token);
    expect(kickOwner.status).toBe(403);
    expect(kickOwner.body.code).toBe("alliance/kick_owner");
    expect((await t.api("POST", "/alliance/kick", { countryId: x.countryId }, o.token)).status).toBe(409);
    expect((await t.api("POST", "/alliance/kick", { countryId: 99_999_999 }, o.token)).status).toBe(404);
    expect(await allianceOf(o.countryId)).not.toBeNull();
  });

  it("at most 4 managers", async () => {
    const o = await registerPlayer(t, "mo");
    const others = await Promise.all([1, 2, 3, 4, 5].map((i) => registerPlayer(t, `mm${i}`)));
    await buildAlliance(t, o, others.slice(0, 4), [others[4]!]);
    const fifth = await t.api("POST", "/alliance/promote", { countryId: others[4]!.countryId }, o.token);
    expect(fifth.status).toBe(409);
    expect(fifth.body.error).toBe("An alliance has at most 4 managers");
  });

  it("bad input is a 400 with a message and changes nothing", async () => {
    const p = await registerPlayer(t, "bad");
    const cases: Array<[string, string, unknown]> = [
      ["POST", "/alliance/create", { name: "x", tag: "T1", flag: { backgroundColor: "#000000", symbol: "⚔", symbolColor: "#ffffff" } }],
      ["POST", "/alliance/create", { name: "Good Name", tag: "toolong", flag: { backgroundColor: "#000000", symbol: "⚔", symbolColor: "#ffffff" } }],
      ["POST", "/alliance/create", { name: "Good Name", tag: "AB", flag: { backgroundColor: "red", symbol: "⚔", symbolColor: "#ffffff" } }],
      ["POST", "/alliance/invitations", { targetCountryName: "   " }],
      ["POST", "/alliance/invitations", { targetCountryName: "x", message: "m".repeat(201) }],
      ["POST", "/alliance/join", { allianceId: "abc" }],
      ["POST", "/alliance/kick", { countryId: -1 }],
      ["POST", "/alliance/bonuses/purchase", {}],
      ["GET", "/alliance/list?page=0", undefined],
      ["GET", "/alliance/list?limit=1000", undefined],
      ["GET", "/alliance/abc", undefined],
      ["POST", "/alliance/create", { name: "Null\u0000Pact", tag: "NP", flag: { backgroundColor: "#000000", symbol: "⚔", symbolColor: "#ffffff" } }],
      ["POST", "/alliance/invitations", { targetCountryName: "x", message: "bad\u0000" }],
      ["POST", "/diplomacy/proposals", { toCountryId: 1, relationType: "trade", message: "\u202Eevil" }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.api(method, path, body, p.token);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error).toBe("string");
    }
    expect(await allianceOf(p.countryId)).toBeNull();
    expect((await t.api("GET", "/alliance/list", undefined)).status).toBe(401);
  });

  it("name and tag are unique (409), and one alliance per country", async () => {
    const [a, b] = await Promise.all([registerPlayer(t, "una"), registerPlayer(t, "unb")]);
    const first = await foundAlliance(t, a);
    const flag = { backgroundColor: "#000000", symbol: "⚔", symbolColor: "#ffffff" };
    expect((await t.api("POST", "/alliance/create", { name: first.name.toUpperCase(), tag: uniqueTag(), flag }, b.token)).body.code).toBe("alliance/name_taken");
    expect((await t.api("POST", "/alliance/create", { name: "Another one", tag: first.tag.toLowerCase(), flag }, b.token)).body.code).toBe("alliance/tag_taken");
    expect((await t.api("POST", "/alliance/create", { name: "Second home", tag: uniqueTag(), flag }, a.token)).body.code).toBe("alliance/already_member");
    // A lookalike spelling (Cyrillic о for o) is the same name.
    const lookalike = first.name.replace(/o/g, "\u043e").replace(/A/g, "\u0410");
    expect(lookalike).not.toBe(first.name);
    expect((await t.api("POST", "/alliance/create", { name: lookalike, tag: uniqueTag(), flag }, b.token)).body.code).toBe("alliance/name_taken");
    const control = await t.api("POST", "/alliance/create", { name: "Null\u0000Pact", tag: uniqueTag(), flag }, b.token);
    expect(control.body.error).toBe("Alliance name must not contain control characters");
  });

  it("invitations: listed to the invitee with the alliance's name and to leaders as sent; only the invitee answers", async () => {
    const [o, x, y] = await Promise.all([registerPlayer(t, "io"), registerPlayer(t, "ix"), registerPlayer(t, "iy")]);
    const alliance = await foundAlliance(t, o);
    const sent = await t.api("POST", "/alliance/invitations", { targetCountryName: x.body.countryName.toUpperCase(), message: "come" }, o.token);
    expect(sent.status).toBe(201);
    const mine = await t.api("GET", "/alliance/invitations", undefined, x.token);
    expect(mine.body.data.received).toEqual([expect.objectContaining({ allianceName: alliance.name, allianceTag: alliance.tag, message: "come", invitedBy: o.body.countryName, status: "pending" })]);
    expect((await t.api("GET", "/alliance/invitations", undefined, o.token)).body.data.sent).toHaveLength(1);
    expect((await t.api("POST", `/alliance/invitations/${sent.body.invitationId}/accept`, {}, y.token)).status).toBe(404);
    expect((await t.api("POST", "/alliance/invitations", { targetCountryName: x.body.countryName }, o.token)).status).toBe(409);
    expect((await t.api("POST", `/alliance/invitations/${sent.body.invitationId}/decline`, {}, x.token)).status).toBe(200);
    expect((await t.api("POST", `/alliance/invitations/${sent.body.invitationId}/accept`, {}, x.token)).status).toBe(409);
    expect(await allianceOf(x.countryId)).toBeNull();
  });

  it("applications: meetRequirements from the alliance's requirements; still acceptable when not met", async () => {
    const [o, a] = await Promise.all([registerPlayer(t, "ro"), registerPlayer(t, "ra")]);
    const alliance = await foundAlliance(t, o);
    expect((await t.api("POST", "/alliance/settings", { requirements: { minNetworth: 1_000_000 } }, o.token)).status).toBe(200);
    const applied = await t.api("POST", "/alliance/join", { allianceId: alliance.id, message: "strong, soon" }, a.token);
    expect(applied.body.meetRequirements).toBe(false);
    const list = await t.api("GET", "/alliance/applications", undefined, o.token);
    expect(list.body.data.received).toEqual([expect.objectContaining({ applicantName: a.body.countryName, meetRequirements: false, message: "strong, soon" })]);
    expect((await t.api("GET", "/alliance/applications", undefined, a.token)).body.data.mine).toHaveLength(1);
    expect((await t.api("POST", `/alliance/applications/${applied.body.applicationId}/accept`, {}, o.token)).status).toBe(200);
    expect(await allianceOf(a.countryId)).toBe(alliance.id);
    // Closed to applications.
    await t.api("POST", "/alliance/settings", { requirements: { acceptApplications: false } }, o.token);
    const late = await registerPlayer(t, "rl");
    expect((await t.api("POST", "/alliance/join", { allianceId: alliance.id }, late.token)).body.code).toBe("alliance/closed_applications");
  });

  it("200 members in all: the last seat goes to exactly one of two racing accepts", async () => {
    const o = await registerPlayer(t, "so");
    const alliance = await foundAlliance(t, o);
    // 197 more members straight into the table (membership is countries.alliance_id): 198 in all.
    await sql(
      `INSERT INTO countries (name, government_type, cash, turns, land, food, oil, population, troops, jets, turrets, tanks, spies, alliance_id)
       SELECT 'seat-' || g || '-' || $2, 'monarchy', 1000, 10, 100, 100, 10, 100, 1, 0, 0, 0, 0, $1 FROM generate_series(1, $3::int) g`,
      [alliance.id, alliance.tag, ALLIANCE_MAX_MEMBERS - 3],
    );
    const [a, b, c] = await Promise.all([registerPlayer(t, "sa"), registerPlayer(t, "sb"), registerPlayer(t, "sc")]);
    const invite = async (p: TestPlayer) => (await t.api("POST", "/alliance/invitations", { targetCountryName: p.body.countryName }, o.token)).body.invitationId;
    const [ia, ib, ic] = [await invite(a), await invite(b), await invite(c)];
    expect((await t.api("POST", `/alliance/invitations/${ia}/accept`, {}, a.token)).status).toBe(200);
    // 199 now: b and c race for the 200th seat.
    const results = await Promise.all([t.api("POST", `/alliance/invitations/${ib}/accept`, {}, b.token), t.api("POST", `/alliance/invitations/${ic}/accept`, {}, c.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe("This alliance is full (200 members)");
    expect((await sql("SELECT count(*)::int AS n FROM countries WHERE alliance_id = $1", [alliance.id]))[0].n).toBe(ALLIANCE_MAX_MEMBERS);
  });

  it("publishes membershipChanged on the country's topic and memberLeft on the alliance's when kicked", async () => {
    const [o, v] = await Promise.all([registerPlayer(t, "eo"), registerPlayer(t, "ev")]);
    const alliance = await foundAlliance(t, o);
    await addMember(t, o, v);
    const seen: GameEvent[] = [];
    const offs = [t.server.ctx.events.subscribe(countryTopic(v.countryId), (e) => seen.push(e)), t.server.ctx.events.subscribe(allianceTopic(alliance.id), (e) => seen.push(e))];
    await t.server.ctx.events.ready();
    expect((await t.api("POST", "/alliance/kick", { countryId: v.countryId }, o.token)).status).toBe(200);
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && !(seen.some((e) => e.type === "membershipChanged") && seen.some((e) => e.type === "memberLeft"))) await new Promise((r) => setTimeout(r, 20));
    offs.forEach((off) => off());
    expect(seen).toContainEqual({ type: "membershipChanged", countryId: v.countryId, allianceId: null, allianceRole: null });
    expect(seen).toContainEqual({ type: "memberLeft", allianceId: alliance.id, countryId: v.countryId, reason: "kicked" });
    expect(seen.some((e) => e.type === "notice" && e.notice.kind === "alliance_kicked")).toBe(true);
    // News: founded (everyone), joined and kicked (the alliance), kicked (the member).
    const news = await sql("SELECT kind, category, alliance_id, country_id FROM news_items WHERE (alliance_id = $1 OR country_id = $2 OR kind = 'alliance_founded' AND params->'alliance'->>'id' = $1::text) ORDER BY id", [
      alliance.id,
      v.countryId,
    ]);
    expect(news.map((n) => `${n.kind}:${n.category}`)).toEqual(["alliance_founded:global", "alliance_member_joined:alliance", "alliance_member_kicked:alliance", "alliance_kicked:personal"]);
  });

  it("lists, shows and ranks alliances with real aggregates; unit totals only for members", async () => {
    const [o, e, x] = await Promise.all([registerPlayer(t, "lo"), registerPlayer(t, "le"), registerPlayer(t, "lx")]);
    const alliance = await buildAlliance(t, o, [], [e]);
    const networth = (await sql("SELECT sum(networth)::bigint AS n FROM countries WHERE alliance_id = $1", [alliance.id]))[0].n;
    const list = await t.api("GET", `/alliance/list?search=${alliance.tag.toLowerCase()}`, undefined, x.token);
    expect(list.body).toMatchObject({ page: 1, limit: 20, total: 1 });
    expect(list.body.data[0]).toMatchObject({ id: alliance.id, memberCount: 2, maxMembers: 200, totalNetworth: Number(networth), averageNetworth: Math.floor(Number(networth) / 2) });
    expect(list.body.data[0].stats.totalMilitary).toBeNull();
    const shown = await t.api("GET", `/alliance/${alliance.id}`, undefined, e.token);
    expect(shown.body.data.stats.totalMilitary).toBeGreaterThan(0);
    expect(shown.body.members.map((m: any) => m.role).sort()).toEqual(["member", "owner"]);
    expect((await t.api("GET", `/alliance/${alliance.id}`, undefined, x.token)).body.data.stats.totalMilitary).toBeNull();
    expect((await t.api("GET", "/alliance/987654321", undefined, x.token)).status).toBe(404);
    const rankings = await t.api("GET", "/rankings/alliances?limit=500", undefined, x.token);
    expect(rankings.status).toBe(200);
    const row = rankings.body.data.find((r: any) => r.allianceId === alliance.id);
    expect(row).toMatchObject({ allianceName: alliance.name, allianceTag: alliance.tag, memberCount: 2, totalNetworth: Number(networth), trend: "same", change: 0 });
    const ranks = rankings.body.data.map((r: any) => r.totalNetworth);
    expect([...ranks].sort((a: number, b: number) => b - a)).toEqual(ranks);
    // The season's top alliance is the ranking's first.
    const season = await t.api("GET", "/season/scores", undefined, x.token);
    expect(season.body.data.topAlliance).toEqual({ name: rankings.body.data[0].allianceName, tag: rankings.body.data[0].allianceTag, networth: rankings.body.data[0].totalNetworth });
  });
});
