/**
 * The world room on the generic RoomConnection: its data slices (season, rankings, channels,
 * online users, own country summary, command outputs, refusals), the projection from
 * WorldState, and the world's messages (chat commands, alliance chat pushes, errors). Every
 * shape comes from @game/schema/messages.
 */
import {
  CHAT_RECENT_MESSAGES,
  SESSION_CLOSE_SIGNED_OUT,
  WORLD_ROOM,
  WorldMessage,
  type ChatChannelSnapshot,
  type ChatMessagePayload,
  type ChatMessageSnapshot,
  type CountrySummarySnapshot,
  type NewsTickerSnapshot,
  type NoticePayload,
  type OnlineUserSnapshot,
  type RankingRowSnapshot,
  type SeasonSnapshot,
  type WorldClientMessages,
  type WorldServerMessages,
  type WorldStateSnapshot,
} from "@game/schema/messages";
import { RoomConnection, shareEqual, type RoomConnectionOptions, type RoomSnapshot } from "./roomConnection";

export { WORLD_ROOM };

/** Command outputs and room errors kept for the chat screen. */
const KEEP_NOTICES = 20;

/** A chat command's answer from the room ('chatCommand' {command, lines}), as the chat shows it. */
export interface CommandOutput {
  id: number;
  command: string;
  lines: string[];
  /** epoch ms it arrived */
  at: number;
}

/** A refusal from the room ('error' {code, message}, or a room error), as the chat shows it. */
export interface RoomErrorNotice {
  id: number;
  code: string;
  message: string;
  /** epoch ms it arrived */
  at: number;
}

/** The world room's data slices. */
export interface WorldData {
  /** null until the first state arrives */
  season: SeasonSnapshot | null;
  rankings: RankingRowSnapshot[];
  /** the state's channels, alliance and leadership pushes merged in; messages oldest first */
  channels: ChatChannelSnapshot[];
  onlineUsers: OnlineUserSnapshot[];
  /** this client's own country (the view-filtered entry) */
  ownCountry: CountrySummarySnapshot | null;
  /** Date.now() when ownCountry last changed (to compare with REST data freshness) */
  ownCountryAt: number;
  commandOutputs: CommandOutput[];
  errors: RoomErrorNotice[];
  /** live notices for this player (attacked, spy caught...), newest last */
  notices: NoticePayload[];
  /** the latest global news headlines, newest first */
  news: NewsTickerSnapshot[];
}

export type WorldSnapshot = RoomSnapshot<WorldData>;

export const EMPTY_WORLD: WorldData = {
  season: null,
  rankings: [],
  channels: [],
  onlineUsers: [],
  ownCountry: null,
  ownCountryAt: 0,
  commandOutputs: [],
  errors: [],
  notices: [],
  news: [],
};

/** The own country's summary: the entry keyed by this session, else the only visible one. */
export function ownCountryOf(countries: WorldStateSnapshot["countries"] | undefined, sessionId: string): CountrySummarySnapshot | null {
  if (!countries) return null;
  const entries = Object.values(countries);
  return countries[sessionId] ?? (entries.length === 1 ? entries[0]! : null);
}

/** Alliance and leadership messages (pushed as "chatMessage") laid into their channels, by time. */
export function mergePrivateMessages(channels: ChatChannelSnapshot[], pushed: ReadonlyMap<string, ChatMessageSnapshot[]>): ChatChannelSnapshot[] {
  if (pushed.size === 0) return channels;
  return channels.map((channel) => {
    const extra = pushed.get(channel.id);
    if (!extra?.length) return channel;
    const known = new Set(channel.messages.map((m) => m.id));
    const messages = [...channel.messages, ...extra.filter((m) => !known.has(m.id))].sort((a, b) => a.timestamp - b.timestamp);
    return { ...channel, messages };
  });
}

