import { z } from "zod";
import { lineText } from "./text.js";

/**
 * A player's settings (document 3, section 3 "Settings" and section 9 "Settings options"),
 * stored on the server per user: GET /api/settings, PUT /api/settings. Every key has the
 * spec's default; the booleans the spec gives no default for are on.
 */
export const SETTINGS_TIMEZONES = ["UTC-12", "UTC-8", "UTC-5", "UTC+0", "UTC+1", "UTC+8", "UTC+9"] as const;
export const SETTINGS_LANGUAGES = ["en", "es", "fr", "de", "zh"] as const;
export const SETTINGS_THEMES = ["dark", "light", "auto"] as const;
export const SETTINGS_FONT_SIZES = ["small", "medium", "large"] as const;
export const SETTINGS_COMBAT_VIEWS = ["simple", "detailed"] as const;
/** Refresh interval options (seconds). */
export const SETTINGS_REFRESH_INTERVALS = [15, 30, 60, 120, 300] as const;
/** Longest display name (characters). */
export const DISPLAY_NAME_MAX = 30;

const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });
const oneOf = <T extends readonly [string, ...string[]]>(values: T, field: string) => z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });

export const settingsSchema = z.object({
  profile: z.object({
    /** shown instead of the username where the player chooses; empty: the username */
    displayName: lineText(z.string({ error: "displayName must be text" }), "Display name")
      .trim()
      .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
    timezone: oneOf(SETTINGS_TIMEZONES, "timezone"),
    language: oneOf(SETTINGS_LANGUAGES, "language"),
  }),
  notifications: z.object({
    allianceMessages: flag("allianceMessages"),
    warAlerts: flag("warAlerts"),
    marketUpdates: flag("marketUpdates"),
    achievementAlerts: flag("achievementAlerts"),
    diplomaticEvents: flag("diplomaticEvents"),
    soundEnabled: flag("soundEnabled"),
    pushNotifications: flag("pushNotifications"),
    emailNotifications: flag("emailNotifications"),
  }),
  privacy: z.object({
    showOnlineStatus: flag("showOnlineStatus"),
    /** stored here; what it allows is the espionage rules' decision (docs/rules.md) */
    allowSpyOperations: flag("allowSpyOperations"),
    showInRankings: flag("showInRankings"),
    allowDirectMessages: flag("allowDirectMessages"),
    shareActivityData: flag("shareActivityData"),
  }),
  gameplay: z.object({
    autoSaveTurns: flag("autoSaveTurns"),
    confirmActions: flag("confirmActions"),
    showAdvancedStats: flag("showAdvancedStats"),
    defaultCombatView: oneOf(SETTINGS_COMBAT_VIEWS, "defaultCombatView"),
    autoRefresh: flag("autoRefresh"),
    refreshInterval: z.number({ error: "refreshInterval must be a number" }).refine((v) => (SETTINGS_REFRESH_INTERVALS as readonly number[]).includes(v), `refreshInterval must be one of ${SETTINGS_REFRESH_INTERVALS.join(", ")}`),
  }),
  display: z.object({
    theme: oneOf(SETTINGS_THEMES, "theme"),
    compactMode: flag("compactMode"),
    showAnimations: flag("showAnimations"),
    fontSize: oneOf(SETTINGS_FONT_SIZES, "fontSize"),
    colorBlindMode: flag("colorBlindMode"),
  }),
});
export type GameSettings = z.infer<typeof settingsSchema>;

/** PUT /api/settings: the whole document (the Settings screen always sends every tab). */
export const settingsUpdateSchema = settingsSchema;

/** The spec's defaults. */
export function defaultSettings(): GameSettings {
  return {
    profile: { displayName: "", timezone: "UTC-5", language: "en" },
    notifications: {
      allianceMessages: true,
      warAlerts: true,
      marketUpdates: false,
      achievementAlerts: true,
      diplomaticEvents: true,
      soundEnabled: true,
      pushNotifications: false,
      emailNotifications: true,
    },
    privacy: { showOnlineStatus: true, allowSpyOperations: true, showInRankings: true, allowDirectMessages: true, shareActivityData: false },
    gameplay: { autoSaveTurns: true, confirmActions: true, showAdvancedStats: false, defaultCombatView: "simple", autoRefresh: true, refreshInterval: 30 },
    display: { theme: "dark", compactMode: false, showAnimations: true, fontSize: "medium", colorBlindMode: false },
  };
}

/**
 * Stored settings read back over the defaults, tab by tab and key by key, so a key added
 * later (or one a stored document lacks) takes its default and a stored value that no longer
 * validates falls back too.
 */
export function mergeSettings(stored: unknown): GameSettings {
  const defaults = defaultSettings();
  if (!stored || typeof stored !== "object") return defaults;
  const merged: Record<string, Record<string, unknown>> = {};
  for (const [tab, values] of Object.entries(defaults)) {
    const storedTab = (stored as Record<string, unknown>)[tab];
    merged[tab] = { ...values, ...(storedTab && typeof storedTab === "object" ? (storedTab as Record<string, unknown>) : {}) };
  }
  const parsed = settingsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // key by key: keep each stored value that validates on its own
  const result = defaultSettings() as unknown as Record<string, Record<string, unknown>>;
  for (const [tab, values] of Object.entries(merged)) {
    for (const [key, value] of Object.entries(values)) {
      if (!(key in result[tab]!)) continue;
      const candidate = { ...result, [tab]: { ...result[tab], [key]: value } };
      if (settingsSchema.safeParse(candidate).success) result[tab]![key] = value;
    }
  }
  return result as unknown as GameSettings;
}

/** GET /api/settings and PUT's answer: the settings with the account's email (read-only). */
export const settingsJsonSchema = z.object({
  settings: settingsSchema,
  /** the account's email, shown on the Profile tab; changed nowhere here */
  email: z.string(),
  username: z.string(),
  updatedAt: z.string().nullable(),
});
export type SettingsJson = z.infer<typeof settingsJsonSchema>;
export interface SettingsResponse {
  success: true;
  data: SettingsJson;
}
