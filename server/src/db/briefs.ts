import type { BriefInput } from "@game/schema/rules";
import type { Db } from "./pool.js";

/**
 * What the intelligence briefs read about one country (its own data only): battles it defended
 * in the last day, its active wars, enemy spy operations it caught in the last day.
 */
export async function loadBriefFacts(db: Db, countryId: number, now: Date): Promise<Omit<BriefInput, "now" | "land" | "forces">> {
  const [attacks, wars, spies] = await Promise.all([
    db.query<{ attacker_name: string; attack_type: string; outcome: string; land: string; created_at: Date }>(
      `SELECT attacker_name, attack_type, outcome, (land_captured + land_destroyed)::bigint AS land, created_at
         FROM battles WHERE defender_id = $1 AND created_at > $2::timestamptz - interval '24 hours'
        ORDER BY id DESC LIMIT 50`,
      [countryId, now],
    ),
    db.query<{ declarer_id: string; declarer_name: string; target_name: string; declared_at: Date }>(
      `SELECT w.declarer_id, d.name AS declarer_name, t.name AS target_name, w.declared_at
         FROM war_declarations w JOIN countries d ON d.id = w.declarer_id JOIN countries t ON t.id = w.target_id
        WHERE (w.declarer_id = $1 OR w.target_id = $1) AND w.ended_at IS NULL ORDER BY w.id DESC LIMIT 20`,
      [countryId],
    ),
    db.query<{ params: { spy?: { name?: string } | null; operation?: string; caught?: number }; created_at: Date }>(
      `SELECT params, created_at FROM news_items
        WHERE country_id = $1 AND category = 'personal' AND kind = 'spy_detected' AND created_at > $2::timestamptz - interval '24 hours'
        ORDER BY id DESC LIMIT 50`,
      [countryId, now],
    ),
  ]);
  return {
    attacks: attacks.rows.map((r) => ({
      attackerName: r.attacker_name,
      attackType: r.attack_type,
      repelled: r.outcome === "defender_victory",
      landLost: Number(r.land),
      at: r.created_at.getTime(),
    })),
    wars: wars.rows.map((r) => {
      const mine = Number(r.declarer_id) === countryId;
      return { opponentName: mine ? r.target_name : r.declarer_name, declaredByMe: mine, since: r.declared_at.getTime() };
    }),
    spies: spies.rows.map((r) => ({
      spyName: r.params.spy?.name ?? null,
      operation: r.params.operation ?? "unknown operation",
      caught: Number(r.params.caught ?? 0),
      at: r.created_at.getTime(),
    })),
  };
}
