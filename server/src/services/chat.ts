import {
  canAccessChannel,
  CHAT_CHANNELS,
  CHAT_COMMAND_HELP,
  CHAT_MESSAGES,
  CHAT_RATE_LIMIT_MESSAGES,
  CHAT_RATE_LIMIT_WINDOW_MS,
  CHAT_RECENT_MESSAGES,
  checkChannelAccess,
  findChannel,
  isAllianceLeader,
  parseChatCommand,
  parseMentions,
  sendChatSchema,
  visibleChannels,
  type ChatCommandReply,
  type ChatMessagePayload,
  type ParsedChatCommand,
} from "@game/schema/messages";
import { firstIssueMessage, type ChatChannelJson } from "@game/schema/api";
import { computeMsToNextTick } from "@game/schema/rules";
import type { ServiceContext } from "./context.js";
import { allianceTopic, countryTopic, WORLD_TOPIC, type ChatMessageEvent } from "../events.js";
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from "../errors.js";
import { addIgnore, findUserByUsername, insertChatMessage, listChatMessages, listIgnoredUserIds, listIgnoredUsernames, recentOpenChannelMessages, removeIgnore, type ChatMessageRow } from "../db/chat.js";
import { onlineAmong, onlineCounts } from "../db/online.js";
import { allianceRoles } from "../db/alliances.js";
import { loadOnlineUsers, loadWorldMember, type WorldMember } from "./world.js";
import { currentSeason } from "./season.js";

/**
 * Global chat: one sendChatMessage for the "sendChat" room message and POST /chat/send, the
 * paged history, the channel list. Access to alliance and leadership channels is decided
 * here, on the server, with the pure rules of schema/src/rules/chat.ts.
 */

/** What a send did: a message was posted, or a command was answered to the sender only. */
export type ChatSendResult = { kind: "message"; message: ChatMessagePayload } | { kind: "command"; reply: ChatCommandReply };

/** CHAT_RATE_LIMIT_MESSAGES per CHAT_RATE_LIMIT_WINDOW_MS per user, across REST and every room and process. */
export const CHAT_LIMIT = { name: "chat", points: CHAT_RATE_LIMIT_MESSAGES, durationSeconds: CHAT_RATE_LIMIT_WINDOW_MS / 1000 };

/** Names listed by /who (names); the rest are counted. */
const WHO_LIST_LIMIT = 50;

/**
 * Validates (trimmed, 1-500 characters, a known channel), rate limits the user (across REST
 * and every room, every process with Redis), then either answers a command or persists the
 * message and publishes it; every world room shard adds it from the event, none locally.
 */
export async function sendChatMessage(ctx: ServiceContext, userId: number, input: unknown, now = ctx.clock.now()): Promise<ChatSendResult> {
  const parsed = sendChatSchema.safeParse(input ?? {});
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error), "chat/invalid");
  const { channel, content } = parsed.data;

  const refused = await ctx.limiter.define(CHAT_LIMIT).tryTake(String(userId));
  if (refused) throw tooManyRequests(CHAT_MESSAGES.rateLimited, "chat/rate_limited", refused.retryAfterSeconds);

  const member = await requireMember(ctx, userId);
  const command = parseChatCommand(content);
  if (command) return { kind: "command", reply: await runCommand(ctx, member, command, now) };

  const refusal = checkChannelAccess(channel, member);
  if (refusal) throw refusal.code === "chat/no_access" ? forbidden(refusal.message, refusal.code) : new AppError(409, refusal.message, refusal.code);
  const allianceScope = findChannel(channel)!.accessLevel === "all" ? 0 : member.allianceId!;

  const row = await insertChatMessage(ctx.db, {
    channel,
    allianceScope,
    type: "message",
    senderUserId: member.userId,
    senderCountryId: member.countryId,
    senderName: member.username,
    senderRole: member.role,
    allianceTag: member.allianceTag,
    content,
    mentions: parseMentions(content),
  });
  const message = toChatMessageEvent(row);
  ctx.metrics.chatMessages.inc({ channel });
  if (allianceScope) ctx.events.publish(allianceTopic(allianceScope), { type: "allianceChatMessage", allianceId: allianceScope, channelId: channel, message });
  else ctx.events.publish(WORLD_TOPIC, { type: "chatMessage", channelId: channel, message });
  return { kind: "message", message: { ...message, isOnline: true, isEdited: row.is_edited } };
}

async function requireMember(ctx: ServiceContext, userId: number): Promise<WorldMember> {
  const member = await loadWorldMember(ctx, userId);
  if (!member) throw notFound("You have no country", "country/none");
  return member;
}

export function toChatMessageEvent(row: ChatMessageRow): ChatMessageEvent {
  return {
    id: String(row.id),
    channel: row.channel,
    type: row.type,
    senderId: row.sender_user_id ?? 0,
    senderName: row.sender_name,
    senderRole: row.sender_role,
    allianceTag: row.alliance_tag,
    timestamp: row.created_at.getTime(),
    content: row.content,
    mentions: row.mentions,
  };
}

/** A time as players read it: "2026-11-23 05:45 UTC" (the game's clock is UTC). */
export function readableTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

