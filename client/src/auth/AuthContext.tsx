import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, clearToken, getToken, onApiEvent, setToken } from "../api/http";
import { authApi as api, type RegisterInput } from "../api/auth";
import { queryKeys } from "../api/queryClient";
import type { UserJson } from "@game/schema/api";
import { debugLog } from "./debugLog";

/** Shown on the login screen after the server closed this session (issue 15, finding 2). */
export const SIGNED_OUT_NOTICE = "You were signed out: this session ended (logout, password change or account deletion elsewhere).";

/** How often the empire-creation wait asks again whether the country exists (ms). */
const EMPIRE_POLL_MS = 3_000;
const THEME_KEYS_REMOVED = ["theme", "game-theme"];

/**
 * Start-up phases (spec: loading, then error or login, then authenticated without country,
 * then the game shell).
 */
export type AuthPhase = "loading" | "error" | "unauthenticated" | "authenticated";

export interface AuthState {
  phase: AuthPhase;
  token: string | null;
  user: UserJson | null;
  /** the authentication error screen's text */
  error: string | null;
  /** what the loading screen says it is doing */
  statusLine: string;
  /** Date.now() when the current loading began */
  loadingSince: number;
  /** a registration just succeeded: show the tutorial before the shell */
  tutorialPending: boolean;
  /** why the player is back on the login screen without asking (the server ended the session) */
  signedOutNotice: string | null;
  login(email: string, password: string): Promise<void>;
  register(input: RegisterInput): Promise<void>;
  logout(): Promise<void>;
  retry(): void;
  skipToLogin(): void;
  completeTutorial(): void;
  /** The server closed the live session because its token was revoked: signed out at once (GameApp calls it). */
  signedOutByServer(): void;
}

const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth outside AuthProvider");
  return ctx;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setTokenState] = useState<string | null>(() => getToken());
  const [tutorialPending, setTutorialPending] = useState(false);
  const [signedOutNotice, setSignedOutNotice] = useState<string | null>(null);
  const [loadingSince, setLoadingSince] = useState(() => Date.now());
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The theme is fixed to the military theme; an old stored preference is removed (spec).
    for (const key of THEME_KEYS_REMOVED) {
      try {
        localStorage.removeItem(key);
      } catch {
        /* ignore */
      }
    }
    debugLog(token ? "Stored access token found; checking session" : "No stored access token");
  }, [token]);

  // Any 401 clears the token (http.ts); the session ends here too.
  useEffect(
    () =>
      onApiEvent((event) => {
        if (event.type === "unauthorized") {
          setTokenState(null);
          queryClient.removeQueries({ queryKey: queryKeys.me });
        }
      }),
    [queryClient],
  );

  const signedOutByServer = useCallback(() => {
    clearToken();
    setTokenState(null);
    setTutorialPending(false);
    setSignedOutNotice(SIGNED_OUT_NOTICE);
    queryClient.clear();
    debugLog("Signed out by the server");
  }, [queryClient]);

  const me = useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => api.me(signal),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
    // while the empire is being created, ask again until the country exists
    refetchInterval: (q) => (q.state.data && !q.state.data.hasCountry ? EMPIRE_POLL_MS : false),
  });

  let phase: AuthPhase;
  let error: string | null = null;
  if (!token) phase = "unauthenticated";
  else if (me.data) phase = "authenticated";
  else if (me.error) {
    const e = me.error;
    if (e instanceof ApiError && e.status === 401) phase = "unauthenticated";
    else {
      phase = "error";
      error = e.message || "Authentication failed";
    }
  } else phase = "loading";

  const statusLine =
    phase === "loading"
      ? me.fetchStatus === "fetching"
        ? "Verifying your session with the server..."
        : "Preparing authentication..."
      : phase === "authenticated" && me.data && !me.data.hasCountry
        ? "Waiting for your empire to be created..."
        : "";

  const lastPhase = useRef<AuthPhase | null>(null);
  useEffect(() => {
    if (lastPhase.current === phase) return;
    lastPhase.current = phase;
    if (phase === "loading") setLoadingSince(Date.now());
    debugLog(
      phase === "authenticated"
        ? `Authenticated as ${me.data?.username ?? "?"}${me.data?.hasCountry ? ` (country #${me.data.countryId})` : " (no country yet)"}`
        : phase === "error"
          ? `Authentication error: ${error}`
          : phase === "loading"
            ? "Loading: checking stored session"
            : "Not authenticated: showing login",
    );
  }, [phase, error, me.data]);

  const acceptSession = useCallback(
    (newToken: string, user: UserJson) => {
      setSignedOutNotice(null);
      setToken(newToken);
      queryClient.setQueryData(queryKeys.me, user);
      setTokenState(newToken);
    },
    [queryClient],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      const result = await api.login(email, password);
      acceptSession(result.token, result.user);
      console.info(`Login successful: ${result.user.username}`);
    },
    [acceptSession],
  );

  const register = useCallback(
    async (input: RegisterInput) => {
      const result = await api.register(input);
      setTutorialPending(true);
      acceptSession(result.token, result.user);
    },
    [acceptSession],
  );

  const logout = useCallback(async () => {
    try {
      if (getToken()) await api.logout();
    } catch (err) {
      // best effort: logout completes locally whatever the server says
      console.warn("Logout request failed", err);
    }
    clearToken();
    setTokenState(null);
    setTutorialPending(false);
    queryClient.clear();
    // the next session starts on the shell's landing page (overview)
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    debugLog("Logged out");
  }, [queryClient]);

  const retry = useCallback(() => {
    debugLog("Retry authentication");
    setLoadingSince(Date.now());
    const current = getToken();
    setTokenState(current);
    if (current) void queryClient.resetQueries({ queryKey: queryKeys.me });
  }, [queryClient]);

  const skipToLogin = useCallback(() => {
    debugLog("Skip to login");
    clearToken();
    setTokenState(null);
    queryClient.removeQueries({ queryKey: queryKeys.me });
  }, [queryClient]);

  const completeTutorial = useCallback(() => {
    console.info("Tutorial completed");
    debugLog("Tutorial completed");
    setTutorialPending(false);
    // Shown at once; the server keeps it so a reload does not bring the tutorial back.
    queryClient.setQueryData<UserJson>(queryKeys.me, (user) => (user ? { ...user, tutorialCompleted: true } : user));
    api.completeTutorial().then(
      (user) => queryClient.setQueryData(queryKeys.me, user),
      (err) => debugLog(`Tutorial completion not saved: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, [queryClient]);

  const value = useMemo<AuthState>(
    () => ({
      phase,
      token,
      user: me.data ?? null,
      error,
      statusLine,
      loadingSince,
      tutorialPending: tutorialPending || Boolean(me.data?.hasCountry && !me.data.tutorialCompleted),
      signedOutNotice,
      login,
      register,
      logout,
      retry,
      skipToLogin,
      completeTutorial,
      signedOutByServer,
    }),
    [phase, token, me.data, error, statusLine, loadingSince, tutorialPending, signedOutNotice, login, register, logout, retry, skipToLogin, completeTutorial, signedOutByServer],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
