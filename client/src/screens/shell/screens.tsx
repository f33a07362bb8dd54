import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import type { Route, ViewId } from "./navigation";
import { Loading } from "../../components/ui";

/**
 * Each screen is its own chunk, loaded when its view is first opened (issue 30, "Fast first
 * load"): the shell ships without any screen, a phone on a slow network fetches only what it
 * shows.
 */
function lazyScreen<P extends object>(load: () => Promise<Record<string, unknown>>, name: string): ComponentType<P> {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType<P> })));
}

const OverviewScreen = lazyScreen<{ onNavigate(route: Route): void }>(() => import("../overview/OverviewScreen"), "OverviewScreen");
const ExploreScreen = lazyScreen(() => import("../explore/ExploreScreen"), "ExploreScreen");
const BuildingsScreen = lazyScreen(() => import("../build/BuildingsScreen"), "BuildingsScreen");
const ChatScreen = lazyScreen(() => import("../chat/ChatScreen"), "ChatScreen");
const RankingsScreen = lazyScreen<{ focusSearch: boolean; initialTab?: "season" }>(() => import("../rankings/RankingsScreen"), "RankingsScreen");
const MilitaryScreen = lazyScreen<{ intent: string | undefined }>(() => import("../military/MilitaryScreen"), "MilitaryScreen");
const WarRoomScreen = lazyScreen<{ onNavigate(route: Route): void }>(() => import("../warroom/WarRoomScreen"), "WarRoomScreen");
const NewsScreen = lazyScreen<{ onNavigate(route: Route): void }>(() => import("../news/NewsScreen"), "NewsScreen");
const MarketScreen = lazyScreen<{ intent: string | undefined }>(() => import("../market/MarketScreen"), "MarketScreen");
const AlliancesScreen = lazyScreen<{ route: Route }>(() => import("../alliances/AlliancesScreen"), "AlliancesScreen");
const SpyCenterScreen = lazyScreen(() => import("../espionage/SpyCenterScreen"), "SpyCenterScreen");
const AccountScreen = lazyScreen(() => import("../account/AccountScreen"), "AccountScreen");
const ResearchScreen = lazyScreen(() => import("../research/ResearchScreen"), "ResearchScreen");
const ManageScreen = lazyScreen<{ intent: string | undefined; onNavigate(route: Route): void }>(() => import("../manage/ManageScreen"), "ManageScreen");
const AdvisorScreen = lazyScreen<{ onNavigate(route: Route): void }>(() => import("../advisor/AdvisorScreen"), "AdvisorScreen");
const SettingsScreen = lazyScreen<{ onNavigate(route: Route): void }>(() => import("../settings/SettingsScreen"), "SettingsScreen");
const AdminScreen = lazyScreen(() => import("../admin/AdminScreen"), "AdminScreen");

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
  rankings: ({ route }) => <RankingsScreen key={route.intent ?? ""} focusSearch={route.intent === "search"} initialTab={route.intent === "season" ? "season" : undefined} />,
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
