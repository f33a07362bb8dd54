import { useSyncExternalStore } from "react";
import type { AttackTypeId, AttackUnits } from "@game/schema/rules";

/**
 * What the player is preparing, shared by the military panels and the War Room for the
 * session: the selected target (Target Selection's 'Select as Target'), the attack type and the
 * allocated units (Combat Operations, Attack Preparation), alliance support and timing.
 * Changing the attack type clears the units (spec).
 */
export interface AttackSelection {
  target: { id: number; name: string } | null;
  attackType: AttackTypeId | null;
  units: AttackUnits;
  allianceSupport: boolean;
  /** allies ticked for support */
  allies: number[];
  /** null: immediate; else the ISO date-time of a scheduled attack */
  scheduledFor: string | null;
}

const EMPTY: AttackSelection = { target: null, attackType: null, units: {}, allianceSupport: false, allies: [], scheduledFor: null };

let current: AttackSelection = EMPTY;
const listeners = new Set<() => void>();

function set(next: AttackSelection): void {
  current = next;
  for (const l of listeners) l();
}

export const selection = {
  get: () => current,
  selectTarget(target: { id: number; name: string } | null) {
    set({ ...current, target, allies: [], allianceSupport: false });
  },
  /** The spec: changing the attack type resets all allocated units to 0. */
  setAttackType(attackType: AttackTypeId | null) {
    set({ ...current, attackType, units: {} });
  },
  setUnits(units: AttackUnits) {
    set({ ...current, units });
  },
  /** Ticks or unticks an ally; support is asked for while any is ticked. */
  toggleAlly(allyId: number, on: boolean) {
    const allies = on ? [...new Set([...current.allies, allyId])] : current.allies.filter((id) => id !== allyId);
    set({ ...current, allies, allianceSupport: allies.length > 0 });
  },
  setScheduledFor(scheduledFor: string | null) {
    set({ ...current, scheduledFor });
  },
  /** After a launch: units cleared, the target kept for the next attack. */
  afterLaunch() {
    set({ ...current, units: {}, scheduledFor: null });
  },
  reset() {
    set(EMPTY);
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAttackSelection(): AttackSelection {
  return useSyncExternalStore(subscribe, selection.get, selection.get);
}
