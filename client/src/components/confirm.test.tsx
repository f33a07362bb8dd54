import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { renderHook } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { defaultSettings, type SettingsJson } from "@game/schema/api";
import { shellKeys } from "../api/shell";
import { useConfirmAction } from "./confirm";

afterEach(() => vi.restoreAllMocks());

function withSettings(confirmActions: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const settings = defaultSettings();
  client.setQueryData<SettingsJson>(shellKeys.settings, { settings: { ...settings, gameplay: { ...settings.gameplay, confirmActions } }, email: "a@example.com", username: "a", updatedAt: null });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("Confirm actions (issue 30 #21: purchases, missiles and government changes went through on one click)", () => {
  it("with the setting on, a costly action asks and stops when the player says no", () => {
    const ask = vi.spyOn(window, "confirm").mockReturnValue(false);
    const { result } = renderHook(() => useConfirmAction(), { wrapper: withSettings(true) });
    expect(result.current("Buy 100 troops for $14,400?")).toBe(false);
    expect(ask).toHaveBeenCalledWith("Buy 100 troops for $14,400?");
    ask.mockReturnValue(true);
    expect(result.current("Buy 100 troops for $14,400?")).toBe(true);
  });

  it("with the setting off, it goes ahead without asking, except for what always asks (a war declaration, #13)", () => {
    const ask = vi.spyOn(window, "confirm").mockReturnValue(false);
    const { result } = renderHook(() => useConfirmAction(), { wrapper: withSettings(false) });
    expect(result.current("Buy 100 troops for $14,400?")).toBe(true);
    expect(ask).not.toHaveBeenCalled();
    expect(result.current("Declare war on B?", { always: true })).toBe(false);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});
