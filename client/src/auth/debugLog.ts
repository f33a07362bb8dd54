import { useSyncExternalStore } from "react";
import { onApiEvent } from "../api/http";

/** Lines the start-up screens show (spec: the last 20). */
export const DEBUG_LOG_LINES = 20;
const KEEP = 200;

let lines: string[] = [];
const listeners = new Set<() => void>();

function stamp(): string {
  const d = new Date();
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}:${String(d.getSeconds()).padStart(2, "0")}`;
}

/** Appends a line to the start-up debug log. */
export function debugLog(message: string): void {
  lines = [...lines, `[${stamp()}] ${message}`].slice(-KEEP);
  for (const l of listeners) l();
}

export function getDebugLines(): string[] {
  return lines;
}

export function clearDebugLog(): void {
  lines = [];
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The last `count` debug lines, live. */
export function useDebugLog(count = DEBUG_LOG_LINES): string[] {
  const all = useSyncExternalStore(subscribe, getDebugLines, getDebugLines);
  return all.slice(-count);
}

/** Everything a support person needs, as text (the Debug Info button copies it). */
export function debugInfoText(extra: Record<string, string | number | boolean | null>): string {
  const head = [
    `time: ${new Date().toISOString()}`,
    `url: ${typeof location !== "undefined" ? location.href : ""}`,
    `userAgent: ${typeof navigator !== "undefined" ? navigator.userAgent : ""}`,
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return [...head, "--- log ---", ...lines.slice(-DEBUG_LOG_LINES)].join("\n");
}

// Every REST call shows up in the log; failures with their message.
onApiEvent((event) => {
  switch (event.type) {
    case "request":
      debugLog(`${event.method} /api${event.path}`);
      break;
    case "response":
      debugLog(`${event.method} /api${event.path} -> ${event.status} (${event.ms} ms)`);
      break;
    case "failure":
      debugLog(`${event.method} /api${event.path} failed (${event.status || "network"}): ${event.message}`);
      break;
    case "unauthorized":
      debugLog(`401 on /api${event.path}: stored token cleared`);
      break;
  }
});
