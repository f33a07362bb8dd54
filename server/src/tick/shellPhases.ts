import { deleteNewsBefore } from "../db/news.js";
import { DAY_MS, type PeriodicPhase } from "./tickPhase.js";

/** News items are kept this long, then deleted with their read state (days). */
export const NEWS_RETENTION_DAYS = 90;

/**
 * Once a day, news older than NEWS_RETENTION_DAYS leaves the feed (the feed and the unread
 * count stay bounded; seasons' results are kept in season_scores, not in news).
 */
export const newsRetentionPhase: PeriodicPhase = {
  name: "news_retention",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run({ client, periodStart }) {
    return deleteNewsBefore(client, new Date(periodStart - NEWS_RETENTION_DAYS * DAY_MS));
  },
};
