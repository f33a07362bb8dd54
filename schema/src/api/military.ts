import { z } from "zod";
import { ATTACK_TYPE_IDS, type AllyContribution, type AttackPreview, type AttackTypeId, type BattlePhase, type IntelConfidence, type ResourceTally, type TargetAnalysis, type UnitTally } from "../rules/combat.js";
import type { BuildingCounts, UnitType } from "../rules/country.js";
import {
  ALERT_LEVELS,
  BRIGADE_COUNT,
  type AlertLevel,
  type BrigadeStatus,
  type DefenseAllocation,
  type Deployment,
  type MilitaryStatus,
} from "../rules/military.js";
import type { DefenseReview, DefenseSystem, StrategicObjective, ThreatAssessment } from "../rules/defense.js";
import type { WarStatus, WarEndReason } from "../rules/war.js";
import { idParamSchema, idSchema, limitSchema, offsetSchema } from "./common.js";
import type { OwnCountryJson } from "./countryFields.js";

/**
 * The military and war calls: GET /military/status/{countryId}, GET /military/brigades/
 * {countryId}, POST /military/use-brigade, /recover-readiness, /reduce-readiness (spec's
 * catalogue), the settings the spec kept locally (deployment, defense, alert level), missiles,
 * the GDI; POST /attack/validate-turns, /attack/preview, /attack/launch, /attack/cancel, GET
 * /attack/strikes, /attack/allies; GET /battle-reports and /battle-reports/{id}; POST
 * /war/declare, GET /war/declarations, POST /war/end.
 */

