import { z } from "zod";
import { authResponseSchema, countryIdParamsSchema, countryListQuerySchema, countryListResponseSchema, loginRequestSchema, ownCountryJsonSchema, publicCountryJsonSchema, registerRequestSchema, userResponseSchema } from "../api/index.js";
import { answer, defineRoute, envelope } from "./route.js";

/** The own view for the owner, the public one for anyone else (CountryResponse). */
const countryAnswer = z.union([envelope({ country: ownCountryJsonSchema, message: z.literal("Own country") }), envelope({ country: publicCountryJsonSchema, message: z.literal("Public view") })]);

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

/** A page of public views (GET /countries, /countries/ai). */
const countryList = <const Path extends string>(path: Path, summary: string, fallback: string) =>
  defineRoute({ method: "GET", path, tag: "Countries", summary, fallback, auth: "user", query: countryListQuerySchema, response: answer(countryListResponseSchema) });

export const countryRoutes = {
  country: defineRoute({ method: "GET", path: "/country/:id", ...readCountry }),
  countryById: defineRoute({ method: "GET", path: "/countries/:id", ...readCountry }),
  countries: countryList("/countries", "One page of countries by networth (public views), with the caller's country id", "Failed to get countries"),
  aiCountries: countryList("/countries/ai", "One page of the computer-played countries", "Failed to get AI countries"),
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
    response: authResponseSchema,
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
    response: authResponseSchema,
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
    response: answer(userResponseSchema),
    refusals: ["auth/no_user"],
  }),
  tutorialComplete: defineRoute({
    method: "POST",
    path: "/user/tutorial-complete",
    tag: "Accounts",
    summary: "Record that the tutorial was finished or skipped",
    fallback: "Failed to complete the tutorial",
    auth: "user",
    response: answer(userResponseSchema),
  }),
};
