import type { AllyFacts, AttackTypeId, BattleReplayInput, BrigadeRecord, CombatPosture, GdiFacts, RehabUnits, TechLevels, WarDeclarationFacts } from "@game/schema/rules";
import { DEFAULT_ALERT_LEVEL, DEFAULT_DEFENSE_ALLOCATION, DEFAULT_DEPLOYMENT, TECHNOLOGY_IDS, computeAttackerView, type AlertLevel, type GovernmentType, type IntelConfidence } from "@game/schema/rules";
import type { BattleReportJson, StrikeJson, WarDeclarationJson } from "@game/schema/api";
import type { Db, DbClient } from "./pool.js";
import { idList, jsonbLiteral, sqlLiteral } from "./sqlLiteral.js";
import { COUNTRY_COLUMNS, type CountryRow } from "./countries.js";

/**
 * Queries of the military domain: settings, brigades, rehabilitation, battles, war
 * declarations and strikes. Reads inside an action go through the action's client (the
 * embedded database has one connection); writes inside an action are returned as SQL text
 * so they travel with the action's COMMIT.
 */

type Queryable = Db | DbClient;

// ---------------------------------------------------------------------------------------
// Settings

/** A military_settings row as JSON (row_to_json) or as pg returns it. */
export interface SettingsRow {
  country_id: number;
  deploy_garrison: number;
  deploy_patrol: number;
  deploy_reserve: number;
  deploy_expedition: number;
  def_garrison: number;
  def_perimeter: number;
  def_air: number;
  def_counter_intel: number;
  alert_level: AlertLevel;
  gdi_joined_at: string | Date | null;
  gdi_left_at: string | Date | null;
}

const ms = (value: string | Date | null | undefined): number | null => (value === null || value === undefined ? null : new Date(value).getTime());

/** A country's posture (the spec's defaults without a row). */
export function postureOf(row: SettingsRow | null | undefined): CombatPosture {
  if (!row) return { deployment: { ...DEFAULT_DEPLOYMENT }, defense: { ...DEFAULT_DEFENSE_ALLOCATION }, alertLevel: DEFAULT_ALERT_LEVEL };
  return {
    deployment: { garrison: row.deploy_garrison, patrol: row.deploy_patrol, reserve: row.deploy_reserve, expedition: row.deploy_expedition },
    defense: { garrison: row.def_garrison, perimeter: row.def_perimeter, airDefense: row.def_air, counterIntel: row.def_counter_intel },
    alertLevel: row.alert_level,
  };
}

/** GDI history of a country (membership itself is countries.gdi_protection). */
export function gdiOf(member: boolean, row: SettingsRow | null | undefined): GdiFacts {
  return { member, joinedAt: ms(row?.gdi_joined_at), leftAt: ms(row?.gdi_left_at) };
}

export async function findSettings(db: Queryable, countryId: number): Promise<SettingsRow | null> {
  const { rows } = await db.query<SettingsRow>("SELECT * FROM military_settings WHERE country_id = $1", [countryId]);
  return rows[0] ?? null;
}

/** The upsert of a country's settings (posture and GDI times), as SQL text. */
export function settingsWriteStatement(countryId: number, posture: CombatPosture, gdi: { joinedAt: number | null; leftAt: number | null }, now: Date): string {
  const d = posture.deployment;
  const a = posture.defense;
  const values = [
    countryId,
    d.garrison,
    d.patrol,
    d.reserve,
    d.expedition,
    a.garrison,
    a.perimeter,
    a.airDefense,
    a.counterIntel,
    posture.alertLevel,
    gdi.joinedAt === null ? null : new Date(gdi.joinedAt),
    gdi.leftAt === null ? null : new Date(gdi.leftAt),
    now,
  ].map(sqlLiteral);
  return `INSERT INTO military_settings (country_id, deploy_garrison, deploy_patrol, deploy_reserve, deploy_expedition, def_garrison, def_perimeter, def_air, def_counter_intel, alert_level, gdi_joined_at, gdi_left_at, updated_at)
VALUES (${values.join(", ")})
ON CONFLICT (country_id) DO UPDATE SET deploy_garrison = EXCLUDED.deploy_garrison, deploy_patrol = EXCLUDED.deploy_patrol, deploy_reserve = EXCLUDED.deploy_reserve,
  deploy_expedition = EXCLUDED.deploy_expedition, def_garrison = EXCLUDED.def_garrison, def_perimeter = EXCLUDED.def_perimeter, def_air = EXCLUDED.def_air,
  def_counter_intel = EXCLUDED.def_counter_intel, alert_level = EXCLUDED.alert_level, gdi_joined_at = EXCLUDED.gdi_joined_at, gdi_left_at = EXCLUDED.gdi_left_at,
  updated_at = EXCLUDED.updated_at`;
}