/** A pushed chat message as the state carries messages (REST-only fields dropped). */
function toStateMessage(payload: ChatMessagePayload): ChatMessageSnapshot {
  return {
    id: payload.id,
    channel: payload.channel,
    type: payload.type,
    senderId: payload.senderId,
    senderName: payload.senderName,
    senderRole: payload.senderRole,
    allianceTag: payload.allianceTag,
    timestamp: payload.timestamp,
    content: payload.content,
    mentions: payload.mentions,
    isEdited: payload.isEdited,
  };
}

/** The world room connection: the generic connection plus the world's chat line sender. */
export type WorldConnection = RoomConnection<WorldData, WorldClientMessages, WorldServerMessages> & {
  /** Sends a chat line ('sendChat'); false when not connected. */
  sendChat(channel: string, content: string): boolean;
};

/** A world room connection: the projection from WorldState and the world's message listeners. */
export function createWorldConnection(options: RoomConnectionOptions = {}): WorldConnection {
  let noticeId = 0;
  /** the channels as the state has them (open channels carry their messages) */
  let stateChannels: ChatChannelSnapshot[] = [];
  /** alliance and leadership messages, pushed to entitled clients as "chatMessage" */
  const pushed = new Map<string, ChatMessageSnapshot[]>();

  const connection = new RoomConnection<WorldData, WorldClientMessages, WorldServerMessages>(
    {
      name: WORLD_ROOM,
      unreachable: "Could not reach the world server",
      // The token was revoked (logout elsewhere, password change, account deletion).
      finalCloseCodes: [SESSION_CLOSE_SIGNED_OUT],
      initial: EMPTY_WORLD,
      project: (state, { sessionId, previous }) => {
        const world = state as WorldStateSnapshot;
        stateChannels = Object.values(world.channels ?? {}).map((c) => ({ ...c, messages: [...c.messages].sort((a, b) => a.timestamp - b.timestamp) }));
        const ownCountry = shareEqual(previous.ownCountry, ownCountryOf(world.countries, sessionId));
        return {
          season: world.season ?? null,
          rankings: world.rankings ?? [],
          channels: mergePrivateMessages(stateChannels, pushed),
          onlineUsers: Object.values(world.onlineUsers ?? {}),
          ownCountry,
          ownCountryAt: ownCountry === previous.ownCountry ? previous.ownCountryAt : Date.now(),
          news: shareEqual(previous.news, world.news ?? []),
        };
      },
    },
    options,
  );

  const pushError = (code: string, message: string) => {
    const notice = { id: ++noticeId, code, message, at: Date.now() };
    connection.update({ errors: [...connection.data.errors, notice].slice(-KEEP_NOTICES) });
  };

  connection.on(WorldMessage.chatCommand, (reply) => {
    const output = { id: ++noticeId, command: String(reply?.command ?? ""), lines: Array.isArray(reply?.lines) ? reply.lines.map(String) : [], at: Date.now() };
    connection.update({ commandOutputs: [...connection.data.commandOutputs, output].slice(-KEEP_NOTICES) });
  });
  connection.on(WorldMessage.chatMessage, (payload) => {
    if (!payload) return;
    const message = toStateMessage(payload);
    const list = pushed.get(message.channel) ?? [];
    if (list.some((m) => m.id === message.id)) return;
    pushed.set(message.channel, [...list, message].slice(-CHAT_RECENT_MESSAGES));
    connection.update({ channels: mergePrivateMessages(stateChannels, pushed) });
  });
  connection.on(WorldMessage.notice, (notice) => {
    if (!notice || connection.data.notices.some((n) => n.id === notice.id)) return;
    connection.update({ notices: [...connection.data.notices, notice].slice(-KEEP_NOTICES) });
  });
  connection.on(WorldMessage.error, (payload) => pushError(String(payload?.code ?? "error"), String(payload?.message ?? "Error")));
  connection.onError((code, message) => pushError(String(code), message));
  connection.onReset(() => {
    stateChannels = [];
    pushed.clear();
  });

  return Object.assign(connection, {
    sendChat: (channel: string, content: string) => connection.send(WorldMessage.sendChat, { channel, content }),
  });
}

/** The app's one world connection. */
export const world = createWorldConnection();
