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
import { apiRequest } from "./http";

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

const post = <T extends object>(path: string, body: unknown = {}, fallback: string = ALLIANCE_FALLBACK.action) => apiRequest<T>("POST", path, { fallback, body });

export const allianceApi = {
  async status(countryId: number): Promise<AllianceStatusJson> {
    return (await apiRequest<{ data: AllianceStatusJson }>("GET", `/alliance/status/${countryId}`, { fallback: ALLIANCE_FALLBACK.status })).data;
  },
  async list(page: number, search: string): Promise<{ data: AllianceJson[]; total: number; page: number; limit: number }> {
    const q = new URLSearchParams({ page: String(page), limit: "20", search });
    return apiRequest("GET", `/alliance/list?${q}`, { fallback: ALLIANCE_FALLBACK.list });
  },
  async byId(id: number): Promise<{ data: AllianceJson; members: AllianceMemberJson[] }> {
    return apiRequest("GET", `/alliance/${id}`, { fallback: ALLIANCE_FALLBACK.byId });
  },
  create: (body: CreateAllianceRequest) => post<{ allianceId: number }>("/alliance/create", body, ALLIANCE_FALLBACK.create),
  leave: () => post("/alliance/leave", {}, ALLIANCE_FALLBACK.leave),
  apply: (allianceId: number, message: string) => post<{ applicationId: number; meetRequirements: boolean }>("/alliance/join", { allianceId, message }, ALLIANCE_FALLBACK.join),
  invite: (targetCountryName: string, message: string) => post("/alliance/invitations", { targetCountryName, message }, "Failed to send invitation"),
  answerInvitation: (id: number, answer: "accept" | "decline") => post(`/alliance/invitations/${id}/${answer}`),
  cancelInvitation: (id: number) => post(`/alliance/invitations/${id}/cancel`),
  answerApplication: (id: number, answer: "accept" | "reject") => post(`/alliance/applications/${id}/${answer}`),
  kick: (countryId: number) => post("/alliance/kick", { countryId }),
  promote: (countryId: number) => post("/alliance/promote", { countryId }),
  demote: (countryId: number) => post("/alliance/demote", { countryId }),
  buyBonus: (bonusId: string) => post("/alliance/bonuses/purchase", { bonusId }),
  settings: (body: AllianceSettingsRequest) => post("/alliance/settings", body),
  async invitations(): Promise<InvitationsJson> {
    return (await apiRequest<{ data: InvitationsJson }>("GET", "/alliance/invitations", { fallback: ALLIANCE_FALLBACK.invitations })).data;
  },
  async applications(): Promise<ApplicationsJson> {
    return (await apiRequest<{ data: ApplicationsJson }>("GET", "/alliance/applications", { fallback: ALLIANCE_FALLBACK.applications })).data;
  },
  async bonuses(): Promise<AllianceBonusesJson> {
    return (await apiRequest<{ data: AllianceBonusesJson }>("GET", "/alliance/bonuses", { fallback: ALLIANCE_FALLBACK.bonuses })).data;
  },
  async rankings(limit = 100): Promise<AllianceRankingRowJson[]> {
    return (await apiRequest<{ data: AllianceRankingRowJson[] }>("GET", `/rankings/alliances?limit=${limit}`, { fallback: ALLIANCE_FALLBACK.rankings })).data;
  },
  async relations(countryId: number): Promise<DiplomaticRelationsJson> {
    return (await apiRequest<{ data: DiplomaticRelationsJson }>("GET", `/diplomatic-relations/${countryId}`, { fallback: ALLIANCE_FALLBACK.relations })).data;
  },
  async candidates(search: string): Promise<PartnerCandidateJson[]> {
    return (await apiRequest<{ data: PartnerCandidateJson[] }>("GET", `/diplomacy/candidates?search=${encodeURIComponent(search)}`, { fallback: "Failed to get partner candidates" })).data;
  },
  async propose(body: ProposalRequest): Promise<ProposalResultJson> {
    return (await post<{ data: ProposalResultJson }>("/diplomacy/proposals", body, ALLIANCE_FALLBACK.diplomacy)).data;
  },
  answerProposal: (id: number, answer: "accept" | "reject" | "cancel") => post(`/diplomacy/proposals/${id}/${answer}`),
  cancelRelation: (id: number) => post(`/diplomacy/relations/${id}/cancel`),
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
