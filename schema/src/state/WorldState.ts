import { schema, t, type SchemaType } from "@colyseus/schema";
import { SeasonState } from "./SeasonState.js";
import { RankingRow } from "./RankingRow.js";
import { ChatChannelState } from "./ChatChannelState.js";
import { OnlineUserState } from "./OnlineUserState.js";
import { CountrySummaryState } from "./CountrySummaryState.js";
import { NewsTickerItem } from "./NewsTickerItem.js";

/**
 * The state of a "world" room shard. Every shard shows the same world: each applies the
 * same events (presence pub/sub), so only `countries` differs between clients.
 */
export const WorldState = schema(
  {
    season: SeasonState,
    /** top RANKINGS_DEFAULT_LIMIT countries by networth, rank 1 first */
    rankings: t.array(RankingRow),
    /** global chat channels keyed by channel id */
    channels: t.map(ChatChannelState),
    /** players online keyed by user id (string) */
    onlineUsers: t.map(OnlineUserState),
    /**
     * keyed by the client's sessionId; view-filtered: each client receives only its own
     * entry, never another player's cash or turns
     */
    countries: t.map(CountrySummaryState).view(),
    /** the latest global news items, newest first (NEWS_TICKER_SIZE at most) */
    news: t.array(NewsTickerItem),
  },
  "WorldState",
);
export type WorldState = SchemaType<typeof WorldState>;
