import { Router } from "express";
import { candidatesQuerySchema, diplomacyCountryParamsSchema, diplomacyIdParamsSchema, proposalSchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { answerProposal, cancelRelation, diplomaticRelations, partnerCandidates, proposeRelation, withdrawProposal } from "../services/diplomacy.js";
import { authenticate, authorizeCountry, parse, route } from "./handler.js";

/**
 * GET /diplomatic-relations/{countryId} (the spec's call) and the calls the Diplomatic
 * Relations screen needed: propose, accept, reject, withdraw, cancel, partner candidates.
 */
export function diplomacyRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/diplomatic-relations/:countryId",
    route("Failed to get diplomatic relations", async (req) => {
      const { countryId } = parse(diplomacyCountryParamsSchema, req.params);
      await authorizeCountry(ctx, req, countryId);
      return { data: await diplomaticRelations(ctx, countryId) };
    }),
  );

  router.get(
    "/diplomacy/candidates",
    route("Failed to get partner candidates", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await partnerCandidates(ctx, claims.userId, parse(candidatesQuerySchema, req.query)) };
    }),
  );

  router.post(
    "/diplomacy/proposals",
    route("Failed to send proposal", async (req, res) => {
      const body = parse(proposalSchema, req.body);
      const claims = await authenticate(ctx, req);
      res.status(201);
      return { data: await proposeRelation(ctx, claims.userId, body) };
    }),
  );

  for (const answer of ["accept", "reject"] as const) {
    router.post(
      `/diplomacy/proposals/:id/${answer}`,
      route(`Failed to ${answer} proposal`, async (req) => {
        const { id } = parse(diplomacyIdParamsSchema, req.params);
        const claims = await authenticate(ctx, req);
        return { data: await answerProposal(ctx, claims.userId, id, answer) };
      }),
    );
  }

  router.post(
    "/diplomacy/proposals/:id/cancel",
    route("Failed to withdraw proposal", async (req) => {
      const { id } = parse(diplomacyIdParamsSchema, req.params);
      const claims = await authenticate(ctx, req);
      return withdrawProposal(ctx, claims.userId, id);
    }),
  );

  router.post(
    "/diplomacy/relations/:id/cancel",
    route("Failed to cancel relation", async (req) => {
      const { id } = parse(diplomacyIdParamsSchema, req.params);
      const claims = await authenticate(ctx, req);
      return cancelRelation(ctx, claims.userId, id);
    }),
  );

  return router;
}
