import { useEffect, useSyncExternalStore } from "react";
import { world } from "./worldConnection";
import type { WorldSnapshot } from "./types";

/** The whole world snapshot; re-renders on every room patch. */
export function useWorld(): WorldSnapshot {
  return useSyncExternalStore(world.subscribe, world.getSnapshot, world.getSnapshot);
}

/** One slice of the world snapshot; re-renders only when that slice changes identity. */
export function useWorldSlice<T>(select: (s: WorldSnapshot) => T): T {
  return useSyncExternalStore(
    world.subscribe,
    () => select(world.getSnapshot()),
    () => select(world.getSnapshot()),
  );
}

export const useSeason = () => useWorldSlice((s) => s.season);
export const useRankings = () => useWorldSlice((s) => s.rankings);
export const useChannels = () => useWorldSlice((s) => s.channels);
export const useOnlineUsers = () => useWorldSlice((s) => s.onlineUsers);
export const useConnectionStatus = () => useWorldSlice((s) => s.status);
export const useOwnCountrySummary = () => useWorldSlice((s) => s.ownCountry);

/** Keeps the world connection joined while `token` is set; leaves it when it goes away. */
export function useWorldConnection(token: string | null): void {
  useEffect(() => {
    if (token) world.connect(token);
    else world.disconnect();
  }, [token]);
}

export function sendChat(channel: string, content: string): boolean {
  return world.sendChat(channel, content);
}
