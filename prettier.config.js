// @ts-check
/**
 * The formatter (`npm run format`, `npm run format:check`). Set to the style the code was
 * written in, so adopting it changes as little as possible: double quotes, semicolons,
 * trailing commas and two-space indents are prettier's defaults already; the lines are long.
 * Measured over the tree's 514 code files: 140 columns would rewrite 15,900 lines, 180 would
 * rewrite 6,400, 200 5,000, 240 4,550 (the least; 220 and 260 rewrite more).
 *
 * @type {import("prettier").Config}
 */
export default {
  printWidth: 240,
  // Template literal contents are never formatted: they hold SQL, and the migrations'
  // checksums (server/src/db/migrate.ts) are of that text.
  embeddedLanguageFormatting: "off",
};
