import type { CountryState, GovernmentType, RuleRejection } from "./country.js";
import { isGovernmentType, isNonNegativeInteger, reject } from "./country.js";
import { GOVERNMENTS } from "./governments.js";

/** Most turns a country can hold available (turns). */
export const MAX_TURNS = 150;
/** Most stored turns (turns); the tick fills them once available turns are at MAX_TURNS. */
export const MAX_STORED_TURNS = 180;
/** One turn regenerates every 20 minutes (milliseconds). */
export const TURN_INTERVAL_MS = 20 * 60 * 1000;
/**
 * Turns a new country starts with. The tutorial says 150 and the starting-resource table says
 * 100; we follow the table (docs/rules.md, "Turns").
 */
export const STARTING_TURNS = 100;
/** Most turns one action may spend: the turn selector's maximum (turns). */
export const MAX_TURNS_PER_ACTION = 50;

/** Available and stored turns, as the tick sees them. */
export interface TurnCounters {
  turns: number;
  storedTurns: number;
}

/**
 * One tick: +1 available turn up to MAX_TURNS; at the cap the turn goes to stored turns, up
 * to MAX_STORED_TURNS; beyond both it is lost. The server's set-based SQL must match this.
 */
export function applyTick(turns: number, storedTurns: number): TurnCounters {
  if (turns < MAX_TURNS) return { turns: turns + 1, storedTurns };
  if (storedTurns < MAX_STORED_TURNS) return { turns, storedTurns: storedTurns + 1 };
  return { turns, storedTurns };
}

/**
 * `ticks` ticks at once (catch-up after downtime), equal to calling applyTick `ticks` times:
 * available turns fill first, the rest overflow into stored turns.
 */
export function applyTicks(turns: number, storedTurns: number, ticks: number): TurnCounters {
  const k = Math.max(0, Math.floor(ticks));
  const nextTurns = turns >= MAX_TURNS ? turns : Math.min(MAX_TURNS, turns + k);
  const overflow = k - (nextTurns - turns);
  const nextStored = storedTurns >= MAX_STORED_TURNS ? storedTurns : Math.min(MAX_STORED_TURNS, storedTurns + overflow);
  return { turns: nextTurns, storedTurns: nextStored };
}

/**
 * The most turns one action may spend now (turns): the smaller of the available turns and
 * MAX_TURNS_PER_ACTION (50), never below 0. The turn selectors' maximum.
 */
export function computeMaxTurnsPerAction(available: number): number {
  return Math.max(0, Math.min(available, MAX_TURNS_PER_ACTION));
}

/**
 * Whether an action may spend `quantity` turns: a whole number between 1 and the smaller of
 * the available turns and MAX_TURNS_PER_ACTION (50). `namespace` prefixes the code
 * ("exploration", "turns", ...).
 */
export function checkTurnQuantity(available: number, quantity: number, namespace = "turns"): RuleRejection | null {
  if (available < 1) return reject(`${namespace}/no_turns`, "No turns available");
  const max = computeMaxTurnsPerAction(available);
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > max) {
    return reject(`${namespace}/invalid_turns`, `Turns must be between 1 and ${max}`);
  }
  return null;
}

/**
 * Whether `quantity` stored turns may become available turns: a whole number >= 1, no more
 * than the stored turns, and not lifting available turns above MAX_TURNS (stored turns are
 * a reserve, not a way past the cap).
 */
export function checkConvertStoredTurns(country: TurnCounters, quantity: number): RuleRejection | null {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    return reject("turns/invalid_quantity", "Quantity must be a whole number of at least 1");
  }
  if (quantity > country.storedTurns) {
    return reject("turns/insufficient_stored_turns", `Only ${country.storedTurns} stored turns available`);
  }
  if (country.turns + quantity > MAX_TURNS) {
    return reject("turns/exceeds_max_turns", `Cannot hold more than ${MAX_TURNS} turns; convert at most ${Math.max(0, MAX_TURNS - country.turns)}`);
  }
  return null;
}

