import { z } from "zod";
import { ATTACK_TYPE_IDS, type AllyContribution, type AttackPreview, type BattlePhase, type IntelConfidence, type ResourceTally, type TargetAnalysis, type UnitTally } from "../rules/combat.js";
import { UNIT_TYPES } from "../rules/country.js";
import { ALERT_LEVELS, BRIGADE_COUNT, type DefenseAllocation, type Deployment, type MilitaryStatus } from "../rules/military.js";
import type { DefenseReview, DefenseSystem, StrategicObjective, ThreatAssessment } from "../rules/defense.js";
import type { WarEndReason } from "../rules/war.js";
import { idParamSchema, idSchema, limitSchema, offsetSchema } from "./common.js";
import { ownCountryJsonSchema } from "./countryViews.js";
import { buildingCountsSchema, num } from "./rulesJson.js";

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
  allocation: z.object({ garrison: percent("garrison"), perimeter: percent("perimeter"), airDefense: percent("airDefense"), counterIntel: percent("counterIntel") }).optional(),
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
// Answers. The rules' result types they carry have their schema here, checked against the
// rules type at compile time (`satisfies`).

export const unitTypeSchema = z.enum(UNIT_TYPES);
const attackTypeSchema = z.enum(ATTACK_TYPE_IDS);
const unitCountsSchema = z.object({ troops: num, jets: num, turrets: num, tanks: num });
const unitTallySchema = z.record(unitTypeSchema, num) satisfies z.ZodType<UnitTally>;
const resourceTallySchema = z.object({ cash: num, food: num, oil: num }) satisfies z.ZodType<ResourceTally>;
const intelConfidenceSchema = z.enum(["verified", "high", "medium", "low"]) satisfies z.ZodType<IntelConfidence>;
export const deploymentSchema = z.object({ garrison: num, patrol: num, reserve: num, expedition: num }) satisfies z.ZodType<Deployment>;
export const defenseAllocationSchema = z.object({ garrison: num, perimeter: num, airDefense: num, counterIntel: num }) satisfies z.ZodType<DefenseAllocation>;
export const alertLevelSchema = z.enum(ALERT_LEVELS);

const militaryStatusSchema = z.object({
  totalStrength: num,
  upkeep: num,
  readiness: num,
  offensiveCapability: num,
  defensiveCapability: num,
  warning: z.string().nullable(),
  units: z.array(z.object({ unit: unitTypeSchema, count: num, strength: num, upkeep: num })),
  strengthMultiplier: num,
}) satisfies z.ZodType<MilitaryStatus>;

const threatAssessmentSchema = z.object({ missile: num, air: num, ground: num, spy: num }) satisfies z.ZodType<ThreatAssessment>;
const defenseSystemSchema = z.object({
  id: z.enum(["sdi", "air_defense", "counter_intel", "fortification"]),
  name: z.string(),
  type: z.enum(["missile_defense", "air_defense", "counter_intelligence", "fortification"]),
  level: num,
  maxLevel: num,
  effectiveness: num,
  coverage: num,
  upkeep: num,
  description: z.string(),
  requiredTech: z.string(),
}) satisfies z.ZodType<DefenseSystem>;
const defenseReviewSchema = z.object({ strengths: z.array(z.string()), vulnerabilities: z.array(z.string()), recommendations: z.array(z.string()) }) satisfies z.ZodType<DefenseReview>;
const strategicObjectiveSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(["defense", "offense", "reconnaissance", "support"]),
  priority: z.enum(["high", "medium", "low"]),
  progress: num,
  deadline: num.nullable(),
  requiredForces: unitCountsSchema,
}) satisfies z.ZodType<StrategicObjective>;

const targetAnalysisSchema = z.object({
  targetId: num,
  networthRatio: num,
  militaryRatio: num.nullable(),
  threat: z.enum(["easy", "medium", "hard", "impossible"]),
  successChance: num,
  landRatio: num,
  sizeClass: z.enum(["much_larger", "larger", "similar", "smaller", "much_smaller"]),
  strategicValue: num,
  recommendedUnits: num.nullable(),
  powerBand: z.enum(["OVERWHELMING", "SUPERIOR", "FAVORABLE", "EVEN", "CHALLENGING", "DANGEROUS"]).nullable(),
  basis: z.enum(["intelligence", "public"]),
  confidence: intelConfidenceSchema.nullable(),
}) satisfies z.ZodType<TargetAnalysis>;

