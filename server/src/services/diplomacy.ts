import {
  DIPLOMATIC_RELATION_TYPES,
  PROPOSAL_LIFETIME_MS,
  checkAnswerProposal,
  checkCancelRelation,
  checkProposal,
  computeCanCancelAfter,
  computeDailyDiplomacyCost,
  computeDiplomaticEffects,
  computeSectorDistance,
  computeTrustRating,
  findRelationType,
  isMutualAnswer,
  relationBenefits,
  relationPayers,
  type DiplomaticEffects,
  type RelationType,
  withArticle,
} from "@game/schema/rules";
import type { ActiveRelationJson, DiplomaticRelationsJson, PartnerCandidateJson, ProposalJson, ProposalResultJson } from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { ownCountryWith, type CountryOwner } from "./countries.js";
import { runCountriesAction, type ActionTransaction } from "./actions.js";
import { conflict, notFound } from "../errors.js";
import type { CountryRow } from "../db/countries.js";
import type { Db, DbClient } from "../db/pool.js";
import { activeBetween, endRelation, findProposal, findRelation, heldRelationTypes, insertProposal, insertRelation, pendingBetween, proposalsOf, relationsOf, setProposalStatus, type ProposalRow, type RelationRow } from "../db/diplomacy.js";
import { isUniqueViolation } from "../errors.js";
import { ensure } from "./allianceErrors.js";
import { actorCountry, notice, noticeTo } from "./alliances.js";
import { recordNews } from "./news.js";

/**
 * Diplomacy between countries: propose (a counter-proposal of the same type establishes the
 * relation; a one-sided trade agreement is established at once), accept, reject, withdraw,
 * cancel after the cooldown. Each is one runCountriesAction over both countries, so two
 * answers, or an answer and a conflicting proposal, queue instead of racing; the unique index
 * on active pairs is the last guard. The other side hears of it as a live notice.
 */

const NOTHING = new Map();

function typeName(type: RelationType): string {
  return findRelationType(type)!.name;
}

function toProposalJson(p: ProposalRow): ProposalJson {
  return {
    id: p.id,
    fromCountryId: p.from_country_id,
    fromCountryName: p.from_country_name,
    toCountryId: p.to_country_id,
    toCountryName: p.to_country_name,
    relationType: p.relation_type,
    proposedAt: p.proposed_at.toISOString(),
    expiresAt: p.expires_at.toISOString(),
    message: p.message,
    status: p.status,
  };
}

function toRelationJson(r: RelationRow, viewer: number, partner: { id: number; name: string; government: string }): ActiveRelationJson {
  const pays = relationPayers(r.relation_type, r.from_country_id, r.to_country_id).includes(viewer);
  return {
    id: r.id,
    relationType: r.relation_type,
    partnerId: partner.id,
    partnerName: partner.name,
    partnerGovernment: partner.government,
    establishedAt: r.established_at.toISOString(),
    canCancelAfter: r.can_cancel_after.toISOString(),
    dailyCost: r.daily_cost,
    totalPaid: r.total_paid,
    status: r.status,
    benefits: relationBenefits(r.relation_type),
    lastActivity: r.last_activity.toISOString(),
    pays,
    // every party may end it (the one who never agreed, at once): checkCancelRelation
    canCancel: true,
  };
}

/** Establishes a relation inside an action (both countries locked); 409 if the pair raced to one. */
async function establish(tx: ActionTransaction, type: RelationType, from: CountryRow, to: CountryRow, proposalId: number | null): Promise<RelationRow> {
  let id: number;
  try {
    id = await insertRelation(tx.client, {
      type,
      from: from.id,
      to: to.id,
      proposalId,
      now: tx.now,
      canCancelAfter: new Date(computeCanCancelAfter(type, tx.now.getTime())),
      dailyCost: findRelationType(type)!.dailyCost,
    });
  } catch (err) {
    if (isUniqueViolation(err, "diplomatic_relations_one_active")) throw conflict("You already have this relation with that country", "diplomacy/exists");
    throw err;
  }
  await recordNews(tx, {
    kind: "diplomatic_relation",
    params: { a: { id: from.id, name: from.name }, b: { id: to.id, name: to.name }, relation: type },
    participants: [
      { id: from.id, name: from.name, type: "country", role: "party" },
      { id: to.id, name: to.name, type: "country", role: "party" },
    ],
  });
  return (await findRelation(tx.client, id))!;
}

