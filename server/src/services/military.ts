import type { BrigadeActionResponse, BrigadeJson, BrigadesResponse, MilitaryStatusJson } from "@game/schema/api";
import {
  MISSILE_PRICE,
  PRODUCED_UNIT_TYPES,
  applyBuyMissiles,
  applyRecoverReadiness,
  applyReduceReadiness,
  applyUseBrigade,
  averageCoverage,
  brigadeName,
  brigadeStatus,
  checkBuyMissiles,
  checkDefenseAllocation,
  checkDeployment,
  checkJoinGdi,
  checkLeaveGdi,
  checkRecoverReadiness,
  checkReduceReadiness,
  checkUseBrigade,
  completeBrigades,
  computeBrigadeReadiness,
  computeDefenseReadiness,
  computeDefenseSystems,
  computeDeploymentGroups,
  computeEffectiveReadiness,
  computeGdiFee,
  computeInterceptChance,
  computeMilitaryStatus,
  computeMilitaryUpkeep,
  computeMissileCapacity,
  computeOutputPerComplex,
  computeProductionBonusPct,
  computeProtectionStatus,
  computeReadiness,
  computeRecoveryCost,
  computeStrategicObjectives,
  computeTechEffects,
  computeThreats,
  computeUnitProduction,
  countDeployedBrigades,
  countReadyBrigades,
  effectiveAllocation,
  militaryRecommendations,
  reviewDefense,
  WAR_MIN_DURATION_MS,
  type AlertLevel,
  type BrigadeRecord,
  type CombatPosture,
  type CountryState,
  type DefenseAllocation,
  type Deployment,
  type RuleRejection,
} from "@game/schema/rules";
import { rowToState, toOwnCountryJson, type CountryRow } from "../db/countries.js";
import { brigadeWriteStatement, findBrigades, findRecentThreats, findRehab, findSettings, gdiOf, postureOf, settingsWriteStatement } from "../db/military.js";
import { runCountriesAction } from "./actions.js";
import type { ServiceContext } from "./context.js";
import { ownCountryWith, type CountryOwner } from "./countries.js";
import { ruleError } from "./economy.js";

/**
 * The military's one-country actions and its read model: status (Military Command, Strategy,
 * Defense Configuration), brigades and their three actions, deployment, defense allocation and
 * alert level, missile purchases, GDI membership. Each action is one runCountriesAction.
 */

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** A brigade as the screens show it. */
export function toBrigadeJson(b: BrigadeRecord, country: CountryState, now: number): BrigadeJson {
  const readiness = computeBrigadeReadiness(b, now);
  const upkeep = computeMilitaryUpkeep(country);
  return {
    id: b.slot,
    name: brigadeName(b.slot),
    status: brigadeStatus(b, now),
    readiness,
    effectiveReadiness: computeEffectiveReadiness(readiness, computeReadiness(country.cash, upkeep)),
    deployedUntil: b.deployedUntil !== null && b.deployedUntil > now ? iso(b.deployedUntil) : null,
    rehabUntil: b.rehabUntil !== null && b.rehabUntil > now ? iso(b.rehabUntil) : null,
    lastDeployed: iso(b.lastDeployed),
    recoveryCost: computeRecoveryCost(b, now, upkeep),
  };
}

export function toBrigadesResponse(stored: readonly BrigadeRecord[], country: CountryState, now: number): BrigadesResponse {
  const all = completeBrigades(stored);
  return { brigades: all.map((b) => toBrigadeJson(b, country, now)), ready: countReadyBrigades(all, now), deployed: countDeployedBrigades(all, now) };
}

/** GET /military/brigades/{countryId}: the owner's row and brigades in one round trip. */
export async function brigadesOf(ctx: ServiceContext, owner: CountryOwner, countryId: number): Promise<BrigadesResponse> {
  const {
    country,
    values: [brigades],
  } = await ownCountryWith(ctx, owner, (db, id) => [findBrigades(db, id)] as const, { countryId });
  return toBrigadesResponse(brigades, rowToState(country), ctx.clock.now());
}

type BrigadeAction = "use" | "recover" | "reduce";

/**
 * use-brigade (defensive duty), recover-readiness (paid), reduce-readiness (stand down): one
 * country, its brigade read under the country's lock and written with the COMMIT.
 */