const attackPreviewSchema = z.object({
  attackType: attackTypeSchema,
  turnCost: num,
  attackPower: num,
  defensePower: z.object({ low: num, expected: num, high: num }).nullable(),
  successChance: num,
  basis: z.enum(["intelligence", "public"]),
  analysis: targetAnalysisSchema,
  expectedLand: num,
  landAllowance: num,
  notes: z.array(z.string()),
}) satisfies z.ZodType<AttackPreview>;

const allyContributionSchema = z.object({ countryId: num, name: z.string(), units: z.partialRecord(unitTypeSchema, num), power: num }) satisfies z.ZodType<AllyContribution>;

const battlePhaseSchema = z.object({
  kind: z.enum(["forces", "attack", "defense", "clash", "casualties", "outcome", "land", "plunder", "destruction", "launch", "interception", "impact", "damage"]),
  title: z.string(),
  lines: z.array(z.string()),
  attackPower: num.nullable(),
  defensePower: num.nullable(),
  attackerLosses: unitTallySchema,
  defenderLosses: unitTallySchema,
  landTaken: num,
  buildingsLost: num,
  populationKilled: num,
  plunder: resourceTallySchema,
  missilesHit: num,
  missilesIntercepted: num,
}) satisfies z.ZodType<BattlePhase>;

/** One brigade as GET /military/brigades answers it. Times are ISO strings. */
export const brigadeJsonSchema = z.object({
  id: num,
  name: z.string(),
  status: z.enum(["ready", "deployed", "recovering"]),
  /** its own readiness now, 0..100 */
  readiness: num,
  /** what combat uses: never above the country's readiness */
  effectiveReadiness: num,
  deployedUntil: z.string().nullable(),
  rehabUntil: z.string().nullable(),
  lastDeployed: z.string().nullable(),
  /** dollars recover-readiness would cost now (0 at full readiness) */
  recoveryCost: num,
});
export type BrigadeJson = z.infer<typeof brigadeJsonSchema>;

export const brigadesResponseSchema = z.object({
  brigades: z.array(brigadeJsonSchema),
  /** brigades that could lead an attack now */
  ready: num,
  /** brigades on defensive duty */
  deployed: num,
});
export type BrigadesResponse = z.infer<typeof brigadesResponseSchema>;

/** The answer of a brigade action. */
export const brigadeActionResponseSchema = brigadesResponseSchema.extend({
  brigade: brigadeJsonSchema,
  /** dollars paid (recover-readiness) */
  cost: num.optional(),
  country: ownCountryJsonSchema,
});
export type BrigadeActionResponse = z.infer<typeof brigadeActionResponseSchema>;

/** Units in rehabilitation and until when. */
export const rehabJsonSchema = z.object({
  troops: num,
  jets: num,
  tanks: num,
  /** the latest end, ISO */
  until: z.string().nullable(),
});
export type RehabJson = z.infer<typeof rehabJsonSchema>;

/** GET /military/status/{countryId}: everything the Military, Strategy and Defense screens show. */
export const militaryStatusJsonSchema = militaryStatusSchema.extend({
  techEffects: z.array(z.object({ label: z.string(), value: z.string() })),
  recommendations: z.array(z.string()),
  deployment: deploymentSchema,
  deploymentGroups: z.object({ garrison: unitCountsSchema, patrol: unitCountsSchema, reserve: unitCountsSchema, expedition: unitCountsSchema }),
  defense: z.object({
    alertLevel: alertLevelSchema,
    allocation: defenseAllocationSchema,
    readiness: num,
    averageCoverage: num,
    threats: threatAssessmentSchema,
    systems: z.array(defenseSystemSchema),
    review: defenseReviewSchema,
    /** missile interception chance per missile, percent */
    interceptChance: num,
  }),
  brigades: brigadesResponseSchema,
  rehabilitation: rehabJsonSchema,
  missiles: z.object({ stock: num, capacity: num, price: num }),
  protection: z.object({
    status: z.enum(["unprotected", "gdi_protected", "new_player_protection"]),
    protectedUntil: z.string(),
    gdi: z.object({ member: z.boolean(), joinedAt: z.string().nullable(), leftAt: z.string().nullable(), fee: num }),
  }),
  objectives: z.array(strategicObjectiveSchema),
  production: z.object({
    complexes: num,
    /** complexes producing every unit type (all of them while oil lasts) */
    activeComplexes: num,
    perComplex: unitCountsSchema,
    perTurn: unitCountsSchema,
    /** percent bonus (government and industrial tech) */
    bonusPct: num,
  }),
  activeWars: num,
});
export type MilitaryStatusJson = z.infer<typeof militaryStatusJsonSchema>;

