import { useEffect, useState } from "react";
import type { GameSettings } from "@game/schema/api";
import { defaultSettings } from "@game/schema/api/settingsDefaults";
import { useSettings } from "../api/shell";

/** The theme a setting resolves to: "auto" follows the system (prefers-color-scheme). */
export function resolvedTheme(theme: GameSettings["display"]["theme"], systemPrefersLight: boolean): "dark" | "light" {
  if (theme === "auto") return systemPrefersLight ? "light" : "dark";
  return theme;
}

const LIGHT_QUERY = "(prefers-color-scheme: light)";

/**
 * Applies the player's display settings to the page (styles.css reads them from <html>): the
 * theme, the font size and compact mode. They were saved but changed nothing (issue 30 #8, #21).
 */
export function useDisplaySettings(): void {
  const settings = useSettings();
  const display = settings.data?.settings?.display ?? defaultSettings().display;
  const [prefersLight, setPrefersLight] = useState(() => typeof matchMedia === "function" && matchMedia(LIGHT_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const query = matchMedia(LIGHT_QUERY);
    const onChange = () => setPrefersLight(query.matches);
    query.addEventListener?.("change", onChange);
    return () => query.removeEventListener?.("change", onChange);
  }, []);
  const theme = resolvedTheme(display.theme, prefersLight);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.fontSize = display.fontSize;
    if (display.compactMode) root.dataset.compact = "";
    else delete root.dataset.compact;
    return () => {
      delete root.dataset.theme;
      delete root.dataset.fontSize;
      delete root.dataset.compact;
    };
  }, [theme, display.fontSize, display.compactMode]);
}
