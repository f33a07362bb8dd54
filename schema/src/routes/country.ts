import { z } from "zod";
import {
  countryIdParamsSchema,
  countryListQuerySchema,
  loginRequestSchema,
  ownCountryJsonSchema,
  publicCountryJsonSchema,
  registerRequestSchema,
  type AuthResponse,
  type CountryListResponse,
  type UserResponse,
} from "../api/index.js";
import { answerOf, defineRoute, envelope } from "./route.js";

/** The own view for the owner, the public one for anyone else. */
const countryAnswer = z.union([
  envelope({ country: ownCountryJsonSchema, message: z.literal("Own country") }),
  envelope({ country: publicCountryJsonSchema, message: z.literal("Public view") }),
]);

const readCountry = {
  tag: "Countries",
  summary: "A country: the owner's view for its owner, the public view for anyone else",
  fallback: "Failed to get country data",
  auth: "user",
  params: countryIdParamsSchema,
  response: countryAnswer,
  refusals: ["country/not_found"],
  hot: true,
} as const;

export const countryRoutes = {
  country: defineRoute({ method: "GET", path: "/country/:id", ...readCountry }),
  countryById: defineRoute({ method: "GET", path: "/countries/:id", ...readCountry }),
  countries: defineRoute({
    method: "GET",
    path: "/countries",
    tag: "Countries",
    summary: "One page of countries by networth (public views), with the caller's country id",
    fallback: "Failed to get countries",
    auth: "user",
    query: countryListQuerySchema,
    response: answerOf<CountryListResponse>(),
  }),
  aiCountries: defineRoute({
    method: "GET",
    path: "/countries/ai",
    tag: "Countries",
    summary: "One page of the computer-played countries",
    fallback: "Failed to get AI countries",
    auth: "user",
    query: countryListQuerySchema,
    response: answerOf<CountryListResponse>(),
  }),
};

export const authRoutes = {
  register: defineRoute({
    method: "POST",
    path: "/auth/register",
    tag: "Accounts",
    summary: "Create an account and its country; answers a token",
    fallback: "Registration failed",
    auth: "none",
    body: registerRequestSchema,
    response: answerOf<AuthResponse>(),
    status: 201,
    refusals: ["auth/email_taken", "auth/username_taken", "country/name_taken", "auth/too_many_registrations"],
  }),
  login: defineRoute({
    method: "POST",
    path: "/auth/login",
    tag: "Accounts",
    summary: "Sign in; answers a token",
    fallback: "Login failed",
    auth: "none",
    body: loginRequestSchema,
    response: answerOf<AuthResponse>(),
    refusals: ["auth/invalid_credentials", "auth/too_many_attempts", "auth/suspended"],
  }),
  logout: defineRoute({
    method: "POST",
    path: "/auth/logout",
    tag: "Accounts",
    summary: "Revoke the caller's token",
    fallback: "Logout failed",
    auth: "user",
    response: envelope({ message: z.string() }),
  }),
  me: defineRoute({
    method: "GET",
    path: "/user/me",
    tag: "Accounts",
    summary: "The signed-in user",
    fallback: "Failed to get user data",
    auth: "user",
    response: answerOf<UserResponse>(),
    refusals: ["auth/no_user"],
  }),
  tutorialComplete: defineRoute({
    method: "POST",
    path: "/user/tutorial-complete",
    tag: "Accounts",
    summary: "Record that the tutorial was finished or skipped",
    fallback: "Failed to complete the tutorial",
    auth: "user",
    response: answerOf<UserResponse>(),
  }),
};
