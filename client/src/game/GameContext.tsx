import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CountryState, EconomyBonuses } from "@game/schema/rules";
import { useAuth } from "../auth/AuthContext";
import { api, type ActionOutcome } from "../api/endpoints";
import { queryKeys, useCountryQuery, useEconomyBonuses } from "../api/queries";
import { toCountryState, type Country } from "../api/country";
import type { TurnResultJson } from "@game/schema/api";
import type { CountrySummarySnapshot } from "@game/schema/messages";
import { useConnectionStatus, useOwnCountrySummary, useWorldSlice } from "../realtime/hooks";

/** Result cleared this long after the report is hidden (spec: 500 ms). */
export const TURN_RESULT_CLEAR_MS = 500;

/** A card of the turn-progress popup. */
export interface TurnCard {
  key: number;
  result: TurnResultJson;
  /** extra facts of the action (spec popup card fields) */
  landGained?: number;
  buildingConstructed?: { quantity: number; type: string };
}

export interface GameState {
  countryId: number | null;
  /** the own country, REST data with the room's live numbers laid over it */
  country: Country | null;
  /** the same, in the shared rules' shape */
  countryState: CountryState | null;
  countryLoading: boolean;
  countryError: string | null;
  refetchCountry(): void;
  explore(turns: number): Promise<ActionOutcome>;
  exploring: boolean;
  construct(orders: Record<string, number>): Promise<ActionOutcome>;
  constructing: boolean;
  /** turn-progress popup cards, newest last */
  cards: TurnCard[];
  dismissCard(key: number): void;
  /** the TURN RESULTS REPORT modal */
  report: TurnResultJson | null;
  reportOpen: boolean;
  openReport(result: TurnResultJson): void;
  closeReport(): void;
}

const GameContext = createContext<GameState | null>(null);

export function useGame(): GameState {
  const ctx = useContext(GameContext);
  if (!ctx) throw new Error("useGame outside GameProvider");
  return ctx;
}

/**
 * Lays the room's own-country summary over the REST country when the summary is newer
 * (the room pushes turns, cash, food, oil, networth, population and land after every change
 * and every tick; buildings and units only change through actions that answer the country).
 */
export function mergeLive(country: Country, summary: CountrySummarySnapshot | null, summaryAt: number, restAt: number): Country {
  if (!summary || summary.countryId !== country.id || summaryAt < restAt) return country;
  return {
    ...country,
    turnNumber: summary.turns,
    turnsAvailable: summary.turns,
    storedTurns: summary.storedTurns,
    cash: summary.cash,
    food: summary.food,
    oil: summary.oil,
    networth: summary.networth,
    population: summary.population,
    landAcres: summary.land,
  };
}

/** The rules' state with the outside bonuses in force; an answer without well-formed bonuses adds none. */
export function withBonuses(state: CountryState, bonuses: EconomyBonuses | undefined): CountryState {
  if (!bonuses || typeof bonuses.incomePct !== "number" || typeof bonuses.researchPct !== "number") return state;
  return { ...state, bonuses: { incomePct: bonuses.incomePct, researchPct: bonuses.researchPct } };
}

