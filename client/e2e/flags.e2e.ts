/**
 * Alliance flags render everywhere (issue 30, defect #24): the stored flag symbols are emoji and
 * dingbats, which Debian's Chromium (no emoji font installed) drew as empty boxes. The alliance
 * screens ship their own fonts (client/src/screens/alliances/flags.css): every symbol of the
 * picker and of the alliance list must draw a glyph, not the missing-glyph box.
 *
 * How a box is told from a glyph: each symbol is drawn on a canvas in the element's own font
 * stack (its computed font-family, the web fonts loaded first) and compared with an unassigned
 * code point drawn the same way, which every font draws as its missing-glyph box.
 *
 * Screenshots (1366 and 390 px) go to E2E_SCREENSHOTS when it is set.
 * Run: npm run build && npx vitest run --project e2e client/e2e/flags.e2e.ts
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ALLIANCE_FLAG_SYMBOLS } from "@game/schema/rules";
import { launchChromium } from "./browser";
import { startServer, type E2EServer } from "./harness";

const SHOTS = process.env.E2E_SCREENSHOTS;
/** Symbols that no font on Debian's default install draws (emoji only): the list shows these. */
const EMOJI_FLAGS = ["🦅", "🐺", "🔥", "🛡"] as const;

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** For each element: its text, and whether it draws as the missing-glyph box (or nothing). */
async function boxes(page: Page, selector: string): Promise<{ text: string; box: boolean }[]> {
  return page.locator(selector).evaluateAll(async (elements) => {
    const canvas = document.createElement("canvas");
    canvas.width = 72;
    canvas.height = 72;
    const g = canvas.getContext("2d", { willReadFrequently: true })!;
    const draw = (text: string, family: string) => {
      g.clearRect(0, 0, 72, 72);
      g.font = `48px ${family}`;
      g.textBaseline = "top";
      g.fillStyle = "#000";
      g.fillText(text, 8, 8);
      return Array.from(g.getImageData(0, 0, 72, 72).data);
    };
    const out: { text: string; box: boolean }[] = [];
    for (const el of elements) {
      const text = (el.textContent ?? "").trim();
      const family = getComputedStyle(el).fontFamily;
      await document.fonts.load(`48px ${family}`, text);
      const glyph = draw(text, family);
      const missing = draw("\u0378", family); // unassigned: the missing-glyph box
      const blank = glyph.every((v) => v === 0);
      out.push({ text, box: blank || glyph.every((v, i) => v === missing[i]) });
    }
    return out;
  });
}

let viewerToken = "";

describe("alliance flags", () => {
  beforeAll(async () => {
    // four alliances whose flags carry the emoji symbols
    for (const symbol of EMOJI_FLAGS) {
      const founder = await server.registerPlayer("flag");
      const tag = `F${EMOJI_FLAGS.indexOf(symbol)}${Math.random().toString(36).slice(2, 4).toUpperCase()}`;
      const res = await server.api("POST", "/alliance/create", { name: `Flag ${tag}`, tag, description: "", flag: { backgroundColor: "#1e3a8a", symbol, symbolColor: "#facc15" } }, founder.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const viewer = await server.registerPlayer("flagv");
    await server.api("POST", "/user/tutorial-complete", undefined, viewer.token);
    viewerToken = viewer.token;
  });

  it.each([1366, 390])("every flag symbol draws a glyph in Chromium without an emoji font, in the list and in the picker (%i px)", async (width) => {
    {
      const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
      await context.addInitScript((token) => localStorage.setItem("access_token", token), viewerToken);
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/#/alliances`);
      await page.locator("[data-testid^=alliance-row-]").first().waitFor({ timeout: 30_000 });
      const listed = await boxes(page, "[data-testid^=alliance-row-] .alliance-flag");
      expect(listed.map((f) => f.text).sort()).toEqual([...EMOJI_FLAGS].sort());
      expect(listed.filter((f) => f.box)).toEqual([]);

      await page.getByRole("button", { name: "Create Alliance" }).first().click();
      const picker = await boxes(page, ".symbol-picker [role=radio]");
      expect(picker.map((f) => f.text)).toEqual([...ALLIANCE_FLAG_SYMBOLS]);
      expect(picker.filter((f) => f.box)).toEqual([]);
      if (SHOTS) {
        await page.getByTestId("create-alliance").scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `flags-${width}.png`), fullPage: true });
      }
      await context.close();
    }
  });
});
