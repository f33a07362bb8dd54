import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { defaultSettings, mergeSettings, settingsSchema, type GameSettings } from "./settings.js";

describe("settings", () => {
  it("the written-out GameSettings (settingsDefaults.ts, zod-free for the game's start) is exactly what the schema parses", () => {
    expectTypeOf<z.output<typeof settingsSchema>>().toEqualTypeOf<GameSettings>();
  });

  it("the defaults validate and are the spec's", () => {
    const d = defaultSettings();
    expect(settingsSchema.parse(d)).toEqual(d);
    expect(d.profile).toEqual({ displayName: "", timezone: "UTC-5", language: "en" });
    expect(d.gameplay).toMatchObject({ refreshInterval: 30, defaultCombatView: "simple", showAdvancedStats: false });
    expect(d.display).toEqual({ theme: "dark", compactMode: false, showAnimations: true, fontSize: "medium", colorBlindMode: false });
    expect(d.notifications.marketUpdates).toBe(false);
    expect(d.notifications.pushNotifications).toBe(false);
    expect(d.privacy.shareActivityData).toBe(false);
  });

  it("drops unknown keys", () => {
    const parsed = settingsSchema.parse({ ...defaultSettings(), isAdmin: true, privacy: { ...defaultSettings().privacy, role: "admin" } });
    expect(parsed).toEqual(defaultSettings());
  });

  it("reads a stored document over the defaults: missing keys take their default, invalid values fall back", () => {
    expect(mergeSettings(null)).toEqual(defaultSettings());
    expect(mergeSettings({ display: { theme: "light" } }).display.theme).toBe("light");
    const merged = mergeSettings({ display: { theme: "neon", fontSize: "large" }, gameplay: { refreshInterval: 45, autoRefresh: false } });
    expect(merged.display).toMatchObject({ theme: "dark", fontSize: "large" });
    expect(merged.gameplay).toMatchObject({ refreshInterval: 30, autoRefresh: false });
    expect(settingsSchema.safeParse(merged).success).toBe(true);
  });
});
