import { z } from "zod";
import { lineText } from "./text.js";
import { type GameSettings, DISPLAY_NAME_MAX, SETTINGS_COMBAT_VIEWS, SETTINGS_FONT_SIZES, SETTINGS_LANGUAGES, SETTINGS_REFRESH_INTERVALS, SETTINGS_THEMES, SETTINGS_TIMEZONES, defaultSettings } from "./settingsDefaults.js";

export * from "./settingsDefaults.js";

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
}) satisfies z.ZodType<GameSettings>;

/** PUT /api/settings: the whole document (the Settings screen always sends every tab). */
export const settingsUpdateSchema = settingsSchema;

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
