/**
 * The one REST client: every call to /api goes through `apiRequest`.
 * - bearer token from localStorage 'access_token', cookies sent too
 * - 10 s time-out
 * - any 401 clears the stored token (and tells the auth layer, when a token was sent)
 * - a failure always carries a message: the server's, or the call's fallback from the spec;
 *   and the server's code beside it (ApiFailure in @game/schema/api)
 */
import type { ApiFailure } from "@game/schema/api";
import type { AnyRoute, RouteAnswer, RouteInput } from "@game/schema/routes";
import { routeParts, routeUrl } from "@game/schema/routes/url";

/** API base path (spec: /api). */
export const API_BASE = "/api";
/** HTTP time-out (spec: 10000 ms). */
export const HTTP_TIMEOUT_MS = 10_000;
/** localStorage key of the access token (spec). */
export const TOKEN_KEY = "access_token";
/** Older keys other screens of the earlier client read; cleared with the token. */
const LEGACY_TOKEN_KEYS = ["token", "auth_token"];

/**
 * A failed call: the message to show, the HTTP status (0 = network or time-out) and the
 * server's namespaced code (ApiFailure.code, e.g. "exploration/insufficient_funds"); the code
 * is null when no answer from the server carried one (network failure, time-out, not JSON).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly path: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
    for (const key of LEGACY_TOKEN_KEYS) localStorage.removeItem(key);
  } catch {
    // storage unavailable: nothing to clear
  }
}

type Listener = (event: ApiEvent) => void;

/** What the REST layer reports, for the start-up debug log and the auth state. */
export type ApiEvent =
  | { type: "request"; method: string; path: string }
  | { type: "response"; method: string; path: string; status: number; ms: number }
  | { type: "failure"; method: string; path: string; status: number; message: string }
  | { type: "unauthorized"; path: string };

const listeners = new Set<Listener>();

/** Subscribes to REST events; returns the unsubscribe function. */
export function onApiEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: ApiEvent): void {
  for (const listener of listeners) listener(event);
}

export interface RequestOptions {
  /** the spec's fallback message for this call */
  fallback: string;
  body?: unknown;
  /** @default HTTP_TIMEOUT_MS */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Calls `method path` under /api and returns the success body (`{success: true, ...}`).
 * Throws ApiError with the server's `error` or the fallback message.
 */
export async function apiRequest<T extends object>(method: string, path: string, options: RequestOptions): Promise<T & { success: true }> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const outer = options.signal;
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener("abort", onOuterAbort);

  const started = Date.now();
  emit({ type: "request", method, path });
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: "include",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
  } catch (err) {
    const message = timedOut ? `${options.fallback} (timed out after ${timeoutMs / 1000} s)` : options.fallback;
    emit({ type: "failure", method, path, status: 0, message: timedOut ? "timeout" : String((err as Error)?.message ?? err) });
    throw new ApiError(message, 0, path);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  emit({ type: "response", method, path, status: response.status, ms: Date.now() - started });

  if (response.status === 401) {
    clearToken();
    if (token) emit({ type: "unauthorized", path });
  }
  const record = (body ?? {}) as Partial<Record<keyof ApiFailure, unknown>>;
  if (!response.ok || record.success !== true) {
    const serverMessage = typeof record.error === "string" && record.error.trim() ? record.error : undefined;
    const message = serverMessage ?? options.fallback;
    const code = typeof record.code === "string" && record.code ? record.code : null;
    emit({ type: "failure", method, path, status: response.status, message });
    throw new ApiError(message, response.status, path, code);
  }
  return body as T & { success: true };
}

/** What a call may add: a longer time-out, a cancel signal, another failure message than the entry's. */
export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  fallback?: string;
}

/** A catalogue entry's arguments: its input (nothing for a route without one), then the options. */
export type CallArgs<E extends AnyRoute> = [RouteInput<E>] extends [void] ? [input?: undefined, options?: CallOptions] : [input: RouteInput<E>, options?: CallOptions];

/**
 * Calls a catalogue entry (`callRoute(routes.explore, { countryId, turnsToSpend })`): the path
 * and query from its parameters, the body, the entry's fallback message; answers the entry's
 * success type. The one way the client calls the REST API (no path strings in the client).
 */
export async function callRoute<E extends AnyRoute>(entry: E, ...[input, options = {}]: CallArgs<E>): Promise<RouteAnswer<E>> {
  const parts = routeParts(entry, input);
  const body = entry.body ? (parts.body ?? {}) : undefined;
  return (await apiRequest(entry.method, routeUrl(entry, parts), { fallback: options.fallback ?? entry.fallback, body, timeoutMs: options.timeoutMs, signal: options.signal })) as RouteAnswer<E>;
}
