import { useEffect, useRef, useSyncExternalStore } from "react";
import type { WatchTopic } from "@game/schema/messages";
import type { RoomSnapshot } from "./roomConnection";
import { unreadNewsOf } from "@game/schema/messages/worldFeeds";
import { world, type WorldSnapshot } from "./worldRoom";

/** What the hooks read of a RoomConnection: its snapshot store. */
export interface RoomStore<Data extends object> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RoomSnapshot<Data>;
}

/** A room's whole snapshot; re-renders on every change of any slice. */
export function useRoom<Data extends object>(connection: RoomStore<Data>): RoomSnapshot<Data> {
  return useSyncExternalStore(connection.subscribe, connection.getSnapshot, connection.getSnapshot);
}

/**
 * One slice of a room's snapshot; re-renders only when that slice changes identity, which it
 * does only when its data changes. `select` must return a part of the snapshot, not a new object.
 */
export function useRoomSlice<Data extends object, T>(connection: RoomStore<Data>, select: (snapshot: RoomSnapshot<Data>) => T): T {
  const read = () => select(connection.getSnapshot());
  return useSyncExternalStore(connection.subscribe, read, read);
}

/** Keeps `connection` joined while `token` is set; leaves it when the token goes away. */
export function useRoomConnection(connection: { connect(token: string): void; disconnect(): void }, token: string | null): void {
  useEffect(() => {
    if (token) connection.connect(token);
    else connection.disconnect();
  }, [connection, token]);
}

/** The whole world snapshot; re-renders on every room patch. Prefer a slice hook. */
export function useWorld(): WorldSnapshot {
  return useRoom(world);
}

/** One slice of the world snapshot; re-renders only when that slice changes. */
export function useWorldSlice<T>(select: (s: WorldSnapshot) => T): T {
  return useRoomSlice(world, select);
}

/**
 * The calling screen shows `topic` while it is mounted: the world room sends it what that
 * topic's slices need (a snapshot, then changes) and nothing of it while no screen shows it.
 */
export function useWatch(topic: WatchTopic): void {
  useEffect(() => world.watch(topic), [topic]);
}

export const useSeason = () => useWorldSlice((s) => s.season);
/** The live rankings (the calling screen watches them). */
export function useRankings() {
  useWatch("rankings");
  return useWorldSlice((s) => s.rankings);
}
/** The global chat channels (the calling screen watches the chat). */
export function useChannels() {
  useWatch("chat");
  return useWorldSlice((s) => s.channels);
}
/** Who is online (the calling screen watches it). */
export function useOnlineUsers() {
  useWatch("online");
  return useWorldSlice((s) => s.onlineUsers);
}
export const useConnectionStatus = () => useWorldSlice((s) => s.status);
export const useConnectionMessage = () => useWorldSlice((s) => s.statusMessage);
export const useOwnCountrySummary = () => useWorldSlice((s) => s.ownCountry);
export const useCommandOutputs = () => useWorldSlice((s) => s.commandOutputs);
export const useRoomErrors = () => useWorldSlice((s) => s.errors);
export const useNotices = () => useWorldSlice((s) => s.notices);

/**
 * Calls `refresh` when a notice of one of `kinds` arrives (not for those already there when the
 * component mounted): how a domain keeps its REST answers live on its notices (attacked, a
 * spy caught, a listing sold).
 */
export function useRefreshOnNotices(kinds: ReadonlySet<string>, refresh: () => void): void {
  const notices = useNotices();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(notices.map((n) => n.id));
      return;
    }
    const fresh = notices.filter((n) => !seen.current!.has(n.id));
    for (const n of fresh) seen.current.add(n.id);
    if (fresh.some((n) => kinds.has(n.kind))) refresh();
  }, [notices, kinds, refresh]);
}
export const useNewsTicker = () => useWorldSlice((s) => s.news);
/** The player's unread news count, live from the world room (null until the room has it). */
/** The unread news count: what the shard last sent, plus the global items it has taken since. */
export const useUnreadNews = () => useWorldSlice((s) => (s.ownCountry ? unreadNewsOf(s.ownCountry, s.newsSeq) : null));

/** Keeps the world connection joined while `token` is set; leaves it when it goes away. */
export function useWorldConnection(token: string | null): void {
  useRoomConnection(world, token);
}

export function sendChat(channel: string, content: string): boolean {
  return world.sendChat(channel, content);
}
