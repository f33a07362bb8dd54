import { useMemo } from "react";
import {
  BUILDING_DEFINITIONS,
  BUILDING_TYPES,
  GOVERNMENTS,
  TECHNOLOGIES,
  TECHNOLOGY_IDS,
  computeBuildingMaintenance,
  computeMilitaryStrength,
  computeMilitaryUpkeep,
  computeNetworth,
  computeProductionBonuses,
  computeResearchPointsPerTurn,
} from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import { useSeason } from "../../realtime/hooks";
import { useProductionStatus, useTurnHistory } from "../../api/queries";
import { Panel, Stat } from "../../components/ui";
import { fmt, money, percent, signed, signedMoney, titleCase } from "../../components/format";

/** The dashboard flags the server networth when it differs from the local formula by more than this. */
export const NETWORTH_FLAG_THRESHOLD = 100;

export function SeasonBanner() {
  const season = useSeason();
  return (
    <div className="panel row between" data-testid="season-banner" style={{ borderColor: "var(--border-strong)" }}>
      <div>
        <div className="label">Season</div>
        <strong style={{ fontSize: "1.1rem" }}>{season?.name || "Loading..."}</strong>
      </div>
      <div className="row">
        <span className="muted">Live Game Server</span>
        {season && <span className={`badge ${season.active === "ACTIVE" ? "ok" : "bad"}`}>{season.active}</span>}
      </div>
    </div>
  );
}

export function CountryDashboard() {
  const { country, countryState, countryId, openReport } = useGame();
  const production = useProductionStatus(countryId);
  const history = useTurnHistory(Boolean(countryId));
  const local = useMemo(() => (countryState ? computeNetworth(countryState) : null), [countryState]);

  if (!country || !countryState) {
    return (
      <div className="stack">
        <SeasonBanner />
        <div className="panel muted center">No country data available</div>
      </div>
    );
  }
  const gov = GOVERNMENTS[country.governmentType];
  const p = production.data;
  const battles = country.victories + country.defeats;
  const winRate = battles > 0 ? (country.victories / battles) * 100 : 0;
  const networthDiff = local !== null ? country.networth - local : 0;
  const upkeep = computeMilitaryUpkeep(countryState);
  const maintenance = computeBuildingMaintenance(countryState.buildings, country.governmentType);
  const bonuses = computeProductionBonuses(countryState.tech);
  const recent = (history.data ?? []).slice(0, 5);

  return (
    <div className="stack" data-testid="dashboard">
      <SeasonBanner />
      <div className="grid">
        <Panel title={country.name}>
          <Stat label="Government" value={gov.name} />
          <Stat label="Networth" value={fmt(country.networth)} />
          {Math.abs(networthDiff) > NETWORTH_FLAG_THRESHOLD && local !== null && (
            <div className="alert warn small" role="note">
              Server networth differs from the computed networth ({fmt(local)}) by {fmt(Math.abs(networthDiff))}.
            </div>
          )}
          <Stat label="Turns" value={`${fmt(country.turnsAvailable)} (${fmt(country.storedTurns)})`} />
          <Stat label="Cash" value={money(country.cash)} />
          <Stat label="Income per turn" value={p ? signedMoney(p.cash) : "Loading income..."} />
          <Stat label="Population" value={fmt(country.population)} />
          <Stat label="Land" value={`${fmt(country.landAcres)} acres`} />
        </Panel>
        <Panel title="Production">
          <Stat label="Food" value={`${fmt(country.food)} bushels`} />
          <Stat label="Food per turn" value={p ? signed(p.food) : "Loading production..."} />
          <Stat label="Oil" value={`${fmt(country.oil)} barrels`} />
          <Stat label="Oil per turn" value={p ? signed(p.oil) : "Loading production..."} />
          <Stat
            label="Units per turn"
            value={p ? `${fmt(p.troops)} troops, ${fmt(p.jets)} jets, ${fmt(p.tanks)} tanks, ${fmt(p.turrets)} turrets` : "Loading production..."}
          />
        </Panel>
        <Panel title="Military Forces">
          <Stat label="Troops" value={fmt(country.troops)} />
          <Stat label="Tanks" value={fmt(country.tanks)} />
          <Stat label="Jets" value={fmt(country.jets)} />
          <Stat label="Turrets" value={fmt(country.turrets)} />
          <Stat label="Military strength" value={fmt(computeMilitaryStrength(countryState))} />
          <Stat label="Victories" value={fmt(country.victories)} />
          <Stat label="Defeats" value={fmt(country.defeats)} />
          <Stat label="Win rate" value={battles > 0 ? percent(winRate) : "No battles yet"} />
        </Panel>
      </div>
      <div className="grid">
        <Panel title="Infrastructure">
          {BUILDING_TYPES.map((type) => (
            <Stat key={type} label={BUILDING_DEFINITIONS[type].name} value={fmt(countryState.buildings[type])} />
          ))}
        </Panel>
        <Panel title="Technology and Research">
          {TECHNOLOGY_IDS.map((t) => (
            <Stat key={t} label={TECHNOLOGIES[t].name} value={`Level ${fmt(countryState.tech[t])}${bonuses[t] ? ` (+${percent(bonuses[t] * 100)})` : ""}`} />
          ))}
          <Stat label="Research points" value={fmt(country.researchPoints)} />
          <Stat label="Points per turn" value={fmt(computeResearchPointsPerTurn(countryState))} />
        </Panel>
        <Panel title="Government Effects">
          <p className="muted small">{gov.description}</p>
          <ul style={{ margin: 0, paddingLeft: "1.1rem" }}>
            {gov.bonusText.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </Panel>
      </div>
      <div className="grid">
        <Panel title="War Costs">
          <Stat label="Military upkeep per turn" value={money(upkeep)} />
          <Stat label="Building maintenance per turn" value={money(maintenance)} />
          <Stat label="War expenses to date" value={money(country.warExpenses)} />
        </Panel>
        <Panel title="Combat Record">
          <Stat label="Total battles" value={fmt(country.totalBattles)} />
          <Stat label="Land captured" value={`${fmt(country.totalLandCaptured)} acres`} />
          <Stat label="Combat efficiency" value={country.totalBattles > 0 ? percent(country.combatEfficiency, 0) : "—"} />
          {country.totalBattles === 0 && <p className="muted small" style={{ marginTop: "0.5rem" }}>No recent combat activity</p>}
        </Panel>
        <Panel title="Recent Turn Reports">
          {history.isPending && <p className="muted">Loading...</p>}
          {history.isError && <p className="muted">{history.error.message}</p>}
          {history.data && recent.length === 0 && <p className="muted">No turns spent yet.</p>}
          {recent.map((r) => (
            <div key={r.id} className="stat">
              <span className="k">
                {titleCase(r.actionType || "turn")} · {r.turnsConsumed} turn(s)
                <br />
                <span className="faint small">{new Date(r.timestamp).toLocaleString("en-US")}</span>
              </span>
              <button type="button" className="btn small" onClick={() => openReport(r)}>
                View report
              </button>
            </div>
          ))}
        </Panel>
      </div>
    </div>
  );
}
