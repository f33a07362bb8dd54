/**
 * The market in Debian's Chromium against the built server on a real Postgres, two players in
 * two browser contexts: the seller lists troops, the buyer (Market open) sees the listing
 * appear without a reload and buys it, the seller sees it go; both histories show the trade;
 * the analytics chart has it. Then the store, a standing order, and every sub-tab at phone
 * width (360 px). Screenshots go to .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/market.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 360, height: 740 };

let server: E2EServer;
let browser: Browser;
let seller: Player;
let buyer: Player;
let sellerContext: BrowserContext;
let buyerContext: BrowserContext;
let sellerPage: Page;
let buyerPage: Page;
const consoleErrors: string[] = [];

const shot = screenshotter("market-");

/** A page of `player`, signed in (token in local storage), on the Market. */
async function openMarket(context: BrowserContext, player: Player): Promise<Page> {
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.baseUrl}/#/market`);
  await page.getByTestId("public-market").waitFor({ timeout: 20_000 });
  // Live: the world room is connected (the status dot), so the market is being watched.
  await page.locator(".statusbar .conn.connected").waitFor({ state: "attached", timeout: 15_000 });
  return page;
}

async function subTab(p: Page, name: string): Promise<void> {
  await p.getByRole("tablist", { name: "Market", exact: true }).getByRole("tab", { name }).click();
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  seller = await server.registerPlayer("sell");
  buyer = await server.registerPlayer("buy");
  for (const p of [seller, buyer]) await server.api("POST", "/user/tutorial-complete", undefined, p.token);
  browser = await launchChromium();
  sellerContext = await browser.newContext({ viewport: DESKTOP });
  buyerContext = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  sellerPage = await openMarket(sellerContext, seller);
  buyerPage = await openMarket(buyerContext, buyer);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("market in the browser", () => {
  it("the seller lists; the buyer sees it appear live and buys it; the seller sees it go", async () => {
    await expect.poll(() => buyerPage.getByTestId("no-listings").textContent(), { timeout: 15_000 }).toBe("No troops listings available");
    await shot(buyerPage, "01-public-empty");

    await sellerPage.getByRole("tab", { name: "Sell" }).click();
    const create = sellerPage.getByRole("button", { name: "Create Listing" });
    expect(await sellerPage.getByTestId("disabled-reason").textContent()).toBe("Enter a quantity and a price");
    await sellerPage.getByLabel("Quantity", { exact: true }).fill("40");
    await sellerPage.getByLabel("Price per unit ($)").fill("400");
    await expect.poll(() => sellerPage.getByTestId("disabled-reason").textContent()).toBe("Price for Troops must be between $29 and $360");
    await sellerPage.getByLabel("Price per unit ($)").fill("150");
    await expect.poll(() => sellerPage.getByTestId("disabled-reason").count()).toBe(0);
    await shot(sellerPage, "02-sell-form");
    await create.click();
    await expect.poll(() => sellerPage.getByTestId("market-message").textContent(), { timeout: 15_000 }).toContain("Listed 40 troops at $150");

    // The buyer's page was never reloaded: the listing arrives through the world room.
    const row = buyerPage.getByTestId("listings").locator("tbody tr").filter({ hasText: seller.body.countryName });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain("$6,000");
    await shot(buyerPage, "03-listing-live");
    // The seller's own Buy tab marks it and offers no Buy.
    await sellerPage.getByRole("tab", { name: "Buy" }).click();
    const ownRow = sellerPage.getByTestId("listings").locator("tbody tr").first();
    await expect.poll(() => ownRow.textContent()).toContain("Your Listing");
    expect(await ownRow.getByRole("button", { name: "Buy" }).count()).toBe(0);

    // "Confirm actions" is on by default: the purchase asks first
    const asked = new Promise<string>((resolve) => buyerPage.once("dialog", (d) => void d.accept().then(() => resolve(d.message()))));
    await row.getByRole("button", { name: "Buy" }).click();
    expect(await asked).toBe("Buy 40 troops for $6,000?");
    await expect.poll(() => buyerPage.getByTestId("market-message").textContent(), { timeout: 15_000 }).toBe("Bought 40 troops for $6,000.");
    await expect.poll(() => buyerPage.getByTestId("no-listings").isVisible()).toBe(true);
    await expect.poll(() => buyerPage.getByTestId("status-money").textContent()).toBe("$94,000");
    // The seller's page: the listing goes, the money (minus the 5% fee) arrives, a notice says so.
    await expect.poll(() => sellerPage.getByTestId("no-listings").isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => sellerPage.getByTestId("status-money").textContent(), { timeout: 15_000 }).toBe("$105,700");
    await expect.poll(() => sellerPage.getByTestId("notice-market_sale").isVisible(), { timeout: 15_000 }).toBe(true);
    await shot(sellerPage, "04-sold-notice");
  });

  it("both histories show the trade; the CSV export downloads it", async () => {
    await subTab(sellerPage, "Transaction History");
    const sellerRows = sellerPage.getByTestId("history-rows").locator("tbody tr");
    await expect.poll(() => sellerRows.count(), { timeout: 15_000 }).toBe(1);
    const sellerRow = await sellerRows.first().textContent();
    expect(sellerRow).toContain("Sell");
    expect(sellerRow).toContain("$300"); // the fee
    expect(sellerRow).toContain("$5,700");
    expect(sellerRow).toContain(buyer.body.countryName);
    await expect.poll(() => sellerPage.getByTestId("history-chart").getAttribute("data-points")).toBe("1");
    await shot(sellerPage, "05-history-seller");

    await subTab(buyerPage, "Transaction History");
    const buyerRows = buyerPage.getByTestId("history-rows").locator("tbody tr");
    await expect.poll(() => buyerRows.count(), { timeout: 15_000 }).toBe(1);
    expect(await buyerRows.first().textContent()).toContain(seller.body.countryName);
    expect(await buyerRows.first().textContent()).toContain("Buy");
    const download = buyerPage.waitForEvent("download");
    await buyerPage.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("market-transactions-7d.csv");
    const csv = fs
      .readFileSync((await file.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(csv[0]).toBe("Date,Type,Item,Quantity,Price,Total,Fees,Net,Market,Counterparty");
    expect(csv[1]).toMatch(new RegExp(`,Buy,Troops,40,150,6000,0,6000,Public Market,${seller.body.countryName}$`));
    await buyerPage.getByLabel("Type").selectOption("sell");
    await expect.poll(() => buyerPage.getByText("No transactions found for the selected filters").isVisible()).toBe(true);
    await shot(buyerPage, "06-history-buyer-empty-filter");
  });

  it("the analytics chart has the trade", async () => {
    await subTab(buyerPage, "Market Analytics");
    expect(await buyerPage.getByTestId("market-status").textContent()).toBe("Market Status: ACTIVE");
    await expect.poll(() => buyerPage.getByTestId("analytics-current").textContent(), { timeout: 15_000 }).toBe("$150");
    expect(await buyerPage.getByTestId("analytics-volume").textContent()).toBe("40");
    const chart = buyerPage.getByTestId("price-chart");
    await expect.poll(() => chart.getAttribute("data-points")).toBe("1");
    // The price line is drawn by the chart library: one dot for the hour that traded.
    await expect.poll(() => chart.locator(".recharts-line-dots circle").count()).toBe(1);
    await shot(buyerPage, "07-analytics");
    await buyerPage.getByRole("tab", { name: "Trends & Predictions" }).click();
    await expect.poll(() => buyerPage.getByTestId("trend").isVisible()).toBe(true);
    await buyerPage.getByRole("tab", { name: "Item Comparison" }).click();
    await expect.poll(() => buyerPage.getByTestId("comparison-chart").locator(".recharts-bar-rectangle").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await shot(buyerPage, "08-comparison");
  });

  it("the government store sells at the country's price and says why a button is disabled", async () => {
    await subTab(buyerPage, "Government Store");
    const tanks = buyerPage.getByTestId("store-item-tanks");
    await expect.poll(() => tanks.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await buyerPage.getByTestId("buy-price-tanks").textContent()).toBe("$588");
    expect(await tanks.getByTestId("buy-tanks-1000").count()).toBe(0); // max purchase 300
    buyerPage.once("dialog", (d) => void d.accept());
    await tanks.getByTestId("buy-tanks-10").click();
    await expect.poll(() => buyerPage.getByTestId("market-message").textContent(), { timeout: 15_000 }).toBe("Bought 10 tanks for $5,880.");
    await expect.poll(() => buyerPage.getByTestId("status-money").textContent()).toBe("$88,120");
    await shot(buyerPage, "09-store");
    await buyerPage.getByRole("tab", { name: "Resources" }).click();
    // 1,000 food at $360 is more than the treasury: that button is disabled, and says why.
    const food = buyerPage.getByTestId("store-item-food");
    expect(await food.getByTestId("buy-food-1000").isDisabled()).toBe(true);
    expect(await food.getByTestId("buy-food-100").isDisabled()).toBe(false);
    expect(await food.getByText("Insufficient funds for this purchase").isVisible()).toBe(true);
    await shot(buyerPage, "09b-store-resources");
    const oil = buyerPage.getByTestId("store-item-oil");
    expect(await oil.getByText("Currently Unavailable").isVisible()).toBe(true);
    expect(await oil.getByText("Available on Express servers only").isVisible()).toBe(true);
  });

  it("a standing order shows its countdown and can be cancelled, its budget returned", async () => {
    await subTab(buyerPage, "Standing Orders");
    await buyerPage.getByLabel("Quantity", { exact: true }).fill("100");
    await buyerPage.getByLabel("Max price ($)").fill("120");
    await expect.poll(() => buyerPage.getByTestId("order-budget").textContent()).toBe("$12,000");
    await buyerPage.getByRole("button", { name: "Create Standing Order" }).click();
    await expect.poll(() => buyerPage.getByTestId("market-message").textContent(), { timeout: 15_000 }).toContain("Standing order placed");
    expect(await buyerPage.getByLabel("Quantity", { exact: true }).inputValue()).toBe("");
    await expect.poll(() => buyerPage.getByTestId("status-money").textContent()).toBe("$76,120");
    const card = buyerPage
      .locator("[data-testid^=order-]")
      .filter({ has: buyerPage.getByTestId("order-status") })
      .first();
    await expect.poll(() => card.getByTestId("order-countdown").textContent()).toMatch(/^Active in: (2h 0m|1h 59m)$/);
    expect(await card.getByRole("button", { name: "Activate" }).isDisabled()).toBe(true);
    expect(await buyerPage.getByRole("tab", { name: "Pending (1)" }).isVisible()).toBe(true);
    await shot(buyerPage, "10-standing-order");
    await card.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => card.getByTestId("order-status").textContent(), { timeout: 15_000 }).toBe("cancelled");
    await expect.poll(() => buyerPage.getByTestId("status-money").textContent()).toBe("$88,120");
  });

  it("works at phone width: every sub-tab fits 360 px", async () => {
    const phone = await browser.newContext({ viewport: PHONE });
    try {
      const page = await openMarket(phone, seller);
      for (const [tab, name] of [
        ["Public Market", "11-public"],
        ["Government Store", "12-store"],
        ["Standing Orders", "13-orders"],
        ["Transaction History", "14-history"],
        ["Market Analytics", "15-analytics"],
      ] as const) {
        await subTab(page, tab);
        await page.waitForTimeout(500);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${tab} overflows the phone's width`).toBeLessThanOrEqual(0);
        await shot(page, name);
      }
    } finally {
      await phone.close();
    }
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
