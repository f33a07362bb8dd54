import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { countryView, listedCountries } from "../services/countries.js";
import type { ApiPipeline } from "./pipeline.js";

/** /country/{id}, /countries/{id}, /countries, /countries/ai */
export function countryRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  // /countries/ai is a fixed path: the pipeline matches it before the pattern /countries/:id.
  api.handle(routes.aiCountries, async (call) => listedCountries(ctx, { ...call.query, aiOnly: true }));
  // The owner sees everything; anyone else sees public fields only. Hot routes.
  api.handle(routes.country, (call) => countryView(ctx, call.params.id, call.claims!.userId));
  api.handle(routes.countryById, (call) => countryView(ctx, call.params.id, call.claims!.userId));

  api.handle(routes.countries, async (call) => ({ ...(await listedCountries(ctx, call.query)), ownCountryId: call.claims!.countryId }));
}
