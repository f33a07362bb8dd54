import { useState } from "react";
import { useGame } from "../../game/GameContext";
import { Loading, Tabs } from "../../components/ui";
import { ExplorationCalculator } from "./ExplorationCalculator";
import { LandManagement } from "./LandManagement";

/** The explore view: Territory Exploration and Land Management. */
export function ExploreScreen() {
  const { country, countryError, explore, exploring } = useGame();
  const [tab, setTab] = useState<"explore" | "land">("explore");
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  return (
    <>
      <div className="page-header">
        <h1>Explore</h1>
      </div>
      <Tabs
        label="Explore sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "explore", label: "Territory Exploration" },
          { id: "land", label: "Land Management" },
        ]}
      />
      {tab === "explore" ? <ExplorationCalculator country={country} busy={exploring} onExplore={explore} /> : <LandManagement country={country} />}
    </>
  );
}
