import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { defaultSettings, type SettingsJson } from "@game/schema/api";
import { SettingsForm } from "./SettingsScreen";

afterEach(cleanup);

const saved: SettingsJson = { settings: defaultSettings(), email: "a@example.com", username: "alice", updatedAt: null };

function renderForm() {
  const onNavigate = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SettingsForm saved={saved} onNavigate={onNavigate} />
    </QueryClientProvider>,
  );
  return { onNavigate };
}

describe("Settings", () => {
  it("shows no Save Changes until something changed, then the unsaved-changes flag; reverting clears it", () => {
    renderForm();
    expect(screen.queryByTestId("unsaved-changes")).toBeNull();
    expect(screen.queryByTestId("save-settings")).toBeNull();
    fireEvent.click(screen.getByRole("tab", { name: "Display" }));
    fireEvent.change(screen.getByLabelText("Theme"), { target: { value: "light" } });
    expect(screen.getByTestId("unsaved-changes").textContent).toBe("Unsaved changes");
    expect(screen.getByTestId("save-settings")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Theme"), { target: { value: "dark" } });
    expect(screen.queryByTestId("unsaved-changes")).toBeNull();
  });

  it("disables the refresh interval unless auto-refresh is on, and says why", () => {
    renderForm();
    fireEvent.click(screen.getByRole("tab", { name: "Gameplay" }));
    const interval = screen.getByLabelText("Refresh interval") as HTMLSelectElement;
    expect(interval.disabled).toBe(false);
    expect([...interval.options].map((o) => o.value)).toEqual(["15", "30", "60", "120", "300"]);
    expect(interval.value).toBe("30");
    fireEvent.click(screen.getByTestId("setting-gameplay-autoRefresh"));
    expect(interval.disabled).toBe(true);
    expect(screen.getByText("Turn on auto-refresh to choose an interval")).toBeTruthy();
  });

  it("shows every tab of the spec with its defaults; the email is read-only", () => {
    renderForm();
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Profile", "Notifications", "Privacy", "Gameplay", "Display", "Account"]);
    expect((screen.getByLabelText("Timezone") as HTMLSelectElement).value).toBe("UTC-5");
    expect((screen.getByLabelText("Email") as HTMLInputElement).readOnly).toBe(true);
    fireEvent.click(screen.getByRole("tab", { name: "Notifications" }));
    expect((screen.getByTestId("setting-notifications-marketUpdates") as HTMLInputElement).checked).toBe(false);
    expect((screen.getByTestId("setting-notifications-warAlerts") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("tab", { name: "Privacy" }));
    expect((screen.getByTestId("setting-privacy-shareActivityData") as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole("tab", { name: "Account" }));
    expect(screen.getByTestId("open-account")).toBeTruthy();
  });
});