/**
 * POST /diplomacy/proposals: a proposal pending for 3 days; or, when the partner already
 * proposed the same type, their proposal accepted (mutual); or, for a type that needs no
 * consent (trade), the relation at once.
 */
export async function proposeRelation(ctx: ServiceContext, userId: number, input: { toCountryId: number; relationType: RelationType; message: string }): Promise<ProposalResultJson> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction<ProposalResultJson>(ctx, {
    name: "diplomacy.propose",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id, input.toCountryId],
    notFoundMessage: "Country not found",
    async step(countries, tx) {
      const from = countries.get(actor.id)!.row;
      const to = countries.get(input.toCountryId)!.row;
      const active = await activeBetween(tx.client, from.id, to.id);
      const pending = await pendingBetween(tx.client, from.id, to.id, tx.now);
      const pendingBetweenThem = pending.map((p) => ({ type: p.relation_type, fromCountryId: p.from_country_id }));
      ensure(
        checkProposal({
          fromCountryId: from.id,
          toCountryId: to.id,
          type: input.relationType,
          activeBetween: active.map((r) => ({ type: r.relation_type })),
          pendingBetween: pendingBetweenThem,
          partnerHasPlayer: to.user_id !== null,
        }),
      );
      const def = findRelationType(input.relationType)!;
      if (isMutualAnswer({ fromCountryId: from.id, type: input.relationType, pendingBetween: pendingBetweenThem })) {
        const theirs = pending.find((p) => p.relation_type === input.relationType && p.from_country_id === to.id)!;
        await setProposalStatus(tx.client, theirs.id, "accepted", tx.now);
        const relation = await establish(tx, input.relationType, to, from, theirs.id);
        noticeTo(tx, to.id, notice(`relation-${relation.id}`, "diplomacy_established", "success", `${def.name} established`, `${from.name} answered your proposal with the same: the ${def.name} is in force`, tx.now, relation.id));
        return { next: NOTHING, result: { proposal: null, relation: toRelationJson(relation, from.id, { id: to.id, name: to.name, government: to.government_type }) } };
      }
      if (!def.requiresMutual) {
        const relation = await establish(tx, input.relationType, from, to, null);
        noticeTo(
          tx,
          to.id,
          notice(`relation-${relation.id}`, "diplomacy_established", "info", `${def.name} with ${from.name}`, `${from.name} signed ${withArticle(def.name)} with you${input.message ? `: "${input.message}"` : ""}`, tx.now, relation.id),
        );
        return { next: NOTHING, result: { proposal: null, relation: toRelationJson(relation, from.id, { id: to.id, name: to.name, government: to.government_type }) } };
      }
      let proposalId: number;
      try {
        proposalId = await insertProposal(tx.client, { from: from.id, to: to.id, type: input.relationType, message: input.message, now: tx.now, expiresAt: new Date(tx.now.getTime() + PROPOSAL_LIFETIME_MS) });
      } catch (err) {
        if (isUniqueViolation(err, "diplomatic_proposals_one_pending")) throw conflict("A proposal of this type is already pending with that country", "diplomacy/pending");
        throw err;
      }
      await recordNews(tx, { kind: "diplomatic_proposal", countryId: to.id, params: { from: { id: from.id, name: from.name }, relation: input.relationType } });
      noticeTo(tx, to.id, notice(`proposal-${proposalId}`, "diplomacy_proposal", "info", "Diplomatic proposal", `${from.name} proposes ${withArticle(def.name)}${input.message ? `: "${input.message}"` : ""}`, tx.now, proposalId));
      return { next: NOTHING, result: { proposal: toProposalJson((await findProposal(tx.client, proposalId))!), relation: null } };
    },
  });
  return result;
}

