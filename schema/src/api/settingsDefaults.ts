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

/*
 * The settings' values and defaults without their zod schema (settings.ts): the game's shell
 * reads the defaults at start (confirm actions, display), and importing settings.ts would build
 * the schema and load zod with the first screen (issue 30, docs/performance.md).
 */

type OneOf<T extends readonly unknown[]> = T[number];

/**
 * A player's settings, as `settingsSchema` (settings.ts) parses them: written out here so this
 * module needs nothing of the schema's (settings.ts checks its schema's output is this type).
 */
export interface GameSettings {
  profile: { displayName: string; timezone: OneOf<typeof SETTINGS_TIMEZONES>; language: OneOf<typeof SETTINGS_LANGUAGES> };
  notifications: {
    allianceMessages: boolean;
    warAlerts: boolean;
    marketUpdates: boolean;
    achievementAlerts: boolean;
    diplomaticEvents: boolean;
    soundEnabled: boolean;
    pushNotifications: boolean;
    emailNotifications: boolean;
  };
  privacy: { showOnlineStatus: boolean; allowSpyOperations: boolean; showInRankings: boolean; allowDirectMessages: boolean; shareActivityData: boolean };
  gameplay: {
    autoSaveTurns: boolean;
    confirmActions: boolean;
    showAdvancedStats: boolean;
    defaultCombatView: OneOf<typeof SETTINGS_COMBAT_VIEWS>;
    autoRefresh: boolean;
    refreshInterval: number;
  };
  display: { theme: OneOf<typeof SETTINGS_THEMES>; compactMode: boolean; showAnimations: boolean; fontSize: OneOf<typeof SETTINGS_FONT_SIZES>; colorBlindMode: boolean };
}

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
