import { useGame } from "../../game/GameContext";
import { Loading } from "../../components/ui";
import { BuildingsPanel } from "./BuildingsPanel";

export function BuildingsScreen() {
  const { country, countryError, construct, constructing } = useGame();
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  return (
    <>
      <div className="page-header">
        <h1>Buildings</h1>
      </div>
      <BuildingsPanel country={country} busy={constructing} onConstruct={construct} />
    </>
  );
}