export async function brigadeAction(ctx: ServiceContext, userId: number, countryId: number, slot: number, action: BrigadeAction): Promise<BrigadeActionResponse> {
  const { result, rows } = await runCountriesAction(ctx, {
    name: `brigade_${action}`,
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(countries, tx) {
      const { state } = countries.get(countryId)!;
      const now = tx.now.getTime();
      const stored = await findBrigades(tx.client, countryId);
      const upkeep = computeMilitaryUpkeep(state);
      let rejection: RuleRejection | null;
      let brigade: BrigadeRecord;
      let next = state;
      let cost: number | undefined;
      if (action === "use") {
        rejection = checkUseBrigade(stored, slot, now);
        if (rejection) throw ruleError(rejection);
        brigade = applyUseBrigade(stored, slot, now);
      } else if (action === "reduce") {
        rejection = checkReduceReadiness(stored, slot, now);
        if (rejection) throw ruleError(rejection);
        brigade = applyReduceReadiness(stored, slot, now);
      } else {
        rejection = checkRecoverReadiness(stored, slot, now, state.cash, upkeep);
        if (rejection) throw ruleError(rejection);
        const recovered = applyRecoverReadiness(stored, slot, now, upkeep);
        brigade = recovered.brigade;
        cost = recovered.cost;
        next = { ...state, cash: state.cash - cost };
      }
      const all = completeBrigades([...stored.filter((b) => b.slot !== slot), brigade]).sort((a, b) => a.slot - b.slot);
      return {
        next: cost === undefined ? new Map() : new Map([[countryId, next]]),
        statements: [brigadeWriteStatement(countryId, brigade)],
        result: { brigade: toBrigadeJson(brigade, next, now), cost, all: toBrigadesResponse(all, next, now) },
      };
    },
  });
  return { ...result.all, brigade: result.brigade, ...(result.cost !== undefined ? { cost: result.cost } : {}), country: toOwnCountryJson(rows.get(countryId)!) };
}

/** POST /military/deployment: the force deployment (each 0..100, total at most 100). */
export async function setDeployment(ctx: ServiceContext, userId: number, countryId: number, deployment: Deployment): Promise<{ deployment: Deployment }> {
  const rejection = checkDeployment(deployment);
  if (rejection) throw ruleError(rejection);
  await updatePosture(ctx, userId, countryId, "deployment", (p) => ({ ...p, deployment: { ...deployment } }));
  return { deployment };
}

/** POST /military/defense: the alert level and/or the force allocation. */
export async function setDefense(ctx: ServiceContext, userId: number, countryId: number, change: { alertLevel?: AlertLevel; allocation?: DefenseAllocation }): Promise<{ alertLevel: AlertLevel; allocation: DefenseAllocation }> {
  if (change.allocation) {
    const rejection = checkDefenseAllocation(change.allocation);
    if (rejection) throw ruleError(rejection);
  }
  const posture = await updatePosture(ctx, userId, countryId, "defense", (p) => ({
    ...p,
    alertLevel: change.alertLevel ?? p.alertLevel,
    defense: change.allocation ? { ...change.allocation } : p.defense,
  }));
  return { alertLevel: posture.alertLevel, allocation: posture.defense };
}

async function updatePosture(ctx: ServiceContext, userId: number, countryId: number, name: string, change: (p: CombatPosture) => CombatPosture): Promise<CombatPosture> {
  const { result } = await runCountriesAction(ctx, {
    name: `military_${name}`,
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(_countries, tx) {
      const settings = await findSettings(tx.client, countryId);
      const gdi = gdiOf(false, settings);
      const posture = change(postureOf(settings));
      return { next: new Map(), statements: [settingsWriteStatement(countryId, posture, gdi, tx.now)], result: posture };
    },
  });
  return result;
}

/** POST /military/missiles/buy */
export async function buyMissiles(ctx: ServiceContext, userId: number, countryId: number, quantity: number) {
  const { rows } = await runCountriesAction(ctx, {
    name: "buy_missiles",
    actor: { userId, countryId },
    countryIds: [countryId],
    step(countries) {
      const { state } = countries.get(countryId)!;
      const rejection = checkBuyMissiles(state, quantity);
      if (rejection) throw ruleError(rejection);
      return { next: new Map([[countryId, applyBuyMissiles(state, quantity)]]), result: null };
    },
  });
  return { bought: quantity, cost: quantity * MISSILE_PRICE, country: toOwnCountryJson(rows.get(countryId)!) };
}

/** POST /military/gdi/join and /leave. */
export async function changeGdi(ctx: ServiceContext, userId: number, countryId: number, join: boolean) {
  const { result, rows } = await runCountriesAction(ctx, {
    name: join ? "gdi_join" : "gdi_leave",
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(countries, tx) {
      const { state, row } = countries.get(countryId)!;
      const now = tx.now.getTime();
      const settings = await findSettings(tx.client, countryId);
      const gdi = gdiOf(row.gdi_protection, settings);
      const rejection = join ? checkJoinGdi(state, gdi, now) : checkLeaveGdi(gdi, now);
      if (rejection) throw ruleError(rejection);
      const fee = join ? computeGdiFee(state.land) : 0;
      const times = join ? { joinedAt: now, leftAt: gdi.leftAt } : { joinedAt: gdi.joinedAt, leftAt: now };
      return {
        next: new Map([[countryId, { ...state, cash: state.cash - fee }]]),
        patches: new Map([[countryId, { gdi_protection: join }]]),
        statements: [settingsWriteStatement(countryId, postureOf(settings), times, tx.now)],
        result: { fee },
      };
    },
  });
  return { member: join, fee: result.fee, country: toOwnCountryJson(rows.get(countryId)!) };
}