// ---------------------------------------------------------------------------------------
// Brigades and rehabilitation

/** A brigades row as JSON or as pg returns it. */
export interface BrigadeRow {
  country_id: number;
  slot: number;
  readiness: number;
  readiness_at: string | Date;
  deployed_until: string | Date | null;
  rehab_until: string | Date | null;
  last_deployed: string | Date | null;
}

export function brigadeOf(row: BrigadeRow): BrigadeRecord {
  return {
    slot: row.slot,
    readiness: row.readiness,
    readinessAt: ms(row.readiness_at)!,
    deployedUntil: ms(row.deployed_until),
    rehabUntil: ms(row.rehab_until),
    lastDeployed: ms(row.last_deployed),
  };
}

export async function findBrigades(db: Queryable, countryId: number): Promise<BrigadeRecord[]> {
  const { rows } = await db.query<BrigadeRow>("SELECT * FROM brigades WHERE country_id = $1 ORDER BY slot", [countryId]);
  return rows.map(brigadeOf);
}

const dateOrNull = (t: number | null) => sqlLiteral(t === null ? null : new Date(t));

/** The upsert of one brigade, as SQL text. */
export function brigadeWriteStatement(countryId: number, b: BrigadeRecord): string {
  return `INSERT INTO brigades (country_id, slot, readiness, readiness_at, deployed_until, rehab_until, last_deployed)
VALUES (${sqlLiteral(countryId)}, ${sqlLiteral(b.slot)}, ${sqlLiteral(b.readiness)}, ${dateOrNull(b.readinessAt)}, ${dateOrNull(b.deployedUntil)}, ${dateOrNull(b.rehabUntil)}, ${dateOrNull(b.lastDeployed)})
ON CONFLICT (country_id, slot) DO UPDATE SET readiness = EXCLUDED.readiness, readiness_at = EXCLUDED.readiness_at, deployed_until = EXCLUDED.deployed_until,
  rehab_until = EXCLUDED.rehab_until, last_deployed = EXCLUDED.last_deployed`;
}

/** The INSERT of units entering rehabilitation until `until` after battle `battleId`, as SQL text. */
export function rehabilitationInsertStatement(countryId: number, units: { troops: number; jets: number; tanks: number }, until: Date, battleId: number): string {
  return `INSERT INTO rehabilitation (country_id, troops, jets, tanks, until, battle_id) VALUES (${sqlLiteral(countryId)}, ${sqlLiteral(units.troops)}, ${sqlLiteral(units.jets)}, ${sqlLiteral(units.tanks)}, ${sqlLiteral(until)}, ${sqlLiteral(battleId)})`;
}

/** Units of a country in rehabilitation at `now`, and the latest end. */
export async function findRehab(db: Queryable, countryId: number, now: Date): Promise<RehabUnits & { until: Date | null }> {
  const { rows } = await db.query<{ troops: number; jets: number; tanks: number; until: Date | null }>(
    `SELECT coalesce(sum(troops), 0)::bigint AS troops, coalesce(sum(jets), 0)::bigint AS jets, coalesce(sum(tanks), 0)::bigint AS tanks, max(until) AS until
       FROM rehabilitation WHERE country_id = $1 AND until > $2`,
    [countryId, now],
  );
  return rows[0]!;
}

// ---------------------------------------------------------------------------------------
// Everything an attack reads beside the two locked rows (one round trip)

/** What the ally query returns per country. */
interface AllyJsonRow {
  id: number;
  name: string;
  government_type: GovernmentType;
  networth: number;
  troops: number;
  jets: number;
  turrets: number;
  tanks: number;
  spies: number;
  last_active: string;
  protected_until: string;
  is_eliminated: boolean;
  tech: Record<string, number>;
  brigades: BrigadeRow[];
}

