/**
 * Colyseus schema classes synchronised by the rooms. The browser decodes with these same
 * classes, so field names and order are a contract: add fields at the end, never rename.
 */
export { WorldState } from "./WorldState.js";
export { SeasonState } from "./SeasonState.js";
export { RankingRow } from "./RankingRow.js";
export { ChatChannelState } from "./ChatChannelState.js";
export { ChatMessageState } from "./ChatMessageState.js";
export { OnlineUserState } from "./OnlineUserState.js";
export { CountrySummaryState } from "./CountrySummaryState.js";
export { NewsTickerItem } from "./NewsTickerItem.js";
