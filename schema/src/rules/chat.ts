/**
 * Global chat rules (document 3: Chat Channels, sections 3, 5, 6 and 9). Pure: the server
 * checks these before writing, the client calls the same functions to hide a tab or disable
 * the send button.
 */
import { reject, type RuleRejection } from "./country.js";

/** Longest chat message after trimming (characters). Spec section 9. */
export const CHAT_MAX_LENGTH = 500;
/** Most recent messages per channel kept in the world room state (messages). */
export const CHAT_RECENT_MESSAGES = 50;
/** Messages one user may send in one rate window (messages), across REST and every room. */
export const CHAT_RATE_LIMIT_MESSAGES = 5;
/** The rate window (milliseconds): at most CHAT_RATE_LIMIT_MESSAGES per 10 seconds. */
export const CHAT_RATE_LIMIT_WINDOW_MS = 10_000;
/**
 * Lines a sender may still send now without a chat/rate_limited refusal, given when the answers
 * to its recent lines arrived (ms, on the clock of `now`). The server takes a point of its
 * fixed window when it handles a line, which is before the answer arrives, so six lines each
 * sent at least CHAT_RATE_LIMIT_WINDOW_MS after the answer to the line five before it can never
 * fall in one window, whenever the server's window started.
 */
export function chatSendsLeft(answeredAt: readonly number[], now: number): number {
  const recent = answeredAt.filter((t) => now - t < CHAT_RATE_LIMIT_WINDOW_MS).length;
  return Math.max(0, CHAT_RATE_LIMIT_MESSAGES - recent);
}

/** Most mentions kept per message (mentions); more are ignored. */
export const CHAT_MAX_MENTIONS = 10;

/** Who may read and write a channel. */
export const CHAT_ACCESS_LEVELS = ["all", "alliance", "leadership"] as const;
export type ChatAccessLevel = (typeof CHAT_ACCESS_LEVELS)[number];

/** Message types of the spec's global chat message. Players send "message"; the rest are system-made. */
export const CHAT_MESSAGE_TYPES = ["message", "announcement", "system", "war_alert", "achievement", "trade_alert"] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

/** Sender roles of the spec: game staff (admin, moderator) and alliance roles (owner, manager, member). */
export const CHAT_SENDER_ROLES = ["admin", "moderator", "owner", "manager", "member"] as const;
export type ChatSenderRole = (typeof CHAT_SENDER_ROLES)[number];

/** An alliance role as chat sees it; null when the country is in no alliance. */
export type AllianceRole = "owner" | "manager" | "member";

/** A global chat channel as the spec lists it (without the live userCount). */
export interface ChatChannelDefinition {
  /** stable id, used in paths and as the key of WorldState.channels */
  id: string;
  name: string;
  description: string;
  /** icon name (lucide-style identifier the client maps to a glyph) */
  icon: string;
  /** CSS colour of the tab */
  color: string;
  accessLevel: ChatAccessLevel;
  /** inactive channels are shown disabled and refuse messages */
  isActive: boolean;
}

/**
 * The global channels. The spec names the access levels but not the channels; these five
 * cover them: three open to everyone, one per alliance (messages are scoped to the sender's
 * alliance) and one for alliance leaders (owner and managers).
 */
export const CHAT_CHANNELS: readonly ChatChannelDefinition[] = [
  { id: "general", name: "General", description: "Open talk for every commander", icon: "message-circle", color: "#3b82f6", accessLevel: "all", isActive: true },
  { id: "trade", name: "Trade", description: "Buy, sell and haggle over resources and units", icon: "shopping-cart", color: "#10b981", accessLevel: "all", isActive: true },
  { id: "war", name: "War Room", description: "Declarations, battle reports and war alerts", icon: "swords", color: "#ef4444", accessLevel: "all", isActive: true },
  { id: "alliance", name: "Alliance", description: "Members of your alliance only", icon: "shield", color: "#8b5cf6", accessLevel: "alliance", isActive: true },
  { id: "leadership", name: "Leadership", description: "Alliance owners and managers", icon: "crown", color: "#f59e0b", accessLevel: "leadership", isActive: true },
];

/** Ids of CHAT_CHANNELS, in order. */
export const CHAT_CHANNEL_IDS = CHAT_CHANNELS.map((c) => c.id);

/** What chat needs to know about a player to decide access. */
export interface ChatMember {
  allianceId: number | null;
  allianceRole: AllianceRole | null;
}

/** The spec's user-visible chat texts and the server's refusals. */
export const CHAT_MESSAGES = {
  empty: "Message cannot be empty",
  tooLong: `Message must be at most ${CHAT_MAX_LENGTH} characters`,
  unknownChannel: "Unknown chat channel",
  noAccess: "You do not have access to this channel",
  inactive: "This channel is not active",
  rateLimited: "You are sending messages too fast. Wait a few seconds.",
  unknownCommand: "Unknown command. Type /help for the list of commands",
} as const;

export function findChannel(id: string): ChatChannelDefinition | undefined {
  return CHAT_CHANNELS.find((c) => c.id === id);
}

