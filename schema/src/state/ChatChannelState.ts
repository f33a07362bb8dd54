import { schema, t, type SchemaType } from "@colyseus/schema";
import { ChatMessageState } from "./ChatMessageState.js";

/**
 * A global chat channel with its most recent messages (at most CHAT_RECENT_MESSAGES, oldest
 * first). Channels with accessLevel "alliance" or "leadership" carry no messages here: their
 * messages are private to an alliance and arrive as "chatMessage" room messages instead.
 */
export const ChatChannelState = schema(
  {
    /** channel id, also its key in WorldState.channels @default "" */
    id: t.string().default(""),
    name: t.string().default(""),
    description: t.string().default(""),
    /** icon name @default "" */
    icon: t.string().default(""),
    /** CSS colour @default "" */
    color: t.string().default(""),
    /** "all", "alliance" or "leadership" @default "all" */
    accessLevel: t.string().default("all"),
    /** inactive channels are shown disabled @default true */
    isActive: t.boolean().default(true),
    /** players online who can read this channel (for alliance channels: online alliance members in total) @default 0 */
    userCount: t.number().default(0),
    /** most recent messages, oldest first */
    messages: t.array(ChatMessageState),
  },
  "ChatChannelState",
);
export type ChatChannelState = SchemaType<typeof ChatChannelState>;
