import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually } from "../test/worldClients.js";
import { REQUESTS_ACTIVE_PER_TOKEN, REQUESTS_WAITING_PER_TOKEN } from "./tokenConcurrency.js";
import { LISTING_CHURN_LIMIT } from "../services/market.js";

/**
 * Issue 28: one token with 50 reads in flight raised another player's /user/me p99 from 12 ms
 * to 1.2 s, and one player created and cancelled 97 listings a second. Both are limited per
 * user now, with 429 and Retry-After.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

/**
 * A request held open: headers and half of its body sent, the rest never (the server has it in
 * flight for as long as the test keeps it). `abort` ends it.
 */
function heldRequest(token: string): { abort: () => void; answered: Promise<number | "aborted"> } {
  const body = JSON.stringify({ channel: "general", content: "held open by a slow body" });
  const req = http.request(`${t.baseUrl}/api/chat/send`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
  const answered = new Promise<number | "aborted">((resolve) => {
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve("aborted"));
    req.on("close", () => resolve("aborted"));
  });
  req.write(body.slice(0, 10));
  return { abort: () => req.destroy(), answered };
}

/** A GET; `giveUpMs` aborts it (status 0) when it has no answer by then (it waited in its token's queue). */
async function get(path: string, token: string, giveUpMs?: number): Promise<{ status: number; retryAfter: string | null; code?: string }> {
  let res: Response;
  try {
    res = await fetch(`${t.baseUrl}/api${path}`, { headers: { authorization: `Bearer ${token}` }, signal: giveUpMs === undefined ? undefined : AbortSignal.timeout(giveUpMs) });
  } catch {
    return { status: 0, retryAfter: null };
  }
  const body = (await res.json()) as { code?: string };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), code: body.code };
}

describe("issue 28: per-user limits on requests in flight and on listing churn", () => {
  it("a token with its slots and queue full is refused at once with 429 and Retry-After; another player is served", async () => {
    const busy = await registerPlayer(t, "busy");
    const other = await registerPlayer(t, "calm");
    const held = Array.from({ length: REQUESTS_ACTIVE_PER_TOKEN + REQUESTS_WAITING_PER_TOKEN }, () => heldRequest(busy.token));
    try {
      // once the held requests have reached the server, the next one of the same token finds no
      // room (one that arrives earlier waits in the queue: it is given up and tried again)
      let refused: Awaited<ReturnType<typeof get>> | undefined;
      for (let i = 0; i < 100 && refused?.status !== 429; i++) refused = await get("/user/me", busy.token, 200);
      expect(refused).toMatchObject({ status: 429, retryAfter: "1", code: "request/too_many_in_flight" });
      // another player's request does not wait behind them
      expect((await get("/user/me", other.token)).status).toBe(200);
    } finally {
      for (const h of held) h.abort();
    }
    await Promise.all(held.map((h) => h.answered));
    // once the server has seen them close, the token is served again
    await eventually(async () => (await get("/user/me", busy.token)).status === 200, "the token's slots to free");
  });

  it("a request that waited for a slot is served when one frees", async () => {
    const p = await registerPlayer(t, "queue");
    const held = Array.from({ length: REQUESTS_ACTIVE_PER_TOKEN }, () => heldRequest(p.token));
    try {
      await new Promise((r) => setTimeout(r, 100));
      const waiting = get("/user/me", p.token);
      held[0]!.abort();
      expect((await waiting).status).toBe(200);
    } finally {
      for (const h of held) h.abort();
    }
  });

  it(`creating and cancelling listings: ${LISTING_CHURN_LIMIT.points} changes a minute, then 429 with Retry-After`, async () => {
    const seller = await registerPlayer(t, "churn");
    await t.server.database.pool.query("UPDATE countries SET food = 1000000 WHERE id = $1", [seller.countryId]);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < LISTING_CHURN_LIMIT.points / 2 + 1; i++) {
      last = await fetch(`${t.baseUrl}/api/market/listings`, {
        method: "POST",
        headers: { authorization: `Bearer ${seller.token}`, "content-type": "application/json" },
        body: JSON.stringify({ countryId: seller.countryId, itemType: "food", quantity: 10, pricePerUnit: 100 }),
      });
      const created = (await last.json()) as { listing?: { id: number } };
      statuses.push(last.status);
      if (last.status !== 201 && last.status !== 200) break;
      last = await fetch(`${t.baseUrl}/api/market/listings/${created.listing!.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${seller.token}`, "content-type": "application/json" },
        body: JSON.stringify({ countryId: seller.countryId }),
      });
      await last.json();
      statuses.push(last.status);
      if (last.status !== 200) break;
    }
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(LISTING_CHURN_LIMIT.points);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("standing orders take from the same budget: placing and cancelling orders, after listings, is refused with 429 at the limit", async () => {
    const buyer = await registerPlayer(t, "orders");
    await t.server.database.pool.query("UPDATE countries SET food = 1000000, cash = 100000000 WHERE id = $1", [buyer.countryId]);
    const call = async (method: string, path: string, body: object) => {
      const res = await fetch(`${t.baseUrl}/api${path}`, { method, headers: { authorization: `Bearer ${buyer.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { code?: string; listing?: { id: number }; order?: { id: number } } };
    };
    // two listing changes first: the budget is one for listings and orders
    const listed = await call("POST", "/market/listings", { countryId: buyer.countryId, itemType: "food", quantity: 10, pricePerUnit: 100 });
    expect([200, 201]).toContain(listed.status);
    expect((await call("DELETE", `/market/listings/${listed.body.listing!.id}`, { countryId: buyer.countryId })).status).toBe(200);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < LISTING_CHURN_LIMIT.points / 2; i++) {
      last = await call("POST", "/market/standing-orders", { countryId: buyer.countryId, itemType: "troops", quantity: 10, maxPrice: 100 });
      statuses.push(last.status);
      if (last.status !== 201 && last.status !== 200) break;
      last = await call("POST", `/market/standing-orders/${last.body.order!.id}/cancel`, { countryId: buyer.countryId });
      statuses.push(last.status);
      if (last.status !== 200) break;
    }
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(LISTING_CHURN_LIMIT.points - 2);
    expect(last).toMatchObject({ status: 429, body: { code: "market/rate_limited" } });
    expect(Number(last!.retryAfter)).toBeGreaterThanOrEqual(1);
    // nothing was placed by the refused call: every order the buyer has is cancelled
    const open = await t.server.database.pool.query("SELECT count(*)::int AS n FROM standing_orders WHERE buyer_id = $1 AND status <> 'cancelled'", [buyer.countryId]);
    expect(open.rows[0].n).toBe(0);
  });
});
