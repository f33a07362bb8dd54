import type { z } from "zod";

/** First message per top-level field of a failed parse ({} when valid). */
export function fieldErrors<T extends z.ZodType>(schema: T, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "_");
    if (!errors[key]) errors[key] = issue.message;
  }
  return errors;
}
