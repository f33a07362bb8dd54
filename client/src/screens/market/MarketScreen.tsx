import { useState } from "react";
import { useGame } from "../../game/GameContext";
import { useMarketLive } from "../../realtime/market";
import { Loading, Tabs } from "../../components/ui";
import { PublicMarket } from "./PublicMarket";
import { GovernmentStore } from "./GovernmentStore";
import { StandingOrdersPanel } from "./StandingOrdersPanel";
import { TransactionHistory } from "./TransactionHistory";
import { MarketAnalytics } from "./MarketAnalytics";

/** The Market view's sub-tabs (spec). */
export const MARKET_TABS = [
  { id: "public", label: "Public Market" },
  { id: "store", label: "Government Store" },
  { id: "orders", label: "Standing Orders" },
  { id: "history", label: "Transaction History" },
  { id: "analytics", label: "Market Analytics" },
] as const;
export type MarketTab = (typeof MARKET_TABS)[number]["id"];

const isMarketTab = (value: string | undefined): value is MarketTab => MARKET_TABS.some((t) => t.id === value);

/**
 * The Market view ('Market' and 'Cash' in the menu): five sub-tabs on one live market. While
 * it is open the client watches the market through the world room.
 */
export function MarketScreen({ intent }: { intent?: string }) {
  const { country, countryState, countryId, countryError } = useGame();
  const [tab, setTab] = useState<MarketTab>(isMarketTab(intent) ? intent : "public");
  useMarketLive(countryId);
  if (!country || !countryState || !countryId) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading market interface..." />;
  return (
    <>
      <div className="page-header">
        <h1>Market</h1>
      </div>
      <Tabs<MarketTab> label="Market" value={tab} onChange={setTab} tabs={MARKET_TABS.map((t) => ({ id: t.id, label: t.label }))} />
      {tab === "public" && <PublicMarket countryId={countryId} country={countryState} />}
      {tab === "store" && <GovernmentStore countryId={countryId} country={countryState} />}
      {tab === "orders" && <StandingOrdersPanel countryId={countryId} country={countryState} />}
      {tab === "history" && <TransactionHistory countryId={countryId} />}
      {tab === "analytics" && <MarketAnalytics />}
    </>
  );
}
