import { lazy, Suspense } from "react";
import { useAuth } from "./auth/AuthContext";
import { AuthErrorScreen, EmpireCreationScreen, LoadingScreen, OfflineScreen, useOnline } from "./screens/startup/StartupScreens";
import { EntryScreen } from "./screens/entry/EntryScreen";

/** The game (world room, tutorial, shell and screens) loads once there is a country to play. */
const GameApp = lazy(() => import("./GameApp"));

/**
 * Start-up gating (spec): loading, then the authentication error or the entry screen, then
 * the empire-creation wait while the account has no country, then the tutorial after a
 * registration, then the game shell. Only the first three are in the first chunk.
 */
export function App() {
  const auth = useAuth();
  const online = useOnline();
  // offline before the game could sign in: a reconnecting state, not an error
  if (!online && (auth.phase === "loading" || auth.phase === "error")) return <OfflineScreen />;
  switch (auth.phase) {
    case "loading":
      return <LoadingScreen />;
    case "error":
      return <AuthErrorScreen />;
    case "unauthenticated":
      return <EntryScreen />;
  }
  if (!auth.user?.hasCountry) return <EmpireCreationScreen />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <GameApp />
    </Suspense>
  );
}
