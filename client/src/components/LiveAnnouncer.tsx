import { useEffect, useRef, useState } from "react";
import { useNotices } from "../realtime/hooks";

/**
 * The shell's ARIA live region (issue 30): present from the start (a region created together
 * with its text is often not read), it announces each new alert (attacked, spies caught, an
 * ally's call...) to screen readers, whatever the toasts on screen do.
 */
export function LiveAnnouncer() {
  const notices = useNotices();
  const seen = useRef<Set<string> | null>(null);
  const [text, setText] = useState("");
  useEffect(() => {
    if (seen.current === null) {
      // alerts from before this page opened are not news to announce
      seen.current = new Set(notices.map((n) => n.id));
      return;
    }
    const fresh = notices.filter((n) => !seen.current!.has(n.id));
    for (const n of fresh) seen.current.add(n.id);
    if (fresh.length > 0) setText(fresh.map((n) => `${n.title}. ${n.body}`).join(" "));
  }, [notices]);
  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="live-announcer">
      {text}
    </div>
  );
}
