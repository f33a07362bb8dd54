/**
 * What free text players type may contain, and when two names are "the same name". Pure, so
 * the request validators (schema/src/api/text.ts), the server's uniqueness keys and the
 * client's forms all agree.
 *
 * Three kinds of character are refused:
 * - control characters (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) in every text
 *   field: Postgres refuses U+0000 outright, the rest corrupt logs and layouts. The one
 *   exception is the line feed in free text (a chat message may have several lines);
 * - text-direction overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069) in every
 *   text field: they reorder what others see ("Trojan Source");
 * - in names only, every other invisible character: the format characters (category Cf:
 *   zero-width space and joiners, marks, soft hyphen, word joiner, BOM, ...) and the blank
 *   fillers that render as nothing (Hangul fillers, braille blank). Chat keeps the zero-width
 *   joiner (emoji sequences) and the direction marks (Arabic and Hebrew punctuation).
 */

/** Control characters: C0, DEL and C1 (category Cc). */
const CONTROL = /\p{Cc}/u;
/** Control characters but the line feed (free text may have several lines). */
const CONTROL_BUT_LINE_FEED = /(?!\n)\p{Cc}/u;
/** Bidi embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069). */
const DIRECTION_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/u;
/** Format characters (Cf) and characters that render blank, refused in names. */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** Why a text was refused: a code for programs, the field for the message. */
export type TextProblem = "control" | "direction" | "invisible";

/** The first problem of a free text field (chat messages, descriptions; line feeds allowed), or null. */
export function checkPlainText(text: string): TextProblem | null {
  if (CONTROL_BUT_LINE_FEED.test(text)) return "control";
  if (DIRECTION_OVERRIDE.test(text)) return "direction";
  return null;
}

/** The first problem of a single-line field: a name, an email, a password (no line feed either), or null. */
export function checkLineText(text: string): TextProblem | null {
  if (CONTROL.test(text)) return "control";
  if (DIRECTION_OVERRIDE.test(text)) return "direction";
  return null;
}

/** The first problem of a name (usernames, country names, later alliance names), or null. */
export function checkNameText(text: string): TextProblem | null {
  return checkLineText(text) ?? (INVISIBLE.test(text) ? "invisible" : null);
}

/** The message for a refused text field, e.g. "Country name must not contain control characters". */
export function textProblemMessage(field: string, problem: TextProblem): string {
  switch (problem) {
    case "control":
      return `${field} must not contain control characters`;
    case "direction":
      return `${field} must not contain text-direction characters`;
    case "invisible":
      return `${field} must not contain invisible characters`;
  }
}

/**
 * How a name is stored: NFKC (full-width, ligatures, superscripts and compatibility spaces
 * become their plain forms, so "Ｌａｎｄ" is stored as "Land") and trimmed.
 */
export function normalizeName(name: string): string {
  return name.normalize("NFKC").trim();
}

/**
 * Letters from other scripts (and Latin letters with strokes) that look like a Latin letter,
 * case-sensitive as in Unicode TS #39's confusables: an upper-case Cyrillic "Н" looks like
 * "H" while the lower-case "н" does not look like "h". A curated subset of the lookalikes of
 * Latin letters and digits; NFKC already folds full-width, mathematical and other
 * compatibility forms before this table applies.
 */
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic capitals
  А: "A",
  В: "B",
  Е: "E",
  З: "3",
  І: "I",
  Ј: "J",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Ѕ: "S",
  Т: "T",
  У: "Y",
  Х: "X",
  Ү: "Y",
  Ӏ: "l",
  Ԁ: "D",
  Ԛ: "Q",
  Ԝ: "W",
  // Cyrillic small letters
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ј: "j",
  һ: "h",
  ӏ: "l",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ь: "b",
  ү: "y",
  п: "n",
  г: "r",
  // Greek capitals
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  // Greek small letters
  α: "a",
  γ: "y",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  υ: "u",
  χ: "x",
  ω: "w",
  // Armenian
  օ: "o",
  ս: "u",
  հ: "h",
  ո: "n",
  ց: "g",
  զ: "q",
  // Latin letters with strokes or without dots (no canonical decomposition to strip)
  ı: "i",
  ȷ: "j",
  ɑ: "a",
  ɡ: "g",
  ɩ: "i",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ħ: "h",
  Ħ: "H",
  ø: "o",
  Ø: "O",
  ß: "ss",
  ẞ: "SS",
  // symbols used as letters
  "|": "l",
  ǀ: "l",
  $: "s",
};

/** After lower-casing: characters and pairs that read alike in common sans-serif fonts. */
const SAME_SHAPE: ReadonlyArray<readonly [RegExp, string]> = [
  [/[i1]/g, "l"],
  [/0/g, "o"],
  [/rn/g, "m"],
  [/vv/g, "w"],
];

/**
 * The key two names are compared on for uniqueness: names with the same key look alike, so
 * only one of them may exist. NFKC, lookalike letters of other scripts mapped to Latin,
 * accents and other combining marks removed, lower case, i/l/1, 0/o, rn/m and vv/w merged,
 * invisible characters dropped and white space collapsed. Never shown to anyone.
 *
 * "Land", "LAND", "Lаnd" (Cyrillic а), "Lånd" and "Ｌａｎｄ" all fold to "land".
 */
export function foldName(name: string): string {
  let folded = "";
  for (const ch of name.normalize("NFKC")) folded += LOOKALIKES[ch] ?? ch;
  folded = folded.normalize("NFD").replace(/\p{M}/gu, "").replace(new RegExp(INVISIBLE.source, "gu"), "").toLowerCase();
  // Lower-casing can reveal more lookalikes (e.g. "Ł" mapped to "L" above is now "l").
  let mapped = "";
  for (const ch of folded) mapped += LOOKALIKES[ch] ?? ch;
  for (const [pattern, replacement] of SAME_SHAPE) mapped = mapped.replace(pattern, replacement);
  return mapped.replace(/\s+/gu, " ").trim();
}

/** "a" or "an" before `phrase` by its first letter ("an Intelligence Pact", "a Trade Agreement"). */
export function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase.trim()) ? "an" : "a"} ${phrase}`;
}
