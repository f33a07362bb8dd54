import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { computeMaxBuildable as maxBuildable } from "@game/schema/rules";
import { BuildingsPanel } from "./BuildingsPanel";
import { testCountry } from "../../test/render";
import { toCountryState } from "../../api/country";

afterEach(cleanup);

const input = (name: string) => screen.getByLabelText(`${name} to build`) as HTMLInputElement;
const construct = () => screen.getByRole("button", { name: /Construct Buildings|Constructing/ }) as HTMLButtonElement;
const reason = () => screen.queryByTestId("disabled-reason")?.textContent ?? null;
const row = (type: string) => screen.getByTestId(`building-row-${type}`);

describe("BuildingsPanel", () => {
  it("lists the eight building types with their owned counts", () => {
    render(<BuildingsPanel country={testCountry({ farms: 3 })} onConstruct={vi.fn()} />);
    for (const name of ["Enterprise Zones", "Residences", "Industrial Complexes", "Military Bases", "Research Labs", "Farms", "Oil Rigs", "Construction Sites"]) {
      expect(input(name)).toBeTruthy();
    }
    expect(screen.getByTestId("owned-farms").textContent).toBe("3");
  });

  it("is disabled with nothing to build, and says why", () => {
    render(<BuildingsPanel country={testCountry()} onConstruct={vi.fn()} />);
    expect(construct().disabled).toBe(true);
    expect(reason()).toBe("Nothing to build");
  });

  it("allows at most 1 construction site per turn", () => {
    render(<BuildingsPanel country={testCountry()} onConstruct={vi.fn()} />);
    fireEvent.change(input("Construction Sites"), { target: { value: "2" } });
    expect(construct().disabled).toBe(true);
    expect(reason()).toBe("Max 1 Construction Site per turn");
    fireEvent.change(input("Construction Sites"), { target: { value: "1" } });
    expect(construct().disabled).toBe(false);
    expect(reason()).toBeNull();
  });

  it("caps regular buildings at the buildings-per-turn capacity", () => {
    render(<BuildingsPanel country={testCountry()} onConstruct={vi.fn()} />);
    fireEvent.change(input("Farms"), { target: { value: "2" } });
    expect(reason()).toBe("Exceeds regular building capacity");
    // a construction site does not count against the capacity
    fireEvent.change(input("Farms"), { target: { value: "1" } });
    fireEvent.change(input("Construction Sites"), { target: { value: "1" } });
    expect(reason()).toBeNull();
  });

  it("says 'Insufficient resources' and which one when cash, land or turns fall short", () => {
    const { unmount } = render(<BuildingsPanel country={testCountry({ cash: "100" })} onConstruct={vi.fn()} />);
    fireEvent.change(input("Farms"), { target: { value: "1" } });
    expect(reason()).toMatch(/^Insufficient resources: (cash\. Need \$[\d,]+ more\.|free land\. Need [\d,]+ more acres?\.|turns\. Need \d+, have \d+\.)$/);
    unmount();
    render(<BuildingsPanel country={testCountry({ land: "1" })} onConstruct={vi.fn()} />);
    fireEvent.change(input("Farms"), { target: { value: "1" } });
    expect(reason()).toMatch(/^Insufficient resources: (cash\. Need \$[\d,]+ more\.|free land\. Need [\d,]+ more acres?\.|turns\. Need \d+, have \d+\.)$/);
    cleanup();
    render(<BuildingsPanel country={testCountry({ turns: 1 })} onConstruct={vi.fn()} />);
    fireEvent.change(input("Oil Rigs"), { target: { value: "1" } });
    expect(reason()).toMatch(/^Insufficient resources: (cash\. Need \$[\d,]+ more\.|free land\. Need [\d,]+ more acres?\.|turns\. Need \d+, have \d+\.)$/);
  });

  it("never accepts a negative quantity", () => {
    render(<BuildingsPanel country={testCountry()} onConstruct={vi.fn()} />);
    fireEvent.change(input("Farms"), { target: { value: "-1" } });
    expect(construct().disabled).toBe(true);
    expect(reason()).toBe("Quantity cannot be negative");
  });

  it("Max fills the most that fits, and Clear All resets", () => {
    render(<BuildingsPanel country={testCountry({ construction_sites: 8 })} onConstruct={vi.fn()} />);
    // 8 sites: capacity 1 + 2 = 3 regular buildings
    fireEvent.click(row("farms").querySelector("button")!);
    expect(input("Farms").value).toBe("3");
    fireEvent.click(row("residences").querySelector("button")!);
    expect(input("Residences").value).toBe("0");
    fireEvent.click(row("construction_sites").querySelector("button")!);
    expect(input("Construction Sites").value).toBe("1");
    fireEvent.click(screen.getByRole("button", { name: "Clear All" }));
    expect(input("Farms").value).toBe("0");
    expect(input("Construction Sites").value).toBe("0");
  });

  it("maxBuildable respects cash", () => {
    const state = toCountryState(testCountry({ cash: "2500", construction_sites: 40 }));
    // monarchy pays 80%: a farm costs 1,200
    expect(maxBuildable(state, {}, "farms")).toBe(2);
  });

  it("constructs the order, then clears the quantities", async () => {
    const onConstruct = vi.fn().mockResolvedValue(undefined);
    render(<BuildingsPanel country={testCountry()} onConstruct={onConstruct} />);
    fireEvent.change(input("Farms"), { target: { value: "1" } });
    fireEvent.change(input("Construction Sites"), { target: { value: "1" } });
    await act(async () => {
      fireEvent.click(construct());
    });
    expect(onConstruct).toHaveBeenCalledWith({ farms: 1, construction_sites: 1 });
    expect(input("Farms").value).toBe("0");
  });

  it("shows the server's refusal", async () => {
    const onConstruct = vi.fn().mockRejectedValue(new Error("Building construction failed"));
    render(<BuildingsPanel country={testCountry()} onConstruct={onConstruct} />);
    fireEvent.change(input("Farms"), { target: { value: "1" } });
    await act(async () => {
      fireEvent.click(construct());
    });
    expect(screen.getByRole("alert").textContent).toBe("Building construction failed");
    expect(input("Farms").value).toBe("1");
  });
});
