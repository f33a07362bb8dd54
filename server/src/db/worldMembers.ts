import type { AllianceRole } from "@game/schema/rules";
import type { Db, DbClient } from "./pool.js";

/**
 * Who a player is in the world (chat, presence, the world room's join), each read in one query:
 * the user, the country, the alliance's name and tag and the country's role in it. The role is
 * the alliance_members row's while it names the country's alliance, and "member" when it does
 * not (an alliance_id set by an operator's tool), as allianceRoles (db/alliances.ts) reads it.
 */

type Q = Db | DbClient;

/** The user's country with its alliance label and role (countries without an alliance: nulls). */
const MEMBER_FROM = `FROM users u
  JOIN countries c ON c.user_id = u.id
  LEFT JOIN alliances a ON a.id = c.alliance_id
  LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id
  WHERE u.id = $1`;

/** The country's alliance role: the alliance_members row's, "member" when it does not name the alliance (see the module note). */
const ALLIANCE_ROLE = `CASE WHEN c.alliance_id IS NULL THEN NULL ELSE COALESCE(m.role, 'member') END AS alliance_role`;

const MEMBER_COLUMNS = `u.username, c.id, c.alliance_id, c.government_type, c.networth,
  a.name AS alliance_name, a.tag AS alliance_tag, ${ALLIANCE_ROLE}`;

/**
 * The private summary columns of country c (CountrySummaryRow, beside the columns it shares with
 * WorldMemberRow): the join's and the tick's reads are the same list, so a column added to the
 * summary reaches both.
 */
const SUMMARY_COLUMNS = `c.updated_at, c.user_id, c.name, c.turns, c.stored_turns, c.cash, c.food, c.oil, c.population, c.land,
  ARRAY(SELECT i.ignored_user_id::text FROM chat_ignores i WHERE i.user_id = c.user_id ORDER BY i.created_at, i.ignored_user_id) AS ignored`;

export interface WorldMemberRow {
  username: string;
  id: number;
  alliance_id: number | null;
  government_type: string;
  networth: number;
  /** null without an alliance, or when the alliance row is gone */
  alliance_name: string | null;
  alliance_tag: string | null;
  alliance_role: AllianceRole | null;
}

/** A country's private summary: SUMMARY_COLUMNS and the country columns of WorldMemberRow. */
export interface CountrySummaryRow extends Pick<WorldMemberRow, "id" | "alliance_id" | "government_type" | "networth" | "alliance_role"> {
  updated_at: Date;
  user_id: number | null;
  name: string;
  turns: number;
  stored_turns: number;
  cash: number;
  food: number;
  oil: number;
  population: number;
  land: number;
  /** ignored user ids as text, in the order they were ignored */
  ignored: string[] | null;
}

/** A player's own country numbers beside who the player is (the world room's join). */
export type JoiningPlayerRow = WorldMemberRow & CountrySummaryRow;

/** The user's world identity, or undefined without a country. */
export async function selectWorldMember(db: Q, userId: number): Promise<WorldMemberRow | undefined> {
  const { rows } = await db.query<WorldMemberRow>(`SELECT ${MEMBER_COLUMNS} ${MEMBER_FROM}`, [userId]);
  return rows[0];
}

/** The user's world identity and private country summary in one read, or undefined without a country. */
export async function selectJoiningPlayer(db: Q, userId: number): Promise<JoiningPlayerRow | undefined> {
  const { rows } = await db.query<JoiningPlayerRow>(`SELECT ${MEMBER_COLUMNS}, ${SUMMARY_COLUMNS} ${MEMBER_FROM}`, [userId]);
  return rows[0];
}

/** The private summary columns of countries, by id (a tick's re-read of every joined country), with each one's alliance role. */
export async function selectCountrySummaries(db: Q, countryIds: number[]): Promise<CountrySummaryRow[]> {
  const { rows } = await db.query<CountrySummaryRow>(
    `SELECT c.id, c.alliance_id, c.government_type, c.networth, ${ALLIANCE_ROLE}, ${SUMMARY_COLUMNS}
     FROM countries c
     LEFT JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id
     WHERE c.id = ANY($1::bigint[])`,
    [countryIds],
  );
  return rows;
}