export const militaryStatusResponseSchema = z.object({
  status: militaryStatusJsonSchema,
});
export type MilitaryStatusResponse = z.infer<typeof militaryStatusResponseSchema>;

/** POST /attack/validate-turns */
export const validateTurnsResponseSchema = z.object({
  valid: z.boolean(),
  turnsRequired: num,
  turnsAvailable: num,
  /** 'Insufficient turns: need 2, have {n}' when not valid */
  message: z.string().nullable(),
});
export type ValidateTurnsResponse = z.infer<typeof validateTurnsResponseSchema>;

/** An ally as the attack preparation lists it. */
export const allySupportOfferJsonSchema = z.object({
  allianceId: num,
  allianceName: z.string().nullable(),
  countryId: num,
  countryName: z.string(),
  supportType: z.literal("forces"),
  /** the units it would lend (25% of each) */
  availableForces: z.partialRecord(unitTypeSchema, num),
  /** its power as a percent of the attacker's force (before the cap) */
  supportContribution: num,
  isActive: z.boolean(),
  /** 'Alliance support unavailable (out of range or engaged)' when not active */
  reason: z.string().nullable(),
});
export type AllySupportOfferJson = z.infer<typeof allySupportOfferJsonSchema>;

export const alliesResponseSchema = z.object({
  allies: z.array(allySupportOfferJsonSchema),
  /** total contribution after the cap, percent of the own force */
  estimatedContribution: num,
});
export type AlliesResponse = z.infer<typeof alliesResponseSchema>;

/** POST /attack/preview */
export const attackPreviewResponseSchema = z.object({
  /** null until a target and an attack type are chosen */
  preview: attackPreviewSchema.nullable(),
  /** the first refusal the launch would answer now, or null */
  validation: z.object({ code: z.string(), message: z.string() }).nullable(),
  target: z.object({ id: num, name: z.string(), networth: num, land: num, protection_status: z.string() }).nullable(),
});
export type AttackPreviewResponse = z.infer<typeof attackPreviewResponseSchema>;

/** The spec's battle report (plus landDestroyed, buildings by type, missiles, seed). */
export const battleReportJsonSchema = z.object({
  id: num,
  /** null: a former country (its account was deleted); attackerName keeps its name */
  attackerCountryId: num.nullable(),
  /** null: a former country (its account was deleted); defenderName keeps its name */
  defenderCountryId: num.nullable(),
  attackerName: z.string(),
  defenderName: z.string(),
  attackType: attackTypeSchema,
  outcome: z.enum(BATTLE_OUTCOMES),
  /** ISO 8601 */
  timestamp: z.string(),
  isPlayerAttacker: z.boolean(),
  isPlayerDefender: z.boolean(),
  attackerForces: unitTallySchema,
  /** in the attacker's copy an estimate (defenderSideConfidence); exact in the defender's */
  defenderForces: unitTallySchema,
  attackerCasualties: unitTallySchema,
  /** in the attacker's copy an estimate (defenderSideConfidence); exact in the defender's */
  defenderCasualties: unitTallySchema,
  /**
   * How exact this copy's defender side (defenderForces, defenderCasualties, the defending
   * allies' units and strength) is: the espionage confidence of the attacker's intelligence when
   * the battle was fought (`low` without any); null in the defender's copy, which is exact.
   * docs/rules.md, "What a battle report tells the attacker".
   */
  defenderSideConfidence: intelConfidenceSchema.nullable(),
  landCaptured: num,
  landDestroyed: num,
  resourcesGained: resourceTallySchema,
  resourcesLost: resourceTallySchema,
  buildingsDestroyed: num,
  buildingsCaptured: buildingCountsSchema,
  buildingsLost: buildingCountsSchema,
  populationKilled: num,
  attackPower: num,
  defensePower: num,
  powerRatio: num,
  efficiencyRating: num,
  strategicValue: num,
  attackerTechBonus: num,
  defenderTechBonus: num,
  weaponsEffectiveness: num,
  allianceSupport: z.object({ attackerAllies: z.array(allyContributionSchema), defenderAllies: z.array(allyContributionSchema) }),
  missilesLaunched: num,
  missilesIntercepted: num,
  combatLog: z.array(z.string()),
  /** the dice: replaying the battle with this seed gives this report */
  seed: num,
  warDeclared: z.boolean(),
  strikeId: num.nullable(),
});
export type BattleReportJson = z.infer<typeof battleReportJsonSchema>;

