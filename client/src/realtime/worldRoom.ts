/**
 * The world room on the generic RoomConnection: its data slices (season, news ticker, own
 * country, and what the screens watch: chat channels, online users, rankings), command outputs
 * and refusals. The state carries the season and the ticker; everything else arrives as the
 * world room's messages (WORLD_MESSAGES) and is kept by schema's worldFeeds functions, the ones
 * the server's tests and the load tester use. A screen says what it shows with `useWatch`; the
 * connection tells the room the union of what the mounted screens watch, again after every
 * (re)join, and the room answers each new topic with a snapshot. Every shape comes from
 * @game/schema/messages.
 */
// Values from the messages' zod-free modules only: the catalogue (world.ts) builds every message's
// zod schema when evaluated, and this module is part of the game's start (issue 30).
import { addLineToChannels, applyChatCounts, applyOnlineUsers, applyOwnPatch, applyRankings, chatChannelsFrom } from "@game/schema/messages/worldFeeds";
import { SESSION_CLOSE_SIGNED_OUT, WATCH_TOPICS, WORLD_ROOM, WorldMessage } from "@game/schema/messages/constants";
import { CHAT_RECENT_MESSAGES, findChannel } from "@game/schema/rules";
import type {
  ChatChannelSnapshot,
  ChatMessagePayload,
  CountrySummarySnapshot,
  NewsTickerSnapshot,
  NoticePayload,
  OnlineUserSnapshot,
  RankingRowSnapshot,
  SeasonSnapshot,
  WatchTopic,
  WorldClientMessages,
  WorldServerMessages,
  WorldStateSnapshot,
} from "@game/schema/messages";
import { WORLD_MESSAGE_CHECKS } from "./worldChecks";
import { RoomConnection, type RoomConnectionOptions, type RoomSnapshot } from "./roomConnection";

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
  /** while a screen watches "rankings" */
  rankings: RankingRowSnapshot[];
  /** while a screen watches "chat": the global channels, alliance and leadership pushes merged in; messages oldest first */
  channels: ChatChannelSnapshot[];
  /** while a screen watches "online" */
  onlineUsers: OnlineUserSnapshot[];
  /** this player's own country ("own" messages) */
  ownCountry: CountrySummarySnapshot | null;
  /** Date.now() when ownCountry last changed (to compare with REST data freshness) */
  ownCountryAt: number;
  commandOutputs: CommandOutput[];
  errors: RoomErrorNotice[];
  /** live notices for this player (attacked, spy caught...), newest last */
  notices: NoticePayload[];
  /** the latest global news headlines, newest first */
  news: NewsTickerSnapshot[];
  /** the shard's count of global news items (state.newsSeq): with ownCountry's unreadNews, the unread count (unreadNewsOf) */
  newsSeq: number;
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
  newsSeq: 0,
};

/** The world room connection: the generic connection plus the chat line sender and the screens' watches. */
export type WorldConnection = RoomConnection<WorldData, WorldClientMessages, WorldServerMessages> & {
  /** Sends a chat line ('sendChat'); false when not connected. */
  sendChat(channel: string, content: string): boolean;
  /** A mounted screen shows `topic` until the returned function is called (counted, so two screens may share one). */
  watch(topic: WatchTopic): () => void;
};

