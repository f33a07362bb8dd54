import { z } from "zod";
import { AI_PERSONALITIES } from "../rules/ai.js";

/** One AI country as operators see it (GET /api/admin/ai). */
export const aiCountryJsonSchema = z.object({
  countryId: z.number(),
  countryName: z.string(),
  personality: z.enum(AI_PERSONALITIES),
  paused: z.boolean(),
  rounds: z.number(),
  actions: z.number(),
  refused: z.number(),
  lastActedAt: z.string().nullable(),
});
export type AiCountryJson = z.infer<typeof aiCountryJsonSchema>;

/** POST /api/admin/ai/{countryId}/pause {paused} */
export const adminAiPauseSchema = z.object({ paused: z.boolean({ error: "paused must be true or false" }) });
