import { z } from "zod";
import { lineText } from "./text.js";

/** Account security (issue 13, "Settings and account"): messages shared by client and server. */
export const ACCOUNT_MESSAGES = {
  newPasswordTooShort: "Password must be at least 8 characters",
  newPasswordTooLong: "Password must be at most 128 characters",
  passwordsDoNotMatch: "Passwords do not match",
  currentPasswordRequired: "Current password is required",
  wrongPassword: "Current password is incorrect",
  samePassword: "The new password must differ from the current one",
  passwordChanged: "Password changed. Every other session has been signed out.",
  deleteConfirmation: "Type DELETE MY ACCOUNT to confirm",
  deletePasswordRequired: "Enter your password to delete your account",
  deleteWrongPassword: "Password is incorrect",
  accountDeleted: "Your account and country have been deleted",
  tooManyAttempts: "Too many password attempts. Try again in 15 minutes.",
} as const;

/** The exact text a player types to delete their account. */
export const DELETE_ACCOUNT_CONFIRMATION = "DELETE MY ACCOUNT";
export const NEW_PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

export const newPasswordSchema = lineText(z.string({ error: ACCOUNT_MESSAGES.newPasswordTooShort }), "Password")
  .min(NEW_PASSWORD_MIN, ACCOUNT_MESSAGES.newPasswordTooShort)
  .max(PASSWORD_MAX, ACCOUNT_MESSAGES.newPasswordTooLong);

/** POST /auth/change-password. The confirmation is checked by the client (changePasswordFormSchema). */
export const changePasswordRequestSchema = z.object({
  currentPassword: z.string({ error: ACCOUNT_MESSAGES.currentPasswordRequired }).min(1, ACCOUNT_MESSAGES.currentPasswordRequired).max(PASSWORD_MAX, ACCOUNT_MESSAGES.wrongPassword),
  newPassword: newPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** The Account screen's form: the request plus the typed confirmation. */
export const changePasswordFormSchema = changePasswordRequestSchema.extend({ confirmPassword: z.string() }).refine((v) => v.newPassword === v.confirmPassword, { message: ACCOUNT_MESSAGES.passwordsDoNotMatch, path: ["confirmPassword"] });

/** POST /account/delete */
export const deleteAccountRequestSchema = z.object({
  confirmation: z.literal(DELETE_ACCOUNT_CONFIRMATION, { error: ACCOUNT_MESSAGES.deleteConfirmation }),
  password: z.string({ error: ACCOUNT_MESSAGES.deletePasswordRequired }).min(1, ACCOUNT_MESSAGES.deletePasswordRequired).max(PASSWORD_MAX, ACCOUNT_MESSAGES.deleteWrongPassword),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** POST /account/delete. */
export const accountDeletedJsonSchema = z.object({
  message: z.string(),
  listingsCancelled: z.number(),
  ordersCancelled: z.number(),
  allianceLeft: z.boolean(),
  allianceDisbanded: z.boolean(),
});
export type AccountDeletedJson = z.infer<typeof accountDeletedJsonSchema>;

/** GET /account/export: the account's data as one JSON document, each table a section of its own. */
export const accountExportJsonSchema = z.object({
  filename: z.string(),
  export: z
    .object({
      format: z.literal("nation-game-account-export"),
      version: z.literal(1),
      exportedAt: z.string(),
      account: z.object({ id: z.number(), email: z.string(), username: z.string(), createdAt: z.string(), lastLogin: z.string().nullable() }),
    })
    .catchall(z.unknown()),
});
export type AccountExportJson = z.infer<typeof accountExportJsonSchema>;

/** GET /account/stats. */
export const accountStatsJsonSchema = z.object({
  memberSince: z.string(),
  lastLogin: z.string().nullable(),
  accountAgeDays: z.number(),
  country: z.object({ id: z.number(), name: z.string(), land: z.number(), networth: z.number(), createdAt: z.string() }).nullable(),
  battles: z.object({ fought: z.number(), won: z.number(), lost: z.number() }),
  trades: z.object({ count: z.number(), volume: z.number() }),
  chatMessages: z.number(),
  newsRead: z.number(),
  wars: z.number(),
  alliance: z.object({ id: z.number(), name: z.string(), tag: z.string(), role: z.string() }).nullable(),
});
export type AccountStatsJson = z.infer<typeof accountStatsJsonSchema>;
