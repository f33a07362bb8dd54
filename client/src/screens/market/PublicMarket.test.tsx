import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { StoreJson } from "@game/schema/api";
import { MAX_OPEN_LISTINGS, computeMarketFeeModifiers, computeTradeAmounts } from "@game/schema/rules";
import { createQueryClient } from "../../api/queries";
import { toCountryState } from "../../api/country";
import { testCountry } from "../../test/render";
import { PublicMarket } from "./PublicMarket";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HOUR_MS = 3_600_000;

/** GET /market/store/{id}'s answer with this seller half; the store's goods do not matter here. */
function store(seller: StoreJson["seller"]): StoreJson {
  return { cash: 100_000, militaryTechDiscountPct: 0, items: [], recentTransactions: [], seller };
}

/** Renders the public market's Sell tab with the server answering `storeAnswer` for the store and no listings. */
async function renderSellTab(storeAnswer: StoreJson) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const body = String(url).includes("/market/store/") ? { success: true, data: storeAnswer } : { success: true, data: [] };
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PublicMarket countryId={7} country={toCountryState(testCountry({ troops: "1000" }))} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("tab", { name: "Sell" }));
  fireEvent.change(screen.getByLabelText("Quantity"), { target: { value: "100" } });
  fireEvent.change(screen.getByLabelText("Price per unit ($)"), { target: { value: "360" } });
}

/**
 * Issue 26, "Rules in one place": the sell preview runs the server's rules on the server's
 * inputs. Before, it passed `openListings: 0` and no fee modifiers, so an alliance seller saw
 * the full 5% fee and a seller at the listing limit saw an enabled button.
 */
describe("the public market's sell preview", () => {
  it("charges an alliance seller the fee the trade will charge (Market Discount level 2: 4%)", async () => {
    const feeInputs = { sellerDiscountPurchases: [{ bonusId: "market_discount", level: 2, purchasedAt: Date.now() - HOUR_MS, expiresAt: null }], tradeAgreement: false };
    await renderSellTab(store({ openListings: 3, feeInputs }));
    const expected = computeTradeAmounts(100, 360, computeMarketFeeModifiers(feeInputs, Date.now()));
    expect(expected.fee).toBe(1440); // 4% of $36,000, where the bare 5% is $1,800
    expect(await screen.findByText("Market fee (4%, paid on sale)")).toBeTruthy();
    expect(screen.getByTestId("sell-fee").textContent).toBe("$1,440");
    expect(screen.getByTestId("sell-hint").textContent).toContain("(you have 3)");
  });

  it("refuses a listing beyond the open-listing limit, as the server does", async () => {
    await renderSellTab(store({ openListings: MAX_OPEN_LISTINGS, feeInputs: { sellerDiscountPurchases: [], tradeAgreement: false } }));
    expect((await screen.findByTestId("disabled-reason")).textContent).toBe(`You can have at most ${MAX_OPEN_LISTINGS} open listings`);
    expect(screen.getByText("Market fee (5%, paid on sale)")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Create Listing" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
