import { OPERATION_LIMITS, TECHNOLOGY_IDS, computeDailyActivityPoints, computeNetworth, computeResearchMilestonePoints, findAllianceBonus, findRelationType, relationPayers, settleDailyCosts, type RelationType } from "@game/schema/rules";
import { allianceTopic, countryTopic } from "../events.js";
import { COUNTRY_COLUMNS, rowToState, type CountryRow } from "../db/countries.js";
import { countryChangedEvents } from "../services/actions.js";
import { loadOperations } from "../db/allianceWarfare.js";
import { TECH_COLUMNS } from "../db/alliances.js";
import { postAllianceSystemMessage } from "../services/allianceChat.js";
import { notice } from "../services/alliances.js";
import { DAY_MS, type CollapsingPhase, type PeriodicPhase, type TickPhaseContext } from "./tickPhase.js";

/**
 * The alliance and diplomacy phases of the turn tick (docs/architecture.md, "Turn tick"):
 * expiries collapse (one run compares with the latest tick's time), daily costs and daily
 * points run once per UTC day (recorded in tick_phase_periods), so a retried or caught-up
 * tick never charges or credits twice.
 */

/**
 * Invitations, applications and diplomatic proposals expire after 3 days; operations not
 * launched a day after their scheduled time are cancelled; temporary bonuses that ran out are
 * announced once (their effect already stops at expires_at: the rules compare with the time).
 */
export const allianceExpiriesPhase: CollapsingPhase = {
  name: "alliance_expiries",
  catchUp: "collapse",
  async run(ctx) {
    const at = new Date(ctx.at);
    const { client } = ctx;
    let changed = 0;
    const queues = new Set<number>();
    for (const table of ["alliance_invitations", "alliance_applications"]) {
      const { rows } = await client.query<{ alliance_id: number }>(`UPDATE ${table} SET status = 'expired' WHERE status = 'pending' AND expires_at <= $1 RETURNING alliance_id`, [at]);
      changed += rows.length;
      for (const r of rows) queues.add(r.alliance_id);
    }
    for (const allianceId of queues) ctx.emit(allianceTopic(allianceId), { type: "leadershipQueueChanged", allianceId });

    const proposals = await client.query("UPDATE diplomatic_proposals SET status = 'expired' WHERE status = 'pending' AND expires_at <= $1", [at]);
    changed += proposals.rowCount ?? 0;

    const stale = await client.query<{ id: number; alliance_id: number }>(
      `UPDATE alliance_operations SET status = 'cancelled', closed_at = $1
       WHERE status IN ('planning', 'active') AND scheduled_for <= $2 RETURNING id, alliance_id`,
      [at, new Date(ctx.at - OPERATION_LIMITS.staleAfterMs)],
    );
    changed += stale.rows.length;
    for (const operation of await loadOperations(client, { ids: stale.rows.map((r) => r.id) })) {
      ctx.emit(allianceTopic(operation.allianceId), { type: "operationChanged", allianceId: operation.allianceId, operation });
    }

    const ended = await client.query<{ alliance_id: number; bonus_id: string; tag: string }>(
      `UPDATE alliance_bonus_purchases p SET end_announced = true FROM alliances a
       WHERE a.id = p.alliance_id AND p.expires_at IS NOT NULL AND p.expires_at <= $1 AND NOT p.end_announced
       RETURNING p.alliance_id, p.bonus_id, a.tag`,
      [at],
    );
    changed += ended.rows.length;
    for (const r of ended.rows) {
      ctx.emit(allianceTopic(r.alliance_id), { type: "allianceChanged", allianceId: r.alliance_id, reason: "bonus_ended" });
      await postAllianceSystemMessage(ctx, { allianceId: r.alliance_id, channel: "general", type: "system", content: `${findAllianceBonus(r.bonus_id)?.name ?? r.bonus_id} has ended`, allianceTag: r.tag });
    }
    return changed;
  },
};

