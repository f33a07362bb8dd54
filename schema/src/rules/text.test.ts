import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { checkLineText, checkNameText, checkPlainText, foldName, normalizeName, textProblemMessage, withArticle } from "./text.js";
import { findRelationType } from "./diplomacy.js";

describe("checkPlainText: free text (chat, descriptions)", () => {
  it.each([
    ["plain", "hello world", null],
    ["NUL", "hi\u0000there", "control"],
    ["line feed (a message of several lines)", "line\nbreak", null],
    ["carriage return", "line\r\nbreak", "control"],
    ["tab", "a\tb", "control"],
    ["DEL", "a\u007Fb", "control"],
    ["C1 (U+0085)", "a\u0085b", "control"],
    ["right-to-left override", "evil\u202Etxt.exe", "direction"],
    ["left-to-right embedding", "a\u202Ab", "direction"],
    ["first strong isolate", "a\u2068b", "direction"],
    ["zero-width joiner in an emoji family", "👨\u200D👩\u200D👧", null],
    ["right-to-left mark in Hebrew", "שלום\u200F!", null],
    ["accents and CJK", "Ça va? 你好", null],
  ] as const)("%s -> %s", (_name, text, problem) => {
    expect(checkPlainText(text)).toBe(problem);
  });
});

describe("checkLineText: single-line fields (emails, passwords)", () => {
  it.each([
    ["plain", "secret123", null],
    ["line feed", "secret\n123", "control"],
    ["NUL", "secret\u0000", "control"],
    ["override", "a\u202Eb", "direction"],
  ] as const)("%s -> %s", (_name, text, problem) => {
    expect(checkLineText(text)).toBe(problem);
  });
});

describe("checkNameText: names also refuse invisible characters", () => {
  it.each([
    ["plain", "Land of Oz", null],
    ["NUL", "Land\u0000", "control"],
    ["zero-width space", "La\u200Bnd", "invisible"],
    ["zero-width joiner", "La\u200Dnd", "invisible"],
    ["word joiner", "La\u2060nd", "invisible"],
    ["byte order mark", "\uFEFFLand", "invisible"],
    ["soft hyphen", "La\u00ADnd", "invisible"],
    ["left-to-right mark", "Land\u200E", "invisible"],
    ["right-to-left override", "\u202ELand", "direction"],
    ["Hangul filler", "\u3164", "invisible"],
    ["braille blank", "Land\u2800", "invisible"],
    ["Cyrillic letters are letters", "Москва", null],
  ] as const)("%s -> %s", (_name, text, problem) => {
    expect(checkNameText(text)).toBe(problem);
  });

  it("names the field in the message", () => {
    expect(textProblemMessage("Country name", "control")).toBe("Country name must not contain control characters");
    expect(textProblemMessage("Username", "invisible")).toBe("Username must not contain invisible characters");
    expect(textProblemMessage("Message", "direction")).toBe("Message must not contain text-direction characters");
  });
});

describe("normalizeName: NFKC and trimmed", () => {
  it.each([
    ["full-width", "Ｌａｎｄ", "Land"],
    ["ligature", "ﬁre", "fire"],
    ["no-break spaces", "\u00A0Land\u3000of\u00A0Oz ", "Land of Oz"],
    ["composed and decomposed e-acute agree", "Cafe\u0301", "Café"],
    ["superscript two", "X²", "X2"],
  ])("%s: %j -> %j", (_name, input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });
});

describe("foldName: names that look alike fold to one key", () => {
  it.each([
    ["Land", "Lаnd", "Cyrillic а"],
    ["Land", "LAND", "case"],
    ["Land", "Ｌａｎｄ", "full-width"],
    ["Land", "Lånd", "accent"],
    ["Land", "Lan\u0064", "same letters"],
    ["PAYPAL", "РАУРАL", "Cyrillic capitals"],
    ["Olympus", "Οlympus", "Greek capital omicron"],
    ["Ivan", "lvan", "capital I and small l"],
    ["Bill", "Bi11", "ones for ells"],
    ["Rome", "Rorne", "rn for m"],
    ["Oslo", "0slo", "zero for O"],
    ["Kingdom of Oz", "Kingdom  of\u00A0Oz", "white space"],
    ["Strasse", "Straße", "sharp s"],
    ["Lodz", "Łódź", "stroke and accents"],
    ["Mathland", "𝐌𝐚𝐭𝐡𝐥𝐚𝐧𝐝", "mathematical bold"],
  ])("%j and %j fold alike (%s)", (a, b) => {
    expect(foldName(b)).toBe(foldName(a));
  });

  it.each([
    ["Land", "Lend"],
    ["Land", "Lands"],
    ["Москва", "Moskva"],
    ["Avalon", "Avalon 2"],
    ["North", "South"],
  ])("%j and %j stay distinct", (a, b) => {
    expect(foldName(a)).not.toBe(foldName(b));
  });

  it("gives the plain lower-case key of a plain name", () => {
    expect(foldName("Land")).toBe("land");
    expect(foldName("  Avalon  ")).toBe("avalon");
  });

  it("is idempotent: a key folds to itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (name) => {
        const key = foldName(name);
        expect(foldName(key)).toBe(key);
      }),
      { numRuns: 500 },
    );
  });

  it("ignores case of ASCII names", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-"), maxLength: 30 }), (name) => {
        expect(foldName(name.toUpperCase())).toBe(foldName(name.toLowerCase()));
      }),
      { numRuns: 500 },
    );
  });

  it("never keeps an invisible or control character in the key", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (name) => {
        expect(foldName(name)).not.toMatch(/[\p{Cf}\u3164\u2800]/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe("player-facing words (issue 30 #24)", () => {
  it("an article that fits: 'an Intelligence Pact', 'a Trade Agreement'", () => {
    expect(withArticle("Intelligence Pact")).toBe("an Intelligence Pact");
    expect(withArticle("Trade Agreement")).toBe("a Trade Agreement");
  });
  it("the trade agreement advertises only what applies (no '+10% trade volume': nothing acts on it)", () => {
    expect(findRelationType("trade")!.benefits).toEqual(["-2% market fee"]);
  });
});
