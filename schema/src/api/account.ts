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
export const changePasswordFormSchema = changePasswordRequestSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: ACCOUNT_MESSAGES.passwordsDoNotMatch, path: ["confirmPassword"] });

/** POST /account/delete */
export const deleteAccountRequestSchema = z.object({
  confirmation: z.literal(DELETE_ACCOUNT_CONFIRMATION, { error: ACCOUNT_MESSAGES.deleteConfirmation }),
  password: z.string({ error: ACCOUNT_MESSAGES.deletePasswordRequired }).min(1, ACCOUNT_MESSAGES.deletePasswordRequired).max(PASSWORD_MAX, ACCOUNT_MESSAGES.deleteWrongPassword),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** What account deletion returned to the country before it left (escrow given back). */
export interface AccountDeletedJson {
  message: string;
  /** open listings cancelled and standing orders refunded */
  listingsCancelled: number;
  ordersCancelled: number;
  /** whether the player's alliance was left, and whether that disbanded it */
  allianceLeft: boolean;
  allianceDisbanded: boolean;
}

/** GET /account/export: everything the game holds about the player, as JSON. */
export interface AccountExportJson {
  filename: string;
  export: {
    format: "nation-game-account-export";
    version: 1;
    exportedAt: string;
    account: { id: number; email: string; username: string; createdAt: string; lastLogin: string | null };
    /** rows of each table about the player, by table name (settings, country, reports, trades, messages, ...) */
    [section: string]: unknown;
  };
}

/** GET /account/stats: account statistics from real data. */
export interface AccountStatsJson {
  memberSince: string;
  lastLogin: string | null;
  accountAgeDays: number;
  country: { id: number; name: string; land: number; networth: number; createdAt: string } | null;
  battles: { fought: number; won: number; lost: number };
  trades: { count: number; volume: number };
  chatMessages: number;
  newsRead: number;
  /** wars declared by or on the player's country */
  wars: number;
  alliance: { id: number; name: string; tag: string; role: string } | null;
}
