import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * A client's own country at a glance. Private: WorldState.countries is view-filtered, so a
 * client receives only the entry the server added to its StateView (its own).
 */
export const CountrySummaryState = schema(
  {
    countryId: t.number().default(0),
    name: t.string().default(""),
    /** available turns @default 0 */
    turns: t.number().default(0),
    /** stored turns @default 0 */
    storedTurns: t.number().default(0),
    /** dollars @default 0 */
    cash: t.number().default(0),
    /** bushels @default 0 */
    food: t.number().default(0),
    /** barrels @default 0 */
    oil: t.number().default(0),
    networth: t.number().default(0),
    /** people @default 0 */
    population: t.number().default(0),
    /** acres @default 0 */
    land: t.number().default(0),
    /** user ids this player ignores in chat (/ignore): hide their messages */
    ignoredUserIds: t.array("number"),
    /** news items this player has not read (global, their alliance's and their own) @default 0 */
    unreadNews: t.number().default(0),
  },
  "CountrySummaryState",
);
export type CountrySummaryState = SchemaType<typeof CountrySummaryState>;
