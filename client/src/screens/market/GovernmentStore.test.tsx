import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { StoreItemJson, StoreJson } from "@game/schema/api";
import { STORE_ITEMS, STORE_ITEM_ORDER, computeStorePrices, storeStockCapacity } from "@game/schema/rules";
import { createQueryClient } from "../../api/queries";
import { toCountryState } from "../../api/country";
import { testCountry } from "../../test/render";
import { GovernmentStore } from "./GovernmentStore";

// Help text from the constants (issue 26): the discount line names the per-level percent.
vi.mock("@game/schema/rules", async (importOriginal) => ({ ...(await importOriginal<typeof import("@game/schema/rules")>()), MILITARY_STORE_PRICE_PCT_PER_LEVEL: 2 }));

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
        maxPurchase: d.maxPurchase,
        techBonus: d.techBonus,
        expressOnly: d.expressOnly,
        owned: id === "troops" ? 100 : 0,
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
});
