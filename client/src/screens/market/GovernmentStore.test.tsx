import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { StoreItemJson, StoreJson } from "@game/schema/api";
import { STORE_ITEMS, STORE_ITEM_ORDER, computeStorePrices, storeDemandCapacity, storeStockCapacity } from "@game/schema/rules";
import { createQueryClient } from "../../api/queries";
import { toCountryState } from "../../api/country";
import { testCountry } from "../../test/render";
import { GovernmentStore } from "./GovernmentStore";

// Help text from the constants (issue 26): the discount line names the per-level percent, the
// demand's help its bushels per acre.
vi.mock("@game/schema/rules", async (importOriginal) => ({ ...(await importOriginal<typeof import("@game/schema/rules")>()), MILITARY_STORE_PRICE_PCT_PER_LEVEL: 2, STORE_FOOD_DEMAND_PER_ACRE: 7 }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The store as GET /market/store/{id} answers it, for a country with this military tech. */
function storeJson(militaryTech: number, overrides: Partial<Record<string, Partial<StoreItemJson>>> = {}): StoreJson {
  const country = toCountryState(testCountry({ military_tech: militaryTech }));
  return {
    cash: country.cash,
    militaryTechDiscountPct: militaryTech,
    items: STORE_ITEM_ORDER.map((id) => {
      const d = STORE_ITEMS[id];
      const stock = storeStockCapacity(id);
      return {
        id,
        name: d.name,
        description: d.description,
        category: d.category,
        basePrice: d.basePrice,
        price: computeStorePrices(id, country),
        inStock: stock > 0,
        stock,
        fullAt: null,
        demand: storeDemandCapacity(id, country.land),
        demandCapacity: storeDemandCapacity(id, country.land),
        demandFullAt: null,
        maxPurchase: d.maxPurchase,
        techBonus: d.techBonus,
        expressOnly: d.expressOnly,
        owned: id === "troops" ? 100 : id === "food" ? 10_000 : 0,
        ...overrides[id],
      };
    }),
    recentTransactions: [],
    seller: { openListings: 0, feeInputs: { sellerDiscountPurchases: [], tradeAgreement: false } },
  };
}

function renderStore(store: StoreJson, cash = "100000") {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(JSON.stringify({ success: true, data: store }), { status: 200, headers: { "content-type": "application/json" } })),
  );
  const country = toCountryState(testCountry({ cash, military_tech: store.militaryTechDiscountPct }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <GovernmentStore countryId={7} country={country} />
    </QueryClientProvider>,
  );
}

describe("GovernmentStore", () => {
  it("shows the tech discount badge and this country's prices; quick-buy only up to the max purchase", async () => {
    renderStore(storeJson(10));
    expect(await screen.findByText("Military tech discount 10%")).toBeTruthy();
    expect(screen.getByTestId("buy-price-troops").textContent).toBe("$130");
    expect(screen.getByText(/Sell price bonus: \+10% \(2% per military tech level\)/)).toBeTruthy();
    const tanks = screen.getByTestId("store-item-tanks");
    expect(within(tanks).queryByTestId("buy-tanks-1000")).toBeNull();
    expect(within(tanks).getByTestId("buy-tanks-100")).toBeTruthy();
  });

  it("disables a quick-buy the country cannot pay for and says why, once", async () => {
    renderStore(storeJson(0), "20000");
    const tanks = await screen.findByTestId("store-item-tanks");
    expect((within(tanks).getByTestId("buy-tanks-10") as HTMLButtonElement).disabled).toBe(false); // 5,880
    expect((within(tanks).getByTestId("buy-tanks-100") as HTMLButtonElement).disabled).toBe(true); // 58,800
    expect(within(tanks).getAllByText("Insufficient funds for this purchase")).toHaveLength(1);
  });

  it("out of stock: 'Currently Unavailable'; oil adds 'Available on Express servers only'", async () => {
    renderStore(storeJson(0, { jets: { stock: 0, inStock: false } }));
    const jets = await screen.findByTestId("store-item-jets");
    expect(within(jets).getAllByText("Currently Unavailable").length).toBeGreaterThanOrEqual(1);
    expect((within(jets).getByTestId("buy-jets-1") as HTMLButtonElement).disabled).toBe(true);
    screen.getByRole("tab", { name: "Resources" }).click();
    const oil = await screen.findByTestId("store-item-oil");
    expect(within(oil).getByText("Currently Unavailable")).toBeTruthy();
    expect(within(oil).getByText("Available on Express servers only")).toBeTruthy();
  });

  it("each card says how much the store still buys today; quick-sells beyond it are disabled, and say why (issue 27, sixth stop)", async () => {
    renderStore(storeJson(0, { food: { demand: 50, demandCapacity: 1_000 }, troops: { demand: 0 } }));
    const troops = await screen.findByTestId("store-item-troops");
    expect(within(troops).getByTestId("demand-troops").textContent).toBe("0 / 50,000");
    expect(within(troops).getByTestId("demand-help-troops").textContent).toBe("The store buys back up to 50,000 troops a day (what it stocks: 5 max purchases), refilled over 24 hours.");
    const noDemand = "The Government Store buys no more troops today";
    const sellOne = within(troops).getByTestId("sell-troops-1") as HTMLButtonElement;
    expect(sellOne.disabled).toBe(true);
    expect(sellOne.title).toBe(noDemand);
    const note = within(troops).getByText(noDemand);
    expect(note.getAttribute("role")).toBe("note");
    expect(sellOne.getAttribute("aria-describedby")).toBe(note.id);
    screen.getByRole("tab", { name: "Resources" }).click();
    const food = await screen.findByTestId("store-item-food");
    expect(within(food).getByTestId("demand-food").textContent).toBe("50 / 1,000");
    // the help is built from the rule's constant (mocked to 7 here)
    expect(within(food).getByTestId("demand-help-food").textContent).toContain("up to 7 bushels a day per acre of your land, refilled over 24 hours");
    // 1 and 10 are within the 50 it still buys; 100 and a quarter of 10,000 are not
    expect((within(food).getByTestId("sell-food-1") as HTMLButtonElement).disabled).toBe(false);
    expect((within(food).getByTestId("sell-food-10") as HTMLButtonElement).disabled).toBe(false);
    const beyond = within(food).getByTestId("sell-food-100") as HTMLButtonElement;
    expect(beyond.disabled).toBe(true);
    expect(beyond.title).toBe("The Government Store buys only 50 more food today");
    expect((within(food).getByTestId("sell-food-2500") as HTMLButtonElement).disabled).toBe(true);
    expect(within(food).getAllByText("The Government Store buys only 50 more food today")).toHaveLength(1);
  });
});