/** POST /diplomacy/proposals/{id}/accept and /reject: the addressee, while it is pending. */
export async function answerProposal(ctx: ServiceContext, userId: number, proposalId: number, answer: "accept" | "reject"): Promise<ProposalResultJson> {
  const actor = await actorCountry(ctx, userId);
  const proposal = await findProposal(ctx.db, proposalId);
  if (!proposal || (proposal.to_country_id !== actor.id && proposal.from_country_id !== actor.id)) throw notFound("Proposal not found", "diplomacy/proposal_not_found");
  const { result } = await runCountriesAction<ProposalResultJson>(ctx, {
    name: `diplomacy.${answer}`,
    actor: { userId, countryId: actor.id },
    countryIds: [proposal.from_country_id, proposal.to_country_id],
    async step(countries, tx) {
      const current = (await findProposal(tx.client, proposalId, true))!;
      ensure(checkAnswerProposal({ status: current.status, isAddressee: current.to_country_id === actor.id, expiresAt: current.expires_at.getTime(), now: tx.now.getTime() }));
      const from = countries.get(current.from_country_id)!.row;
      const to = countries.get(current.to_country_id)!.row;
      const def = findRelationType(current.relation_type)!;
      if (answer === "reject") {
        await setProposalStatus(tx.client, current.id, "rejected", tx.now);
        noticeTo(tx, from.id, notice(`proposal-${current.id}-rejected`, "diplomacy_rejected", "warning", "Proposal rejected", `${to.name} rejected your ${def.name}`, tx.now, current.id));
        return { next: NOTHING, result: { proposal: toProposalJson({ ...current, status: "rejected" }), relation: null } };
      }
      // The pair may have signed a conflicting relation since the proposal was made.
      ensure(
        checkProposal({
          fromCountryId: from.id,
          toCountryId: to.id,
          type: current.relation_type,
          activeBetween: (await activeBetween(tx.client, from.id, to.id)).map((r) => ({ type: r.relation_type })),
          pendingBetween: [],
          partnerHasPlayer: true,
        }),
      );
      await setProposalStatus(tx.client, current.id, "accepted", tx.now);
      const relation = await establish(tx, current.relation_type, from, to, current.id);
      noticeTo(tx, from.id, notice(`relation-${relation.id}`, "diplomacy_established", "success", `${def.name} established`, `${to.name} accepted your ${def.name}`, tx.now, relation.id));
      return {
        next: NOTHING,
        result: { proposal: toProposalJson({ ...current, status: "accepted" }), relation: toRelationJson(relation, to.id, { id: from.id, name: from.name, government: from.government_type }) },
      };
    },
  });
  return result;
}

/** POST /diplomacy/proposals/{id}/cancel: the proposer withdraws a pending proposal. */
export async function withdrawProposal(ctx: ServiceContext, userId: number, proposalId: number): Promise<{ proposalId: number }> {
  const actor = await actorCountry(ctx, userId);
  await runCountriesAction(ctx, {
    name: "diplomacy.withdraw",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(_countries, tx) {
      const current = await findProposal(tx.client, proposalId, true);
      if (!current || current.from_country_id !== actor.id) throw notFound("Proposal not found", "diplomacy/proposal_not_found");
      if (current.status !== "pending") throw conflict("This proposal is no longer pending", "diplomacy/not_pending");
      await setProposalStatus(tx.client, current.id, "cancelled", tx.now);
      return { next: NOTHING, result: null };
    },
  });
  return { proposalId };
}

/**
 * POST /diplomacy/relations/{id}/cancel: a party (the holder, for a one-sided agreement), once
 * canCancelAfter has passed; before that 'Cancellation locked until {date}'.
 */
export async function cancelRelation(ctx: ServiceContext, userId: number, relationId: number): Promise<{ relationId: number }> {
  const actor = await actorCountry(ctx, userId);
  const relation = await findRelation(ctx.db, relationId);
  if (!relation || (relation.from_country_id !== actor.id && relation.to_country_id !== actor.id)) throw notFound("Relation not found", "diplomacy/relation_not_found");
  await runCountriesAction(ctx, {
    name: "diplomacy.cancel",
    actor: { userId, countryId: actor.id },
    countryIds: [relation.from_country_id, relation.to_country_id],
    async step(countries, tx) {
      const current = (await findRelation(tx.client, relationId, true))!;
      const isParty = current.from_country_id === actor.id || current.to_country_id === actor.id;
      ensure(
        checkCancelRelation({
          status: current.status,
          isParty,
          isHolder: relationPayers(current.relation_type, current.from_country_id, current.to_country_id).includes(actor.id),
          canCancelAfter: current.can_cancel_after.getTime(),
          now: tx.now.getTime(),
        }),
      );
      await endRelation(tx.client, current.id, "cancelled", actor.id, tx.now);
      const partnerId = current.from_country_id === actor.id ? current.to_country_id : current.from_country_id;
      const me = countries.get(actor.id)!.row;
      noticeTo(tx, partnerId, notice(`relation-${current.id}-cancelled`, "diplomacy_cancelled", "warning", "Relation cancelled", `${me.name} cancelled the ${typeName(current.relation_type)}`, tx.now, current.id));
      return { next: NOTHING, result: null };
    },
  });
  return { relationId };
}