/** Moves `quantity` stored turns into available turns (call checkConvertStoredTurns first). */
export function applyConvertStoredTurns<T extends TurnCounters>(country: T, quantity: number): T {
  return { ...country, turns: country.turns + quantity, storedTurns: country.storedTurns - quantity };
}

// ---------------------------------------------------------------------------------------
// Government change

/** Cash cost of each paid government change, multiplied by the changes made so far (dollars). */
export const GOVERNMENT_CHANGE_BASE_COST = 50_000;
/** Turns a paid government change takes (turns); the economy runs for each under the new government. */
export const GOVERNMENT_CHANGE_TURN_COST = 10;

/** What the server keeps about past government changes (columns of the country row). */
export interface GovernmentChangeHistory {
  hasUsedFreeGovernmentChange: boolean;
  governmentChangeCount: number;
}

/** Price of the next change of government. */
export interface GovernmentChangeCost {
  /** true when this is the one free change */
  free: boolean;
  /** dollars */
  cash: number;
  /** turns */
  turns: number;
}

/**
 * The cost of the next government change. The first is free (no cash, no turns). After it,
 * a change costs GOVERNMENT_CHANGE_BASE_COST x governmentChangeCount dollars (50,000, then
 * 100,000, 150,000, ...) and GOVERNMENT_CHANGE_TURN_COST turns: growing cost stops a player
 * hopping between governments to catch each bonus when it matters.
 */
export function computeGovernmentChangeCost(history: GovernmentChangeHistory): GovernmentChangeCost {
  if (!history.hasUsedFreeGovernmentChange) return { free: true, cash: 0, turns: 0 };
  const count = Math.max(1, Math.floor(history.governmentChangeCount));
  return { free: false, cash: GOVERNMENT_CHANGE_BASE_COST * count, turns: GOVERNMENT_CHANGE_TURN_COST };
}

/** Whether the country may change to `target` now. */
export function checkGovernmentChange(country: Pick<CountryState, "governmentType" | "cash" | "turns">, history: GovernmentChangeHistory, target: unknown): RuleRejection | null {
  if (!isGovernmentType(target)) return reject("government/unknown_government", "Unknown government type");
  if (target === country.governmentType) {
    return reject("government/same_government", `Your country is already a ${GOVERNMENTS[target].name}`);
  }
  const cost = computeGovernmentChangeCost(history);
  if (cost.cash > country.cash) {
    return reject("government/insufficient_funds", `Insufficient funds. Need $${(cost.cash - country.cash).toLocaleString("en-US")} more.`);
  }
  if (cost.turns > country.turns) {
    return reject("government/insufficient_turns", `Insufficient turns: need ${cost.turns}, have ${country.turns}`);
  }
  return null;
}

/**
 * Changes the government, paying the cost; returns the next country and the next history.
 * The service then runs the economy for `cost.turns` turns (none for the free change).
 */
export function applyGovernmentChange<T extends CountryState>(country: T, history: GovernmentChangeHistory, target: GovernmentType): { next: T; history: GovernmentChangeHistory; cost: GovernmentChangeCost } {
  const cost = computeGovernmentChangeCost(history);
  return {
    next: { ...country, governmentType: target, cash: country.cash - cost.cash, turns: country.turns - cost.turns },
    history: { hasUsedFreeGovernmentChange: true, governmentChangeCount: history.governmentChangeCount + 1 },
    cost,
  };
}

/**
 * Milliseconds until the next turn tick is due, never below 0 (0: due now, the tick has not
 * been observed yet). The clock the world room shows as "Next turn: ..." and /time answers;
 * `nextTickAt` and `now` are epoch milliseconds.
 */
export function computeMsToNextTick(nextTickAt: number, now: number): number {
  return Math.max(0, nextTickAt - now);
}

/** True when `n` is a valid turn count (0..MAX_TURNS). */
export function isValidTurnCount(n: number): boolean {
  return isNonNegativeInteger(n) && n <= MAX_TURNS;
}