/** An ally row's facts; its ready brigades are counted by the caller at `now`. */
export function allyOf(row: AllyJsonRow, readyBrigades: (brigades: BrigadeRecord[]) => number): AllyFacts {
  const tech = Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, Number(row.tech[`${id}_tech`] ?? 0)])) as TechLevels;
  return {
    id: row.id,
    name: row.name,
    governmentType: row.government_type,
    tech,
    units: { troops: row.troops, jets: row.jets, turrets: row.turrets, tanks: row.tanks, spies: row.spies },
    networth: row.networth,
    lastActive: ms(row.last_active)!,
    protectedUntil: ms(row.protected_until)!,
    isEliminated: row.is_eliminated,
    readyBrigades: readyBrigades(row.brigades.map(brigadeOf)),
  };
}

/** The members of an alliance (other than `exclude`) as support facts, 20 richest at most. */
function alliesSql(allianceParam: string, excludeParams: string): string {
  return `(SELECT coalesce(json_agg(json_build_object(
      'id', c.id, 'name', c.name, 'government_type', c.government_type, 'networth', c.networth,
      'troops', c.troops, 'jets', c.jets, 'turrets', c.turrets, 'tanks', c.tanks, 'spies', c.spies,
      'last_active', c.last_active, 'protected_until', c.protected_until, 'is_eliminated', c.is_eliminated,
      'tech', json_build_object(${TECHNOLOGY_IDS.map((id) => `'${id}_tech', c.${id}_tech`).join(", ")}),
      'brigades', (SELECT coalesce(json_agg(b), '[]'::json) FROM brigades b WHERE b.country_id = c.id))), '[]'::json)
    FROM (SELECT * FROM countries c WHERE c.alliance_id = ${allianceParam} AND c.id NOT IN (${excludeParams}) AND NOT c.is_eliminated
          ORDER BY c.networth DESC LIMIT 20) c)`;
}

/** The context of an attack: posture of both sides, brigades, rehabilitation, war, the defender's day, allies, and the battle's id. */
export interface AttackContextRow {
  attacker_settings: SettingsRow | null;
  defender_settings: SettingsRow | null;
  brigades: BrigadeRow[];
  rehab: { troops: number; jets: number; tanks: number };
  war: { id: number; declared_at: string } | null;
  recent: { land: number; hits: number };
  attacker_allies: AllyJsonRow[];
  defender_allies: AllyJsonRow[];
  battle_id: number;
}

/**
 * Reads what an attack needs beside the two locked rows, in one round trip, and reserves the
 * battle's id (so the report, the notice and the writes can name it before COMMIT).
 * @param attackerAlliance alliance to draw attack support from (null: none asked for)
 * @param defenderAlliance the defender's alliance (null: none)
 */
export async function loadAttackContext(client: DbClient, attackerId: number, defenderId: number, now: Date, attackerAlliance: number | null, defenderAlliance: number | null): Promise<AttackContextRow> {
  const values: unknown[] = [attackerId, defenderId, now];
  const param = (value: unknown) => (values.push(value), `$${values.length}`);
  const attackerAllies = attackerAlliance === null ? "'[]'::json" : alliesSql(param(attackerAlliance), "$1, $2");
  const defenderAllies = defenderAlliance === null ? "'[]'::json" : alliesSql(param(defenderAlliance), "$1, $2");
  const { rows } = await client.query<AttackContextRow>(
    `SELECT
       (SELECT row_to_json(s) FROM military_settings s WHERE s.country_id = $1) AS attacker_settings,
       (SELECT row_to_json(s) FROM military_settings s WHERE s.country_id = $2) AS defender_settings,
       (SELECT coalesce(json_agg(b), '[]'::json) FROM brigades b WHERE b.country_id IN ($1, $2)) AS brigades,
       (SELECT json_build_object('troops', coalesce(sum(troops), 0), 'jets', coalesce(sum(jets), 0), 'tanks', coalesce(sum(tanks), 0))
          FROM rehabilitation WHERE country_id = $1 AND until > $3) AS rehab,
       (SELECT json_build_object('id', w.id, 'declared_at', w.declared_at) FROM war_declarations w
          WHERE w.declarer_id = $1 AND w.target_id = $2 AND w.ended_at IS NULL) AS war,
       (SELECT json_build_object('land', coalesce(sum(land_captured + land_destroyed), 0),
                                 'hits', count(*) FILTER (WHERE land_captured + land_destroyed > 0))
          FROM battles WHERE defender_id = $2 AND created_at > $3::timestamptz - interval '24 hours') AS recent,
       ${attackerAllies} AS attacker_allies,
       ${defenderAllies} AS defender_allies,
       nextval(pg_get_serial_sequence('battles', 'id')) AS battle_id`,
    values,
  );
  return rows[0]!;
}

