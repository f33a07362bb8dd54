import { computeNetworth, computeWarCost, splitWarCost, warTurnsToCharge, type CountryState } from "@game/schema/rules";
import { rowToState, type CountryRow } from "../db/countries.js";
import { findWarsToCharge, lockWarPayers, warAlliedPeaceStatement, warBankruptStatement, warChargedStatement, warPaymentStatement } from "../db/military.js";
import { countryTopic, WORLD_TOPIC } from "../events.js";
import type { CollapsingPhase } from "./tickPhase.js";
import { recordNewsBatch } from "../services/news.js";
import { peaceNews } from "../services/war.js";

/**
 * War costs: $10 per target acre per turn (tick) for every active war. Collapsing: each war is
 * charged for the ticks after the last one it was charged through (`charged_through_tick`),
 * so k caught-up ticks charge k turns in one run and a retried or duplicated tick charges
 * nothing (its row already records the tick).
 *
 * A declarer in an alliance shares the charge with its fellow members (`splitWarCost`: the
 * allies carry half by networth, each within the cash it has left). Declarers and their
 * allies are locked together in ascending id order; membership is read from the locked rows,
 * so a member who left meanwhile pays nothing. Wars are charged oldest first per declarer; a
 * war whose declarer cannot pay its part ends at once (automatic peace when bankrupt, the
 * spec's rule), charged nothing, and both sides are told. Every payer's charge goes to its
 * `war_expenses`; networth is recomputed by the shared rule. A war whose two sides are in the
 * same alliance ends in peace, charged nothing (joining ends it already; this is the net).
 */
export const warCostsPhase: CollapsingPhase = {
  name: "war_costs",
  catchUp: "collapse",
  async run({ client, ticks, at, emit }) {
    const lastTick = ticks[ticks.length - 1]!;
    const wars = await findWarsToCharge(client, lastTick);
    if (wars.length === 0) return 0;
    const declarerIds = [...new Set(wars.map((w) => w.declarer_id))].sort((a, b) => a - b);
    const payers = await lockWarPayers(client, declarerIds);
    const states = new Map<number, { row: CountryRow; state: CountryState; spent: number }>(payers.map((row) => [row.id, { row, state: rowToState(row), spent: 0 }]));
    const endedAt = new Date(at);
    const statements: string[] = [];
    const peace: ReturnType<typeof peaceNews>[] = [];
    for (const declarerId of declarerIds) {
      const declarer = states.get(declarerId)!;
      const allianceId = declarer.row.alliance_id;
      const allies = allianceId === null ? [] : [...states.values()].filter((p) => p.row.id !== declarerId && p.row.alliance_id === allianceId && !p.row.is_eliminated);
      const payer = (p: { row: CountryRow; state: CountryState; spent: number }) => ({ countryId: p.row.id, networth: Number(p.row.networth), available: p.state.cash - p.spent });
      for (const war of wars.filter((w) => w.declarer_id === declarerId)) {
        if (allianceId !== null && war.target_alliance_id !== null && Number(war.target_alliance_id) === Number(allianceId)) {
          // allies now (joining ends such wars; this catches any that slipped past): peace, nothing charged
          statements.push(warAlliedPeaceStatement(war.id, endedAt));
          emit(WORLD_TOPIC, { type: "warEnded", war: { declarationId: war.id, declarerId, declarerName: declarer.row.name, targetId: war.target_id, targetName: war.target_name, at }, reason: "declared_peace" });
          peace.push(peaceNews({ declarer_id: declarerId, declarer_name: declarer.row.name, target_id: war.target_id, target_name: war.target_name }));
          continue;
        }
        const turns = warTurnsToCharge(war.declared_tick, war.charged_through_tick, lastTick);
        const cost = computeWarCost(war.target_land, turns);
        const split = splitWarCost(cost, payer(declarer), allies.map(payer));
        if (split) {
          for (const [countryId, paid] of split) states.get(countryId)!.spent += paid;
          statements.push(warChargedStatement(war.id, lastTick, cost));
          continue;
        }
        statements.push(warBankruptStatement(war.id, lastTick, endedAt));
        const name = declarer.row.name;
        const event = { declarationId: war.id, declarerId, declarerName: name, targetId: war.target_id, targetName: war.target_name, at };
        emit(countryTopic(declarerId), {
          type: "notice",
          countryId: declarerId,
          notice: {
            id: `war-${war.id}-bankrupt`,
            kind: "war_ended",
            severity: "warning",
            title: `Peace with ${war.target_name}`,
            body: `You could not pay the war's $${cost.toLocaleString("en-US")}: the war has ended.`,
            at,
            view: "war-room",
            refId: war.id,
          },
        });
        emit(countryTopic(war.target_id), {
          type: "notice",
          countryId: war.target_id,
          notice: { id: `war-${war.id}-bankrupt`, kind: "war_ended", severity: "success", title: `${name} made peace`, body: "They could not pay for the war any longer.", at, view: "war-room", refId: war.id },
        });
        emit(WORLD_TOPIC, { type: "warEnded", war: event, reason: "bankrupt" });
        peace.push(peaceNews({ declarer_id: declarerId, declarer_name: name, target_id: war.target_id, target_name: war.target_name }));
      }
    }
    for (const { row, state, spent } of states.values()) {
      if (spent === 0) continue;
      const next = { ...state, cash: state.cash - spent };
      statements.push(warPaymentStatement(row.id, next.cash, computeNetworth(next), spent));
    }
    await client.query(statements.join(";\n"));
    if (peace.length > 0) await recordNewsBatch({ client, emit, now: endedAt }, peace);
    return wars.length;
  },
};
