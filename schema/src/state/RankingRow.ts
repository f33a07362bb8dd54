import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * One row of the networth ranking (the spec's country ranking row). Only public numbers:
 * networth and land are on every public country view already.
 */
export const RankingRow = schema(
  {
    /** row id: the country id as a string @default "" */
    id: t.string().default(""),
    /** 1-based position by networth, ties broken by country id @default 0 */
    rank: t.number().default(0),
    countryId: t.number().default(0),
    countryName: t.string().default(""),
    /** the owner's username ("" for AI countries) @default "" */
    playerName: t.string().default(""),
    governmentType: t.string().default(""),
    /** "" when the country is in no alliance @default "" */
    allianceName: t.string().default(""),
    allianceTag: t.string().default(""),
    /** networth @default 0 */
    value: t.number().default(0),
    /** acres @default 0 */
    land: t.number().default(0),
    /** places climbed since today's snapshot (negative: fell) @default 0 */
    change: t.number().default(0),
    /** "up", "down" or "same" @default "same" */
    trend: t.string().default("same"),
    /** last action of the country (epoch ms) @default 0 */
    lastActive: t.number().default(0),
    /** whether the owner is connected to a world room now @default false */
    isOnline: t.boolean().default(false),
  },
  "RankingRow",
);
export type RankingRow = SchemaType<typeof RankingRow>;
