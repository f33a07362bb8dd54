import type { WarBetweenCountries } from "../db/military.js";

/**
 * The global news of a war's end, whoever ends it (the declarer, the war costs phase, joining
 * the same alliance). Its own module so that the alliance service can make peace without
 * importing the war service (which imports alliance combat, which imports alliances).
 */
export function peaceNews(row: Pick<WarBetweenCountries, "declarer_id" | "declarer_name" | "target_id" | "target_name">) {
  return {
    kind: "peace_made" as const,
    params: { a: { id: row.declarer_id, name: row.declarer_name }, b: { id: row.target_id, name: row.target_name } },
    participants: [
      { id: row.declarer_id, name: row.declarer_name, type: "country" as const, role: "declarer" },
      { id: row.target_id, name: row.target_name, type: "country" as const, role: "target" },
    ],
  };
}
