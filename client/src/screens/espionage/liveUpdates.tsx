import { useGame } from "../../game/GameContext";
import { useRefreshOnNotices } from "../../realtime/hooks";
import { useEspionageRefresh } from "../../api/espionage";

/** Notice kinds of espionage: an operation against this country was detected. */
export const ESPIONAGE_NOTICE_KINDS: ReadonlySet<string> = new Set(["spy_detected"]);

/**
 * Keeps the espionage screens live: a detection notice (the world room's `notice`) refetches
 * the status and reports and the own country (sabotage changes buildings and oil). The notice
 * card itself is shown by NoticeToasts. Renders nothing.
 */
export function EspionageLiveUpdates() {
  const { countryId } = useGame();
  useRefreshOnNotices(ESPIONAGE_NOTICE_KINDS, useEspionageRefresh(countryId));
  return null;
}
