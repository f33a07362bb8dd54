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
  BRIGADE_RECOVERY_PER_HOUR,
  plural,
} from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import { useSeason } from "../../realtime/hooks";
import { useProductionStatus, useTurnHistory } from "../../api/queries";
import { useBattleReports, useMilitaryStatus } from "../../api/military";
import { Panel, Stat } from "../../components/ui";
import { dateTimeText, fmt, money, percent, signed, signedMoney, timeText, titleCase } from "../../components/format";

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
          <Stat label="Oil" value={plural(country.oil, "barrel")} />
          <Stat label="Oil per turn" value={p ? signed(p.oil) : "Loading production..."} />
          <Stat label="Units per turn" value={p ? `${fmt(p.troops)} troops, ${fmt(p.jets)} jets, ${fmt(p.tanks)} tanks, ${fmt(p.turrets)} turrets` : "Loading production..."} />
        </Panel>
        <Panel title="Military Forces">
          <Stat label="Troops" value={fmt(country.troops)} />
          <Stat label="Tanks" value={fmt(country.tanks)} />
          <Stat label="Jets" value={fmt(country.jets)} />
          <Stat label="Turrets" value={fmt(country.turrets)} />
          <Stat label="Military strength" value={fmt(computeMilitaryStrength(countryState))} />
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
          <Stat label="Victories" value={fmt(country.victories)} testId="dash-victories" />
          <Stat label="Defeats" value={fmt(country.defeats)} testId="dash-defeats" />
          <Stat label="Win rate" value={battles > 0 ? percent(winRate) : "No battles yet"} testId="dash-winrate" />
          <Stat label="Land captured" value={`${fmt(country.totalLandCaptured)} acres`} />
          <Stat label="Combat efficiency" value={country.totalBattles > 0 ? percent(country.combatEfficiency, 0) : "—"} />
          {country.totalBattles === 0 && (
            <p className="muted small" style={{ marginTop: "0.5rem" }}>
              No recent combat activity
            </p>
          )}
        </Panel>
        <CombatRecovery countryId={country.id} />
        <Panel title="Recent Turn Reports">
          {history.isPending && <p className="muted">Loading...</p>}
          {history.isError && <p className="muted">{history.error.message}</p>}
          {history.data && recent.length === 0 && <p className="muted">No turns spent yet.</p>}
          {recent.map((r) => (
            <div key={r.id} className="stat">
              <span className="k">
                {titleCase(r.actionType || "turn")} · {r.turnsConsumed} turn(s)
                <br />
                <span className="faint small">{dateTimeText(r.timestamp)}</span>
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

/** Hours a brigade needs from its readiness to 100 (it recovers 10 points an hour). */
function hoursToFull(readiness: number): number {
  return Math.ceil((100 - readiness) / BRIGADE_RECOVERY_PER_HOUR);
}

/**
 * Combat damage and recovery from real data (the spec's dashboard had placeholders): what the
 * last day's attacks took, the last week's losses, and how long until the brigades are ready
 * and the units in rehabilitation return.
 */
function CombatRecovery({ countryId }: { countryId: number }) {
  const status = useMilitaryStatus(countryId);
  const reports = useBattleReports({});
  const now = Date.now();
  if (!status.data || !reports.data)
    return (
      <Panel title="Combat Damage and Recovery">
        <p className="muted">Loading war data...</p>
      </Panel>
    );
  const mine = reports.data.reports;
  const dayAgo = now - 86_400_000;
  const weekAgo = now - 7 * 86_400_000;
  const landLost = mine.filter((r) => r.isPlayerDefender && Date.parse(r.timestamp) > dayAgo).reduce((s, r) => s + r.landCaptured + r.landDestroyed, 0);
  const unitsLost = mine.filter((r) => Date.parse(r.timestamp) > weekAgo).reduce((s, r) => s + Object.values(r.isPlayerAttacker ? r.attackerCasualties : r.defenderCasualties).reduce((a, b) => a + b, 0), 0);
  const b = status.data.brigades;
  const slowest = Math.max(0, ...b.brigades.map((x) => hoursToFull(x.readiness)));
  const rehab = status.data.rehabilitation;
  return (
    <Panel title="Combat Damage and Recovery" testId="combat-recovery">
      <Stat label="Land lost to attacks (24 h)" value={`${fmt(landLost)} acres`} />
      <Stat label="Units lost in battle (7 days)" value={fmt(unitsLost)} />
      <Stat label="Brigades ready" value={`${fmt(b.ready)} of ${b.brigades.length}`} />
      <Stat label="Full readiness in" value={slowest > 0 ? `${slowest} hour(s)` : "ready now"} />
      <Stat label="In rehabilitation" value={rehab.until ? `${fmt(rehab.troops + rehab.tanks + rehab.jets)} units until ${timeText(rehab.until)}` : "none"} />
    </Panel>
  );
}
