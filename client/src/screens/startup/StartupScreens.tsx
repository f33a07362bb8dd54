import { useEffect, useState, useSyncExternalStore } from "react";
import { useAuth } from "../../auth/AuthContext";
import { debugInfoText, debugLog, useDebugLog } from "../../auth/debugLog";
import { getToken } from "../../api/http";

/** Slow-load thresholds (spec: 15 s; 30 s for empire creation). */
export const SLOW_LOAD_MS = 15_000;
export const SLOW_EMPIRE_MS = 30_000;
export const SLOW_LOAD_MESSAGE = "Loading is taking longer than expected";

function useElapsedSeconds(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - since) / 1000));
}

function DebugInfoButton({ extra }: { extra: Record<string, string | number | boolean | null> }) {
  const [shown, setShown] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => {
          const text = debugInfoText(extra);
          setShown(text);
          void navigator.clipboard?.writeText(text).then(
            () => debugLog("Debug info copied to clipboard"),
            () => undefined,
          );
        }}
      >
        Debug Info
      </button>
      {shown && (
        <pre className="debug-log" data-testid="debug-info" style={{ width: "100%" }}>
          {shown}
        </pre>
      )}
    </>
  );
}

function HelpText() {
  return (
    <p className="hint" style={{ marginTop: "0.75rem" }}>
      If this keeps happening, try refreshing the page or clearing your browser cache. If the problem persists, contact support and include the debug info.
    </p>
  );
}

/**
 * A waiting screen with elapsed seconds, a status line, the last 20 debug lines, and after
 * the threshold the slow-load message and the recovery buttons.
 */
function WaitScreen({ title, message, status, since, thresholdMs }: { title: string; message: string; status: string; since: number; thresholdMs: number }) {
  const auth = useAuth();
  const elapsed = useElapsedSeconds(since);
  const lines = useDebugLog();
  const slow = elapsed * 1000 >= thresholdMs;
  return (
    <div className="screen-center">
      <div className="panel card wide" role="status" aria-live="polite" data-testid="loading-screen">
        <div className="spinner" aria-hidden="true" />
        <h1 className="center">{title}</h1>
        <p className="center">{message}</p>
        <p className="center muted">
          <span data-testid="status-line">{status}</span> · <span className="num">{elapsed}s</span> elapsed
        </p>
        {slow && (
          <>
            <div className="alert warn center">{SLOW_LOAD_MESSAGE}</div>
            <div className="row" style={{ justifyContent: "center" }}>
              <button type="button" className="btn primary" onClick={auth.retry}>
                Retry Authentication
              </button>
              <button type="button" className="btn" onClick={auth.skipToLogin}>
                Skip to Login
              </button>
              <DebugInfoButton extra={{ phase: auth.phase, tokenStored: Boolean(getToken()), elapsedSeconds: elapsed }} />
              <button type="button" className="btn" onClick={() => location.reload()}>
                Reload Page
              </button>
            </div>
            <HelpText />
          </>
        )}
        <h4 style={{ marginTop: "1rem" }}>Debug log</h4>
        <pre className="debug-log" data-testid="debug-log">
          {lines.length ? lines.join("\n") : "(empty)"}
        </pre>
      </div>
    </div>
  );
}

export function LoadingScreen() {
  const auth = useAuth();
  return <WaitScreen title="Loading" message="Establishing secure connection to command..." status={auth.statusLine || "Loading..."} since={auth.loadingSince} thresholdMs={SLOW_LOAD_MS} />;
}

export function EmpireCreationScreen() {
  const auth = useAuth();
  const [since] = useState(() => Date.now());
  return <WaitScreen title="Empire Creation" message="Your empire is being created. This may take a few moments..." status={auth.statusLine || "Waiting for your empire..."} since={since} thresholdMs={SLOW_EMPIRE_MS} />;
}

export function AuthErrorScreen() {
  const auth = useAuth();
  const lines = useDebugLog();
  return (
    <div className="screen-center">
      <div className="panel card wide" role="alert" data-testid="auth-error">
        <h1 className="bad">Authentication Error</h1>
        <div className="alert error">{auth.error || "Authentication failed"}</div>
        <div className="row">
          <button type="button" className="btn primary" onClick={auth.retry}>
            Retry Authentication
          </button>
          <button type="button" className="btn" onClick={auth.skipToLogin}>
            Skip to Login
          </button>
          <DebugInfoButton extra={{ phase: auth.phase, tokenStored: Boolean(getToken()), error: auth.error }} />
          <button type="button" className="btn" onClick={() => location.reload()}>
            Reload Page
          </button>
        </div>
        <HelpText />
        {/* for support, folded away (issue 30 #10); Debug Info copies it */}
        <details className="debug-details" style={{ marginTop: "1rem" }} data-testid="auth-error-debug">
          <summary className="small muted">Technical details for support</summary>
          <pre className="debug-log">{lines.length ? lines.join("\n") : "(empty)"}</pre>
        </details>
      </div>
    </div>
  );
}

/** Whether the browser says it is online (re-renders on the online and offline events). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener("online", changed);
      window.addEventListener("offline", changed);
      return () => {
        window.removeEventListener("online", changed);
        window.removeEventListener("offline", changed);
      };
    },
    () => navigator.onLine,
  );
}

/**
 * An offline start (the page from the service worker's cache, no network): the game says it is
 * reconnecting, and signs in again by itself when the network is back (issue 30).
 */
export function OfflineScreen() {
  const auth = useAuth();
  const online = useOnline();
  const { retry } = auth;
  useEffect(() => {
    if (online) retry();
  }, [online, retry]);
  return (
    <div className="screen-center">
      <div className="panel card wide" role="status" aria-live="polite" data-testid="offline-reconnecting">
        <div className="spinner" aria-hidden="true" />
        <h1 className="center">Reconnecting</h1>
        <p className="center">You are offline. The game reconnects by itself when the network is back.</p>
      </div>
    </div>
  );
}