/**
 * Diplomacy's daily cost (spec: the sum of the active relations' daily costs), once per UTC
 * day: each payer pays its relations oldest first; a relation one of its payers cannot pay
 * ends (expired) and nobody pays it (settleDailyCosts). The payers' rows are locked in id
 * order, cash and networth written with the shared networth rule, and the change announced.
 */
export const diplomacyDailyCostPhase: PeriodicPhase = {
  name: "diplomacy_daily_costs",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run(ctx) {
    const { client } = ctx;
    const { rows: relations } = await client.query<{ id: number; relation_type: RelationType; from_country_id: number; to_country_id: number; established_at: Date }>(
      "SELECT id, relation_type, from_country_id, to_country_id, established_at FROM diplomatic_relations WHERE status = 'active' AND established_at < $1",
      [new Date(ctx.periodStart)],
    );
    if (relations.length === 0) return 0;
    const settle = relations.map((r) => ({ id: r.id, type: r.relation_type, payers: relationPayers(r.relation_type, r.from_country_id, r.to_country_id), establishedAt: r.established_at.getTime() }));
    const payerIds = [...new Set(settle.flatMap((r) => r.payers))].sort((a, b) => a - b);
    const { rows: countries } = await client.query<CountryRow>(`SELECT ${COUNTRY_COLUMNS} FROM countries WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, [payerIds]);
    const byId = new Map(countries.map((c) => [c.id, c]));
    const { ended, charges } = settleDailyCosts(settle, new Map(countries.map((c) => [c.id, c.cash])));

    const now = new Date(ctx.at);
    if (ended.size) {
      await client.query("UPDATE diplomatic_relations SET status = 'expired', ended_at = $2, last_activity = $2 WHERE id = ANY($1::bigint[])", [[...ended], now]);
      for (const r of relations.filter((x) => ended.has(x.id))) {
        const name = findRelationType(r.relation_type)!.name;
        for (const party of [r.from_country_id, r.to_country_id]) {
          const n = notice(`relation-${r.id}-lapsed`, "diplomacy_lapsed", "warning", `${name} ended`, `The ${name} lapsed: its daily cost could not be paid`, now, r.id);
          ctx.emit(countryTopic(party), { ...n, countryId: party });
        }
      }
    }
    const paid = relations.filter((r) => !ended.has(r.id));
    if (paid.length) {
      await client.query(
        `UPDATE diplomatic_relations r SET total_paid = total_paid + v.amount, last_activity = $3
         FROM unnest($1::bigint[], $2::bigint[]) AS v(id, amount) WHERE r.id = v.id`,
        [paid.map((r) => r.id), paid.map((r) => findRelationType(r.relation_type)!.dailyCost * relationPayers(r.relation_type, r.from_country_id, r.to_country_id).length), now],
      );
    }
    const ids: number[] = [];
    const cash: number[] = [];
    const networth: number[] = [];
    for (const [id, charge] of charges) {
      const row = byId.get(id);
      if (!row || charge <= 0) continue;
      const state = { ...rowToState(row), cash: row.cash - charge };
      ids.push(id);
      cash.push(state.cash);
      networth.push(computeNetworth(state));
    }
    if (ids.length) {
      const { rows: written } = await client.query<CountryRow>(
        `UPDATE countries c SET cash = v.cash, networth = v.networth, updated_at = $4
         FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(id, cash, networth) WHERE c.id = v.id
         RETURNING ${COUNTRY_COLUMNS.split(", ")
           .map((col) => `c.${col}`)
           .join(", ")}`,
        [ids, cash, networth, new Date()],
      );
      for (const row of written) for (const e of countryChangedEvents(row, "diplomacy_daily_cost")) ctx.emit(e.topic, e.event);
    }
    return ids.length + ended.size;
  },
};

/** Day boundaries of the UTC day before `periodStart`. */
function previousDay(ctx: { periodStart: number }): { from: Date; to: Date; day: number } {
  return { from: new Date(ctx.periodStart - DAY_MS), to: new Date(ctx.periodStart), day: Math.floor(ctx.periodStart / DAY_MS) - 1 };
}

/**
 * Bonus points from the members' own activity, once per UTC day for the day that just ended:
 * daily activity (5-15 per member who acted that day: the turn results it recorded, at least
 * one when it was active) and research milestones (each technology level reached since it
 * was last credited; levels held when joining count as credited).
 */
export const allianceDailyPointsPhase: PeriodicPhase = {
  name: "alliance_daily_points",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run(ctx) {
    const { client } = ctx;
    const day = previousDay(ctx);
    const { rows } = await client.query<{ country_id: number; alliance_id: number; actions: number; active: boolean; research_credited: number[]; levels: number[] }>(
      `SELECT c.id AS country_id, c.alliance_id,
              (SELECT count(*) FROM turn_results t WHERE t.country_id = c.id AND t.created_at >= $1 AND t.created_at < $2)::int AS actions,
              (c.last_active >= $1 AND c.last_active < $2) AS active,
              m.research_credited, ARRAY[${TECH_COLUMNS.map((col) => `c.${col}`).join(", ")}]::int[] AS levels
       FROM countries c
       JOIN alliance_members m ON m.country_id = c.id AND m.alliance_id = c.alliance_id
       JOIN alliances a ON a.id = c.alliance_id AND a.disbanded_at IS NULL`,
      [day.from, day.to],
    );
    const credits: Array<{ allianceId: number; countryId: number; source: string; ref: string; points: number }> = [];
    const credited: Array<{ countryId: number; levels: number[] }> = [];
    for (const r of rows) {
      const actions = Math.max(r.actions, r.active ? 1 : 0);
      const activity = computeDailyActivityPoints(actions);
      if (activity > 0) credits.push({ allianceId: r.alliance_id, countryId: r.country_id, source: "daily_activity", ref: `${day.day}:${r.country_id}`, points: activity });
      let research = 0;
      TECHNOLOGY_IDS.forEach((_, i) => {
        const before = r.research_credited[i] ?? 0;
        for (let level = before + 1; level <= (r.levels[i] ?? 0); level++) research += computeResearchMilestonePoints(level);
      });
      if (research > 0) credits.push({ allianceId: r.alliance_id, countryId: r.country_id, source: "research", ref: `${day.day}:${r.country_id}`, points: research });
      if (r.levels.some((level, i) => level !== (r.research_credited[i] ?? 0))) credited.push({ countryId: r.country_id, levels: r.levels });
    }
    if (credits.length) {
      await client.query(
        `WITH ins AS (
           INSERT INTO alliance_point_ledger (alliance_id, country_id, source, ref, points)
           SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[])
           ON CONFLICT (alliance_id, source, ref) DO NOTHING RETURNING alliance_id, country_id, points
         ), by_alliance AS (
           UPDATE alliances a SET bonus_points = bonus_points + s.total, points_earned = points_earned + s.total
           FROM (SELECT alliance_id, sum(points) AS total FROM ins GROUP BY alliance_id) s WHERE a.id = s.alliance_id
         )
         UPDATE alliance_members m SET points_contributed = points_contributed + s.total
         FROM (SELECT country_id, alliance_id, sum(points) AS total FROM ins GROUP BY country_id, alliance_id) s
         WHERE m.country_id = s.country_id AND m.alliance_id = s.alliance_id`,
        [credits.map((c) => c.allianceId), credits.map((c) => c.countryId), credits.map((c) => c.source), credits.map((c) => c.ref), credits.map((c) => c.points)],
      );
      for (const allianceId of new Set(credits.map((c) => c.allianceId))) ctx.emit(allianceTopic(allianceId), { type: "allianceChanged", allianceId, reason: "points" });
    }
    for (const c of credited) await client.query("UPDATE alliance_members SET research_credited = $2 WHERE country_id = $1", [c.countryId, c.levels]);
    return credits.length;
  },
};

/** The alliance and diplomacy phases, in order, for TICK_PHASES. */
export const ALLIANCE_TICK_PHASES = [allianceExpiriesPhase, diplomacyDailyCostPhase, allianceDailyPointsPhase] as const;

export type { TickPhaseContext };
