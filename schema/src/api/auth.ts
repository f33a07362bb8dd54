import { z } from "zod";
import { GOVERNMENT_TYPES } from "../rules/country.js";
import { checkLineText } from "../rules/text.js";
import { lineText, nameText } from "./text.js";

/** Validation messages of the spec (document 1, section 5). */
export const AUTH_MESSAGES = {
  invalidEmail: "Invalid email address",
  passwordTooShort: "Password must be at least 6 characters",
  passwordTooLong: "Password must be at most 128 characters",
  usernameTooShort: "Username must be at least 3 characters",
  usernameTooLong: "Username must be less than 20 characters",
  usernameCharacters: "Username may only contain letters, numbers, spaces, dots, dashes and underscores",
  passwordsDontMatch: "Passwords don't match",
  countryNameTooShort: "Country name must be at least 3 characters long",
  countryNameTooLong: "Country name must be at most 50 characters long",
  emailTaken: "Email already registered",
  usernameTaken: "Username already taken",
  countryNameTaken: "Country name already taken",
  invalidCredentials: "Invalid email or password",
  tooManyAttempts: "Too many login attempts. Try again later.",
  /** not in the spec: registrations from one address over RATE_LIMIT_REGISTER_PER_HOUR */
  tooManyRegistrations: "Too many registrations from your network. Try again later.",
} as const;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
/** Upper bound so a huge password cannot make hashing a denial of service. */
export const PASSWORD_MAX = 128;
export const COUNTRY_NAME_MIN = 3;
export const COUNTRY_NAME_MAX = 50;

/** An email with a control character is an invalid email address (the spec's message). */
export const emailSchema = z
  .string({ error: AUTH_MESSAGES.invalidEmail })
  .refine((email) => checkLineText(email) === null, { message: AUTH_MESSAGES.invalidEmail, abort: true })
  .trim()
  .max(254, AUTH_MESSAGES.invalidEmail)
  .pipe(z.email({ error: AUTH_MESSAGES.invalidEmail }));

/** Any characters but control characters (U+0000 would otherwise reach argon2 and the logs). */
export const passwordSchema = lineText(z.string({ error: AUTH_MESSAGES.passwordTooShort }), "Password")
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong);

/** NFKC-normalised and trimmed (nameText); unique on its folded form (foldName). */
export const usernameSchema = nameText(z.string({ error: AUTH_MESSAGES.usernameTooShort }), "Username")
  .min(USERNAME_MIN, AUTH_MESSAGES.usernameTooShort)
  .max(USERNAME_MAX, AUTH_MESSAGES.usernameTooLong)
  .regex(/^[\p{L}\p{N} ._-]+$/u, AUTH_MESSAGES.usernameCharacters);

/**
 * Country name: NFKC-normalised and trimmed, 3 to 50 characters, no control, direction or
 * invisible characters; unique on its folded form (foldName), so "Land" and "Lаnd" (Cyrillic
 * a) cannot both exist.
 */
export const countryNameSchema = nameText(z.string({ error: AUTH_MESSAGES.countryNameTooShort }), "Country name")
  .min(COUNTRY_NAME_MIN, AUTH_MESSAGES.countryNameTooShort)
  .max(COUNTRY_NAME_MAX, AUTH_MESSAGES.countryNameTooLong);

/** POST /api/auth/login */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * POST /api/auth/register. governmentType and startingResources are accepted for the spec's
 * payload shape but ignored: the server decides both (Monarchy and the fixed table).
 */
export const registerRequestSchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  password: passwordSchema,
  countryName: countryNameSchema,
  governmentType: z.union([z.enum(GOVERNMENT_TYPES), z.string().max(40), z.number()]).optional(),
  startingResources: z.record(z.string(), z.unknown()).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** Client-side step 1 of registration: adds the confirm field. */
export const registerAccountStepSchema = z
  .object({
    email: emailSchema,
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ["confirmPassword"],
  });

/** The user as /auth/login, /auth/register and /user/me answer it. */
export const userJsonSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  hasCountry: z.boolean(),
  countryId: z.number().int().nullable(),
  countryName: z.string().nullable(),
  government: z.string().nullable(),
  country: z.object({ id: z.number().int(), name: z.string(), government: z.string() }).nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  isActive: z.literal(true),
  /** false until the player finishes or skips the tutorial (POST /api/user/tutorial-complete) */
  tutorialCompleted: z.boolean(),
});
export type UserJson = z.infer<typeof userJsonSchema>;

/** POST /auth/login and /auth/register (201). */
export const authResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  user: userJsonSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** GET /user/me and POST /user/tutorial-complete. */
export const userResponseSchema = z.object({ user: userJsonSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;
