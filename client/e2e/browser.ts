/**
 * What every browser test opens Chromium and the game's menu with: Debian's Chromium
 * (CHROMIUM_PATH, else /usr/bin/chromium) headless with the flags this machine's closed
 * network needs (without --disable-background-networking and its friends Chromium keeps
 * trying to reach Google's hosts), and the shell's menu opened the way a player does on a
 * desktop or a phone.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] as const;

/** A headless Chromium for one test file. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

/** Opens a main-menu entry: through the menu button on a phone, directly on a desktop. */
export async function openMenu(p: Page, label: string): Promise<void> {
  const toggle = p.getByRole("button", { name: "Open menu" });
  if (await toggle.isVisible()) await toggle.click();
  await p.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: label, exact: true }).click();
}

/** Where the browser tests leave their screenshots (not committed). */
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../.e2e-artifacts/screenshots");

/**
 * A test file's screenshot function: `<prefix><name>-<desktop|phone>.png` (phone at 400 px wide
 * or less), full page, once the menu drawer and button transitions have settled.
 */
export function screenshotter(prefix: string): (p: Page, name: string) => Promise<void> {
  return async (p, name) => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const size = p.viewportSize();
    const suffix = size && size.width <= 400 ? "phone" : "desktop";
    await p.waitForTimeout(300);
    await p.screenshot({ path: path.join(SCREENSHOT_DIR, `${prefix}${name}-${suffix}.png`), fullPage: true });
  };
}
