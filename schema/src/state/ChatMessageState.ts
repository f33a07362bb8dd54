import { schema, t, type SchemaType } from "@colyseus/schema";

/** One persisted global chat message, as the spec's chat message lists it. */
export const ChatMessageState = schema(
  {
    /** database id as a string; ids grow with time @default "" */
    id: t.string().default(""),
    /** channel id (see CHAT_CHANNELS) @default "" */
    channel: t.string().default(""),
    /** message, announcement, system, war_alert, achievement or trade_alert @default "message" */
    type: t.string().default("message"),
    /** the sender's user id (0 for system messages) @default 0 */
    senderId: t.number().default(0),
    /** the sender's username @default "" */
    senderName: t.string().default(""),
    /** admin, moderator, owner, manager or member @default "member" */
    senderRole: t.string().default("member"),
    /** the sender's alliance tag, "" when none @default "" */
    allianceTag: t.string().default(""),
    /** when it was sent (epoch ms) @default 0 */
    timestamp: t.number().default(0),
    /** trimmed text, 1 to 500 characters @default "" */
    content: t.string().default(""),
    /** usernames mentioned with @, without the at-sign */
    mentions: t.array("string"),
    /** @default false */
    isEdited: t.boolean().default(false),
  },
  "ChatMessageState",
);
export type ChatMessageState = SchemaType<typeof ChatMessageState>;
