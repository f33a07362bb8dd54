import { useQuery } from "@tanstack/react-query";
import type {
  AllianceBonusesJson,
  AllianceJson,
  AllianceMemberJson,
  AllianceRankingRowJson,
  AllianceSettingsRequest,
  AllianceStatusJson,
  ApplicationsJson,
  CreateAllianceRequest,
  DiplomaticRelationsJson,
  InvitationsJson,
  PartnerCandidateJson,
  ProposalRequest,
  ProposalResultJson,
} from "@game/schema/api";
import { routes } from "@game/schema/routes";
import { callRoute, type CallOptions } from "./http";

/** The alliance screens' message for an action that failed without the server's. */
const action: CallOptions = { fallback: "The alliance could not do that" };

/** The spec's fallback messages for the alliance and diplomacy calls (document 3, section 8). */
export const ALLIANCE_FALLBACK = {
  status: "Failed to get alliance status",
  byId: "Failed to get alliance data",
  list: "Failed to get alliances list",
  create: "Alliance creation failed",
  join: "Alliance join failed",
  leave: "Alliance leave failed",
  rankings: "Failed to get alliance rankings",
  relations: "Failed to get diplomatic relations",
  invitations: "Failed to get invitations",
  applications: "Failed to get applications",
  bonuses: "Failed to get alliance bonuses",
  action: "The alliance could not do that",
  diplomacy: "The proposal could not be sent",
} as const;

export const allianceKeys = {
  all: ["alliance"] as const,
  status: (countryId: number) => ["alliance", "status", countryId] as const,
  list: (page: number, search: string) => ["alliance", "list", page, search] as const,
  invitations: ["alliance", "invitations"] as const,
  applications: ["alliance", "applications"] as const,
  bonuses: ["alliance", "bonuses"] as const,
  rankings: ["alliance", "rankings"] as const,
  relations: (countryId: number) => ["diplomacy", "relations", countryId] as const,
  candidates: (search: string) => ["diplomacy", "candidates", search] as const,
};

export const allianceApi = {
  async status(countryId: number): Promise<AllianceStatusJson> {
    return (await callRoute(routes.allianceStatus, { params: { countryId } }, { fallback: ALLIANCE_FALLBACK.status })).data;
  },
  async list(page: number, search: string): Promise<{ data: AllianceJson[]; total: number; page: number; limit: number }> {
    return callRoute(routes.allianceList, { query: { page, limit: 20, search } }, { fallback: ALLIANCE_FALLBACK.list });
  },
  async byId(id: number): Promise<{ data: AllianceJson; members: AllianceMemberJson[] }> {
    return callRoute(routes.alliance, { params: { id } }, { fallback: ALLIANCE_FALLBACK.byId });
  },
  create: (body: CreateAllianceRequest) => callRoute(routes.createAlliance, body, { fallback: ALLIANCE_FALLBACK.create }),
  leave: () => callRoute(routes.leaveAlliance, undefined, { fallback: ALLIANCE_FALLBACK.leave }),
  apply: (allianceId: number, message: string) => callRoute(routes.joinAlliance, { allianceId, message }, { fallback: ALLIANCE_FALLBACK.join }),
  invite: (targetCountryName: string, message: string) => callRoute(routes.invite, { targetCountryName, message }),
  answerInvitation: (id: number, answer: "accept" | "decline") => callRoute(answer === "accept" ? routes.acceptInvitation : routes.declineInvitation, { params: { id } }, action),
  cancelInvitation: (id: number) => callRoute(routes.cancelInvitation, { params: { id } }, action),
  answerApplication: (id: number, answer: "accept" | "reject") => callRoute(answer === "accept" ? routes.acceptApplication : routes.rejectApplication, { params: { id } }, action),
  kick: (countryId: number) => callRoute(routes.kickMember, { countryId }, action),
  promote: (countryId: number) => callRoute(routes.promoteMember, { countryId }, action),
  demote: (countryId: number) => callRoute(routes.demoteMember, { countryId }, action),
  buyBonus: (bonusId: string) => callRoute(routes.purchaseBonus, { bonusId }, action),
  settings: (body: AllianceSettingsRequest) => callRoute(routes.allianceSettings, body, action),
  async invitations(): Promise<InvitationsJson> {
    return (await callRoute(routes.allianceInvitations)).data;
  },
  async applications(): Promise<ApplicationsJson> {
    return (await callRoute(routes.allianceApplications)).data;
  },
  async bonuses(): Promise<AllianceBonusesJson> {
    return (await callRoute(routes.allianceBonuses)).data;
  },
  async rankings(limit = 100): Promise<AllianceRankingRowJson[]> {
    return (await callRoute(routes.allianceRankings, { query: { limit } })).data;
  },
  async relations(countryId: number): Promise<DiplomaticRelationsJson> {
    return (await callRoute(routes.diplomaticRelations, { params: { countryId } })).data;
  },
  async candidates(search: string): Promise<PartnerCandidateJson[]> {
    return (await callRoute(routes.partnerCandidates, { query: { search } })).data;
  },
  async propose(body: ProposalRequest): Promise<ProposalResultJson> {
    return (await callRoute(routes.propose, body, { fallback: ALLIANCE_FALLBACK.diplomacy })).data;
  },
  answerProposal: (id: number, answer: "accept" | "reject" | "cancel") => callRoute(answer === "accept" ? routes.acceptProposal : answer === "reject" ? routes.rejectProposal : routes.withdrawProposal, { params: { id } }, action),
  cancelRelation: (id: number) => callRoute(routes.cancelRelation, { params: { id } }, action),
};

export function useAllianceStatus(countryId: number | null | undefined) {
  return useQuery({ queryKey: allianceKeys.status(countryId ?? 0), queryFn: () => allianceApi.status(countryId!), enabled: !!countryId, staleTime: 5_000 });
}

export function useAllianceList(page: number, search: string, enabled = true) {
  return useQuery({ queryKey: allianceKeys.list(page, search), queryFn: () => allianceApi.list(page, search), enabled });
}

export function useInvitations() {
  return useQuery({ queryKey: allianceKeys.invitations, queryFn: () => allianceApi.invitations(), staleTime: 5_000 });
}

export function useApplications(enabled = true) {
  return useQuery({ queryKey: allianceKeys.applications, queryFn: () => allianceApi.applications(), enabled, staleTime: 5_000 });
}

export function useAllianceBonuses(enabled = true) {
  return useQuery({ queryKey: allianceKeys.bonuses, queryFn: () => allianceApi.bonuses(), enabled });
}

export function useAllianceRankings() {
  return useQuery({ queryKey: allianceKeys.rankings, queryFn: () => allianceApi.rankings(), staleTime: 30_000 });
}

export function useDiplomaticRelations(countryId: number | null | undefined) {
  return useQuery({ queryKey: allianceKeys.relations(countryId ?? 0), queryFn: () => allianceApi.relations(countryId!), enabled: !!countryId });
}

export function usePartnerCandidates(search: string, enabled = true) {
  return useQuery({ queryKey: allianceKeys.candidates(search), queryFn: () => allianceApi.candidates(search), enabled });
}
