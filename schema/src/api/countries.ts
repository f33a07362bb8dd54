import { z } from "zod";
import { idParamSchema, limitSchema, offsetSchema } from "./common.js";

/** GET /api/countries?limit=&offset= */
export const countryListQuerySchema = z.object({
  limit: limitSchema(100, 500),
  offset: offsetSchema,
});

export const countryIdParamsSchema = z.object({ id: idParamSchema });
