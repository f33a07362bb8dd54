import { z } from "zod";
import type { CountryOptions } from "../rules/manage.js";
import type { IntelligenceBrief } from "../rules/briefs.js";

/** PUT /api/country/options: every option of the Manage view's Settings tab, all required. */
export const countryOptionsRequestSchema = z
  .object({
    autoFarms: z.boolean(),
    autoResearch: z.boolean(),
    autoMilitary: z.boolean(),
    notifyAttacks: z.boolean(),
    notifyAlliance: z.boolean(),
    notifyMarket: z.boolean(),
  })
  .strict() satisfies z.ZodType<CountryOptions>;

/** GET and PUT /manage/options. */
export const countryOptionsResponseSchema = z.object({
  success: z.literal(true),
  /** the options as stored (the request's fields, not its strictness: an answer is not refused for a field it adds) */
  options: z.object(countryOptionsRequestSchema.shape),
});
export type CountryOptionsResponse = z.infer<typeof countryOptionsResponseSchema>;

/** One brief of GET /news/briefs (the rules' IntelligenceBrief). */
export const intelligenceBriefSchema = z.object({
  id: z.string(),
  category: z.enum(["military", "espionage", "diplomatic"]),
  threat: z.enum(["critical", "high", "medium", "low"]),
  title: z.string(),
  summary: z.string(),
  details: z.array(z.string()),
  view: z.string(),
  intent: z.string().optional(),
}) satisfies z.ZodType<IntelligenceBrief>;

/** GET /news/briefs. */
export const intelligenceBriefsResponseSchema = z.object({
  success: z.literal(true),
  briefs: z.array(intelligenceBriefSchema),
});
export type IntelligenceBriefsResponse = z.infer<typeof intelligenceBriefsResponseSchema>;
