import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * A wide table's scroll container. Where its content is wider than the screen (a phone), a fade
 * at each edge with more beyond it and a caption say that it scrolls sideways, and the container
 * becomes a tab stop (arrow keys scroll it) labelled by `label` and described by the caption.
 * Where everything fits, none of that shows: no caption, no extra tab stop.
 */
export function SideScroll({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [more, setMore] = useState({ left: false, right: false });

  useEffect(() => {
    const el = ref.current!;
    const update = () => {
      // 1 px of slack: zoomed layouts report fractional widths
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    // the content's width changes with its data, the container's with the layout around it
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(update);
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
      observer?.disconnect();
    };
  }, []);

  const scrolls = more.left || more.right;
  return (
    <div className="side-scroll" data-more-left={more.left || undefined} data-more-right={more.right || undefined} data-testid={testId}>
      {scrolls && (
        <p className="side-scroll-hint" id={hintId}>
          Scroll sideways for more <span aria-hidden="true">→</span>
        </p>
      )}
      <div className="side-scroll-frame">
        <div ref={ref} className="table-wrap" role="region" aria-label={label} aria-describedby={scrolls ? hintId : undefined} tabIndex={scrolls ? 0 : undefined}>
          {children}
        </div>
      </div>
    </div>
  );
}
