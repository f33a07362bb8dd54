import { schema, t, type SchemaType } from "@colyseus/schema";

/** A player connected to any world room now. Public fields only: no cash, units or turns. */
export const OnlineUserState = schema(
  {
    /** user id as a string, also the key in WorldState.onlineUsers @default "" */
    id: t.string().default(""),
    /** username @default "" */
    name: t.string().default(""),
    /** chat role: admin, moderator, owner, manager or member @default "member" */
    role: t.string().default("member"),
    allianceName: t.string().default(""),
    allianceTag: t.string().default(""),
    /** government type id of the player's country @default "" */
    government: t.string().default(""),
    /** the country's networth (public) @default 0 */
    networth: t.number().default(0),
    /** @default true */
    isOnline: t.boolean().default(true),
  },
  "OnlineUserState",
);
export type OnlineUserState = SchemaType<typeof OnlineUserState>;