async function runCommand(ctx: ServiceContext, member: WorldMember, parsed: ParsedChatCommand, now: number): Promise<ChatCommandReply> {
  switch (parsed.command) {
    case "help":
      return { command: "help", lines: [...Object.values(CHAT_COMMAND_HELP), "@username - mention a player"] };
    case "who": {
      const [users, { total }] = await Promise.all([loadOnlineUsers(ctx, WHO_LIST_LIMIT), onlineCounts(ctx.db, null)]);
      const names = users.map((u) => (u.allianceTag ? `[${u.allianceTag}] ${u.name}` : u.name));
      const more = total > users.length ? [`...and ${total - users.length} more`] : [];
      return { command: "who", lines: [`${total} player${total === 1 ? "" : "s"} online`, ...names, ...more] };
    }
    case "time": {
      const season = await currentSeason(ctx, now);
      const minutes = Math.ceil(computeMsToNextTick(season.nextTickAt, now) / 60_000);
      const days = Math.max(0, Math.ceil((season.endsAt - now) / 86_400_000));
      return {
        command: "time",
        lines: [
          `Server time: ${readableTime(now)}`,
          `Next turn: ${readableTime(season.nextTickAt)} (in ${minutes} ${minutes === 1 ? "minute" : "minutes"})`,
          `${season.name} ends: ${readableTime(season.endsAt)} (in ${days} ${days === 1 ? "day" : "days"})`,
        ],
      };
    }
    case "ignore":
    case "unignore":
      return toggleIgnore(ctx, member, parsed.command, parsed.argument);
    case null:
      throw badRequest(CHAT_MESSAGES.unknownCommand, "chat/unknown_command");
  }
}

/**
 * /ignore alone lists whom the user ignores; /ignore name and /unignore name change the
 * persisted list. The user's rooms pick the new list up from the ignoreListChanged event on
 * the country's topic.
 */
async function toggleIgnore(ctx: ServiceContext, member: WorldMember, command: "ignore" | "unignore", argument: string): Promise<ChatCommandReply> {
  const name = argument.replace(/^@/, "").trim();
  if (!name) {
    if (command === "unignore") throw badRequest("Usage: /unignore <user>", "chat/usage");
    const names = await listIgnoredUsernames(ctx.db, member.userId);
    return { command, lines: [names.length ? `You ignore: ${names.join(", ")}` : "You ignore nobody"] };
  }
  const target = await findUserByUsername(ctx.db, name);
  if (!target) throw notFound(`No player named ${name}`, "chat/unknown_user");
  if (target.id === member.userId) throw badRequest("You cannot ignore yourself", "chat/ignore_self");
  const changed = command === "ignore" ? await addIgnore(ctx.db, member.userId, target.id) : await removeIgnore(ctx.db, member.userId, target.id);
  if (changed) {
    const ignoredUserIds = await listIgnoredUserIds(ctx.db, member.userId);
    ctx.events.publish(countryTopic(member.countryId), { type: "ignoreListChanged", userId: member.userId, ignoredUserIds });
  }
  const line = command === "ignore" ? (changed ? `You now ignore ${target.username}` : `You already ignore ${target.username}`) : changed ? `You no longer ignore ${target.username}` : `You were not ignoring ${target.username}`;
  return { command, lines: [line] };
}

/**
 * The channels a player may see (spec: 'all' always, 'alliance' for members, 'leadership'
 * only for leaders) with how many players online can read each.
 */
export async function listChatChannels(ctx: ServiceContext, userId: number): Promise<ChatChannelJson[]> {
  const member = await requireMember(ctx, userId);
  const counts = await onlineCounts(ctx.db, member.allianceId);
  const roles = await allianceRoles(ctx.db, counts.allianceCountries);
  const leaders = counts.allianceCountries.filter((c) => isAllianceLeader({ allianceId: c.alliance_id, allianceRole: roles.get(c.id) ?? null })).length;
  return visibleChannels(member).map((c) => ({
    id: c.id,
    name: c.name,
    description: c.description,
    icon: c.icon,
    color: c.color,
    accessLevel: c.accessLevel,
    isActive: c.isActive,
    userCount: c.accessLevel === "all" ? counts.total : c.accessLevel === "alliance" ? counts.allianceCountries.length : leaders,
  }));
}

/**
 * A page of a channel's history, oldest first, without senders the reader ignores. Alliance
 * and leadership channels show only the reader's own alliance's messages.
 */
export async function listChatHistory(ctx: ServiceContext, userId: number, channelId: string, page: { before?: number; limit: number }): Promise<{ messages: ChatMessagePayload[]; hasMore: boolean }> {
  const member = await requireMember(ctx, userId);
  const channel = findChannel(channelId);
  if (!channel) throw notFound(CHAT_MESSAGES.unknownChannel, "chat/unknown_channel");
  if (!canAccessChannel(channel, member)) throw forbidden(CHAT_MESSAGES.noAccess, "chat/no_access");
  const rows = await listChatMessages(ctx.db, {
    channel: channel.id,
    allianceScope: channel.accessLevel === "all" ? 0 : member.allianceId!,
    before: page.before,
    limit: page.limit,
    readerUserId: userId,
  });
  const online = await onlineAmong(ctx.db, [...new Set(rows.map((r) => r.sender_user_id).filter((id): id is number => id !== null))]);
  const messages = rows.reverse().map((row) => ({
    ...toChatMessageEvent(row),
    isOnline: row.sender_user_id !== null && online.has(row.sender_user_id),
    isEdited: row.is_edited,
  }));
  return { messages, hasMore: rows.length === page.limit };
}

/** The latest CHAT_RECENT_MESSAGES of every open channel, oldest first: a new room's starting history. */
export async function loadRecentChat(ctx: ServiceContext): Promise<ChatMessageEvent[]> {
  const open = CHAT_CHANNELS.filter((c) => c.accessLevel === "all").map((c) => c.id);
  const rows = await recentOpenChannelMessages(ctx.db, open, CHAT_RECENT_MESSAGES);
  return rows.sort((a, b) => a.id - b.id).map(toChatMessageEvent);
}