/** True for the owner and managers of an alliance: the spec's "leadership". */
export function isAllianceLeader(member: ChatMember): boolean {
  return member.allianceId !== null && (member.allianceRole === "owner" || member.allianceRole === "manager");
}

/**
 * Whether a player may read and write a channel: 'all' always; 'alliance' needs membership;
 * 'leadership' needs an owner or manager role.
 */
export function canAccessChannel(channel: ChatChannelDefinition, member: ChatMember): boolean {
  switch (channel.accessLevel) {
    case "all":
      return true;
    case "alliance":
      return member.allianceId !== null;
    case "leadership":
      return isAllianceLeader(member);
  }
}

/**
 * The channel tabs a player sees (spec section 5): 'all' always, 'alliance' for members,
 * 'leadership' only for leaders, never listed to anybody else. Inactive channels are listed
 * (shown disabled).
 */
export function visibleChannels(member: ChatMember): ChatChannelDefinition[] {
  return CHAT_CHANNELS.filter((c) => canAccessChannel(c, member));
}

/** Whether `member` may post to `channelId` now: unknown, no access or inactive refuse. */
export function checkChannelAccess(channelId: string, member: ChatMember): RuleRejection | null {
  const channel = findChannel(channelId);
  if (!channel) return reject("chat/unknown_channel", CHAT_MESSAGES.unknownChannel);
  if (!canAccessChannel(channel, member)) return reject("chat/no_access", CHAT_MESSAGES.noAccess);
  if (!channel.isActive) return reject("chat/inactive_channel", CHAT_MESSAGES.inactive);
  return null;
}

/**
 * A mention: an at-sign at the start or after a non-word character (so not inside an e-mail
 * address), then a name of letters, digits, '_', '.' or '-' that ends on a letter, digit or
 * '_' (a trailing full stop ends the sentence, not the name). Group 1 is the name.
 */
const MENTION_PATTERN = /(?<![\p{L}\p{N}_])@([\p{L}\p{N}_.-]*[\p{L}\p{N}_])/gu;

/**
 * Mentions are the words after an at-sign (spec section 5), without the '@', in order of
 * first appearance, unique case-insensitively, at most CHAT_MAX_MENTIONS.
 */
export function parseMentions(content: string): string[] {
  const seen = new Set<string>();
  const mentions: string[] = [];
  for (const match of content.matchAll(MENTION_PATTERN)) {
    const name = match[1]!;
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    mentions.push(name);
    if (mentions.length === CHAT_MAX_MENTIONS) break;
  }
  return mentions;
}

/** A piece of a message as the chat shows it: plain text, or a mention to highlight. */
export type MessageSegment = { kind: "text"; text: string } | { kind: "mention"; name: string; start: number };

/**
 * Splits `content` into text and the mentions a message carries (`mentions`, as parseMentions
 * found them when it was sent; matched case-insensitively). An at-name not in `mentions`
 * stays text. `start` is the mention's offset in `content`, a stable key for rendering.
 */
export function splitMentions(content: string, mentions: readonly string[]): MessageSegment[] {
  if (mentions.length === 0) return content ? [{ kind: "text", text: content }] : [];
  const wanted = new Set(mentions.map((m) => m.toLowerCase()));
  const segments: MessageSegment[] = [];
  let last = 0;
  for (const match of content.matchAll(MENTION_PATTERN)) {
    const name = match[1]!;
    if (!wanted.has(name.toLowerCase())) continue;
    const start = match.index!;
    if (start > last) segments.push({ kind: "text", text: content.slice(last, start) });
    segments.push({ kind: "mention", name, start });
    last = start + match[0].length;
  }
  if (last < content.length) segments.push({ kind: "text", text: content.slice(last) });
  return segments;
}

/** The chat commands of the guidelines card (/who, /time, /help, /ignore user) plus /unignore. */
export const CHAT_COMMANDS = ["who", "time", "help", "ignore", "unignore"] as const;
export type ChatCommand = (typeof CHAT_COMMANDS)[number];

/** One line of help per command, shown by /help. */
export const CHAT_COMMAND_HELP: Record<ChatCommand, string> = {
  who: "/who - list the players online now",
  time: "/time - server time, next turn and season end",
  help: "/help - this list",
  ignore: "/ignore <user> - hide a player's messages (/ignore alone lists whom you ignore)",
  unignore: "/unignore <user> - show a player's messages again",
};

/** A parsed command: `{ command: null }` when the text starts with '/' but names no known command. */
export interface ParsedChatCommand {
  command: ChatCommand | null;
  /** what followed the command word, trimmed */
  argument: string;
  /** the command word as typed, without '/' */
  word: string;
}

/**
 * Reads a slash command from trimmed content; undefined when the content is an ordinary
 * message (does not start with '/'). Commands are case-insensitive.
 */
export function parseChatCommand(content: string): ParsedChatCommand | undefined {
  if (!content.startsWith("/")) return undefined;
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(content)!;
  const word = match[1]!.toLowerCase();
  const command = (CHAT_COMMANDS as readonly string[]).includes(word) ? (word as ChatCommand) : null;
  return { command, argument: match[2]!.trim(), word };
}
