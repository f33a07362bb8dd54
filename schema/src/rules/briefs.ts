/**
 * Intelligence briefs (News and Intelligence > Intelligence Briefs): the player's situation as
 * short assessments with a threat level, computed from what the server knows about the
 * player's own country: attacks it suffered, wars it is in, enemy spies it caught. Thresholds
 * in docs/rules.md, "Intelligence briefs".
 */

export type BriefThreat = "critical" | "high" | "medium" | "low";
export const THREAT_ORDER: Readonly<Record<BriefThreat, number>> = { critical: 0, high: 1, medium: 2, low: 3 };

/** Attacks within this window count as recent (ms): a day. */
export const BRIEF_WINDOW_MS = 86_400_000;
/** Land lost in the window at or above this share of the land is critical (percent). */
export const BRIEF_CRITICAL_LAND_PCT = 10;
/** This many attacks in the window is critical whatever they took. */
export const BRIEF_CRITICAL_ATTACKS = 3;
/** This many spies caught in the window is a high threat. */
export const BRIEF_HIGH_SPIES = 3;
/** Forces per acre under which an idle country is told its defenses are weak. */
export const BRIEF_WEAK_FORCES_PER_ACRE = 2;

export interface BriefInput {
  now: number;
  land: number;
  forces: number;
  /** battles where the country defended, newest first */
  attacks: { attackerName: string; attackType: string; repelled: boolean; landLost: number; at: number }[];
  /** active wars the country declared or received */
  wars: { opponentName: string; declaredByMe: boolean; since: number }[];
  /** enemy spy operations the country caught */
  spies: { spyName: string | null; operation: string; caught: number; at: number }[];
}

export interface IntelligenceBrief {
  id: string;
  category: "military" | "espionage" | "diplomatic";
  threat: BriefThreat;
  title: string;
  summary: string;
  details: string[];
  /** the view that deals with it */
  view: string;
  intent?: string;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The briefs, most threatening first. */
export function computeIntelligenceBriefs(input: BriefInput): IntelligenceBrief[] {
  const briefs: IntelligenceBrief[] = [];
  const recent = input.attacks.filter((a) => input.now - a.at <= BRIEF_WINDOW_MS);
  if (recent.length > 0) {
    const lost = recent.reduce((s, a) => s + a.landLost, 0);
    const repelled = recent.filter((a) => a.repelled).length;
    const attackers = [...new Set(recent.map((a) => a.attackerName))];
    const landBefore = input.land + lost;
    const threat: BriefThreat = recent.length >= BRIEF_CRITICAL_ATTACKS || (landBefore > 0 && lost * 100 >= landBefore * BRIEF_CRITICAL_LAND_PCT) ? "critical" : lost > 0 ? "high" : "medium";
    briefs.push({
      id: "attacks",
      category: "military",
      threat,
      title: lost > 0 ? "Your country is under attack" : "Attacks repelled",
      summary: `${count(recent.length, "attack")} in the last 24 hours by ${attackers.join(", ")}; ${repelled} ${repelled === 1 ? "was" : "were"} repelled${lost > 0 ? `, ${count(lost, "acre")} lost` : ""}.`,
      details: recent.slice(0, 5).map((a) => `${a.attackerName}: ${a.attackType.replace(/_/g, " ")}, ${a.repelled ? "repelled" : `${count(a.landLost, "acre")} lost`}`),
      view: "military",
      intent: "defense",
    });
  }
  for (const w of input.wars) {
    briefs.push({
      id: `war-${w.opponentName}`,
      category: "diplomatic",
      threat: w.declaredByMe ? "medium" : "high",
      title: w.declaredByMe ? `At war with ${w.opponentName}` : `${w.opponentName} declared war on you`,
      summary: w.declaredByMe ? `Your war on ${w.opponentName} costs upkeep every turn until you make peace.` : `${w.opponentName} may attack without the usual limits while the war lasts. Prepare your defenses.`,
      details: [`Since ${new Date(w.since).toISOString().slice(0, 16).replace("T", " ")} UTC`],
      view: "war-room",
    });
  }
  const spies = input.spies.filter((s) => input.now - s.at <= BRIEF_WINDOW_MS);
  if (spies.length > 0) {
    const caught = spies.reduce((s, x) => s + x.caught, 0);
    briefs.push({
      id: "spies",
      category: "espionage",
      threat: spies.length >= BRIEF_HIGH_SPIES ? "high" : "medium",
      title: "Enemy spies detected",
      summary: `${count(spies.length, "spy operation")} against you in the last 24 hours; ${count(caught, "spy", "spies")} caught.`,
      details: spies.slice(0, 5).map((s) => `${s.spyName ?? "Unknown country"}: ${s.operation}`),
      view: "spy-center",
    });
  }
  if (briefs.length === 0) {
    const ratio = input.land > 0 ? input.forces / input.land : 0;
    briefs.push(
      ratio < BRIEF_WEAK_FORCES_PER_ACRE
        ? {
            id: "weak-defenses",
            category: "military",
            threat: "medium",
            title: "Quiet, but lightly defended",
            summary: `No attacks, wars or spies in the last 24 hours, but ${ratio.toFixed(2)} units per acre invite raids (${BRIEF_WEAK_FORCES_PER_ACRE} or more advised).`,
            details: [],
            view: "military",
            intent: "production",
          }
        : { id: "quiet", category: "military", threat: "low", title: "All quiet", summary: "No attacks, wars or enemy spies in the last 24 hours.", details: [], view: "military" },
    );
  }
  return briefs
    .map((b, i) => ({ b, i }))
    .sort((x, y) => THREAT_ORDER[x.b.threat] - THREAT_ORDER[y.b.threat] || x.i - y.i)
    .map(({ b }) => b);
}