/** A world room connection: the state's slices, the world's messages, and what the screens watch. */
export function createWorldConnection(options: RoomConnectionOptions = {}): WorldConnection {
  let noticeId = 0;
  /** how many mounted screens watch each topic */
  const watchers = new Map<WatchTopic, number>();
  /** online users by id, as the "onlineUsers" messages left them */
  let online: Record<string, OnlineUserSnapshot> = {};
  /**
   * Lines of the alliance and leadership channels, pushed to members from the join on whatever
   * the screen: kept, and laid into the channels whenever the chat is shown.
   */
  let privateLines: ChatMessagePayload[] = [];

  const connection = new RoomConnection<WorldData, WorldClientMessages, WorldServerMessages>(
    {
      name: WORLD_ROOM,
      unreachable: "Could not reach the world server",
      // The token was revoked (logout elsewhere, password change, account deletion).
      finalCloseCodes: [SESSION_CLOSE_SIGNED_OUT],
      accept: WORLD_MESSAGE_CHECKS,
      initial: EMPTY_WORLD,
      project: (state) => {
        const world = state as WorldStateSnapshot;
        return { season: world.season ?? null, news: world.news ?? [], newsSeq: world.newsSeq ?? 0 };
      },
    },
    options,
  );

  const watched = () => WATCH_TOPICS.filter((t) => (watchers.get(t) ?? 0) > 0);
  /** Tells the room what the screens show; after a (re)join every topic is new again, so each sends a snapshot. */
  const sendWatch = (fresh: boolean) => {
    if (fresh) connection.send(WorldMessage.watch, { topics: [] });
    connection.send(WorldMessage.watch, { topics: watched() });
  };
  connection.onConnected(() => sendWatch(true));

  const pushError = (code: string, message: string) => {
    const notice = { id: ++noticeId, code, message, at: Date.now() };
    connection.update({ errors: [...connection.data.errors, notice].slice(-KEEP_NOTICES) });
  };

  connection.on(WorldMessage.own, (patch) => {
    const ownCountry = applyOwnPatch(connection.data.ownCountry, patch);
    if (ownCountry) connection.update({ ownCountry, ownCountryAt: Date.now() });
  });
  connection.on(WorldMessage.chatChannels, (snapshot) => {
    let channels = chatChannelsFrom(snapshot);
    for (const line of privateLines) channels = addLineToChannels(channels, line);
    connection.update({ channels });
  });
  connection.on(WorldMessage.chatMessage, (line) => {
    if (findChannel(line.channel)?.accessLevel !== "all") privateLines = [...privateLines, line].slice(-CHAT_RECENT_MESSAGES * 2);
    if (connection.data.channels.length > 0) connection.update({ channels: addLineToChannels(connection.data.channels, line) });
  });
  connection.on(WorldMessage.chatCounts, (counts) => connection.update({ channels: applyChatCounts(connection.data.channels, counts) }));
  connection.on(WorldMessage.onlineUsers, (message) => {
    online = applyOnlineUsers(online, message);
    connection.update({ onlineUsers: Object.values(online).sort((a, b) => b.networth - a.networth) });
  });
  connection.on(WorldMessage.rankings, (message) => connection.update({ rankings: applyRankings(connection.data.rankings, message) }));
  connection.on(WorldMessage.chatCommand, (reply) => {
    const output = { id: ++noticeId, command: String(reply?.command ?? ""), lines: Array.isArray(reply?.lines) ? reply.lines.map(String) : [], at: Date.now() };
    connection.update({ commandOutputs: [...connection.data.commandOutputs, output].slice(-KEEP_NOTICES) });
  });
  connection.on(WorldMessage.notice, (notice) => {
    if (!notice || connection.data.notices.some((n) => n.id === notice.id)) return;
    connection.update({ notices: [...connection.data.notices, notice].slice(-KEEP_NOTICES) });
  });
  connection.on(WorldMessage.error, (payload) => pushError(String(payload?.code ?? "error"), String(payload?.message ?? "Error")));
  connection.onError((code, message) => pushError(String(code), message));
  connection.onReset(() => {
    online = {};
    privateLines = [];
  });

  return Object.assign(connection, {
    sendChat: (channel: string, content: string) => connection.send(WorldMessage.sendChat, { channel, content }),
    watch(topic: WatchTopic) {
      watchers.set(topic, (watchers.get(topic) ?? 0) + 1);
      if (watchers.get(topic) === 1) sendWatch(false);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        watchers.set(topic, watchers.get(topic)! - 1);
        if (watchers.get(topic) === 0) {
          // what is no longer shown is dropped, so a later watch starts from its snapshot
          if (topic === "online") {
            online = {};
            connection.update({ onlineUsers: [] });
          } else if (topic === "rankings") connection.update({ rankings: [] });
          else if (topic === "chat") connection.update({ channels: [] });
          sendWatch(false);
        }
      };
    },
  });
}

/** The app's one world connection. */
export const world = createWorldConnection();
