import { UNIT_TYPES, type UnitType } from "./country.js";
import { unitList, type AllyContribution, type BattlePhase, type IntelConfidence, type UnitTally } from "./combat.js";
import { estimate } from "./espionage.js";
import { Rng } from "./rng.js";

/**
 * What a battle report tells the attacker about the side that fought against it
 * (docs/rules.md, "What a battle report tells the attacker"). The defender's forces, its
 * casualties and each defending ally's units and strength are estimates with the espionage
 * error model (CONFIDENCE_SPREAD): at the confidence of the attacker's freshest unexpired
 * military intelligence on the defender when the battle was fought, else `low` (+-50%). Its own
 * side, the outcome, land, buildings, plunder and the two power totals stay exact. Before, a
 * 1-troop attack returned the defender's exact troops, jets, tanks, turrets and spies and each
 * ally's exact contribution: a spy report cheaper than espionage and without its noise.
 */

/** The confidence of a battle fought without intelligence on the defender. */
export const BATTLE_VIEW_DEFAULT_CONFIDENCE: IntelConfidence = "low";

/** The defender's side of a report, as the battle decided it. */
export interface DefenderSide {
  defenderName: string;
  defenderForces: UnitTally;
  defenderCasualties: UnitTally;
  defenderAllies: readonly AllyContribution[];
  combatLog: readonly string[];
}

/** The same, as the attacker reads it. */
export interface AttackerViewOfDefender {
  /** how exact the estimates are (verified: exact) */
  confidence: IntelConfidence;
  defenderForces: UnitTally;
  defenderCasualties: UnitTally;
  defenderAllies: AllyContribution[];
  combatLog: string[];
}

/**
 * The attacker's view of the defender's side. `seed` is the battle's: the same report reads the
 * same every time (a draw stream of its own, so the battle's replay is untouched).
 */
export function computeAttackerView(side: DefenderSide, confidence: IntelConfidence | null, seed: number): AttackerViewOfDefender {
  const level = confidence ?? BATTLE_VIEW_DEFAULT_CONFIDENCE;
  const rng = Rng.fromSeed((seed ^ ATTACKER_VIEW_SEED_SALT) >>> 0);
  const tally = (t: Partial<Record<UnitType, number>>): UnitTally => {
    const out = {} as UnitTally;
    for (const u of UNIT_TYPES) out[u] = estimate(rng, t[u] ?? 0, level);
    return out;
  };
  const defenderForces = tally(side.defenderForces);
  const estimatedCasualties = tally(side.defenderCasualties);
  // never more dead than the estimate says fought
  const defenderCasualties = {} as UnitTally;
  for (const u of UNIT_TYPES) defenderCasualties[u] = Math.min(estimatedCasualties[u], defenderForces[u]);
  const defenderAllies = side.defenderAllies.map((ally) => ({
    countryId: ally.countryId,
    name: ally.name,
    units: Object.fromEntries(Object.entries(ally.units).map(([u, n]) => [u, estimate(rng, n ?? 0, level)])) as Partial<Record<UnitType, number>>,
    power: estimate(rng, Math.round(ally.power), level),
  }));
  const combatLog = side.combatLog.map((line) => viewLine(side, line, level, defenderCasualties));
  return { confidence: level, defenderForces, defenderCasualties, defenderAllies, combatLog };
}

/** One combat log line as the attacker reads it: the defender's exact losses and allies' strength become estimates. */
function viewLine(side: DefenderSide, line: string, level: IntelConfidence, estimatedCasualties: UnitTally): string {
  if (level === "verified") return line;
  if (line === `${side.defenderName} lost ${unitList(side.defenderCasualties)}.`) return `${side.defenderName} lost about ${unitList(estimatedCasualties)}.`;
  if (ALLY_HELP_LINE.test(line)) return "Allied units answering the call for help joined the defence.";
  const reinforce = ALLY_REINFORCE_LINE.exec(line);
  if (reinforce) return `${reinforce[1]} the defence.`;
  return line;
}

/**
 * A battle's replay as the attacker watches it: the same rule as its report. Each phase's
 * defender losses are the report's estimated casualties in the share the battle had lost by
 * then (so the last phase ends on the report's numbers), and the phases' lines read as the
 * report's combat log does; its own side, the powers, land and plunder stay exact. Without
 * this, stepping through the replay would give back the exact counts the report withholds.
 */
export function attackerViewOfPhases(phases: readonly BattlePhase[], side: DefenderSide, view: AttackerViewOfDefender): BattlePhase[] {
  if (view.confidence === "verified") return [...phases];
  return phases.map((phase) => {
    const defenderLosses = {} as UnitTally;
    for (const u of UNIT_TYPES) {
      const exactTotal = side.defenderCasualties[u] ?? 0;
      defenderLosses[u] = exactTotal > 0 ? Math.round((view.defenderCasualties[u] * (phase.defenderLosses[u] ?? 0)) / exactTotal) : 0;
    }
    return { ...phase, defenderLosses, lines: phase.lines.map((line) => viewLine(side, line, view.confidence, view.defenderCasualties)) };
  });
}

/** Mixed into the battle's seed for the view's own draws. */
const ATTACKER_VIEW_SEED_SALT = 0x7e1e5c0e;
/** The combat log's lines that give the defending allies' strength (rules/combat.ts resolveBattle). */
const ALLY_HELP_LINE = /^Allied units answering the call for help add [\d,]+ strength to the defence\.$/;
const ALLY_REINFORCE_LINE = /^(\d+ allied (?:country reinforces|countries reinforce)) the defence with [\d,]+ strength\.$/;
