import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { noticeAllowed } from "@game/schema/rules";
import { manageApi, manageKeys } from "../api/manage";
import type { NoticePayload } from "@game/schema/messages";
import { useNotices } from "../realtime/hooks";
import { AVAILABLE_VIEWS, isViewId, type Route } from "../screens/shell/navigation";

/** How long a notice stays on screen unless dismissed (ms). */
export const NOTICE_SHOW_MS = 12_000;
/** At most this many cards at once (the phone shows the newest alone, see styles.css). */
export const NOTICES_SHOWN = 3;

/** A card on screen: the newest notice of its kind and title, and how many arrived. */
interface ShownNotice {
  notice: NoticePayload;
  count: number;
}

/** Notices that say the same thing again (one AI raid after another) share one card. */
const sameCard = (a: NoticePayload, b: NoticePayload) => a.kind === b.kind && a.title === b.title;

/**
 * Where a notice's View button leads: the battle report itself for a battle (the war log with
 * that report open), the diplomacy tab for a diplomatic notice, else the notice's view.
 */
export function noticeRoute(n: NoticePayload): Route | null {
  if (!n.view || !isViewId(n.view) || !AVAILABLE_VIEWS.has(n.view)) return null;
  if (n.view === "military" && n.refId !== undefined && (n.kind === "attacked" || n.kind === "strike_executed")) return { view: "military", intent: `warlog-${n.refId}` };
  if (n.kind.startsWith("diplomacy_")) return { view: "alliances", intent: "diplomacy" };
  return { view: n.view };
}

/**
 * Live notices of the world room (attacked, spy caught...) as cards in a corner: only those
 * that arrive while the shell is open, each closable, each gone NOTICE_SHOW_MS after its last
 * repeat, with a button to the view that tells more. Repeats of one notice share a card ("×3").
 */
export function NoticeToasts({ onOpen }: { onOpen(route: Route): void }) {
  const all = useNotices();
  // the player's notify options (Manage > Settings); until they load, everything shows
  const options = useQuery({ queryKey: manageKeys.options, queryFn: () => manageApi.options(), staleTime: 60_000, retry: false });
  const notices = useMemo(() => (options.data ? all.filter((n) => noticeAllowed(n, options.data)) : all), [all, options.data]);
  const [shown, setShown] = useState<ShownNotice[]>([]);
  const seen = useRef<Set<string> | null>(null);
  // Expiry timers by card (the first notice's id). Kept outside the effect: a later notice (or
  // the options loading) must not cancel the timers of cards already shown, which left them
  // on screen for good (issue 30 #3).
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  // Timers and cards change only through refs and setShown, so these keep their identity.
  const forget = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
  }, []);
  const close = useCallback(
    (id: string) => {
      forget(id);
      setShown((current) => current.filter((x) => x.notice.id !== id));
    },
    [forget],
  );
  const expireLater = useCallback(
    (id: string) => {
      forget(id);
      timers.current.set(
        id,
        setTimeout(() => close(id), NOTICE_SHOW_MS),
      );
    },
    [forget, close],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  useEffect(() => {
    // Notices already there when the shell opened were shown elsewhere (or before a reload).
    if (seen.current === null) {
      seen.current = new Set(notices.map((n) => n.id));
      return;
    }
    const fresh = notices.filter((n) => !seen.current!.has(n.id));
    if (fresh.length === 0) return;
    for (const n of fresh) seen.current.add(n.id);
    setShown((current) => {
      let next = current;
      for (const n of fresh) {
        const same = next.find((s) => sameCard(s.notice, n));
        next = same ? next.map((s) => (s === same ? { notice: { ...n, id: s.notice.id }, count: s.count + 1 } : s)) : [...next, { notice: n, count: 1 }];
      }
      const kept = next.slice(-NOTICES_SHOWN);
      for (const s of next) if (!kept.includes(s)) forget(s.notice.id);
      // new cards and repeated ones start their time again; the others keep theirs
      for (const s of kept) if (!current.includes(s)) expireLater(s.notice.id);
      return kept;
    });
  }, [notices, forget, expireLater]);

  if (shown.length === 0) return null;
  return (
    <div className="notice-stack" role="status" aria-live="assertive" data-testid="notices">
      {shown.map(({ notice: n, count }) => {
        const route = noticeRoute(n);
        return (
          <div key={n.id} className={`notice-card ${n.severity}`} data-testid={`notice-${n.kind}`}>
            <div className="notice-head">
              <strong>
                {n.title}
                {count > 1 && <span className="badge" data-testid="notice-count">{` ×${count}`}</span>}
              </strong>
              <button type="button" className="btn small ghost" aria-label="Dismiss" onClick={() => close(n.id)}>
                ×
              </button>
            </div>
            <p>{n.body}</p>
            {route ? (
              <button
                type="button"
                className="btn small"
                onClick={() => {
                  close(n.id);
                  onOpen(route);
                }}
              >
                View
              </button>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
