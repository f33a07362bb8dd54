/**
 * Alliances in Debian's Chromium against the built server on a real Postgres: two players in
 * two browser contexts (the leader at desktop size, the ally at phone width) found an alliance,
 * invite and accept, coordinate an operation live (the ally sees it planned, the leader sees
 * the ally join, both see it ready, then launched: two real attacks on the target), chat in the alliance room, open diplomacy
 * from the Relations menu, and a kick takes the ally out at once. Screenshots of each screen at
 * desktop and phone width go to .e2e-artifacts/screenshots (not committed).
 *
 * Run: npm run build && npx vitest run --project e2e client/e2e/alliances.e2e.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, openMenu, screenshotter } from "./browser";
import { startServer, type E2EServer, type Player } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(here, "../../.e2e-artifacts/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
/** What "live" means here: a change shows in the other browser within this, without reload (ms). */
const LIVE_MS = 5_000;

let server: E2EServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let leader: Player;
let ally: Player;
let enemy: Player;
let leaderPage: Page;
let allyPage: Page;
const consoleErrors: string[] = [];
const stamp = Date.now().toString(36).slice(-4).toUpperCase();
const allianceName = `Iron Pact ${stamp}`;
const tag = `I${stamp}`.slice(0, 5);

const shot = screenshotter("alliance-");

/** Closes the live notice cards (on a phone they sit over the bottom of the screen). */
async function dismissNotices(p: Page): Promise<void> {
  const close = p.getByRole("button", { name: "Dismiss" });
  while ((await close.count()) > 0) await close.first().click();
}

