import { lazy, Suspense, useState } from "react";
import type { BattleReportJson } from "@game/schema/api";
import { ATTACK_TYPES, BUILDING_DEFINITIONS, BUILDING_TYPES, UNIT_LABELS, UNIT_TYPES } from "@game/schema/rules";
import { Loading, Stat } from "../../components/ui";
import { SideScroll } from "../../components/SideScroll";
import { dateTimeText, decimal2, fmt, money } from "../../components/format";

import { viewerWon } from "./viewerWon";

export { viewerWon };

/** The replay is its own chunk: most report readers never open it. */
const BattleReplay = lazy(() => import("./BattleReplay").then((m) => ({ default: m.BattleReplay })));

/** A button that opens the battle's replay in place (issue 30). */
export function ReplayToggle({ battleId }: { battleId: number }) {
  const [open, setOpen] = useState(false);
  return open ? (
    <Suspense fallback={<Loading text="Loading the replay..." />}>
      <BattleReplay battleId={battleId} onClose={() => setOpen(false)} />
    </Suspense>
  ) : (
    <div>
      <button type="button" className="btn small" onClick={() => setOpen(true)} data-testid="replay-open">
        Watch the replay
      </button>
    </div>
  );
}

/** One battle report: every field of the spec's report and the combat log. */
export function BattleReportView({ report: r }: { report: BattleReportJson }) {
  const won = viewerWon(r);
  const captured = BUILDING_TYPES.filter((t) => r.buildingsCaptured[t] > 0);
  const lost = BUILDING_TYPES.filter((t) => r.buildingsLost[t] > 0);
  // the attacker's copy estimates the defender's side (docs/rules.md, "What a battle report tells the attacker")
  const estimated = r.defenderSideConfidence !== null && r.defenderSideConfidence !== "verified";
  return (
    <div className="stack battle-report" data-testid="battle-report">
      <div className={`alert ${won ? "info" : "warn"}`} data-testid="battle-outcome">
        <strong>{won ? "Victory" : "Defeat"}</strong>: {r.attackerName} attacked {r.defenderName} with a {ATTACK_TYPES[r.attackType]?.name ?? r.attackType} on {dateTimeText(r.timestamp)}.
      </div>
      <ReplayToggle battleId={r.id} />
      <SideScroll label="Units of both sides" testId="report-units">
        <table className="table">
          <thead>
            <tr>
              <th>Units</th>
              <th className="n">Attacker sent</th>
              <th className="n">Attacker lost</th>
              <th className="n">Defender fought{estimated ? " (about)" : ""}</th>
              <th className="n">Defender lost{estimated ? " (about)" : ""}</th>
            </tr>
          </thead>
          <tbody>
            {UNIT_TYPES.map((u) => (
              <tr key={u}>
                <td>{UNIT_LABELS[u]}</td>
                <td className="n">{fmt(r.attackerForces[u])}</td>
                <td className="n">{fmt(r.attackerCasualties[u])}</td>
                <td className="n">{fmt(r.defenderForces[u])}</td>
                <td className="n">{fmt(r.defenderCasualties[u])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </SideScroll>
      {estimated && (
        <p className="muted" data-testid="report-estimate">
          The defender&apos;s numbers are estimates at {r.defenderSideConfidence} confidence: your intelligence on {r.defenderName} when the battle was fought decides how close they are.
        </p>
      )}
      <div className="grid">
        <div>
          <Stat label="Land captured" value={`${fmt(r.landCaptured)} acres`} testId="report-land" />
          {r.landDestroyed > 0 && <Stat label="Land destroyed" value={`${fmt(r.landDestroyed)} acres`} />}
          <Stat label="Buildings destroyed" value={fmt(r.buildingsDestroyed)} />
          <Stat label="Buildings captured" value={captured.length ? captured.map((t) => `${fmt(r.buildingsCaptured[t])} ${BUILDING_DEFINITIONS[t].name}`).join(", ") : "none"} />
          {lost.length > 0 && <Stat label="Buildings lost by the defender" value={lost.map((t) => `${fmt(r.buildingsLost[t])} ${BUILDING_DEFINITIONS[t].name}`).join(", ")} />}
          <Stat label="Population killed" value={fmt(r.populationKilled)} />
          <Stat label="Resources gained" value={`${money(r.resourcesGained.cash)}, ${fmt(r.resourcesGained.food)} food, ${fmt(r.resourcesGained.oil)} oil`} />
          <Stat label="Resources lost" value={`${money(r.resourcesLost.cash)}, ${fmt(r.resourcesLost.food)} food, ${fmt(r.resourcesLost.oil)} oil`} />
          {r.missilesLaunched > 0 && <Stat label="Missiles" value={`${fmt(r.missilesLaunched)} launched, ${fmt(r.missilesIntercepted)} intercepted`} />}
        </div>
        <div>
          <Stat label="Attack power" value={fmt(r.attackPower)} />
          <Stat label="Defense power" value={fmt(r.defensePower)} />
          <Stat label="Power ratio" value={decimal2(r.powerRatio)} />
          <Stat label="Efficiency rating" value={`${r.efficiencyRating}%`} />
          <Stat label="Strategic value" value={`${r.strategicValue} / 100`} />
          <Stat label="Attacker tech bonus" value={`+${r.attackerTechBonus}%`} />
          <Stat label="Defender tech bonus" value={`+${r.defenderTechBonus}%`} />
          <Stat label="Weapons effectiveness" value={`${r.weaponsEffectiveness}%`} />
          <Stat label="Allied support" value={`${r.allianceSupport.attackerAllies.length} for the attacker, ${r.allianceSupport.defenderAllies.length} for the defender`} />
        </div>
      </div>
      <div>
        <div className="label">Combat log</div>
        <ol className="combat-log" data-testid="combat-log">
          {r.combatLog.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}
