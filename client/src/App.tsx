import { useAuth } from "./auth/AuthContext";
import { GameProvider } from "./game/GameContext";
import { useWorldConnection } from "./realtime/hooks";
import { AuthErrorScreen, EmpireCreationScreen, LoadingScreen } from "./screens/startup/StartupScreens";
import { EntryScreen } from "./screens/entry/EntryScreen";
import { Tutorial } from "./screens/entry/Tutorial";
import { GameShell } from "./screens/shell/GameShell";

/**
 * Start-up gating (spec): loading, then the authentication error or the entry screen, then
 * the empire-creation wait while the account has no country, then the tutorial after a
 * registration, then the game shell.
 */
export function App() {
  const auth = useAuth();
  const inGame = auth.phase === "authenticated" && Boolean(auth.user?.hasCountry);
  // the world room is joined as soon as there is a country to play (tutorial included)
  useWorldConnection(inGame ? auth.token : null);

  switch (auth.phase) {
    case "loading":
      return <LoadingScreen />;
    case "error":
      return <AuthErrorScreen />;
    case "unauthenticated":
      return <EntryScreen />;
  }
  if (!auth.user?.hasCountry) return <EmpireCreationScreen />;
  if (auth.tutorialPending) return <Tutorial username={auth.user.username} onComplete={auth.completeTutorial} />;
  return (
    <GameProvider>
      <GameShell />
    </GameProvider>
  );
}
