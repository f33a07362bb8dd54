import { useCallback, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AllianceRole } from "@game/schema/rules";
import "./flags.css";

/** Runs REST actions for a panel: one at a time, its error or confirmation shown, the alliance queries refreshed after. */
export function useAct() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const run = useCallback(
    async (key: string, work: () => Promise<unknown>, success?: string): Promise<boolean> => {
      setBusy(key);
      setError(null);
      setMessage(null);
      try {
        await work();
        if (success) setMessage(success);
        return true;
      } catch (err) {
        setError((err as Error).message);
        return false;
      } finally {
        setBusy(null);
        void queryClient.invalidateQueries({ queryKey: ["alliance"] });
        void queryClient.invalidateQueries({ queryKey: ["diplomacy"] });
      }
    },
    [queryClient],
  );
  return { busy, error, message, run, setError };
}

/** The outcome line of a panel's last action. */
export function ActResult({ error, message }: { error: string | null; message: string | null }) {
  if (error)
    return (
      <div className="alert error" role="alert">
        {error}
      </div>
    );
  if (message)
    return (
      <div className="alert info" role="status">
        {message}
      </div>
    );
  return null;
}

/** The spec's flag: a background colour with a symbol in its colour. */
export function AllianceFlag({ background, symbol, color, size = 56 }: { background: string; symbol: string; color: string; size?: number }) {
  return (
    <span className="alliance-flag flag-symbol" aria-hidden="true" style={{ background, color, width: size, height: size * 0.72, fontSize: size * 0.42 }}>
      {symbol}
    </span>
  );
}

export const ROLE_LABEL: Record<AllianceRole, string> = { owner: "Owner", manager: "Manager", member: "Member" };
export const ROLE_ICON: Record<AllianceRole, string> = { owner: "♛", manager: "◆", member: "•" };

/** "in 3h 20m", "expired" */
export function timeLeft(until: number, now = Date.now()): string {
  const ms = until - now;
  if (ms <= 0) return "expired";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `in ${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours}h ${minutes % 60}m`;
  return `in ${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** A label-value list that folds into rows on phones. */
export function Facts({ items }: { items: Array<[ReactNode, ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([k, v], i) => (
        <div key={i}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A text input with the spec's counter. */
export function CountedText({ id, label, value, onChange, max, rows = 2, placeholder }: { id: string; label: string; value: string; onChange(v: string): void; max: number; rows?: number; placeholder?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="input" rows={rows} value={value} maxLength={max + 50} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
      <span className={`small ${value.length > max ? "bad" : "muted"}`} aria-live="polite">
        {value.length}/{max}
      </span>
    </div>
  );
}