const count = (field: string) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be a whole number of 0 or more`)
    .max(1_000_000_000_000, `${field} is out of range`);

const percent = (field: string) =>
  z
    .number({ error: `${field} must be a whole percentage` })
    .int(`${field} must be a whole percentage`)
    .min(0, `${field} must be between 0 and 100`)
    .max(100, `${field} must be between 0 and 100`);

/** A brigade slot 1..5. */
const brigadeSlot = z
  .number({ error: "brigadeId must be a whole number" })
  .int("brigadeId must be a whole number")
  .min(1, `brigadeId must be between 1 and ${BRIGADE_COUNT}`)
  .max(BRIGADE_COUNT, `brigadeId must be between 1 and ${BRIGADE_COUNT}`);

/** Units of an order; every field optional (absent = 0). */
export const attackUnitsSchema = z.strictObject(
  {
    troops: count("troops").optional(),
    jets: count("jets").optional(),
    turrets: count("turrets").optional(),
    tanks: count("tanks").optional(),
    spies: count("spies").optional(),
    missiles: count("missiles").optional(),
  },
  { error: "units must map troops, jets, turrets, tanks, spies or missiles to whole numbers" },
);

/**
 * An attack type field: absent or null is read by the rules ('No attack type selected');
 * an unknown name is refused here.
 */
const attackTypeField = z.enum(ATTACK_TYPE_IDS, { error: "Unknown attack type" }).nullish();

/** POST /api/military/use-brigade, /recover-readiness, /reduce-readiness */
export const brigadeActionRequestSchema = z.object({ countryId: idSchema, brigadeId: brigadeSlot });

/** POST /api/military/deployment */
export const deploymentRequestSchema = z.object({
  countryId: idSchema,
  garrison: percent("garrison"),
  patrol: percent("patrol"),
  reserve: percent("reserve"),
  expedition: percent("expedition"),
});

/** POST /api/military/defense: alert level and/or the force allocation. */
export const defenseRequestSchema = z.object({
  countryId: idSchema,
  alertLevel: z.enum(ALERT_LEVELS, { error: `alertLevel must be one of ${ALERT_LEVELS.join(", ")}` }).optional(),
  allocation: z
    .object({ garrison: percent("garrison"), perimeter: percent("perimeter"), airDefense: percent("airDefense"), counterIntel: percent("counterIntel") })
    .optional(),
});

/** POST /api/military/missiles/buy */
export const buyMissilesRequestSchema = z.object({ countryId: idSchema, quantity: count("quantity") });

/** POST /api/military/gdi/join, /gdi/leave */
export const gdiRequestSchema = z.object({ countryId: idSchema });

/** POST /api/attack/validate-turns {countryId, attackType} */
export const validateTurnsRequestSchema = z.object({ countryId: idSchema, attackType: attackTypeField });

/** Alliance support as the order asks for it. */
const allianceSupportSchema = z.union([
  z.boolean(),
  z.object({
    enabled: z.boolean({ error: "allianceSupport.enabled must be true or false" }),
    /** the allies ticked (absent: every active ally) */
    allies: z.array(idSchema).max(50, "At most 50 allies").optional(),
  }),
]);

/** POST /api/attack/preview */
export const attackPreviewRequestSchema = z.object({
  countryId: idSchema,
  targetCountryId: idSchema.nullish(),
  attackType: attackTypeField,
  units: attackUnitsSchema.default({}),
  allianceSupport: allianceSupportSchema.optional(),
});

/** POST /api/attack/launch: immediate, or at `scheduledFor` (ISO 8601); planned strikes wait 12 hours. */
export const attackLaunchRequestSchema = attackPreviewRequestSchema.extend({
  scheduledFor: z.iso.datetime({ offset: true, error: "scheduledFor must be an ISO 8601 date and time" }).nullish(),
  brigadeId: brigadeSlot.nullish(),
});

/** POST /api/attack/cancel */
export const cancelStrikeRequestSchema = z.object({ strikeId: idSchema });

/** GET /api/attack/allies/{countryId}?targetCountryId= */
export const alliesQuerySchema = z.object({ targetCountryId: idParamSchema.optional() });

/** Battle report outcomes. */
export const BATTLE_OUTCOMES = ["attacker_victory", "defender_victory"] as const;
export type BattleOutcomeId = (typeof BATTLE_OUTCOMES)[number];

/** GET /api/battle-reports?attackType=&outcome=&role=&limit=&offset= */
export const battleReportQuerySchema = z.object({
  attackType: z.enum(ATTACK_TYPE_IDS, { error: "Unknown attack type" }).optional(),
  /** victory / defeat from the caller's side, or the report's own outcome value */
  outcome: z.enum(["victory", "defeat", ...BATTLE_OUTCOMES], { error: "outcome must be victory, defeat, attacker_victory or defender_victory" }).optional(),
  role: z.enum(["attacker", "defender"], { error: "role must be attacker or defender" }).optional(),
  limit: limitSchema(20, 100),
  offset: offsetSchema,
});

/** GET /api/military/status/{countryId}, /military/brigades/{countryId}, /attack/allies/{countryId} */
export const militaryCountryParamsSchema = z.object({ countryId: idParamSchema });

/** GET /api/battle-reports/{id} */
export const battleReportParamsSchema = z.object({ id: idParamSchema });

/** POST /api/war/declare */
export const declareWarRequestSchema = z.object({ targetCountryId: idSchema.nullish() });
/** POST /api/war/end */
export const endWarRequestSchema = z.object({ declarationId: idSchema });

// ---------------------------------------------------------------------------------------
// Answers

/** One brigade as GET /military/brigades answers it. Times are ISO strings. */
export interface BrigadeJson {
  id: number;
  name: string;
  status: BrigadeStatus;
  /** its own readiness now, 0..100 */
  readiness: number;
  /** what combat uses: never above the country's readiness */
  effectiveReadiness: number;
  deployedUntil: string | null;
  rehabUntil: string | null;
  lastDeployed: string | null;
  /** dollars recover-readiness would cost now (0 at full readiness) */
  recoveryCost: number;
}

export interface BrigadesResponse {
  brigades: BrigadeJson[];
  /** brigades that could lead an attack now */
  ready: number;
  /** brigades on defensive duty */
  deployed: number;
}

/** The answer of a brigade action. */
export interface BrigadeActionResponse extends BrigadesResponse {
  brigade: BrigadeJson;
  /** dollars paid (recover-readiness) */
  cost?: number;
  country: OwnCountryJson;
}

/** Units in rehabilitation and until when. */
export interface RehabJson {
  troops: number;
  jets: number;
  tanks: number;
  /** the latest end, ISO */
  until: string | null;
}

/** GET /military/status/{countryId}: everything the Military, Strategy and Defense screens show. */
export interface MilitaryStatusJson extends MilitaryStatus {
  techEffects: { label: string; value: string }[];
  recommendations: string[];
  deployment: Deployment;
  deploymentGroups: Record<keyof Deployment, { troops: number; jets: number; turrets: number; tanks: number }>;
  defense: {
    alertLevel: AlertLevel;
    allocation: DefenseAllocation;
    readiness: number;
    averageCoverage: number;
    threats: ThreatAssessment;
    systems: DefenseSystem[];
    review: DefenseReview;
    /** missile interception chance per missile, percent */
    interceptChance: number;
  };
  brigades: BrigadesResponse;
  rehabilitation: RehabJson;
  missiles: { stock: number; capacity: number; price: number };
  protection: {
    status: "unprotected" | "gdi_protected" | "new_player_protection";
    protectedUntil: string;
    gdi: { member: boolean; joinedAt: string | null; leftAt: string | null; fee: number };
  };
  objectives: StrategicObjective[];
  production: {
    complexes: number;
    /** complexes producing every unit type (all of them while oil lasts) */
    activeComplexes: number;
    perComplex: Record<"troops" | "jets" | "turrets" | "tanks", number>;
    perTurn: Record<"troops" | "jets" | "turrets" | "tanks", number>;
    /** percent bonus (government and industrial tech) */
    bonusPct: number;
  };
  activeWars: number;
}

export interface MilitaryStatusResponse {
  status: MilitaryStatusJson;
}

/** POST /attack/validate-turns */
export interface ValidateTurnsResponse {
  valid: boolean;
  turnsRequired: number;
  turnsAvailable: number;
  /** 'Insufficient turns: need 2, have {n}' when not valid */
  message: string | null;
}

/** An ally as the attack preparation lists it. */
export interface AllySupportOfferJson {
  allianceId: number;
  allianceName: string | null;
  countryId: number;
  countryName: string;
  supportType: "forces";
  /** the units it would lend (25% of each) */
  availableForces: Partial<Record<UnitType, number>>;
  /** its power as a percent of the attacker's force (before the cap) */
  supportContribution: number;
  isActive: boolean;
  /** 'Alliance support unavailable (out of range or engaged)' when not active */
  reason: string | null;
}

export interface AlliesResponse {
  allies: AllySupportOfferJson[];
  /** total contribution after the cap, percent of the own force */
  estimatedContribution: number;
}

/** POST /attack/preview */
export interface AttackPreviewResponse {
  /** null until a target and an attack type are chosen */
  preview: AttackPreview | null;
  /** the first refusal the launch would answer now, or null */
  validation: { code: string; message: string } | null;
  target: { id: number; name: string; networth: number; land: number; protection_status: string } | null;
}

/** The spec's battle report (plus landDestroyed, buildings by type, missiles, seed). */
export interface BattleReportJson {
  id: number;
  /** null: a former country (its account was deleted); attackerName keeps its name */
  attackerCountryId: number | null;
  /** null: a former country (its account was deleted); defenderName keeps its name */
  defenderCountryId: number | null;
  attackerName: string;
  defenderName: string;
  attackType: AttackTypeId;
  outcome: BattleOutcomeId;
  /** ISO 8601 */
  timestamp: string;
  isPlayerAttacker: boolean;
  isPlayerDefender: boolean;
  attackerForces: UnitTally;
  /** in the attacker's copy an estimate (defenderSideConfidence); exact in the defender's */
  defenderForces: UnitTally;
  attackerCasualties: UnitTally;
  /** in the attacker's copy an estimate (defenderSideConfidence); exact in the defender's */
  defenderCasualties: UnitTally;
  /**
   * How exact this copy's defender side (defenderForces, defenderCasualties, the defending
   * allies' units and strength) is: the espionage confidence of the attacker's intelligence when
   * the battle was fought (`low` without any); null in the defender's copy, which is exact.
   * docs/rules.md, "What a battle report tells the attacker".
   */
  defenderSideConfidence: IntelConfidence | null;
  landCaptured: number;
  landDestroyed: number;
  resourcesGained: ResourceTally;
  resourcesLost: ResourceTally;
  buildingsDestroyed: number;
  buildingsCaptured: BuildingCounts;
  buildingsLost: BuildingCounts;
  populationKilled: number;
  attackPower: number;
  defensePower: number;
  powerRatio: number;
  efficiencyRating: number;
  strategicValue: number;
  attackerTechBonus: number;
  defenderTechBonus: number;
  weaponsEffectiveness: number;
  allianceSupport: { attackerAllies: AllyContribution[]; defenderAllies: AllyContribution[] };
  missilesLaunched: number;
  missilesIntercepted: number;
  combatLog: string[];
  /** the dice: replaying the battle with this seed gives this report */
  seed: number;
  warDeclared: boolean;
  strikeId: number | null;
}

export interface BattleReportsResponse {
  reports: BattleReportJson[];
  total: number;
}

export interface BattleReportResponse {
  report: BattleReportJson;
}

/**
 * GET /api/battle-reports/{id}/replay: the battle step by step, recomputed on the server from
 * the stored inputs and seed with the same pure rules (issue 30). `report` is the recomputed
 * report; the server answers only when it equals the stored one.
 */
export interface BattleReplayResponse {
  replay: {
    report: BattleReportJson;
    /** the resolution's steps in order; their lines are report.combatLog */
    phases: BattlePhase[];
  };
}

/** A planned strike or scheduled attack. */
export interface StrikeJson {
  id: number;
  kind: "planned" | "scheduled";
  attackType: AttackTypeId;
  /** null: a former country (its account was deleted); targetName keeps its name */
  targetCountryId: number | null;
  targetName: string;
  units: Partial<Record<UnitType | "missiles", number>>;
  allianceSupport: boolean;
  /** ISO */
  executeAt: string;
  state: "pending" | "executed" | "failed" | "cancelled";
  battleId: number | null;
  failure: string | null;
  createdAt: string;
}

export interface StrikesResponse {
  strikes: StrikeJson[];
}

/** POST /attack/launch: the battle now, or the strike that will run it. */
export type AttackLaunchResponse =
  | { executed: true; report: BattleReportJson; country: OwnCountryJson }
  | { executed: false; strike: StrikeJson; country: OwnCountryJson };

/** The spec's war declaration (targetName, status, declaredAt, remainingTime in seconds) plus who and what. */
export interface WarDeclarationJson {
  id: number;
  /** null: a former country (its account was deleted); declarerName keeps its name */
  declarerId: number | null;
  declarerName: string;
  /** null: a former country (its account was deleted); targetName keeps its name */
  targetId: number | null;
  targetName: string;
  status: WarStatus;
  /** ISO */
  declaredAt: string;
  remainingTime: number;
  endedAt: string | null;
  endReason: WarEndReason | null;
  /** dollars charged so far */
  totalCost: number;
  /** dollars per turn at the target's land now */
  costPerTurn: number;
  /** whether the caller declared it (false: the caller is its target) */
  isDeclarer: boolean;
  /** the declarer may end it now */
  canEnd: boolean;
}

export interface WarDeclarationsResponse {
  declarations: WarDeclarationJson[];
}

export interface WarDeclarationResponse {
  declaration: WarDeclarationJson;
  country?: OwnCountryJson;
}

export type { AttackPreview, TargetAnalysis };