export function GameProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const countryId = user?.countryId ?? null;
  const queryClient = useQueryClient();
  const countryQuery = useCountryQuery(countryId);
  const summary = useOwnCountrySummary();
  const status = useConnectionStatus();
  const summaryAt = useWorldSlice((s) => s.ownCountryAt);

  const country = useMemo(() => {
    if (!countryQuery.data) return null;
    if (status !== "connected") return countryQuery.data;
    return mergeLive(countryQuery.data, summary, summaryAt, countryQuery.dataUpdatedAt);
  }, [countryQuery.data, countryQuery.dataUpdatedAt, summary, summaryAt, status]);
  // The rules' state carries the outside bonuses in force (alliance, treaties) as the economy
  // turn applies them, so every income preview (cash flow, production, research, a turn's
  // outcome) says what the server will do.
  const bonuses = useEconomyBonuses(countryId);
  const countryState = useMemo(() => (country ? withBonuses(toCountryState(country), bonuses) : null), [country, bonuses]);

  const [cards, setCards] = useState<TurnCard[]>([]);
  const [report, setReport] = useState<TurnResultJson | null>(null);
  const [reportOpen, setReportOpen] = useState(false);
  const cardKey = useRef(0);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const applyOutcome = useCallback(
    (outcome: ActionOutcome, extra: Omit<TurnCard, "key" | "result">) => {
      if (outcome.country && countryId) queryClient.setQueryData(queryKeys.country(countryId), outcome.country);
      else if (countryId) void queryClient.invalidateQueries({ queryKey: queryKeys.country(countryId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnHistory });
      if (countryId) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.productionStatus(countryId) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.buildingProduction(countryId) });
      }
      if (outcome.turnResult) {
        const result = outcome.turnResult;
        setCards((list) => [...list, { key: ++cardKey.current, result, ...extra }]);
      }
    },
    [countryId, queryClient],
  );

  const exploreMutation = useMutation({
    mutationFn: (turns: number) => api.explore(countryId!, turns),
  });
  const constructMutation = useMutation({
    mutationFn: (orders: Record<string, number>) => api.construct(countryId!, orders),
  });

  // mutateAsync is stable; the mutation's result object is new on every render
  const { mutateAsync: exploreAsync } = exploreMutation;
  const { mutateAsync: constructAsync } = constructMutation;
  const explore = useCallback(
    async (turns: number) => {
      const before = country?.landAcres ?? 0;
      const outcome = await exploreAsync(turns);
      const after = outcome.country?.landAcres;
      applyOutcome(outcome, { landGained: after !== undefined ? Math.max(0, after - before) : undefined });
      return outcome;
    },
    [country?.landAcres, exploreAsync, applyOutcome],
  );

  const construct = useCallback(
    async (orders: Record<string, number>) => {
      const outcome = await constructAsync(orders);
      const entries = Object.entries(orders).filter(([, q]) => q > 0);
      const quantity = entries.reduce((sum, [, q]) => sum + q, 0);
      const type = entries.length === 1 ? entries[0]![0] : "mixed";
      applyOutcome(outcome, { buildingConstructed: { quantity, type } });
      return outcome;
    },
    [constructAsync, applyOutcome],
  );

  const dismissCard = useCallback((key: number) => setCards((list) => list.filter((c) => c.key !== key)), []);
  const openReport = useCallback((result: TurnResultJson) => {
    if (clearTimer.current) clearTimeout(clearTimer.current);
    setReport(result);
    setReportOpen(true);
  }, []);
  const closeReport = useCallback(() => {
    setReportOpen(false);
    if (clearTimer.current) clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => setReport(null), TURN_RESULT_CLEAR_MS);
  }, []);
  useEffect(() => () => void (clearTimer.current && clearTimeout(clearTimer.current)), []);

  // The query's result object is new on every render: the context value depends on the fields
  // it reads, so a render of this provider that changes none of them re-renders no consumer
  // (issue 30: the overview's start rendered every screen consumer once per arriving answer).
  const countryLoading = countryQuery.isPending && countryQuery.fetchStatus !== "idle";
  const countryError = countryQuery.error ? countryQuery.error.message : null;
  const { refetch } = countryQuery;
  const refetchCountry = useCallback(() => void refetch(), [refetch]);
  const value = useMemo<GameState>(
    () => ({
      countryId,
      country,
      countryState,
      countryLoading,
      countryError,
      refetchCountry,
      explore,
      exploring: exploreMutation.isPending,
      construct,
      constructing: constructMutation.isPending,
      cards,
      dismissCard,
      report,
      reportOpen,
      openReport,
      closeReport,
    }),
    [countryId, country, countryState, countryLoading, countryError, refetchCountry, explore, exploreMutation.isPending, construct, constructMutation.isPending, cards, dismissCard, report, reportOpen, openReport, closeReport],
  );
  return <GameContext.Provider value={value}>{children}</GameContext.Provider>;
}
