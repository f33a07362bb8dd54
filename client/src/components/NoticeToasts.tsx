import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { noticeAllowed } from "@game/schema/rules";
import { manageApi, manageKeys } from "../api/manage";
import type { NoticePayload } from "@game/schema/messages";
import { useNotices } from "../realtime/hooks";
import { AVAILABLE_VIEWS, isViewId, type ViewId } from "../screens/shell/navigation";

/** How long a notice stays on screen unless dismissed (ms). */
export const NOTICE_SHOW_MS = 12_000;

/**
 * Live notices of the world room (attacked, spy caught...) as cards in a corner: only those
 * that arrive while the shell is open, each closable, each gone after NOTICE_SHOW_MS, with a
 * button to the view that tells more.
 */
export function NoticeToasts({ onOpen }: { onOpen(view: ViewId): void }) {
  const all = useNotices();
  // the player's notify options (Manage > Settings); until they load, everything shows
  const options = useQuery({ queryKey: manageKeys.options, queryFn: () => manageApi.options(), staleTime: 60_000, retry: false });
  const notices = useMemo(() => (options.data ? all.filter((n) => noticeAllowed(n, options.data)) : all), [all, options.data]);
  const [shown, setShown] = useState<NoticePayload[]>([]);
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    // Notices already there when the shell opened were shown elsewhere (or before a reload).
    if (seen.current === null) {
      seen.current = new Set(notices.map((n) => n.id));
      return;
    }
    const fresh = notices.filter((n) => !seen.current!.has(n.id));
    if (fresh.length === 0) return;
    for (const n of fresh) seen.current.add(n.id);
    setShown((current) => [...current, ...fresh].slice(-3));
    const timers = fresh.map((n) => setTimeout(() => setShown((current) => current.filter((x) => x.id !== n.id)), NOTICE_SHOW_MS));
    return () => timers.forEach(clearTimeout);
  }, [notices]);

  if (shown.length === 0) return null;
  const close = (id: string) => setShown((current) => current.filter((x) => x.id !== id));
  return (
    <div className="notice-stack" role="status" aria-live="assertive" data-testid="notices">
      {shown.map((n) => (
        <div key={n.id} className={`notice-card ${n.severity}`} data-testid={`notice-${n.kind}`}>
          <div className="notice-head">
            <strong>{n.title}</strong>
            <button type="button" className="btn small ghost" aria-label="Dismiss" onClick={() => close(n.id)}>
              ×
            </button>
          </div>
          <p>{n.body}</p>
          {n.view && isViewId(n.view) && AVAILABLE_VIEWS.has(n.view) ? (
            <button
              type="button"
              className="btn small"
              onClick={() => {
                close(n.id);
                onOpen(n.view as ViewId);
              }}
            >
              View
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
