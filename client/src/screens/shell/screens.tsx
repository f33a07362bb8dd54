import { lazy, Suspense, type ReactNode } from "react";
import type { Route, ViewId } from "./navigation";
import { OverviewScreen } from "../overview/OverviewScreen";
import { ExploreScreen } from "../explore/ExploreScreen";
import { BuildingsScreen } from "../build/BuildingsScreen";
import { ChatScreen } from "../chat/ChatScreen";
import { RankingsScreen } from "../rankings/RankingsScreen";
import { MilitaryScreen } from "../military/MilitaryScreen";
import { WarRoomScreen } from "../warroom/WarRoomScreen";
import { NewsScreen } from "../news/NewsScreen";
import { Loading } from "../../components/ui";

/** The market and its chart library load when the Market is first opened, not with the shell. */
const MarketScreen = lazy(() => import("../market/MarketScreen").then((m) => ({ default: m.MarketScreen })));
import { AlliancesScreen } from "../alliances/AlliancesScreen";
import { SpyCenterScreen } from "../espionage/SpyCenterScreen";
import { AccountScreen } from "../account/AccountScreen";
import { ResearchScreen } from "../research/ResearchScreen";
import { ManageScreen } from "../manage/ManageScreen";
import { AdvisorScreen } from "../advisor/AdvisorScreen";
import { SettingsScreen } from "../settings/SettingsScreen";
import { AdminScreen } from "../admin/AdminScreen";

/** What a screen receives from the shell. */
export interface ScreenProps {
  route: Route;
  /** opens another view (and closes the phone menu) */
  navigate(route: Route): void;
}

/**
 * The screen of each view. A domain adds its screen here (one line) and its menu entries in
 * navigation.ts; a view without a screen is left out of the menu, never a dead link.
 */
export const SCREENS: Partial<Record<ViewId, (props: ScreenProps) => ReactNode>> = {
  overview: ({ navigate }) => <OverviewScreen onNavigate={navigate} />,
  explore: () => <ExploreScreen />,
  build: () => <BuildingsScreen />,
  chat: () => <ChatScreen />,
  rankings: ({ route }) => <RankingsScreen focusSearch={route.intent === "search"} />,
  military: ({ route }) => <MilitaryScreen intent={route.intent} />,
  "war-room": ({ navigate }) => <WarRoomScreen onNavigate={navigate} />,
  news: ({ navigate }) => <NewsScreen onNavigate={navigate} />,
  market: ({ route }) => (
    <Suspense fallback={<Loading text="Loading market interface..." />}>
      <MarketScreen key={route.intent ?? ""} intent={route.intent} />
    </Suspense>
  ),
  alliances: ({ route }) => <AlliancesScreen route={route} />,
  "spy-center": () => <SpyCenterScreen />,
  account: () => <AccountScreen />,
  research: () => <ResearchScreen />,
  manage: ({ route, navigate }) => <ManageScreen intent={route.intent} onNavigate={navigate} />,
  advisor: ({ navigate }) => <AdvisorScreen onNavigate={navigate} />,
  settings: ({ navigate }) => <SettingsScreen onNavigate={navigate} />,
  admin: () => <AdminScreen />,
};
