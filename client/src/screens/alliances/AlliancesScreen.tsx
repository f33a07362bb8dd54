import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useAuth } from "../../auth/AuthContext";
import { useGame } from "../../game/GameContext";
import { useAllianceStatus } from "../../api/alliance";
import { useAllianceRoom } from "../../realtime/allianceRoom";
import { useNotices } from "../../realtime/hooks";
import { Loading, Tabs } from "../../components/ui";
import type { Route } from "../shell/navigation";
import { NoAlliance } from "./NoAlliance";
import { AllianceHome } from "./AllianceHome";
import { DiplomacyPanel } from "./DiplomacyPanel";
import { AllianceIntelligence } from "../espionage/AllianceIntelligence";

type TopTab = "system" | "intelligence" | "diplomacy";

/**
 * The alliances view (spec: Alliance System, Intelligence Operations, Diplomatic Relations).
 * The alliance room is joined here, so switching tabs keeps the live connection; REST answers
 * the rest, refreshed when a live notice says something changed.
 */
export function AlliancesScreen({ route }: { route: Route }) {
  const { token } = useAuth();
  const { countryId, country } = useGame();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TopTab>(route.intent === "diplomacy" ? "diplomacy" : "system");
  useEffect(() => setTab(route.intent === "diplomacy" ? "diplomacy" : "system"), [route.intent]);

  const status = useAllianceStatus(countryId);
  const allianceId = status.data?.alliance?.id ?? null;
  const [closedReason, setClosedReason] = useState<string | null>(null);
  const onClosed = useCallback(
    (reason: string) => {
      setClosedReason(reason || "You are no longer a member of this alliance");
      void queryClient.invalidateQueries({ queryKey: ["alliance"] });
    },
    [queryClient],
  );
  const room = useAllianceRoom(allianceId, token, onClosed);
  useEffect(() => {
    if (allianceId) setClosedReason(null);
  }, [allianceId]);

  // A live notice about alliances or diplomacy: what the screen shows may have changed.
  const notices = useNotices();
  const seen = useRef(notices.length);
  useEffect(() => {
    const fresh = notices.slice(seen.current);
    seen.current = notices.length;
    if (fresh.some((n) => /^(alliance|diplomacy|defense|ally)_/.test(n.kind))) {
      void queryClient.invalidateQueries({ queryKey: ["alliance"] });
      void queryClient.invalidateQueries({ queryKey: ["diplomacy"] });
    }
  }, [notices, queryClient]);

  if (!country) return <Loading text="Loading country..." />;
  return (
    <div className="stack" data-testid="alliances">
      <div className="page-header">
        <h1>{tab === "diplomacy" ? "Diplomatic Relations" : "Alliances"}</h1>
      </div>
      <Tabs
        label="Alliance views"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "system", label: "Alliance System" },
          { id: "intelligence", label: "Intelligence Operations" },
          { id: "diplomacy", label: "Diplomatic Relations" },
        ]}
      />
      {tab === "system" &&
        (status.isLoading ? (
          <Loading text="Loading alliance..." />
        ) : status.error ? (
          <div className="alert error" role="alert">
            {(status.error as Error).message}
          </div>
        ) : status.data?.alliance ? (
          <AllianceHome status={status.data} room={room} countryId={country.id} />
        ) : (
          <>
            {closedReason && (
              <div className="alert warn" role="alert" data-testid="alliance-closed">
                {closedReason}
              </div>
            )}
            <NoAlliance />
          </>
        ))}
      {tab === "intelligence" && <AllianceIntelligence country={country} />}
      {tab === "diplomacy" && <DiplomacyPanel countryId={country.id} />}
    </div>
  );
}
