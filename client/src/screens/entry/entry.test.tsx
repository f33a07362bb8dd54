import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { EntryScreen } from "./EntryScreen";
import { renderWithProviders } from "../../test/render";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});
beforeEach(() => localStorage.clear());

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const errorsShown = () => Array.from(document.querySelectorAll(".field-error")).map((e) => e.textContent);

describe("Entry screen", () => {
  it("starts on Login with the spec's header and toggles to Register (its own chunk, loaded then)", async () => {
    renderWithProviders(<EntryScreen />);
    expect(screen.getByText("Correct Login to Your Empire")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Register" }));
    expect(screen.getByText("Create New Empire")).toBeTruthy();
    expect(await screen.findByText("Create Your Account")).toBeTruthy();
    expect(screen.getByText("Step 1 of 3")).toBeTruthy();
  });
});

describe("Login form", () => {
  it("validates on submit, then again on change (the validator loads on first use)", async () => {
    renderWithProviders(<EntryScreen />);
    type("Email", "nope");
    expect(errorsShown()).toEqual([]); // not before the first submit
    fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(errorsShown()).toEqual(["Invalid email address", "Password must be at least 6 characters"]));
    type("Email", "general@example.com");
    await waitFor(() => expect(errorsShown()).toEqual(["Password must be at least 6 characters"]));
    type("Password", "secret1");
    await waitFor(() => expect(errorsShown()).toEqual([]));
  });

  it("shows and hides the password", () => {
    renderWithProviders(<EntryScreen />);
    expect(field("Password").type).toBe("password");
    fireEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(field("Password").type).toBe("text");
    fireEvent.click(screen.getByRole("button", { name: "Hide password" }));
    expect(field("Password").type).toBe("password");
  });

  it("reads 'Signing In...' while busy and shows the server's error above the form", async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderWithProviders(<EntryScreen />);
    type("Email", "general@example.com");
    type("Password", "secret123");
    fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByRole("button", { name: "Signing In..." })).toBeTruthy();
    await act(async () => {
      answer(new Response(JSON.stringify({ success: false, error: "Invalid email or password" }), { status: 401 }));
    });
    expect(screen.getByTestId("form-error").textContent).toBe("Invalid email or password");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeTruthy();
  });

  it("falls back to 'Login failed' when the server gives no message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("oops", { status: 500 })),
    );
    renderWithProviders(<EntryScreen />);
    type("Email", "general@example.com");
    type("Password", "secret123");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    });
    expect((await screen.findByTestId("form-error")).textContent).toBe("Login failed");
  });

  it("keeps the debug log folded away under a failed sign-in (issue 30 #10: request paths and timings shown to players)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("oops", { status: 500 })),
    );
    renderWithProviders(<EntryScreen />);
    type("Email", "general@example.com");
    type("Password", "secret123");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
    });
    const folded = screen.getByTestId("login-debug") as HTMLDetailsElement;
    expect(folded.tagName).toBe("DETAILS");
    expect(folded.open).toBe(false);
    expect(folded.querySelector("summary")!.textContent).toBe("Technical details for support");
    expect(screen.queryByRole("heading", { name: "Debug log" })).toBeNull();
  });
});

describe("Registration", () => {
  const toRegister = async () => {
    renderWithProviders(<EntryScreen />);
    fireEvent.click(screen.getByRole("button", { name: "Register" }));
    await screen.findByText("Create Your Account");
  };
  const fillAccount = (overrides: Partial<Record<string, string>> = {}) => {
    const v = { Email: "new@example.com", Username: "commander", Password: "secret123", "Confirm Password": "secret123", ...overrides };
    for (const [label, value] of Object.entries(v)) type(label, value!);
  };

  it("step 1 shows every validation message", async () => {
    await toRegister();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    expect(errorsShown()).toEqual(["Invalid email address", "Username must be at least 3 characters", "Password must be at least 6 characters"]);
    fillAccount({ Username: "x".repeat(21), "Confirm Password": "different" });
    expect(errorsShown()).toEqual(["Username must be less than 20 characters", "Passwords don't match"]);
    // the mismatch is shown on the confirm field
    expect(field("Confirm Password").getAttribute("aria-invalid")).toBe("true");
  });

  it("continues to step 2, and 'Back to Account Info' returns with the values kept", async () => {
    await toRegister();
    fillAccount();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    expect(screen.getByText("Create Your Empire")).toBeTruthy();
    expect(screen.getByText("Government: Monarchy")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Back to Account Info" }));
    expect(field("Username").value).toBe("commander");
  });

  it("step 2: 'Create Empire: {name}' is disabled under 3 characters and says why", async () => {
    await toRegister();
    fillAccount();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    type("Country Name", " ab ");
    const button = screen.getByRole("button", { name: "Create Empire: ab" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByTestId("disabled-reason").textContent).toBe("Country name must be at least 3 characters long");
    type("Country Name", "Avalon");
    expect((screen.getByRole("button", { name: "Create Empire: Avalon" }) as HTMLButtonElement).disabled).toBe(false);
    expect(field("Country Name").maxLength).toBe(50);
    expect(screen.getByTestId("starting-networth").textContent).toMatch(/^\d[\d,]*$/);
  });

  it("sends the spec's payload and shows 'Registration failed' when the server gives no message", async () => {
    const fetchMock = vi.fn(async () => new Response("", { status: 500 }));
    vi.stubGlobal("fetch", fetchMock);
    await toRegister();
    fillAccount();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    type("Country Name", "Avalon");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Create Empire: Avalon" }));
    });
    expect(screen.getByTestId("form-error").textContent).toBe("Registration failed");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/auth/register");
    expect(JSON.parse(init.body as string)).toEqual({
      email: "new@example.com",
      username: "commander",
      password: "secret123",
      countryName: "Avalon",
      governmentType: "monarchy",
      startingResources: { cash: 100000, food: 10000, oil: 100, land: 100, population: 1000, troops: 100, jets: 0, turrets: 100, tanks: 10, spies: 0, turns: 100 },
    });
    expect(init.credentials).toBe("include");
  });

  it("a taken email returns to step 1 with the message next to the email field; a taken country name stays on step 2 beside its field", async () => {
    let answer = { status: 409, body: { success: false, error: "Email already registered", code: "auth/email_taken" } };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify(answer.body), { status: answer.status })),
    );
    await toRegister();
    fillAccount();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    type("Country Name", "Avalon");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Create Empire: Avalon" }));
    });
    expect(screen.queryByText("Create Your Empire")).toBeNull();
    expect(errorsShown()).toEqual(["Email already registered"]);
    expect(document.activeElement?.id).toBe("reg-email");
    type("Email", "other@example.com");
    expect(errorsShown()).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Continue to Empire Creation" }));
    answer = { status: 409, body: { success: false, error: "Country name already taken", code: "country/name_taken" } };
    type("Country Name", "Avalon");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Create Empire: Avalon" }));
    });
    expect(screen.getByTestId("country-name-taken").textContent).toBe("Country name already taken");
    expect(screen.queryByTestId("form-error")).toBeNull();
  });
});
