import { useId, type ButtonHTMLAttributes, type ReactNode } from "react";

export function Panel({ title, children, className, actions, testId }: { title?: ReactNode; children: ReactNode; className?: string; actions?: ReactNode; testId?: string }) {
  return (
    <section className={`panel ${className ?? ""}`} data-testid={testId}>
      {title !== undefined && (
        <div className="row between" style={{ borderBottom: "1px solid var(--border)", paddingBottom: "0.45rem", marginBottom: "0.7rem" }}>
          <h2 style={{ margin: 0 }}>{title}</h2>
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function Stat({ label, value, className, testId }: { label: ReactNode; value: ReactNode; className?: string; testId?: string }) {
  return (
    <div className={`stat ${className ?? ""}`}>
      <span className="k">{label}</span>
      <span className="v" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

type ActionButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** when set, the button is disabled and this text says why (visible, and as its description) */
  disabledReason?: string | null;
  busy?: boolean;
  busyLabel?: ReactNode;
  variant?: "primary" | "danger" | "ghost" | "";
  block?: boolean;
};

/**
 * A button that, when a rule forbids the action, stays disabled and shows the rule's
 * message next to it (STYLE.md "dual validation": the same check* message the server uses).
 */
export function ActionButton({ disabledReason, busy, busyLabel, variant = "primary", block, children, className, ...rest }: ActionButtonProps) {
  const reasonId = useId();
  const disabled = Boolean(disabledReason) || Boolean(busy) || rest.disabled;
  return (
    <div className={block ? "stack" : undefined} style={block ? { gap: "0.35rem" } : { display: "inline-flex", flexDirection: "column", gap: "0.35rem" }}>
      <button
        type="button"
        {...rest}
        className={`btn ${variant} ${block ? "block" : ""} ${className ?? ""}`}
        disabled={disabled}
        aria-busy={busy || undefined}
        aria-describedby={disabledReason ? reasonId : undefined}
        title={disabledReason ?? rest.title}
      >
        {busy && busyLabel ? busyLabel : children}
      </button>
      {disabledReason && !busy && (
        <span id={reasonId} className="reason" role="note" data-testid="disabled-reason">
          {disabledReason}
        </span>
      )}
    </div>
  );
}

export function Tabs<T extends string>({ tabs, value, onChange, label }: { tabs: { id: T; label: ReactNode; disabledReason?: string }[]; value: T; onChange: (id: T) => void; label: string }) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button key={t.id} type="button" role="tab" className="tab" aria-selected={value === t.id} disabled={Boolean(t.disabledReason)} title={t.disabledReason} onClick={() => onChange(t.id)}>
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function Loading({ text = "Loading..." }: { text?: string }) {
  return (
    <div className="panel center muted" role="status">
      {text}
    </div>
  );
}
