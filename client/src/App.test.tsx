import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { App } from "./App";
import { renderWithProviders } from "./test/render";
import { TOKEN_KEY } from "./api/http";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("start-up gating", () => {
  it("without a token shows the entry screen", () => {
    renderWithProviders(<App />);
    expect(screen.getByText("Correct Login to Your Empire")).toBeTruthy();
  });

  it("loading screen: elapsed seconds, status line, debug log; slow-load options after 15 s", async () => {
    vi.useFakeTimers();
    localStorage.setItem(TOKEN_KEY, "t");
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise(() => undefined)),
    );
    renderWithProviders(<App />);
    expect(screen.getByTestId("loading-screen")).toBeTruthy();
    expect(screen.getByTestId("status-line").textContent).toMatch(/session/i);
    // the request goes out once the catalogue (loaded with the first account call) is in
    await act(async () => void (await vi.dynamicImportSettled()));
    expect(screen.getByTestId("debug-log").textContent).toContain("GET /api/user/me");
    expect(screen.queryByText("Loading is taking longer than expected")).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry Authentication" })).toBeNull();
    await act(async () => void (await vi.advanceTimersByTimeAsync(15_000)));
    expect(screen.getByText("Loading is taking longer than expected")).toBeTruthy();
    expect(screen.getByText(/15s/)).toBeTruthy();
    for (const name of ["Retry Authentication", "Skip to Login", "Debug Info", "Reload Page"]) expect(screen.getByRole("button", { name })).toBeTruthy();
    expect(screen.getByText(/clearing your browser cache/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Skip to Login" }));
    expect(screen.getByText("Correct Login to Your Empire")).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("a server failure shows the Authentication Error screen with its message", async () => {
    localStorage.setItem(TOKEN_KEY, "t");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("", { status: 500 })),
    );
    renderWithProviders(<App />);
    expect(await screen.findByText("Authentication Error")).toBeTruthy();
    expect(screen.getByText("Failed to get user data")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry Authentication" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Reload Page" })).toBeTruthy();
  });

  it("a 401 clears the token and shows login", async () => {
    localStorage.setItem(TOKEN_KEY, "stale");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: false, error: "Token expired" }, 401)),
    );
    renderWithProviders(<App />);
    expect(await screen.findByText("Correct Login to Your Empire")).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("an account without a country waits on the Empire Creation screen", async () => {
    localStorage.setItem(TOKEN_KEY, "t");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: true, user: { id: 1, username: "u", email: "u@example.com", hasCountry: false, country: null } })),
    );
    renderWithProviders(<App />);
    expect(await screen.findByText("Empire Creation")).toBeTruthy();
    expect(screen.getByText("Your empire is being created. This may take a few moments...")).toBeTruthy();
  });
});
