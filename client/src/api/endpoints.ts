import { STARTING_RESOURCES } from "@game/schema/rules";
import { ApiError, apiRequest } from "./http";
import { mapCountry, type Country, type CountryJson } from "./country";
import {
  mapUser,
  normalizeTurnResult,
  type BuildingProduction,
  type ProductionPerTurn,
  type PublicCountry,
  type TurnResult,
  type User,
  type UserJson,
} from "./types";

/** The spec's fallback messages (document 1, section 8), one per call. */
export const FALLBACK = {
  login: "Login failed",
  register: "Registration failed",
  logout: "Logout failed",
  me: "Failed to get user data",
  country: "Failed to get country data",
  countries: "Failed to get rankings",
  explore: "Exploration failed",
  construct: "Building construction failed",
  buildingCosts: "Failed to get building costs",
  buildingProduction: "Failed to get building production data",
  productionStatus: "Failed to get production status",
  turnHistory: "Failed to get turn history",
  chatChannels: "Failed to get chat channels",
  chatMessages: "Failed to get chat messages",
  onlineUsers: "Failed to get online users",
  sendChat: "Failed to send chat message",
  rankings: "Failed to get rankings",
  season: "Failed to get season data",
} as const;

/** 'Invalid response format' when no country object is returned (spec). */
export const INVALID_RESPONSE_FORMAT = "Invalid response format";
/** Country data load time-out (spec: 10 s) and its message. */
export const COUNTRY_LOAD_TIMEOUT_MS = 10_000;
export const COUNTRY_TIMEOUT_MESSAGE = "Country data fetch timeout";

/**
 * Starting resources sent with registration (spec: fixed table). The server ignores them and
 * uses the same shared table; sending them keeps the spec's payload shape.
 */
export const REGISTRATION_STARTING_RESOURCES = STARTING_RESOURCES;

export interface AuthResult {
  token: string;
  user: User;
}

export interface RegisterInput {
  email: string;
  username: string;
  password: string;
  countryName: string;
}

