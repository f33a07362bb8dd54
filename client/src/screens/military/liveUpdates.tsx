import { useGame } from "../../game/GameContext";
import { useRefreshOnNotices } from "../../realtime/hooks";
import { useMilitaryRefresh } from "../../api/military";

/** Notice kinds of the military domain: each means the country, its war log or its wars changed. */
export const MILITARY_NOTICE_KINDS: ReadonlySet<string> = new Set(["attacked", "strike_executed", "strike_failed", "war_declared", "war_ended"]);

/**
 * Keeps the military screens live: when the world room brings a military notice (attacked, a
 * strike ran, a war declared or ended), the country, the war log, the wars and the status are
 * fetched again, so the overview and the war log change without a reload. Renders nothing.
 */
export function MilitaryLiveUpdates() {
  const { countryId } = useGame();
  useRefreshOnNotices(MILITARY_NOTICE_KINDS, useMilitaryRefresh(countryId));
  return null;
}
