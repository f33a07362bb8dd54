import { schema, t, type SchemaType } from "@colyseus/schema";
import { SeasonState } from "./SeasonState.js";
import { NewsTickerItem } from "./NewsTickerItem.js";

/**
 * The state of a "world" room shard: what every client shows (the season and its clock on every
 * screen, the news ticker on the overview), the same in every shard and for every client, so a
 * patch is encoded once per shard and changes at most once per WORLD_PATCH_INTERVAL_MS. What
 * only some screens show (chat, who is online, rankings, the market) and the player's own
 * numbers are messages (schema/src/messages/world.ts), not state.
 */
export const WorldState = schema(
  {
    season: SeasonState,
    /** the latest global news items, newest first (NEWS_TICKER_SIZE at most) */
    news: t.array(NewsTickerItem),
    /**
     * global news items this shard has taken since it opened: a client's unread count is its
     * "own" unreadNews plus the items after the unreadNewsSeq that came with it
     * (unreadNewsOf), so a global item costs the shard's one patch, not a message per client
     * @default 0
     */
    newsSeq: t.number().default(0),
  },
  "WorldState",
);
export type WorldState = SchemaType<typeof WorldState>;