/** GET /diplomatic-relations/{countryId}: active relations, incoming and outgoing proposals, the daily total; the owner's row and both reads in one round trip. */
export async function diplomaticRelations(ctx: ServiceContext, owner: CountryOwner, countryId: number): Promise<DiplomaticRelationsJson> {
  const now = new Date(ctx.clock.now());
  const {
    values: [relations, proposals],
  } = await ownCountryWith(ctx, owner, (db, id) => [relationsOf(db, id), proposalsOf(db, id, now)] as const, { countryId });
  const active = relations.map((r) => toRelationJson(r, countryId, { id: r.partner_id, name: r.partner_name, government: r.partner_government }));
  return {
    active,
    incoming: proposals.filter((p) => p.to_country_id === countryId).map(toProposalJson),
    outgoing: proposals.filter((p) => p.from_country_id === countryId).map(toProposalJson),
    dailyTotal: computeDailyDiplomacyCost(active.map((r) => ({ type: r.relationType, pays: r.pays }))),
    relationTypes: DIPLOMATIC_RELATION_TYPES,
  };
}

/**
 * GET /diplomacy/candidates?search=: countries to negotiate with (by country or alliance name,
 * case-insensitive), with a trust rating from their record (computeTrustRating) and the
 * distance in sectors between the two in the networth ranking.
 */
export async function partnerCandidates(ctx: ServiceContext, userId: number, query: { search: string; limit: number }): Promise<PartnerCandidateJson[]> {
  const me = await actorCountry(ctx, userId);
  const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await ctx.db.query<{
    id: number;
    name: string;
    government_type: string;
    networth: number;
    alliance_id: number | null;
    alliance_name: string | null;
    created_at: Date;
    active_relations: number;
    lapsed: number;
    cancelled: number;
    rank: number;
    my_rank: number;
  }>(
    `WITH ranked AS (SELECT id, rank() OVER (ORDER BY networth DESC, id) AS rank FROM countries WHERE NOT is_eliminated)
     SELECT c.id, c.name, c.government_type, c.networth, c.alliance_id, a.name AS alliance_name, c.created_at,
       (SELECT count(*) FROM diplomatic_relations r WHERE r.status = 'active' AND (r.from_country_id = c.id OR r.to_country_id = c.id))::int AS active_relations,
       (SELECT count(*) FROM diplomatic_relations r WHERE r.status = 'expired' AND r.ended_at > now() - interval '30 days'
          AND (r.from_country_id = c.id OR (r.to_country_id = c.id AND r.relation_type <> 'trade')))::int AS lapsed,
       (SELECT count(*) FROM diplomatic_relations r WHERE r.status = 'cancelled' AND r.ended_by = c.id AND r.ended_at > now() - interval '30 days')::int AS cancelled,
       rk.rank::int AS rank, (SELECT rank FROM ranked WHERE id = $1)::int AS my_rank
     FROM countries c
     LEFT JOIN alliances a ON a.id = c.alliance_id
     JOIN ranked rk ON rk.id = c.id
     WHERE c.id <> $1 AND NOT c.is_eliminated AND ($2 = '%%' OR c.name ILIKE $2 OR a.name ILIKE $2)
     ORDER BY c.networth DESC, c.id LIMIT $3`,
    [me.id, pattern, query.limit],
  );
  const now = ctx.clock.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    government: r.government_type,
    networth: r.networth,
    trustRating: computeTrustRating({
      ageDays: (now - r.created_at.getTime()) / 86_400_000,
      activeRelations: r.active_relations,
      sameAlliance: r.alliance_id !== null && r.alliance_id === me.alliance_id,
      lapsedRecently: r.lapsed,
      cancelledRecently: r.cancelled,
    }),
    allianceName: r.alliance_name ?? "",
    distance: computeSectorDistance(r.rank, r.my_rank ?? r.rank),
  }));
}

/**
 * The diplomatic effects each country holds now (what combat, research and espionage read;
 * the partner-scoped trade effects are read per trade: services/allianceMarket.ts).
 */
export async function diplomaticEffectsOf(db: Db | DbClient, countryIds: number[]): Promise<Map<number, DiplomaticEffects>> {
  const held = await heldRelationTypes(db, countryIds);
  return new Map(countryIds.map((id) => [id, computeDiplomaticEffects((held.get(id) ?? []).map((h) => h.type))]));
}