export const api = {
  async login(email: string, password: string): Promise<AuthResult> {
    const res = await apiRequest<{ token: string; user: UserJson }>("POST", "/auth/login", {
      fallback: FALLBACK.login,
      body: { email, password },
    });
    return { token: res.token, user: mapUser(res.user) };
  },

  async register(input: RegisterInput): Promise<AuthResult> {
    const res = await apiRequest<{ token: string; user: UserJson }>("POST", "/auth/register", {
      fallback: FALLBACK.register,
      body: {
        email: input.email,
        username: input.username,
        password: input.password,
        countryName: input.countryName,
        governmentType: "monarchy",
        startingResources: REGISTRATION_STARTING_RESOURCES,
      },
    });
    return { token: res.token, user: mapUser(res.user) };
  },

  async logout(): Promise<void> {
    await apiRequest("POST", "/auth/logout", { fallback: FALLBACK.logout });
  },

  /** Records on the server that the tutorial was finished or skipped. */
  async completeTutorial(): Promise<User> {
    const res = await apiRequest<{ user: UserJson }>("POST", "/user/tutorial-complete", { fallback: "Failed to complete the tutorial" });
    return mapUser(res.user);
  },

  async me(signal?: AbortSignal): Promise<User> {
    const res = await apiRequest<{ user: UserJson }>("GET", "/user/me", { fallback: FALLBACK.me, signal });
    if (!res.user) throw new ApiError(FALLBACK.me, 200, "/user/me");
    return mapUser(res.user);
  },

  /** GET /country/:id, abandoned after 10 s with 'Country data fetch timeout'. */
  async country(id: number, signal?: AbortSignal): Promise<Country> {
    let res: { country?: CountryJson };
    try {
      res = await apiRequest<{ country?: CountryJson }>("GET", `/country/${id}`, {
        fallback: FALLBACK.country,
        timeoutMs: COUNTRY_LOAD_TIMEOUT_MS,
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0 && /timed out/.test(err.message)) {
        throw new ApiError(COUNTRY_TIMEOUT_MESSAGE, 0, err.path);
      }
      throw err;
    }
    if (!res.country || typeof res.country !== "object") throw new ApiError(INVALID_RESPONSE_FORMAT, 200, `/country/${id}`);
    return mapCountry(res.country);
  },

  async countries(limit = 100, offset = 0): Promise<{ countries: PublicCountry[]; total: number }> {
    const res = await apiRequest<{ countries?: PublicCountry[]; total?: number }>("GET", `/countries?limit=${limit}&offset=${offset}`, {
      fallback: FALLBACK.countries,
    });
    return { countries: res.countries ?? [], total: res.total ?? res.countries?.length ?? 0 };
  },

  /** POST /exploration/explore {countryId, turnsToSpend} */
  async explore(countryId: number, turnsToSpend: number): Promise<ActionOutcome> {
    const res = await apiRequest<{ turnResult?: unknown; country?: CountryJson; turnsUsed?: number }>("POST", "/exploration/explore", {
      fallback: FALLBACK.explore,
      body: { countryId, turnsToSpend },
    });
    return outcome(res);
  },

  /**
   * Constructs every ordered type in one all-or-nothing call (POST /buildings/construct-batch).
   * If that route is missing (404), falls back to the spec's one POST /buildings/construct per
   * type, all in parallel, all of which must succeed.
   */
  async construct(countryId: number, orders: Record<string, number>): Promise<ActionOutcome> {
    try {
      const res = await apiRequest<{ turnResult?: unknown; country?: CountryJson; data?: unknown }>("POST", "/buildings/construct-batch", {
        fallback: FALLBACK.construct,
        body: { countryId, orders },
      });
      return outcome(res);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404 || !/Unknown API route/.test(err.message)) throw err;
    }
    const entries = Object.entries(orders).filter(([, q]) => q > 0);
    const results = await Promise.all(
      entries.map(([buildingType, quantity]) =>
        apiRequest<{ turnResult?: unknown; country?: CountryJson; data?: unknown }>("POST", "/buildings/construct", {
          fallback: FALLBACK.construct,
          body: { countryId, buildingType, quantity },
        }),
      ),
    );
    return outcome(results[results.length - 1] ?? {});
  },

  async buildingProduction(countryId: number): Promise<BuildingProduction> {
    const res = await apiRequest<{ data: BuildingProduction }>("GET", `/buildings/production/${countryId}`, {
      fallback: FALLBACK.buildingProduction,
    });
    return res.data;
  },

  async productionStatus(countryId: number): Promise<ProductionPerTurn> {
    const res = await apiRequest<{ productionPerTurn: ProductionPerTurn }>("GET", `/production/status/${countryId}`, {
      fallback: FALLBACK.productionStatus,
    });
    return res.productionPerTurn;
  },

  async turnHistory(): Promise<TurnResult[]> {
    const res = await apiRequest<{ data?: unknown[] }>("GET", "/turns/history", { fallback: FALLBACK.turnHistory });
    return (res.data ?? []).map(normalizeTurnResult);
  },
};

/** What an economy action returns to the screen. */
export interface ActionOutcome {
  turnResult: TurnResult | null;
  /** the fresh country, when the answer carries it (as country, data.country or data) */
  country: Country | null;
}

function outcome(res: { turnResult?: unknown; country?: CountryJson; data?: unknown }): ActionOutcome {
  const data = res.data as { country?: CountryJson; turnResult?: unknown } | CountryJson | undefined;
  const countryJson =
    res.country ??
    (data && typeof data === "object" && "country" in data ? data.country : undefined) ??
    (data && typeof data === "object" && "government_type" in data ? (data as CountryJson) : undefined);
  const rawResult = res.turnResult ?? (data && typeof data === "object" && "turnResult" in data ? data.turnResult : undefined);
  return {
    turnResult: rawResult ? normalizeTurnResult(rawResult) : null,
    country: countryJson ? mapCountry(countryJson) : null,
  };
}
