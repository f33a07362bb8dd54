import { ALLIANCE_CHAT_CHANNELS, CHAT_MESSAGES, ALLIANCE_CHAT_RECENT_MESSAGES, checkAllianceChat, findAllianceChannel, parseMentions, type AllianceChatMessageType } from "@game/schema/rules";
import type { ParsedAllianceSendChatMessage, ChatMessagePayload } from "@game/schema/messages";
import type { ServiceContext } from "./context.js";
import type { ActionTransaction } from "./actions.js";
import { allianceTopic, type ChatMessageEvent } from "../events.js";
import { insertChatMessage, type ChatMessageRow } from "../db/chat.js";
import type { Db, DbClient } from "../db/pool.js";
import { forbidden, tooManyRequests } from "../errors.js";
import { loadWorldMember } from "./world.js";
import { CHAT_LIMIT, toChatMessageEvent } from "./chat.js";
import { refusal } from "./allianceErrors.js";

/**
 * Alliance chat: the alliance room's four channels (general and military for every member,
 * intelligence and leadership for managers and the owner). Messages are chat_messages rows
 * scoped to the alliance; general and leadership share storage with the global chat's
 * `alliance` and `leadership` channels, so a line sent in either place shows in both.
 */

/**
 * Posts a member's line to a channel of their alliance: rate limited with the global chat
 * (one budget per user), access checked against Postgres (the role now, not at join),
 * persisted, published on the alliance's topic.
 */
export async function sendAllianceChat(ctx: ServiceContext, userId: number, allianceId: number, input: ParsedAllianceSendChatMessage): Promise<ChatMessagePayload> {
  // One budget with the global chat: the same limit, by the same name.
  const refused = await ctx.limiter.define(CHAT_LIMIT).tryTake(String(userId));
  if (refused) throw tooManyRequests(CHAT_MESSAGES.rateLimited, "chat/rate_limited", refused.retryAfterSeconds);
  const member = await loadWorldMember(ctx, userId);
  if (!member || member.allianceId !== allianceId) throw forbidden("You are not in this alliance", "alliance/not_member");
  const rejection = checkAllianceChat({ channelId: input.channel, role: member.allianceRole, announcement: input.announcement });
  if (rejection) throw refusal(rejection);
  const channel = findAllianceChannel(input.channel)!;
  const row = await insertChatMessage(ctx.db, {
    channel: channel.storedAs,
    allianceScope: allianceId,
    type: input.announcement ? "announcement" : "message",
    senderUserId: member.userId,
    senderCountryId: member.countryId,
    senderName: member.username,
    senderRole: member.role,
    allianceTag: member.allianceTag,
    content: input.content,
    mentions: parseMentions(input.content),
  });
  const message = toChatMessageEvent(row);
  ctx.metrics.chatMessages.inc({ channel: channel.storedAs });
  ctx.events.publish(allianceTopic(allianceId), { type: "allianceChatMessage", allianceId, channelId: channel.storedAs, message });
  return { ...message, isOnline: true, isEdited: false };
}

/**
 * A line the game writes into an alliance channel (a member joined, an ally was attacked),
 * inside the action's transaction; published after it commits.
 */
export async function postAllianceSystemMessage(
  tx: Pick<ActionTransaction, "client" | "emit">,
  m: { allianceId: number; channel: "general" | "military"; type: AllianceChatMessageType; content: string; allianceTag: string },
): Promise<void> {
  const storedAs = findAllianceChannel(m.channel)!.storedAs;
  const { rows } = await tx.client.query<ChatMessageRow>(
    `INSERT INTO chat_messages (channel, alliance_scope, type, sender_name, sender_role, alliance_tag, content)
     VALUES ($1, $2, $3, 'Alliance', 'member', $4, $5) RETURNING *`,
    [storedAs, m.allianceId, m.type, m.allianceTag, m.content.slice(0, 500)],
  );
  tx.emit(allianceTopic(m.allianceId), { type: "allianceChatMessage", allianceId: m.allianceId, channelId: storedAs, message: toChatMessageEvent(rows[0]!) });
}

/** The latest messages of each alliance channel, oldest first, keyed by alliance channel id. */
export async function recentAllianceChat(db: Db | DbClient, allianceId: number): Promise<Map<string, ChatMessageEvent[]>> {
  const stored = ALLIANCE_CHAT_CHANNELS.map((c) => c.storedAs);
  const { rows } = await db.query<ChatMessageRow>(
    `SELECT m.* FROM unnest($1::text[]) AS ch(id)
     CROSS JOIN LATERAL (SELECT * FROM chat_messages WHERE channel = ch.id AND alliance_scope = $2 ORDER BY id DESC LIMIT $3) m`,
    [stored, allianceId, ALLIANCE_CHAT_RECENT_MESSAGES],
  );
  const byChannel = new Map<string, ChatMessageEvent[]>(ALLIANCE_CHAT_CHANNELS.map((c) => [c.id, []]));
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    const channel = ALLIANCE_CHAT_CHANNELS.find((c) => c.storedAs === row.channel)!;
    byChannel.get(channel.id)!.push(toChatMessageEvent(row));
  }
  return byChannel;
}