const TECH_EFFECT_LABELS: Array<[string, (e: ReturnType<typeof computeTechEffects>) => string]> = [
  ["Military tech strength", (e) => `+${((e.strengthPermille - 1000) / 10).toFixed(1)}%`],
  ["Weapons (all units)", (e) => `+${e.weaponsStrengthPct - 100}%`],
  ["Warfare (troops, jets, tanks)", (e) => `+${e.warfareStrengthPct - 100}%`],
  ["Military strategy (whole force)", (e) => `+${e.strategyStrengthPct - 100}%`],
  ["Unit production (industrial)", (e) => `+${e.unitProductionPct - 100}%`],
  ["Missile interception (SDI)", (e) => `${e.missileDefensePct}%`],
];

/** GET /military/status/{countryId}: everything the military screens read, from the owner's row and settings. */
export async function militaryStatusOf(ctx: ServiceContext, country: CountryRow): Promise<MilitaryStatusJson> {
  const now = new Date(ctx.clock.now());
  const nowMs = now.getTime();
  const state = rowToState(country);
  const [settings, stored, rehab, threatsSeen, wars] = await Promise.all([
    findSettings(ctx.db, country.id),
    findBrigades(ctx.db, country.id),
    findRehab(ctx.db, country.id, now),
    findRecentThreats(ctx.db, country.id, now),
    ctx.db.query<{ n: number; first_declared: Date | null; land: number }>(
      `SELECT count(*)::int AS n, min(declared_at) AS first_declared,
              coalesce((SELECT sum(b.land_captured) FROM battles b JOIN war_declarations w ON w.target_id = b.defender_id AND w.declarer_id = b.attacker_id
                         WHERE w.declarer_id = $1 AND w.ended_at IS NULL AND b.created_at >= w.declared_at), 0)::bigint AS land
         FROM war_declarations WHERE declarer_id = $1 AND ended_at IS NULL`,
      [country.id],
    ),
  ]);
  const posture = postureOf(settings);
  const threats = computeThreats(threatsSeen);
  const systems = computeDefenseSystems(state, posture);
  const effects = computeTechEffects(state.tech);
  const alloc = effectiveAllocation(state.unitAllocation);
  const war = wars.rows[0]!;
  const gdi = gdiOf(country.gdi_protection, settings);
  return {
    ...computeMilitaryStatus(state),
    techEffects: TECH_EFFECT_LABELS.map(([label, f]) => ({ label, value: f(effects) })),
    recommendations: militaryRecommendations(state),
    deployment: posture.deployment,
    deploymentGroups: computeDeploymentGroups(state, posture.deployment),
    defense: {
      alertLevel: posture.alertLevel,
      allocation: posture.defense,
      readiness: computeDefenseReadiness(state),
      averageCoverage: averageCoverage(systems),
      threats,
      systems,
      review: reviewDefense(state, posture, threats),
      interceptChance: Math.round(computeInterceptChance(state, posture) * 100),
    },
    brigades: toBrigadesResponse(stored, state, nowMs),
    rehabilitation: { troops: Number(rehab.troops), jets: Number(rehab.jets), tanks: Number(rehab.tanks), until: rehab.until?.toISOString() ?? null },
    missiles: { stock: state.missiles, capacity: computeMissileCapacity(state), price: MISSILE_PRICE },
    protection: {
      status: computeProtectionStatus({ protectedUntil: country.protected_until.getTime(), gdiMember: country.gdi_protection }, nowMs),
      protectedUntil: country.protected_until.toISOString(),
      gdi: { member: gdi.member, joinedAt: iso(gdi.joinedAt), leftAt: iso(gdi.leftAt), fee: computeGdiFee(state.land) },
    },
    objectives: computeStrategicObjectives(state, {
      warMinEndsAt: war.first_declared ? war.first_declared.getTime() + WAR_MIN_DURATION_MS : null,
      landCapturedInWar: Number(war.land),
    }),
    production: {
      complexes: state.buildings.industrial_complexes,
      activeComplexes: state.oil > 0 ? state.buildings.industrial_complexes : 0,
      perComplex: Object.fromEntries(PRODUCED_UNIT_TYPES.map((u) => [u, computeOutputPerComplex(alloc[u], u)])) as MilitaryStatusJson["production"]["perComplex"],
      perTurn: computeUnitProduction(state, state.oil > 0),
      bonusPct: computeProductionBonusPct(state),
    },
    activeWars: war.n,
  };
}
