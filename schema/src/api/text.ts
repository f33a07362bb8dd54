import { z } from "zod";
import { checkLineText, checkNameText, checkPlainText, textProblemMessage } from "../rules/text.js";

/**
 * Reusable text checks for request and message validators. Every text field a player types
 * goes through one of these, so a control character is a clear 400 naming the field, never a
 * 500 from Postgres:
 *
 * ```ts
 * message: plainText(z.string().trim().min(1).max(500), "Message")
 * name: nameText(z.string(), "Alliance name").min(3).max(30)
 * ```
 */

/**
 * Refuses control characters (a line feed is allowed) and text-direction overrides (free
 * text: chat messages, descriptions, listing notes). Runs before the schema's own checks, so it is the first
 * message a caller sees.
 */
export function plainText(schema: z.ZodString, field: string): z.ZodString {
  return schema.check((ctx) => {
    const problem = checkPlainText(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: textProblemMessage(field, problem), input: ctx.value, continue: false });
  });
}

/** Refuses every control character, line feeds too, and direction overrides (passwords, keys, one-line fields). */
export function lineText(schema: z.ZodString, field: string): z.ZodString {
  return schema.check((ctx) => {
    const problem = checkLineText(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: textProblemMessage(field, problem), input: ctx.value, continue: false });
  });
}

/**
 * A name (usernames, country names, alliance names): refuses control, direction and
 * invisible characters, then stores it NFKC-normalised and trimmed. Chain length and
 * character checks after it; they see the normalised name. Uniqueness compares
 * `foldName(name)` (schema/src/rules/text.ts), which the server keeps a unique key of.
 */
export function nameText(schema: z.ZodString, field: string): z.ZodString {
  return schema
    .check((ctx) => {
      const problem = checkNameText(ctx.value);
      if (problem) ctx.issues.push({ code: "custom", message: textProblemMessage(field, problem), input: ctx.value, continue: false });
    })
    .normalize("NFKC")
    .trim();
}
