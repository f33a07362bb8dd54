import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type {
  AlliesResponse,
  AttackLaunchResponse,
  AttackPreviewResponse,
  BattleReplayResponse,
  BattleReportsResponse,
  BattleReportJson,
  BrigadeActionResponse,
  BrigadesResponse,
  CountryListResponse,
  ListedCountryJson,
  MilitaryStatusJson,
  StrikeJson,
  ValidateTurnsResponse,
  WarDeclarationJson,
} from "@game/schema/api";
import type { AlertLevel, AttackTypeId, AttackUnits, DefenseAllocation, Deployment } from "@game/schema/rules";
import { routes, type RouteQueryInput } from "@game/schema/routes";
import { callRoute } from "./http";
import { mapCountry, type Country } from "./country";
import { queryKeys } from "./queries";

/**
 * The military and war calls (REST) and their react-query hooks. Fallback messages are the
 * spec's where it gives one (document 1, section 8: 'Failed to get military status', 'Failed
 * to use brigade', 'Attack failed', ...).
 */
export const MILITARY_FALLBACK = {
  status: "Failed to get military status",
  brigades: "Failed to get brigade status",
  useBrigade: "Failed to use brigade",
  recoverReadiness: "Failed to recover readiness",
  reduceReadiness: "Failed to reduce readiness",
  attack: "Attack failed",
  reports: "Failed to get battle reports",
  replay: "Failed to replay the battle",
  wars: "Failed to get war declarations",
  declare: "Failed to declare war",
  endWar: "Failed to end the war",
  countries: "Failed to get countries",
  deployment: "Failed to update deployment",
  defense: "Failed to update defense configuration",
  missiles: "Failed to buy missiles",
  gdi: "Failed to change GDI membership",
  strikes: "Failed to get strikes",
  cancel: "Failed to cancel the strike",
  allies: "Failed to get alliance support",
} as const;

export const militaryKeys = {
  status: (id: number) => ["military-status", id] as const,
  brigades: (id: number) => ["military-brigades", id] as const,
  reports: (filter: string) => ["battle-reports", filter] as const,
  reportsAll: ["battle-reports"] as const,
  replay: (id: number) => ["battle-replay", id] as const,
  wars: ["war-declarations"] as const,
  strikes: ["strikes"] as const,
  targets: ["target-countries"] as const,
  allies: (id: number, target: number | null) => ["allies", id, target] as const,
  preview: (key: string) => ["attack-preview", key] as const,
};

/** An attack order as the screens build it. */
export interface AttackRequest {
  countryId: number;
  targetCountryId: number | null;
  attackType: AttackTypeId | null;
  units: AttackUnits;
  allianceSupport?: boolean | { enabled: boolean; allies?: number[] };
  scheduledFor?: string | null;
  brigadeId?: number | null;
}

export const militaryApi = {
  async status(countryId: number): Promise<MilitaryStatusJson> {
    return (await callRoute(routes.militaryStatus, { params: { countryId } }, { fallback: MILITARY_FALLBACK.status })).status;
  },
  brigades(countryId: number): Promise<BrigadesResponse> {
    return callRoute(routes.brigades, { params: { countryId } }, { fallback: MILITARY_FALLBACK.brigades });
  },
  brigadeAction(action: "use-brigade" | "recover-readiness" | "reduce-readiness", countryId: number, brigadeId: number): Promise<BrigadeActionResponse> {
    const fallback = action === "use-brigade" ? MILITARY_FALLBACK.useBrigade : action === "recover-readiness" ? MILITARY_FALLBACK.recoverReadiness : MILITARY_FALLBACK.reduceReadiness;
    const entry = action === "use-brigade" ? routes.useBrigade : action === "recover-readiness" ? routes.recoverReadiness : routes.reduceReadiness;
    return callRoute(entry, { countryId, brigadeId }, { fallback });
  },
  setDeployment(countryId: number, deployment: Deployment) {
    return callRoute(routes.deployment, { countryId, ...deployment }, { fallback: MILITARY_FALLBACK.deployment });
  },
  setDefense(countryId: number, change: { alertLevel?: AlertLevel; allocation?: DefenseAllocation }) {
    return callRoute(routes.defense, { countryId, ...change }, { fallback: MILITARY_FALLBACK.defense });
  },
  async setAllocation(countryId: number, allocation: { troops: number; jets: number; turrets: number; tanks: number }): Promise<Country> {
    const res = await callRoute(routes.productionAllocation, { countryId, ...allocation });
    return mapCountry(res.country);
  },
  async buyMissiles(countryId: number, quantity: number): Promise<Country> {
    const res = await callRoute(routes.buyMissiles, { countryId, quantity }, { fallback: MILITARY_FALLBACK.missiles });
    return mapCountry(res.country);
  },
  async gdi(countryId: number, join: boolean): Promise<Country> {
    const res = await callRoute(join ? routes.gdiJoin : routes.gdiLeave, { countryId }, { fallback: MILITARY_FALLBACK.gdi });
    return mapCountry(res.country);
  },
  validateTurns(countryId: number, attackType: AttackTypeId): Promise<ValidateTurnsResponse> {
    return callRoute(routes.validateAttackTurns, { countryId, attackType }, { fallback: MILITARY_FALLBACK.attack });
  },
  preview(order: AttackRequest): Promise<AttackPreviewResponse> {
    return callRoute(routes.attackPreview, order, { fallback: MILITARY_FALLBACK.attack });
  },
  launch(order: AttackRequest): Promise<AttackLaunchResponse> {
    return callRoute(routes.attackLaunch, order, { fallback: MILITARY_FALLBACK.attack });
  },
  async strikes(): Promise<StrikeJson[]> {
    return (await callRoute(routes.strikes, undefined, { fallback: MILITARY_FALLBACK.strikes })).strikes;
  },
  async cancelStrike(strikeId: number): Promise<StrikeJson> {
    return (await callRoute(routes.cancelStrike, { strikeId }, { fallback: MILITARY_FALLBACK.cancel })).strike;
  },
  allies(countryId: number, targetCountryId: number | null): Promise<AlliesResponse> {
    return callRoute(routes.attackAllies, { params: { countryId }, query: { targetCountryId: targetCountryId || undefined } }, { fallback: MILITARY_FALLBACK.allies });
  },
  reports(filter: { attackType?: string; outcome?: string; limit?: number } = {}): Promise<BattleReportsResponse> {
    const query = { attackType: filter.attackType || undefined, outcome: filter.outcome || undefined, limit: filter.limit ?? 50 } as RouteQueryInput<typeof routes.battleReports>;
    return callRoute(routes.battleReports, { query }, { fallback: MILITARY_FALLBACK.reports });
  },
  async report(id: number): Promise<BattleReportJson> {
    return (await callRoute(routes.battleReport, { params: { id } }, { fallback: MILITARY_FALLBACK.reports })).report;
  },
  /** The battle recomputed step by step on the server from its stored seed (issue 30). */
  async replay(id: number): Promise<BattleReplayResponse["replay"]> {
    return (await callRoute(routes.battleReplay, { params: { id } }, { fallback: MILITARY_FALLBACK.replay })).replay;
  },
  async wars(): Promise<WarDeclarationJson[]> {
    return (await callRoute(routes.warDeclarations, undefined, { fallback: MILITARY_FALLBACK.wars })).declarations;
  },
  declareWar(targetCountryId: number) {
    return callRoute(routes.declareWar, { targetCountryId }, { fallback: MILITARY_FALLBACK.declare });
  },
  endWar(declarationId: number) {
    return callRoute(routes.endWar, { declarationId }, { fallback: MILITARY_FALLBACK.endWar });
  },
  /** GET /countries: the target lists (public fields only; the own country is left out by the screens). */
  async countries(): Promise<{ countries: ListedCountryJson[]; ownCountryId: number | null }> {
    const res: Partial<CountryListResponse> = await callRoute(routes.countries, { query: { limit: 500 } }, { fallback: MILITARY_FALLBACK.countries });
    return { countries: res.countries ?? [], ownCountryId: res.ownCountryId ?? null };
  },
};

