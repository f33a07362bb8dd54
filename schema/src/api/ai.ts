import { z } from "zod";
import type { AiPersonality } from "../rules/ai.js";

/** One AI country as operators see it (GET /api/admin/ai). */
export interface AiCountryJson {
  countryId: number;
  countryName: string;
  personality: AiPersonality;
  paused: boolean;
  rounds: number;
  actions: number;
  refused: number;
  lastActedAt: string | null;
}

/** POST /api/admin/ai/{countryId}/pause {paused} */
export const adminAiPauseSchema = z.object({ paused: z.boolean({ error: "paused must be true or false" }) });