export const battleReportsResponseSchema = z.object({
  reports: z.array(battleReportJsonSchema),
  total: num,
});
export type BattleReportsResponse = z.infer<typeof battleReportsResponseSchema>;

export const battleReportResponseSchema = z.object({
  report: battleReportJsonSchema,
});
export type BattleReportResponse = z.infer<typeof battleReportResponseSchema>;

/**
 * GET /api/battle-reports/{id}/replay: the battle step by step, recomputed on the server from
 * the stored inputs and seed with the same pure rules (issue 30). `report` is the recomputed
 * report; the server answers only when it equals the stored one.
 */
export const battleReplayResponseSchema = z.object({
  replay: z.object({
    report: battleReportJsonSchema,
    /** the resolution's steps in order; their lines are report.combatLog */
    phases: z.array(battlePhaseSchema),
  }),
});
export type BattleReplayResponse = z.infer<typeof battleReplayResponseSchema>;

/** A planned strike or scheduled attack. */
export const strikeJsonSchema = z.object({
  id: num,
  kind: z.enum(["planned", "scheduled"]),
  attackType: attackTypeSchema,
  /** null: a former country (its account was deleted); targetName keeps its name */
  targetCountryId: num.nullable(),
  targetName: z.string(),
  units: z.partialRecord(z.enum([...UNIT_TYPES, "missiles"]), num),
  allianceSupport: z.boolean(),
  /** ISO */
  executeAt: z.string(),
  state: z.enum(["pending", "executed", "failed", "cancelled"]),
  battleId: num.nullable(),
  failure: z.string().nullable(),
  createdAt: z.string(),
});
export type StrikeJson = z.infer<typeof strikeJsonSchema>;

export const strikesResponseSchema = z.object({
  strikes: z.array(strikeJsonSchema),
});
export type StrikesResponse = z.infer<typeof strikesResponseSchema>;

/** POST /attack/launch: the battle now, or the strike that will run it. */
export const attackLaunchResponseSchema = z.union([
  z.object({ executed: z.literal(true), report: battleReportJsonSchema, country: ownCountryJsonSchema }),
  z.object({ executed: z.literal(false), strike: strikeJsonSchema, country: ownCountryJsonSchema }),
]);
export type AttackLaunchResponse = z.infer<typeof attackLaunchResponseSchema>;

/** The spec's war declaration (targetName, status, declaredAt, remainingTime in seconds) plus who and what. */
export const warDeclarationJsonSchema = z.object({
  id: num,
  /** null: a former country (its account was deleted); declarerName keeps its name */
  declarerId: num.nullable(),
  declarerName: z.string(),
  /** null: a former country (its account was deleted); targetName keeps its name */
  targetId: num.nullable(),
  targetName: z.string(),
  status: z.enum(["active", "cooldown", "ended"]),
  /** ISO */
  declaredAt: z.string(),
  remainingTime: num,
  endedAt: z.string().nullable(),
  endReason: z.enum(["declared_peace", "bankrupt", "season_end", "country_deleted"] as const satisfies readonly WarEndReason[]).nullable(),
  /** dollars charged so far */
  totalCost: num,
  /** dollars per turn at the target's land now */
  costPerTurn: num,
  /** whether the caller declared it (false: the caller is its target) */
  isDeclarer: z.boolean(),
  /** the declarer may end it now */
  canEnd: z.boolean(),
});
export type WarDeclarationJson = z.infer<typeof warDeclarationJsonSchema>;

export const warDeclarationsResponseSchema = z.object({
  declarations: z.array(warDeclarationJsonSchema),
});
export type WarDeclarationsResponse = z.infer<typeof warDeclarationsResponseSchema>;

export const warDeclarationResponseSchema = z.object({
  declaration: warDeclarationJsonSchema,
  country: ownCountryJsonSchema.optional(),
});
export type WarDeclarationResponse = z.infer<typeof warDeclarationResponseSchema>;

export type { AttackPreview, TargetAnalysis };
