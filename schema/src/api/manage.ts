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

/** GET and PUT /api/country/options answer. */
export interface CountryOptionsResponse {
  success: true;
  options: CountryOptions;
}

/** GET /api/news/briefs: the caller's intelligence briefs, most threatening first. */
export interface IntelligenceBriefsResponse {
  success: true;
  briefs: IntelligenceBrief[];
}
