import { CHAT_CHANNELS, CHAT_RECENT_MESSAGES } from "../rules/chat.js";
import type {
  ChatChannelSnapshot,
  ChatChannelsMessage,
  ChatCountsMessage,
  ChatMessagePayload,
  ChatMessageSnapshot,
  CountrySummarySnapshot,
  OnlineUsersMessage,
  OnlineUserSnapshot,
  OwnCountryPatch,
  RankingRowSnapshot,
  RankingsMessage,
} from "./world.js";

/*
 * How a receiver keeps what the world room's messages describe: the same functions in the
 * browser, the load tester and the server's tests, so all three read the messages one way.
 * Each returns a new value when something changed and the same one otherwise.
 */

/** The rankings after a "rankings" message: rows replaced by position, the list cut to `length`. */
export function applyRankings(rows: readonly RankingRowSnapshot[], message: RankingsMessage): RankingRowSnapshot[] {
  const next = rows.slice(0, message.length);
  for (const { at, row } of message.rows) next[at] = row;
  return next;
}

/** The online list (by user id) after an "onlineUsers" message: replaced when full, else merged. */
export function applyOnlineUsers(list: Readonly<Record<string, OnlineUserSnapshot>>, message: OnlineUsersMessage): Record<string, OnlineUserSnapshot> {
  const next: Record<string, OnlineUserSnapshot> = message.full ? {} : { ...list };
  for (const id of message.removed) delete next[id];
  for (const user of message.users) next[user.id] = user;
  return next;
}

/** A pushed line as it is kept (the REST-only online flag dropped). */
export function toChatLine(payload: ChatMessagePayload): ChatMessageSnapshot {
  const { isOnline: _isOnline, ...line } = payload;
  return line;
}

/** A channel's lines with `line` added: by id, once, oldest first, at most CHAT_RECENT_MESSAGES. */
export function addChatLine(lines: readonly ChatMessageSnapshot[], line: ChatMessageSnapshot): ChatMessageSnapshot[] {
  if (lines.some((l) => l.id === line.id)) return lines as ChatMessageSnapshot[];
  const next = [...lines, line].sort((a, b) => a.timestamp - b.timestamp || Number(a.id) - Number(b.id));
  return next.slice(-CHAT_RECENT_MESSAGES);
}

/** Every global channel as the chat screen shows it, from the "chatChannels" snapshot (definitions from CHAT_CHANNELS). */
export function chatChannelsFrom(message: ChatChannelsMessage): ChatChannelSnapshot[] {
  return CHAT_CHANNELS.map((def) => {
    const sent = message.channels.find((c) => c.id === def.id);
    const { id, name, description, icon, color, accessLevel, isActive } = def;
    return { id, name, description, icon, color, accessLevel, isActive, userCount: sent?.userCount ?? 0, messages: (sent?.messages ?? []).map(toChatLine) };
  });
}

/** The channels after a line arrived ("chatMessage"): added to its channel, the others kept. */
export function addLineToChannels(channels: readonly ChatChannelSnapshot[], payload: ChatMessagePayload): ChatChannelSnapshot[] {
  const line = toChatLine(payload);
  let changed = false;
  const next = channels.map((c) => {
    if (c.id !== line.channel) return c;
    const messages = addChatLine(c.messages, line);
    if (messages === c.messages) return c;
    changed = true;
    return { ...c, messages };
  });
  return changed ? next : (channels as ChatChannelSnapshot[]);
}

/** The channels after a "chatCounts" message. */
export function applyChatCounts(channels: readonly ChatChannelSnapshot[], message: ChatCountsMessage): ChatChannelSnapshot[] {
  return channels.map((c) => {
    const count = message.counts[c.id];
    return count === undefined || count === c.userCount ? c : { ...c, userCount: count };
  });
}

/** The own numbers after an "own" message (the first one after a join carries them all). */
export function applyOwnPatch(own: CountrySummarySnapshot | null, patch: OwnCountryPatch): CountrySummarySnapshot | null {
  if (!own) return "countryId" in patch && patch.countryId !== undefined ? (patch as CountrySummarySnapshot) : null;
  return { ...own, ...patch };
}

/**
 * The player's unread news: the count the shard last sent ("own" unreadNews, which covered its
 * global items up to unreadNewsSeq) plus the global items the shard has taken since (the world
 * state's newsSeq). A patch of the state and an "own" message may arrive in either order, so a
 * sequence behind the message's counts nothing.
 */
export function unreadNewsOf(own: Pick<CountrySummarySnapshot, "unreadNews" | "unreadNewsSeq">, newsSeq: number): number {
  return own.unreadNews + Math.max(0, newsSeq - own.unreadNewsSeq);
}