const enabledId = (id: number | null | undefined): id is number => typeof id === "number" && id > 0;

export function useMilitaryStatus(countryId: number | null | undefined) {
  return useQuery({ queryKey: militaryKeys.status(countryId ?? 0), queryFn: () => militaryApi.status(countryId!), enabled: enabledId(countryId) });
}

export function useBrigades(countryId: number | null | undefined) {
  return useQuery({ queryKey: militaryKeys.brigades(countryId ?? 0), queryFn: () => militaryApi.brigades(countryId!), enabled: enabledId(countryId) });
}

export function useBattleReports(filter: { attackType?: string; outcome?: string }, enabled = true) {
  return useQuery({ queryKey: militaryKeys.reports(JSON.stringify(filter)), queryFn: () => militaryApi.reports(filter), enabled });
}

export function useWarDeclarations(enabled = true) {
  return useQuery({ queryKey: militaryKeys.wars, queryFn: () => militaryApi.wars(), enabled });
}

export function useStrikes(enabled = true) {
  return useQuery({ queryKey: militaryKeys.strikes, queryFn: () => militaryApi.strikes(), enabled });
}

export function useTargetCountries(enabled = true) {
  return useQuery({ queryKey: militaryKeys.targets, queryFn: () => militaryApi.countries(), enabled, staleTime: 10_000 });
}

export function useAllies(countryId: number | null | undefined, targetId: number | null) {
  return useQuery({ queryKey: militaryKeys.allies(countryId ?? 0, targetId), queryFn: () => militaryApi.allies(countryId!, targetId), enabled: enabledId(countryId) });
}

/**
 * Refreshes everything a battle or a war changes: the own country, the military status and
 * brigades, the war log, wars, strikes, targets (their networth and land moved) and the turn
 * history. Called after the player's own actions and when a live notice says something
 * happened to the country.
 */
export function useMilitaryRefresh(countryId: number | null | undefined) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    if (enabledId(countryId)) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.country(countryId) });
      void queryClient.invalidateQueries({ queryKey: militaryKeys.status(countryId) });
      void queryClient.invalidateQueries({ queryKey: militaryKeys.brigades(countryId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.productionStatus(countryId) });
    }
    void queryClient.invalidateQueries({ queryKey: militaryKeys.reportsAll });
    void queryClient.invalidateQueries({ queryKey: militaryKeys.wars });
    void queryClient.invalidateQueries({ queryKey: militaryKeys.strikes });
    void queryClient.invalidateQueries({ queryKey: militaryKeys.targets });
    void queryClient.invalidateQueries({ queryKey: queryKeys.turnHistory });
  }, [countryId, queryClient]);
}

/** A battle's replay; a battle never changes, so it is fetched once. */
export function useBattleReplay(battleId: number) {
  return useQuery({ queryKey: militaryKeys.replay(battleId), queryFn: () => militaryApi.replay(battleId), staleTime: Infinity, retry: false });
}
