import type { AuthResponse, RegisterRequest, UserJson, UserResponse } from "@game/schema/api";
import { STARTING_RESOURCES } from "@game/schema/rules";
import { ApiError, callRoute } from "./http";

/**
 * The catalogue is loaded with the first account call, not with the sign-in form: the form must
 * stay within its first-load budget (issue 30, 100 KB). In the build it is the route table
 * without zod schemas (client/vite.config.ts, routeTable), so nothing here needs zod.
 */
const catalogue = () => import("@game/schema/routes").then((m) => m.routes);

/**
 * The account calls the sign-in page and the start-up need (login, registration, logout, the
 * user, the tutorial), apart from the game's calls (endpoints.ts) so the first load carries
 * only these (issue 30, "Fast first load").
 */

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

/**
 * Starting resources sent with registration (spec: fixed table). The server ignores them and
 * uses the same shared table; sending them keeps the spec's payload shape.
 */
export const REGISTRATION_STARTING_RESOURCES = STARTING_RESOURCES;

/** A login or registration: the token and the user (AuthResponse without its envelope). */
export type AuthResult = Omit<AuthResponse, "success">;

/** What the registration form collects; the rest of RegisterRequest is filled in here. */
export type RegisterInput = Pick<RegisterRequest, "email" | "username" | "password" | "countryName">;

export const authApi = {
  async login(email: string, password: string): Promise<AuthResult> {
    const routes = await catalogue();
    const res = await callRoute(routes.login, { email, password });
    return { token: res.token, user: res.user };
  },

  async register(input: RegisterInput): Promise<AuthResult> {
    const routes = await catalogue();
    const res = await callRoute(routes.register, {
      email: input.email,
      username: input.username,
      password: input.password,
      countryName: input.countryName,
      governmentType: "monarchy",
      startingResources: REGISTRATION_STARTING_RESOURCES,
    } satisfies RegisterRequest);
    return { token: res.token, user: res.user };
  },

  async logout(): Promise<void> {
    await callRoute((await catalogue()).logout);
  },

  /** Records on the server that the tutorial was finished or skipped. */
  async completeTutorial(): Promise<UserJson> {
    const res = await callRoute((await catalogue()).tutorialComplete);
    return res.user;
  },

  async me(signal?: AbortSignal): Promise<UserJson> {
    const routes = await catalogue();
    const res: Partial<UserResponse> = await callRoute(routes.me, undefined, { signal });
    if (!res.user) throw new ApiError(FALLBACK.me, 200, routes.me.path);
    return res.user;
  },
};
