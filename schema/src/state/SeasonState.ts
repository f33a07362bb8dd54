import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * The current season and the turn clock, shared by every client of a world room.
 * Times are epoch milliseconds.
 */
export const SeasonState = schema(
  {
    /** season name, e.g. "Season 1" @default "" */
    name: t.string().default(""),
    /** "ACTIVE" while the season runs, otherwise "INACTIVE" @default "INACTIVE" */
    active: t.string().default("INACTIVE"),
    /** season start (epoch ms) @default 0 */
    startsAt: t.number().default(0),
    /** season end (epoch ms) @default 0 */
    endsAt: t.number().default(0),
    /** when the next turn tick is due (epoch ms); an estimate until the first tick is observed @default 0 */
    nextTickAt: t.number().default(0),
    /** milliseconds between turn ticks @default 0 */
    turnIntervalMs: t.number().default(0),
    /** number of the last tick observed; 0 until one is @default 0 */
    tickNumber: t.number().default(0),
  },
  "SeasonState",
);
export type SeasonState = SchemaType<typeof SeasonState>;
