import type { AllianceRole } from "@game/schema/messages";
import type { Db } from "./pool.js";

/**
 * What the world projections need of alliances: name, tag and a member's role.
 *
 * The alliance tables belong to the alliance work and do not exist yet, so for now a country
 * with an alliance_id is a plain member and names and tags are empty. These two functions are
 * the seam: the alliance work replaces their bodies with one query each and chat access,
 * ranking rows and online users pick the real values up.
 */
export interface AllianceLabel {
  name: string;
  tag: string;
}

export async function allianceLabels(_db: Db, _allianceIds: number[]): Promise<Map<number, AllianceLabel>> {
  return new Map();
}

/** The role of each country in its alliance (countries without one are absent). */
export async function allianceRoles(_db: Db, countries: Array<{ id: number; alliance_id: number | null }>): Promise<Map<number, AllianceRole>> {
  const roles = new Map<number, AllianceRole>();
  for (const c of countries) if (c.alliance_id !== null) roles.set(c.id, "member");
  return roles;
}