/** Opens a view through the side menu (through the toggle on a phone). */
async function signedIn(player: Player, viewport: { width: number; height: number }): Promise<Page> {
  await server.api("POST", "/user/tutorial-complete", undefined, player.token);
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await context.addInitScript((token) => localStorage.setItem("access_token", token), player.token);
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && !/WebSocket|Failed to load resource/.test(m.text()) && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  // Confirmations (kick, leave, launch) are accepted.
  page.on("dialog", (d) => void d.accept());
  await page.goto(server.baseUrl);
  await page.getByTestId("status-turns").waitFor({ timeout: 20_000 });
  return page;
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  // New countries are not protected here, so the operation's attacks can land.
  server = await startServer({ NEW_PLAYER_PROTECTION_HOURS: "0" });
  [leader, ally, enemy] = await Promise.all([server.registerPlayer("lead"), server.registerPlayer("ally"), server.registerPlayer("enemy")]);
  browser = await launchChromium();
  leaderPage = await signedIn(leader, DESKTOP);
  allyPage = await signedIn(ally, PHONE);
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

describe("alliances in the browser", () => {
  it("the leader founds an alliance from the no-alliance screen", async () => {
    await openMenu(leaderPage, "Alliances");
    await expect.poll(() => leaderPage.getByTestId("no-alliance").isVisible()).toBe(true);
    await expect.poll(() => leaderPage.getByText("No pending invitations").isVisible()).toBe(true);
    await shot(leaderPage, "01-no-alliance");
    await leaderPage.getByRole("button", { name: "Create Alliance" }).first().click();
    const form = leaderPage.getByTestId("create-alliance");
    // The button says why it is disabled until the form is valid.
    await expect.poll(() => form.getByText("Alliance name must be at least 3 characters").isVisible()).toBe(true);
    await form.getByLabel("Alliance name").fill(allianceName);
    await form.getByLabel("Tag").fill(tag);
    await form.getByLabel("Description").fill("Steel and patience");
    await shot(leaderPage, "02-create");
    await form.getByRole("button", { name: "Create Alliance" }).click();
    const header = leaderPage.getByTestId("alliance-header");
    await expect.poll(() => header.getByText(allianceName).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => header.getByText("1/200 members").isVisible()).toBe(true);
    expect(await header.getByText(`[${tag}]`).isVisible()).toBe(true);
  });

  it("the leader invites the ally, who accepts on a phone; the leader sees the new member live", async () => {
    await leaderPage.getByRole("tab", { name: "Management" }).click();
    await leaderPage.getByRole("tab", { name: "Invitations" }).click();
    await leaderPage.getByLabel("Country name").fill(ally.body.countryName);
    await leaderPage.getByLabel("Message").fill("Join the pact");
    await leaderPage.getByRole("button", { name: "Send Invitation" }).click();
    await expect.poll(() => leaderPage.getByText(`Invitation sent to ${ally.body.countryName}`).isVisible()).toBe(true);

    await openMenu(allyPage, "Alliances");
    const pending = allyPage.getByTestId("pending-invitations");
    await expect.poll(() => pending.getByText(allianceName).isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(allyPage, "03-invitation");
    await pending.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => allyPage.getByTestId("alliance-header").getByText(allianceName).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => leaderPage.getByTestId("alliance-members-count").textContent(), { timeout: LIVE_MS }).toBe("2/200 members");
    await leaderPage.getByRole("tab", { name: "Overview" }).click();
    await expect.poll(() => leaderPage.getByTestId("alliance-members").getByText(ally.body.countryName).isVisible(), { timeout: LIVE_MS }).toBe(true);
    await shot(leaderPage, "04-overview");
    await shot(allyPage, "04-overview");
  });

  it("the two coordinate an operation live: planned, joined, ready, launched", async () => {
    await leaderPage.getByRole("tab", { name: "Warfare" }).click();
    await allyPage.getByRole("tab", { name: "Warfare" }).click();
    await expect.poll(() => allyPage.getByText("No active military operations").isVisible()).toBe(true);
    // A member does not see Plan Operation.
    expect(await allyPage.getByRole("button", { name: "Plan Operation" }).count()).toBe(0);

    await leaderPage.getByRole("button", { name: "Plan Operation" }).click();
    const plan = leaderPage.getByTestId("plan-operation");
    await plan.getByLabel("Operation name").fill("Night Watch");
    await plan.getByLabel("Operation type").selectOption("coordinated_attack");
    await plan.getByLabel("Find target").fill(enemy.body.countryName);
    await expect.poll(async () => (await plan.getByLabel("Target", { exact: true }).locator("option").allTextContents()).some((t) => t.includes(enemy.body.countryName)), { timeout: 10_000 }).toBe(true);
    await plan.getByLabel("Target", { exact: true }).selectOption({ label: enemy.body.countryName });
    await plan.getByLabel("Min participants").fill("2");
    await plan.getByLabel("Max participants").fill("4");
    await plan.getByLabel("Min total force").fill("150");
    await shot(leaderPage, "05-plan");
    await plan.getByRole("button", { name: "Plan Operation" }).click();

    // The ally sees it without reloading, awaiting requirements, and may join.
    const allyOp = allyPage.locator("[data-testid^=operation-]").filter({ hasText: "Night Watch" });
    await expect.poll(() => allyOp.isVisible(), { timeout: LIVE_MS }).toBe(true);
    expect(await allyOp.getByTestId("readiness").textContent()).toBe("Awaiting Requirements");
    await dismissNotices(allyPage);
    await allyOp.getByRole("button", { name: "Join Operation" }).click();
    await allyOp.getByLabel(/^Troops/).fill("60");
    await shot(allyPage, "05-join");
    await allyOp.getByRole("button", { name: "Confirm" }).click();

    // The leader sees the ally confirmed, still short of the force.
    const leaderOp = leaderPage.locator("[data-testid^=operation-]").filter({ hasText: "Night Watch" });
    await expect.poll(() => leaderOp.getByText(/Participants 1\/2-4/).isVisible(), { timeout: LIVE_MS }).toBe(true);
    expect(await leaderOp.getByTestId("readiness").textContent()).toBe("Awaiting Requirements");
    await leaderOp.getByRole("button", { name: "Join Operation" }).click();
    await leaderOp.getByLabel(/^Troops/).fill("100");
    await leaderOp.getByRole("button", { name: "Confirm" }).click();
    for (const op of [leaderOp, allyOp]) await expect.poll(() => op.getByTestId("readiness").textContent(), { timeout: LIVE_MS }).toBe("Ready to Launch");
    await expect.poll(() => allyPage.getByTestId("stat-active-operations").textContent(), { timeout: LIVE_MS }).toBe("1");
    await shot(leaderPage, "06-ready");
    await shot(allyPage, "06-ready");

    await leaderOp.getByRole("button", { name: "Launch" }).click();
    // Launched: it leaves the open operations and shows its outcome in War History for both.
    await expect.poll(() => allyPage.getByText("No active military operations").isVisible(), { timeout: LIVE_MS }).toBe(true);
    await allyPage.getByRole("tab", { name: "War History" }).click();
    const done = allyPage.locator("[data-testid^=operation-]").filter({ hasText: "Night Watch" });
    // Two real attacks on the enemy, one per participant, each with its battle report.
    await expect.poll(() => done.getByText(new RegExp(`^2 of 2 attacks struck ${enemy.body.countryName}`)).isVisible(), { timeout: LIVE_MS }).toBe(true);
    const battles = await server.sql("SELECT attacker_id FROM battles WHERE defender_id = $1 ORDER BY id", [enemy.countryId]);
    expect(battles.map((b) => Number(b.attacker_id)).sort()).toEqual([leader.countryId, ally.countryId].sort());
    await shot(allyPage, "07-history");
    // The alliance earned its bonus points.
    await leaderPage.getByRole("tab", { name: "Bonuses" }).click();
    await expect.poll(() => leaderPage.getByTestId("bonus-points").textContent(), { timeout: LIVE_MS }).toMatch(/^[1-9][\d,]* bonus points$/);
    await expect.poll(() => leaderPage.getByTestId("bonus-military_support").getByText("Insufficient points").isVisible()).toBe(true);
    await shot(leaderPage, "08-bonuses");
  });

  it("alliance chat: the ally's line reaches the leader; a member has no leadership channel", async () => {
    await allyPage.getByRole("tab", { name: "Chat" }).click();
    await leaderPage.getByRole("tab", { name: "Chat" }).click();
    expect(await allyPage.getByRole("tab", { name: /Leadership/ }).count()).toBe(0);
    await expect.poll(() => leaderPage.getByRole("tab", { name: /Leadership/ }).isVisible()).toBe(true);
    const input = allyPage.getByLabel("Message General");
    await input.fill("Scouts are back, all quiet");
    await input.press("Enter");
    await expect.poll(() => leaderPage.getByTestId("alliance-messages").getByText("Scouts are back, all quiet").isVisible(), { timeout: LIVE_MS }).toBe(true);
    await shot(leaderPage, "09-chat");
    await shot(allyPage, "09-chat");
  });

  it("Relations opens Diplomatic Relations; a proposal reaches the partner live", async () => {
    await openMenu(leaderPage, "Relations");
    await expect.poll(() => leaderPage.getByTestId("daily-diplomacy-cost").isVisible()).toBe(true);
    await expect.poll(() => leaderPage.getByText("No active diplomatic relations").isVisible()).toBe(true);
    await leaderPage.getByRole("tab", { name: "Negotiate" }).click();
    const diplomacy = leaderPage.getByTestId("diplomacy");
    await diplomacy.getByLabel("Search country or alliance").fill(ally.body.countryName);
    await diplomacy.getByRole("button", { name: "Search", exact: true }).click();
    await diplomacy.getByRole("button", { name: new RegExp(ally.body.countryName) }).click();
    await leaderPage.getByLabel("Relation").selectOption("defensive");
    await leaderPage.getByRole("button", { name: "Send Proposal" }).click();
    await expect.poll(() => leaderPage.getByText("No pending proposals").isVisible()).toBe(true);
    await shot(leaderPage, "10-diplomacy");

    await openMenu(allyPage, "Relations");
    await allyPage.getByRole("tab", { name: /Proposals/ }).click();
    await expect.poll(() => allyPage.locator("[data-testid^=incoming-]").getByText(leader.body.countryName).isVisible(), { timeout: LIVE_MS }).toBe(true);
    await allyPage.locator("[data-testid^=incoming-]").getByRole("button", { name: "Accept" }).click();
    await allyPage.getByRole("tab", { name: /Active Relations/ }).click();
    const relation = allyPage.locator("[data-testid^=relation-]");
    await expect.poll(() => relation.getByText(/Cancellation locked until/).isVisible(), { timeout: LIVE_MS }).toBe(true);
    await expect.poll(() => allyPage.getByTestId("daily-diplomacy-cost").textContent()).toBe("Daily diplomatic costs: $100");
    await shot(allyPage, "10-diplomacy");
  });

  it("a kicked ally is taken out of the alliance at once", async () => {
    await openMenu(allyPage, "Alliances");
    await expect.poll(() => allyPage.getByTestId("alliance-header").isVisible()).toBe(true);
    await openMenu(leaderPage, "Alliances");
    await leaderPage.getByRole("tab", { name: "Management" }).click();
    await leaderPage.getByTestId(`member-${ally.countryId}`).getByRole("button", { name: "Kick" }).click();
    await expect.poll(() => allyPage.getByTestId("alliance-closed").isVisible(), { timeout: LIVE_MS }).toBe(true);
    await expect.poll(() => allyPage.getByTestId("no-alliance").isVisible()).toBe(true);
    await shot(allyPage, "11-kicked");
    await expect.poll(() => leaderPage.getByTestId("alliance-members-count").textContent(), { timeout: LIVE_MS }).toBe("1/200 members");
    await shot(leaderPage, "11-management");
    expect(consoleErrors).toEqual([]);
  });

  it("alliance rankings list the alliance", async () => {
    await openMenu(leaderPage, "Scores");
    await leaderPage.getByRole("tab", { name: "Alliances" }).click();
    await expect.poll(() => leaderPage.getByTestId("alliance-rankings").getByText(`[${tag}] ${allianceName}`).isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(leaderPage, "12-rankings");
  });
});
