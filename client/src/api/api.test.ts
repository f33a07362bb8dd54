import { afterEach, describe, expect, it, vi } from "vitest";
import { COUNTRY_FIELDS } from "@game/schema/api";
import { clientFieldName, mapCountry, toCountryState } from "./country";
import { routes } from "@game/schema/routes";
import { ApiError, apiRequest, callRoute, getToken, setToken, TOKEN_KEY } from "./http";
import { api, COUNTRY_TIMEOUT_MESSAGE, INVALID_RESPONSE_FORMAT } from "./endpoints";
import { countryJson } from "../test/render";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("mapCountry", () => {
  it("parses numeric strings to integers and defaults missing numbers to 0", () => {
    const c = mapCountry({ ...countryJson(), cash: "123456", networth: "4812", food: undefined, residential_areas: 4, gdi_protection: true });
    expect(c.cash).toBe(123456);
    expect(c.networth).toBe(4812);
    expect(c.food).toBe(0);
    expect(c.turnNumber).toBe(100);
    expect(c.turnsAvailable).toBe(100);
    expect(c.landAcres).toBe(100);
    expect(c.residentialZones).toBe(4);
    expect(c.isGDIMember).toBe(true);
    expect(c.governmentType).toBe("monarchy");
  });

  it("has one property per field of the public and own views, derived from COUNTRY_FIELDS (no hand-kept list)", () => {
    const c = mapCountry({ ...countryJson(), tutorial_completed: true, medical_tech: 3, protected_until: "2026-01-02T00:00:00.000Z", alliance_id: null });
    const shown = COUNTRY_FIELDS.filter((field) => field.view !== "internal");
    for (const field of shown) expect(c, field.key).toHaveProperty(clientFieldName(field.key));
    expect(c.tutorialCompleted).toBe(true);
    expect(c.medicalTech).toBe(3);
    expect(c.protectedUntil).toBe("2026-01-02T00:00:00.000Z");
    expect(c.allianceId).toBeNull();
    expect(Object.keys(c).sort()).toEqual([...shown.map((field) => clientFieldName(field.key)), "techLevels", "turnsAvailable", "unitAllocation"].sort());
  });

  it("maps to the shared rules' CountryState", () => {
    const s = toCountryState(mapCountry(countryJson({ residential_areas: 2, farms: 3, agricultural_tech: 4 })));
    expect(s.buildings.residences).toBe(2);
    expect(s.buildings.farms).toBe(3);
    expect(s.tech.agricultural).toBe(4);
    expect(s.land).toBe(100);
    expect(s.turns).toBe(100);
  });
});

describe("callRoute (a catalogue entry)", () => {
  it("fills the path's parameters and the query, sends the body, and fails with the entry's fallback", async () => {
    const fetchMock = vi.fn(async () => json({ success: true, data: [] }));
    vi.stubGlobal("fetch", fetchMock);
    await callRoute(routes.buyListing, { params: { id: 7 }, body: { countryId: 3, quantity: 2 } });
    await callRoute(routes.attackAllies, { params: { countryId: 3 }, query: { targetCountryId: undefined } });
    await callRoute(routes.news, { query: { category: "all", page: 2 } });
    const calls = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>;
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(["POST /api/market/listings/7/buy", "GET /api/attack/allies/3", "GET /api/news?category=all&page=2"]);
    expect(JSON.parse(calls[0]![1].body as string)).toEqual({ countryId: 3, quantity: 2 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: false }, 500)),
    );
    await expect(callRoute(routes.explore, { countryId: 3, turnsToSpend: 1 })).rejects.toThrow(routes.explore.fallback);
  });
});

describe("apiRequest", () => {
  it("sends the bearer token and cookies, and returns the success body", async () => {
    setToken("t1");
    const fetchMock = vi.fn(async () => json({ success: true, value: 3 }));
    vi.stubGlobal("fetch", fetchMock);
    const res = await apiRequest<{ value: number }>("GET", "/x", { fallback: "nope" });
    expect(res.value).toBe(3);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/x");
    expect((init.headers as Record<string, string>).Authorization).toBe("Bearer t1");
    expect(init.credentials).toBe("include");
  });

  it("any 401 clears the stored token", async () => {
    setToken("stale");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: false, error: "Token expired" }, 401)),
    );
    await expect(apiRequest("GET", "/user/me", { fallback: "Failed to get user data" })).rejects.toThrow("Token expired");
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("keeps the server's code beside its message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: false, error: "Insufficient funds. Need 5 more.", code: "exploration/insufficient_funds" }, 400)),
    );
    await expect(apiRequest("POST", "/exploration/explore", { fallback: "Exploration failed" })).rejects.toMatchObject({
      message: "Insufficient funds. Need 5 more.",
      status: 400,
      code: "exploration/insufficient_funds",
    });
  });

  it("uses the fallback message when the server gives none", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>", { status: 502 })),
    );
    await expect(apiRequest("GET", "/x", { fallback: "Failed to get country data" })).rejects.toMatchObject({ message: "Failed to get country data", status: 502, code: null });
  });

  it("gives up after the time-out", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((_url: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener("abort", () => reject(new Error("aborted"))))),
    );
    const err = await apiRequest("GET", "/slow", { fallback: "Failed", timeoutMs: 20 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
  });

  it("country: 'Invalid response format' without a country, 'Country data fetch timeout' when slow", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: true })),
    );
    await expect(api.country(1)).rejects.toThrow(INVALID_RESPONSE_FORMAT);
    vi.stubGlobal(
      "fetch",
      vi.fn((_url: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener("abort", () => reject(new Error("aborted"))))),
    );
    vi.useFakeTimers();
    const pending = api.country(1).catch((e) => e);
    await vi.advanceTimersByTimeAsync(10_001);
    expect((await pending).message).toBe(COUNTRY_TIMEOUT_MESSAGE);
  });

  it("construct falls back to one call per type when the batch route is missing", async () => {
    const fetchMock = vi.fn(async (url: string) => (url.endsWith("construct-batch") ? json({ success: false, error: "Unknown API route: POST /buildings/construct-batch" }, 404) : json({ success: true, turnResult: { turnsConsumed: 1 } })));
    vi.stubGlobal("fetch", fetchMock);
    const out = await api.construct(7, { farms: 1, construction_sites: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(out.turnResult?.turnsConsumed).toBe(1);
    expect(out.turnResult?.economicEffects.taxRevenue).toBe(0);
  });
});
