import { useEffect } from "react";
import { SESSION_CLOSE_SIGNED_OUT } from "@game/schema/messages/constants";
import { useAuth } from "./auth/AuthContext";
import { GameProvider } from "./game/GameContext";
import { useWorldConnection } from "./realtime/hooks";
import { useBrowserNotifications, useUnreadTitle } from "./realtime/browserNotifications";
import { PRODUCT_TITLE } from "./screens/entry/EntryScreen";
import { world } from "./realtime/worldRoom";
import { Tutorial } from "./screens/entry/Tutorial";
import { GameShell } from "./screens/shell/GameShell";

/**
 * Everything a player with a country runs: the world room (joined from the tutorial on), the
 * tutorial, the game shell. Its own chunk (App.tsx loads it lazily), so the sign-in form loads
 * none of it: no Colyseus SDK, no game screens (issue 30, "Fast first load").
 */
export default function GameApp() {
  const auth = useAuth();
  useWorldConnection(auth.token);
  useBrowserNotifications();
  useUnreadTitle(PRODUCT_TITLE);
  const { signedOutByServer } = auth;
  // The server closed the live session because its token was revoked: signed out at once.
  useEffect(() => world.onClosedForGood((code) => code === SESSION_CLOSE_SIGNED_OUT && signedOutByServer()), [signedOutByServer]);

  if (auth.tutorialPending) return <Tutorial username={auth.user!.username} onComplete={auth.completeTutorial} />;
  return (
    <GameProvider>
      <GameShell />
    </GameProvider>
  );
}
