import { useEffect, useRef } from "react";
import { useGame } from "../../game/GameContext";
import { useNotices } from "../../realtime/hooks";
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
  const notices = useNotices();
  const refresh = useEspionageRefresh(countryId);
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(notices.map((n) => n.id));
      return;
    }
    const fresh = notices.filter((n) => !seen.current!.has(n.id));
    for (const n of fresh) seen.current.add(n.id);
    if (fresh.some((n) => ESPIONAGE_NOTICE_KINDS.has(n.kind))) refresh();
  }, [notices, refresh]);
  return null;
}
