import { afterEach, describe, expect, it } from "vitest";
import type { ReactNode } from "react";
import { cleanup, renderHook } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { defaultSettings, type GameSettings, type SettingsJson } from "@game/schema/api";
import { shellKeys } from "../api/shell";
import { resolvedTheme, useDisplaySettings } from "./displaySettings";

afterEach(cleanup);

function withDisplay(display: Partial<GameSettings["display"]>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const settings = defaultSettings();
  client.setQueryData<SettingsJson>(shellKeys.settings, { settings: { ...settings, display: { ...settings.display, ...display } }, email: "a@example.com", username: "a", updatedAt: null });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("display settings reach the page (issue 30 #8, #21: saved but nothing changed)", () => {
  it("font size, compact mode and theme are set on <html> for the styles, and removed when the shell goes", () => {
    const root = document.documentElement;
    const { unmount } = renderHook(() => useDisplaySettings(), { wrapper: withDisplay({ fontSize: "large", compactMode: true, theme: "light" }) });
    expect(root.dataset).toMatchObject({ fontSize: "large", compact: "", theme: "light" });
    unmount();
    expect(root.dataset.fontSize).toBeUndefined();
    expect(root.dataset.compact).toBeUndefined();
  });

  it("the defaults: medium, not compact, the dark (military) theme", () => {
    renderHook(() => useDisplaySettings(), { wrapper: withDisplay({}) });
    expect(document.documentElement.dataset.fontSize).toBe("medium");
    expect(document.documentElement.dataset.compact).toBeUndefined();
    expect(document.documentElement.dataset.theme).toBe("dark");
  });

  it("auto follows the system's preference", () => {
    expect(resolvedTheme("auto", true)).toBe("light");
    expect(resolvedTheme("auto", false)).toBe("dark");
    expect(resolvedTheme("dark", true)).toBe("dark");
  });
});
