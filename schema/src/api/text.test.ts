import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstIssueMessage } from "./common.js";
import { AUTH_MESSAGES, emailSchema, passwordSchema, registerRequestSchema, usernameSchema, countryNameSchema } from "./auth.js";
import { nameText, plainText } from "./text.js";
import { sendChatSchema } from "../messages/world.js";

const message = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
};

describe("finding 5: control characters in text fields are a clear 400, names are normalised", () => {
  it.each([
    ["country name", countryNameSchema, "Land\u0000", "Country name must not contain control characters"],
    ["username", usernameSchema, "bob\u0000", "Username must not contain control characters"],
    ["password", passwordSchema, "secret\u0000123", "Password must not contain control characters"],
    ["email", emailSchema, "a\u0000@example.com", AUTH_MESSAGES.invalidEmail],
    ["chat message", sendChatSchema.shape.content, "hi\u0000", "Message must not contain control characters"],
    ["chat message with an override", sendChatSchema.shape.content, "hi \u202Egnp.exe", "Message must not contain text-direction characters"],
    ["country name with a zero-width space", countryNameSchema, "La\u200Bnd", "Country name must not contain invisible characters"],
    ["country name with a bidi override", countryNameSchema, "\u202ELand", "Country name must not contain text-direction characters"],
    ["username with a zero-width joiner", usernameSchema, "bo\u200Db", "Username must not contain invisible characters"],
  ] as const)("%s %j -> %s", (_field, schema, value, expected) => {
    expect(message(schema, value)).toBe(expected);
  });

  it("stores names NFKC-normalised and trimmed", () => {
    expect(countryNameSchema.parse("  Ｌａｎｄ of Ｏｚ ")).toBe("Land of Oz");
    expect(usernameSchema.parse("ｂｏｂ")).toBe("bob");
    // length limits apply to the normalised name: a ligature counts as its two letters
    expect(message(usernameSchema, "ﬀ")).toBe(AUTH_MESSAGES.usernameTooShort);
  });

  it("keeps line feeds, emoji joiners and direction marks in chat", () => {
    expect(sendChatSchema.parse({ channel: "general", content: "Reporting in\nline two" }).content).toBe("Reporting in\nline two");
    expect(sendChatSchema.parse({ channel: "general", content: "👨\u200D👩\u200D👧 שלום\u200F" }).content).toBe("👨\u200D👩\u200D👧 שלום\u200F");
    expect(message(passwordSchema, "secret\n123")).toBe("Password must not contain control characters");
  });

  it("a whole registration with U+0000 in any field is refused, naming the field", () => {
    const valid = { email: "a@example.com", username: "alice", password: "secret123", countryName: "Avalon" };
    expect(registerRequestSchema.safeParse(valid).success).toBe(true);
    for (const field of ["username", "password", "countryName"] as const) {
      expect(message(registerRequestSchema, { ...valid, [field]: `${valid[field]}\u0000` }), field).toMatch(/must not contain control characters$/);
    }
  });

  it("plainText and nameText wrap any string schema for later domains", () => {
    const listingNote = plainText(z.string().max(200, "too long"), "Note");
    const allianceName = nameText(z.string(), "Alliance name").min(3, "short");
    expect(message(listingNote, "ok\u0007")).toBe("Note must not contain control characters");
    expect(allianceName.parse(" Ｗｏｌｖｅｓ ")).toBe("Wolves");
    expect(message(allianceName, "Wo\u2060lves")).toBe("Alliance name must not contain invisible characters");
  });
});
