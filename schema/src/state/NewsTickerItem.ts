import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * One item of the world's news ticker: a recent global news item (its headline only; the
 * feed's GET /news has the rest). Public: global news is for everybody.
 */
export const NewsTickerItem = schema(
  {
    /** the news item's id as a string @default "" */
    id: t.string().default(""),
    /** the catalogue kind, e.g. "season_started" @default "" */
    kind: t.string().default(""),
    /** the spec's type: war, alliance, achievement, market, diplomatic, system, seasonal @default "" */
    type: t.string().default(""),
    title: t.string().default(""),
    /** critical, high, medium or low @default "low" */
    priority: t.string().default("low"),
    /** historic, major, moderate or minor @default "minor" */
    impact: t.string().default("minor"),
    /** when it was recorded (epoch ms) @default 0 */
    timestamp: t.number().default(0),
  },
  "NewsTickerItem",
);
export type NewsTickerItem = SchemaType<typeof NewsTickerItem>;
