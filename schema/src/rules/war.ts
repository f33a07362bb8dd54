import type { RuleRejection } from "./country.js";
import { reject } from "./country.js";
import { HOUR_MS } from "./military.js";

/**
 * War declarations (spec: active, then cooldown; +10% attack against the target; bypasses GDI
 * protection; $10 per target acre per turn; minimum 48 hours; automatic peace when the
 * declarer cannot pay). docs/rules.md "War declarations".
 */

/** A war lasts at least this long before the declarer may end it (ms). */
export const WAR_MIN_DURATION_MS = 48 * HOUR_MS;
/** After a war ends, the declarer cannot declare on the same target for this long (ms). */
export const WAR_COOLDOWN_MS = 24 * HOUR_MS;
/** War cost: dollars per target acre per turn while active (spec). */
export const WAR_COST_PER_ACRE_PER_TURN = 10;
/** Wars one country may have active at once. */
export const MAX_ACTIVE_WARS = 5;

/** Declaration status (spec: active, cooldown, other meaning ended). */
export type WarStatus = "active" | "cooldown" | "ended";
/** Why a war ended ('country_deleted': its other side deleted its account). */
export type WarEndReason = "declared_peace" | "bankrupt" | "season_end" | "country_deleted";

/** A declaration as the rules read it. Times are epoch ms. */
export interface WarDeclarationFacts {
  /** null: a former country (deleted account) */
  declarerId: number | null;
  /** null: a former country (deleted account) */
  targetId: number | null;
  declaredAt: number;
  /** null while active */
  endedAt: number | null;
}

/** active until ended; then cooldown for 24 hours; then ended. */
export function warStatus(war: WarDeclarationFacts, now: number): WarStatus {
  if (war.endedAt === null) return "active";
  return now < war.endedAt + WAR_COOLDOWN_MS ? "cooldown" : "ended";
}

/**
 * The spec's remainingTime, seconds: while active, until the minimum duration is served (0
 * after); in cooldown, until it ends; else 0.
 */
export function warRemainingSeconds(war: WarDeclarationFacts, now: number): number {
  const status = warStatus(war, now);
  const until = status === "active" ? war.declaredAt + WAR_MIN_DURATION_MS : status === "cooldown" ? war.endedAt! + WAR_COOLDOWN_MS : now;
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** War cost of `turns` turns against a target of `targetLand` acres: $10 x acres x turns. */
export function computeWarCost(targetLand: number, turns: number): number {
  return WAR_COST_PER_ACRE_PER_TURN * targetLand * turns;
}

/** Share of a war's cost an alliance carries for a member that declared it (spec: "alliance shares 50% by networth"). */
export const WAR_COST_ALLIANCE_SHARE = 0.5;

/** A country that may pay part of a war charge: its networth and the cash it can still spend. */
export interface WarCostPayer {
  countryId: number;
  networth: number;
  available: number;
}

/**
 * Splits one war charge between the declarer and its alliance (the spec's "alliance shares
 * 50% by networth"). The allies (the declarer's fellow members) carry half of the cost,
 * each in proportion to its networth among them (floored), but never more than the cash it
 * has left; the declarer pays the rest, including whatever an ally could not cover. Without
 * allies (or allies without networth) the declarer pays it all. Answers the payment per
 * country (amounts sum to `cost` exactly), or null when the declarer cannot pay its part,
 * in which case nobody pays (automatic peace).
 */
export function splitWarCost(cost: number, declarer: WarCostPayer, allies: readonly WarCostPayer[]): Map<number, number> | null {
  const payments = new Map<number, number>();
  const alliesNetworth = allies.reduce((sum, ally) => sum + Math.max(0, ally.networth), 0);
  let alliesPaid = 0;
  if (alliesNetworth > 0) {
    const alliesHalf = Math.floor(cost * WAR_COST_ALLIANCE_SHARE);
    for (const ally of allies) {
      const share = Math.floor((alliesHalf * Math.max(0, ally.networth)) / alliesNetworth);
      const paid = Math.max(0, Math.min(share, ally.available));
      if (paid > 0) payments.set(ally.countryId, paid);
      alliesPaid += paid;
    }
  }
  const declarerPart = cost - alliesPaid;
  if (declarerPart > declarer.available) return null;
  payments.set(declarer.countryId, declarerPart);
  return payments;
}

/**
 * Whether `declarerId` may declare war on the target now. `existing` are the declarer's
 * declarations on that target (any status) and `activeWars` how many wars it has active.
 * Refused: oneself, a missing or eliminated target, a target under new-player protection (a
 * war bypasses the GDI, not that), a war already active, the 24-hour cooldown after the last
 * one, more than 5 wars at once, and a declarer who cannot pay the first turn.
 */
export function checkDeclareWar(args: {
  declarerId: number;
  target: { id: number; land: number; isEliminated: boolean; protectedUntil: number; allianceId: number | null } | null;
  declarerAllianceId: number | null;
  cash: number;
  existing: readonly WarDeclarationFacts[];
  activeWars: number;
  now: number;
}): RuleRejection | null {
  const { target, now } = args;
  if (!target) return reject("war/no_target", "No target selected");
  if (target.id === args.declarerId) return reject("war/own_country", "You cannot declare war on your own country");
  if (target.isEliminated) return reject("war/target_eliminated", "That country has been eliminated");
  if (args.declarerAllianceId !== null && args.declarerAllianceId === target.allianceId) return reject("war/same_alliance", "You cannot declare war on a member of your own alliance");
  if (target.protectedUntil > now) return reject("war/target_protected", "Target is under new player protection");
  for (const war of args.existing) {
    const status = warStatus(war, now);
    if (status === "active") return reject("war/already_at_war", "You are already at war with this country");
    if (status === "cooldown") {
      const hours = Math.ceil((war.endedAt! + WAR_COOLDOWN_MS - now) / HOUR_MS);
      return reject("war/cooldown", `Your last war with this country ended recently: you can declare again in ${hours} hour(s)`);
    }
  }
  if (args.activeWars >= MAX_ACTIVE_WARS) return reject("war/too_many", `You cannot fight more than ${MAX_ACTIVE_WARS} wars at once`);
  const firstTurn = computeWarCost(target.land, 1);
  if (args.cash < firstTurn) return reject("war/insufficient_funds", `Insufficient funds. A war on this country costs $${firstTurn.toLocaleString("en-US")} per turn.`);
  return null;
}

/** Whether the declarer may end the war now: only an active war, after 48 hours. */
export function checkEndWar(war: WarDeclarationFacts, declarerId: number, now: number): RuleRejection | null {
  if (war.declarerId !== declarerId) return reject("war/not_yours", "Only the declaring country can end this war");
  if (warStatus(war, now) !== "active") return reject("war/not_active", "This war is not active");
  const left = war.declaredAt + WAR_MIN_DURATION_MS - now;
  if (left > 0) return reject("war/min_duration", `A war lasts at least 48 hours: ${Math.ceil(left / HOUR_MS)} hour(s) left`);
  return null;
}

/**
 * The turns a war is charged for when ticks up to `lastTick` are applied: ticks due strictly
 * after the declaration and after the last tick already charged. Charging through the last
 * tick each time means a retried, duplicated or caught-up tick never charges a turn twice.
 */
export function warTurnsToCharge(declaredTick: number, chargedThroughTick: number, lastTick: number): number {
  return Math.max(0, lastTick - Math.max(declaredTick, chargedThroughTick));
}