/** The allies of a country's alliance (outside the transaction: the support list of the preparation screen). */
export async function findAllianceMembers(db: Queryable, allianceId: number, excludeIds: number[]): Promise<AllyJsonRow[]> {
  const ids = [...excludeIds, 0, 0].slice(0, 2);
  const { rows } = await db.query<{ allies: AllyJsonRow[] }>(`SELECT ${alliesSql("$1", "$2, $3")} AS allies`, [allianceId, ids[0], ids[1]]);
  return rows[0]!.allies;
}

/** The land a defender lost in the last 24 hours and the hits that took it (public: battles are news). */
export async function findRecentLosses(db: Queryable, defenderId: number, now: Date): Promise<{ land: number; hits: number }> {
  const { rows } = await db.query<{ land: number; hits: number }>(
    `SELECT coalesce(sum(land_captured + land_destroyed), 0)::bigint AS land, count(*) FILTER (WHERE land_captured + land_destroyed > 0)::int AS hits
       FROM battles WHERE defender_id = $1 AND created_at > $2::timestamptz - interval '24 hours'`,
    [defenderId, now],
  );
  return rows[0]!;
}

/** Attacks suffered in the last 7 days by category (threat assessment). */
export async function findRecentThreats(db: Queryable, countryId: number, now: Date): Promise<Record<"missile" | "air" | "ground" | "spy", number>> {
  const { rows } = await db.query<{ attack_type: AttackTypeId; n: number }>(`SELECT attack_type, count(*)::int AS n FROM battles WHERE defender_id = $1 AND created_at > $2::timestamptz - interval '7 days' GROUP BY attack_type`, [
    countryId,
    now,
  ]);
  const out = { missile: 0, air: 0, ground: 0, spy: 0 };
  for (const r of rows) {
    if (r.attack_type === "spy") out.spy += r.n;
    else if (r.attack_type === "bombing_run") out.air += r.n;
    else if (r.attack_type.endsWith("missile")) out.missile += r.n;
    else out.ground += r.n;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Battles

/** A battles row. */
export interface BattleRow {
  id: number;
  /** null: a former country (deleted account; migration 022), attacker_name keeps its name */
  attacker_id: number | null;
  /** null: a former country (deleted account; migration 022), defender_name keeps its name */
  defender_id: number | null;
  attacker_name: string;
  defender_name: string;
  attack_type: AttackTypeId;
  outcome: "attacker_victory" | "defender_victory";
  land_captured: number;
  land_destroyed: number;
  seed: number;
  strike_id: number | null;
  report: Omit<
    BattleReportJson,
    "id" | "attackerCountryId" | "defenderCountryId" | "attackerName" | "defenderName" | "attackType" | "outcome" | "timestamp" | "isPlayerAttacker" | "isPlayerDefender" | "seed" | "strikeId" | "defenderSideConfidence"
  > & {
    /**
     * the confidence of the attacker's freshest military intelligence on the defender when the
     * battle was fought (null: none; absent in reports older than the rule); decides how exact
     * the attacker's copy of the defender's side is (computeAttackerView)
     */
    attackerIntel?: IntelConfidence | null;
  };
  economy: Record<string, unknown>;
  /** what the rules were given (replay; null for battles fought before migration 023) */
  replay_input: BattleReplayInput | null;
  created_at: Date;
}

/** The INSERT of a battle report with its reserved id, as SQL text. */
export function battleInsertStatement(b: Omit<BattleRow, "created_at">, createdAt: Date): string {
  const cols = ["id", "attacker_id", "defender_id", "attacker_name", "defender_name", "attack_type", "outcome", "land_captured", "land_destroyed", "seed", "strike_id", "report", "economy", "replay_input", "created_at"];
  const values = [
    sqlLiteral(b.id),
    sqlLiteral(b.attacker_id),
    sqlLiteral(b.defender_id),
    sqlLiteral(b.attacker_name),
    sqlLiteral(b.defender_name),
    sqlLiteral(b.attack_type),
    sqlLiteral(b.outcome),
    sqlLiteral(b.land_captured),
    sqlLiteral(b.land_destroyed),
    sqlLiteral(b.seed),
    sqlLiteral(b.strike_id),
    jsonbLiteral(b.report),
    jsonbLiteral(b.economy),
    b.replay_input === null ? "NULL" : jsonbLiteral(b.replay_input),
    sqlLiteral(createdAt),
  ];
  return `INSERT INTO battles (${cols.join(", ")}) OVERRIDING SYSTEM VALUE VALUES (${values.join(", ")})`;
}

/**
 * A report as the caller reads it (isPlayerAttacker / isPlayerDefender from `viewerCountryId`).
 * The defender reads its own side exactly; the attacker reads it as computeAttackerView allows
 * (docs/rules.md, "What a battle report tells the attacker").
 */
export function toBattleReportJson(row: BattleRow, viewerCountryId: number): BattleReportJson {
  const { attackerIntel, ...stored } = row.report;
  const attackerCopy = row.attacker_id === viewerCountryId && row.defender_id !== viewerCountryId;
  const view = attackerCopy
    ? computeAttackerView(
        { defenderName: row.defender_name, defenderForces: stored.defenderForces, defenderCasualties: stored.defenderCasualties, defenderAllies: stored.allianceSupport.defenderAllies, combatLog: stored.combatLog },
        attackerIntel ?? null,
        row.seed,
      )
    : null;
  return {
    ...stored,
    ...(view && {
      defenderForces: view.defenderForces,
      defenderCasualties: view.defenderCasualties,
      allianceSupport: { ...stored.allianceSupport, defenderAllies: view.defenderAllies },
      combatLog: view.combatLog,
    }),
    defenderSideConfidence: view ? view.confidence : null,
    id: row.id,
    attackerCountryId: row.attacker_id,
    defenderCountryId: row.defender_id,
    attackerName: row.attacker_name,
    defenderName: row.defender_name,
    attackType: row.attack_type,
    outcome: row.outcome,
    timestamp: row.created_at.toISOString(),
    isPlayerAttacker: row.attacker_id === viewerCountryId,
    isPlayerDefender: row.defender_id === viewerCountryId,
    seed: row.seed,
    strikeId: row.strike_id,
  };
}

export interface BattleFilter {
  attackType?: AttackTypeId;
  /** from the viewer's side */
  result?: "victory" | "defeat";
  outcome?: "attacker_victory" | "defender_victory";
  role?: "attacker" | "defender";
  limit: number;
  offset: number;
}

/** A country's battles (as attacker or defender), newest first, filtered and paged. */
export async function listBattles(db: Queryable, countryId: number, filter: BattleFilter): Promise<{ rows: BattleRow[]; total: number }> {
  const where: string[] = [];
  const values: unknown[] = [countryId];
  if (filter.role === "attacker") where.push("attacker_id = $1");
  else if (filter.role === "defender") where.push("defender_id = $1");
  else where.push("(attacker_id = $1 OR defender_id = $1)");
  if (filter.attackType) {
    values.push(filter.attackType);
    where.push(`attack_type = $${values.length}`);
  }
  if (filter.outcome) {
    values.push(filter.outcome);
    where.push(`outcome = $${values.length}`);
  }
  if (filter.result === "victory") where.push("((attacker_id = $1 AND outcome = 'attacker_victory') OR (defender_id = $1 AND outcome = 'defender_victory'))");
  if (filter.result === "defeat") where.push("((attacker_id = $1 AND outcome = 'defender_victory') OR (defender_id = $1 AND outcome = 'attacker_victory'))");
  const clause = where.join(" AND ");
  // The union of the two indexed lists keeps "mine" fast however many battles there are.
  const [list, count] = await Promise.all([
    db.query<BattleRow>(`SELECT * FROM battles WHERE ${clause} ORDER BY id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`, [...values, filter.limit, filter.offset]),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM battles WHERE ${clause}`, values),
  ]);
  return { rows: list.rows, total: count.rows[0]!.total };
}

/** A country's battles (either side) after `since`, newest first. */
export async function battlesSince(db: Queryable, countryId: number, since: Date, limit: number): Promise<BattleRow[]> {
  const { rows } = await db.query<BattleRow>(
    `SELECT * FROM (SELECT * FROM battles WHERE attacker_id = $1 AND created_at > $2
                    UNION ALL SELECT * FROM battles WHERE defender_id = $1 AND attacker_id <> $1 AND created_at > $2) b
      ORDER BY id DESC LIMIT $3`,
    [countryId, since, limit],
  );
  return rows;
}

export async function findBattle(db: Queryable, id: number): Promise<BattleRow | undefined> {
  const { rows } = await db.query<BattleRow>("SELECT * FROM battles WHERE id = $1", [id]);
  return rows[0];
}

// ---------------------------------------------------------------------------------------
// War declarations

/** An active war the tick charges, with its target's land and name. */
export interface DueWar {
  id: number;
  declarer_id: number;
  target_id: number;
  declared_tick: number;
  charged_through_tick: number;
  target_land: number;
  target_name: string;
  target_alliance_id: number | null;
}

/** The active wars not charged through `lastTick`, by declarer, oldest first (the war costs phase). */
export async function findWarsToCharge(client: DbClient, lastTick: number): Promise<DueWar[]> {
  const { rows } = await client.query<DueWar>(
    `SELECT w.id, w.declarer_id, w.target_id, w.declared_tick, w.charged_through_tick, t.land AS target_land, t.name AS target_name, t.alliance_id AS target_alliance_id
       FROM war_declarations w JOIN countries t ON t.id = w.target_id
      WHERE w.ended_at IS NULL AND GREATEST(w.declared_tick, w.charged_through_tick) < $1
      ORDER BY w.declarer_id, w.id`,
    [lastTick],
  );
  return rows;
}

/** Locks the declarers and their alliances' members who are not eliminated, in ascending id order. */
export async function lockWarPayers(client: DbClient, declarerIds: readonly number[]): Promise<CountryRow[]> {
  const { rows } = await client.query<CountryRow>(
    `SELECT ${COUNTRY_COLUMNS} FROM countries
      WHERE id IN (${idList(declarerIds)})
         OR (NOT is_eliminated AND alliance_id IN (SELECT alliance_id FROM countries WHERE id IN (${idList(declarerIds)}) AND alliance_id IS NOT NULL))
      ORDER BY id FOR UPDATE`,
  );
  return rows;
}

/** The UPDATE of a war charged through `throughTick` for `cost` more, as SQL text. */
export function warChargedStatement(warId: number, throughTick: number, cost: number): string {
  return `UPDATE war_declarations SET charged_through_tick = ${sqlLiteral(throughTick)}, total_cost = total_cost + ${sqlLiteral(cost)} WHERE id = ${sqlLiteral(warId)}`;
}

/** The UPDATE of a war ended at `endedAt` because its declarer could not pay, as SQL text. */
export function warBankruptStatement(warId: number, throughTick: number, endedAt: Date): string {
  return `UPDATE war_declarations SET charged_through_tick = ${sqlLiteral(throughTick)}, ended_at = ${sqlLiteral(endedAt)}, end_reason = 'bankrupt' WHERE id = ${sqlLiteral(warId)}`;
}

/** The UPDATE ending a war between countries that became allies (nothing charged), as SQL text. */
export function warAlliedPeaceStatement(warId: number, endedAt: Date): string {
  return `UPDATE war_declarations SET ended_at = ${sqlLiteral(endedAt)}, end_reason = 'declared_peace' WHERE id = ${sqlLiteral(warId)}`;
}

/** The UPDATE of a payer's cash and networth after paying `spent` for wars, as SQL text. */
export function warPaymentStatement(countryId: number, cash: number, networth: number, spent: number): string {
  return `UPDATE countries SET cash = ${sqlLiteral(cash)}, networth = ${sqlLiteral(networth)}, war_expenses = war_expenses + ${sqlLiteral(spent)}, updated_at = now() WHERE id = ${sqlLiteral(countryId)}`;
}

export interface WarRow {
  id: number;
  /** null: a former country (deleted account; migration 024), declarer_name keeps its name */
  declarer_id: number | null;
  /** null: a former country (deleted account; migration 024), target_name keeps its name */
  target_id: number | null;
  declared_at: Date;
  declared_tick: number;
  charged_through_tick: number;
  total_cost: number;
  ended_at: Date | null;
  end_reason: "declared_peace" | "bankrupt" | "season_end" | "country_deleted" | null;
  declarer_name: string;
  target_name: string;
  target_land: number;
}

/** A war with both sides still in the world: every war that is running (a deletion ends the wars of the country it removes). */
export type WarBetweenCountries = WarRow & { declarer_id: number; target_id: number };

/** The war with both of its sides, or a broken invariant (a running war on a former country). */
export function bothSides(row: WarRow): WarBetweenCountries {
  if (row.declarer_id === null || row.target_id === null) throw new Error(`war ${row.id} has a former country on one side`);
  return row as WarBetweenCountries;
}

export function warFacts(row: Pick<WarRow, "declarer_id" | "target_id" | "declared_at" | "ended_at">): WarDeclarationFacts {
  return { declarerId: row.declarer_id, targetId: row.target_id, declaredAt: row.declared_at.getTime(), endedAt: row.ended_at?.getTime() ?? null };
}

/** A former country (deleted account) has no row: its name is the one the deletion wrote, its land 0. */
const WAR_SELECT = `SELECT w.*, coalesce(d.name, w.declarer_former_name, '') AS declarer_name, coalesce(t.name, w.target_former_name, '') AS target_name,
       coalesce(t.land, 0) AS target_land
  FROM war_declarations w LEFT JOIN countries d ON d.id = w.declarer_id LEFT JOIN countries t ON t.id = w.target_id`;

/** Declarations a country made or received, newest first (the last 100). */
export async function listWars(db: Queryable, countryId: number): Promise<WarRow[]> {
  const { rows } = await db.query<WarRow>(`${WAR_SELECT} WHERE w.declarer_id = $1 OR w.target_id = $1 ORDER BY w.id DESC LIMIT 100`, [countryId]);
  return rows;
}

export async function findWar(db: Queryable, id: number): Promise<WarRow | undefined> {
  const { rows } = await db.query<WarRow>(`${WAR_SELECT} WHERE w.id = $1`, [id]);
  return rows[0];
}

/** The declarer's declarations on a target (any status) and its active war count. */
export async function findWarsBetween(db: Queryable, declarerId: number, targetId: number): Promise<{ between: WarRow[]; active: number }> {
  const [between, active] = await Promise.all([
    db.query<WarRow>(`${WAR_SELECT} WHERE w.declarer_id = $1 AND w.target_id = $2 ORDER BY w.id DESC LIMIT 5`, [declarerId, targetId]),
    db.query<{ n: number }>("SELECT count(*)::int AS n FROM war_declarations WHERE declarer_id = $1 AND ended_at IS NULL", [declarerId]),
  ]);
  return { between: between.rows, active: active.rows[0]!.n };
}

export function toWarJson(row: WarRow, viewerCountryId: number, facts: { status: WarDeclarationJson["status"]; remainingTime: number; canEnd: boolean; costPerTurn: number }): WarDeclarationJson {
  return {
    id: row.id,
    declarerId: row.declarer_id,
    declarerName: row.declarer_name,
    targetId: row.target_id,
    targetName: row.target_name,
    status: facts.status,
    declaredAt: row.declared_at.toISOString(),
    remainingTime: facts.remainingTime,
    endedAt: row.ended_at?.toISOString() ?? null,
    endReason: row.end_reason,
    totalCost: row.total_cost,
    costPerTurn: facts.costPerTurn,
    isDeclarer: row.declarer_id === viewerCountryId,
    canEnd: facts.canEnd,
  };
}

// ---------------------------------------------------------------------------------------
// Strikes

export interface StrikeRow {
  id: number;
  attacker_id: number;
  /** null: a former country (deleted account; migration 024), target_name keeps its name */
  target_id: number | null;
  kind: "planned" | "scheduled";
  attack_type: AttackTypeId;
  units: Partial<Record<string, number>>;
  alliance_support: boolean;
  brigade_slot: number | null;
  execute_at: Date;
  state: "pending" | "executed" | "failed" | "cancelled";
  battle_id: number | null;
  failure: string | null;
  created_at: Date;
  finished_at: Date | null;
  target_name?: string;
}

export function toStrikeJson(row: StrikeRow): StrikeJson {
  return {
    id: row.id,
    kind: row.kind,
    attackType: row.attack_type,
    targetCountryId: row.target_id,
    targetName: row.target_name ?? "",
    units: row.units,
    allianceSupport: row.alliance_support,
    executeAt: row.execute_at.toISOString(),
    state: row.state,
    battleId: row.battle_id,
    failure: row.failure,
    createdAt: row.created_at.toISOString(),
  };
}

export async function insertStrike(client: DbClient, s: Pick<StrikeRow, "attacker_id" | "target_id" | "kind" | "attack_type" | "units" | "alliance_support" | "brigade_slot" | "execute_at">): Promise<StrikeRow> {
  const { rows } = await client.query<StrikeRow>(
    `INSERT INTO strikes (attacker_id, target_id, kind, attack_type, units, alliance_support, brigade_slot, execute_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *, (SELECT name FROM countries WHERE id = $2) AS target_name`,
    [s.attacker_id, s.target_id, s.kind, s.attack_type, JSON.stringify(s.units), s.alliance_support, s.brigade_slot, s.execute_at],
  );
  return rows[0]!;
}

/** The target's name: the live one, or the one its deletion wrote (a former country). */
const STRIKE_TARGET_NAME = "coalesce(c.name, s.target_former_name, '') AS target_name";

export async function findStrike(db: Queryable, id: number): Promise<StrikeRow | undefined> {
  const { rows } = await db.query<StrikeRow>(`SELECT s.*, ${STRIKE_TARGET_NAME} FROM strikes s LEFT JOIN countries c ON c.id = s.target_id WHERE s.id = $1`, [id]);
  return rows[0];
}

/** A country's strikes: pending ones and the 20 latest others. */
export async function listStrikes(db: Queryable, countryId: number): Promise<StrikeRow[]> {
  const { rows } = await db.query<StrikeRow>(
    `(SELECT s.*, ${STRIKE_TARGET_NAME} FROM strikes s LEFT JOIN countries c ON c.id = s.target_id WHERE s.attacker_id = $1 AND s.state = 'pending')
     UNION ALL
     (SELECT s.*, ${STRIKE_TARGET_NAME} FROM strikes s LEFT JOIN countries c ON c.id = s.target_id WHERE s.attacker_id = $1 AND s.state <> 'pending' ORDER BY s.id DESC LIMIT 20)
     ORDER BY execute_at DESC`,
    [countryId],
  );
  return rows;
}

/** Pending strikes due by `at` (the start-up run and the sweep). */
export async function findDueStrikes(db: Queryable, at: Date, limit = 100): Promise<Array<{ id: number; execute_at: Date }>> {
  const { rows } = await db.query<{ id: number; execute_at: Date }>("SELECT id, execute_at FROM strikes WHERE state = 'pending' AND execute_at <= $1 ORDER BY execute_at LIMIT $2", [at, limit]);
  return rows;
}

/** Every pending strike (to re-arm timers and jobs on start). */
export async function findPendingStrikes(db: Queryable): Promise<Array<{ id: number; execute_at: Date }>> {
  const { rows } = await db.query<{ id: number; execute_at: Date }>("SELECT id, execute_at FROM strikes WHERE state = 'pending' ORDER BY execute_at");
  return rows;
}

/** The UPDATE that closes a pending strike, as SQL text. */
export function strikeFinishStatement(id: number, state: "executed" | "failed", battleId: number | null, failure: string | null, at: Date): string {
  return `UPDATE strikes SET state = ${sqlLiteral(state)}, battle_id = ${sqlLiteral(battleId)}, failure = ${sqlLiteral(failure)}, finished_at = ${sqlLiteral(at)}
   WHERE id = ${sqlLiteral(id)} AND state = 'pending'`;
}
