import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { answerProposal, cancelRelation, diplomaticRelations, partnerCandidates, proposeRelation, withdrawProposal } from "../services/diplomacy.js";
import { authorizeCountryId } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";

/**
 * GET /diplomatic-relations/{countryId} (the spec's call) and the calls the Diplomatic
 * Relations screen needed: propose, accept, reject, withdraw, cancel, partner candidates.
 */
export function diplomacyRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.diplomaticRelations, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { data: await diplomaticRelations(ctx, claims, call.params.countryId) };
  });

  api.handle(routes.partnerCandidates, async (call) => ({ data: await partnerCandidates(ctx, call.claims!.userId, call.query) }));
  api.handle(routes.propose, async (call) => ({ data: await proposeRelation(ctx, call.claims!.userId, call.body) }));

  for (const [entry, answer] of [
    [routes.acceptProposal, "accept"],
    [routes.rejectProposal, "reject"],
  ] as const) {
    api.handle(entry, async (call) => ({ data: await answerProposal(ctx, call.claims!.userId, call.params.id, answer) }));
  }

  api.handle(routes.withdrawProposal, async (call) => withdrawProposal(ctx, call.claims!.userId, call.params.id));
  api.handle(routes.cancelRelation, async (call) => cancelRelation(ctx, call.claims!.userId, call.params.id));
}
