import { useCallback, useEffect, useState } from "react";

/**
 * Views of the shell (spec: overview, explore, build, military, market, alliances, rankings,
 * chat, news, settings, advisor, manage, spy-center, war-room, research). Only views with a
 * screen are in AVAILABLE_VIEWS; menu entries pointing elsewhere are left out, not dead links.
 */
export type ViewId = "overview" | "advisor" | "manage" | "build" | "market" | "explore" | "research" | "military" | "alliances" | "spy-center" | "war-room" | "chat" | "news" | "rankings" | "settings" | "account" | "admin";

/** Views with a screen (the shell's SCREENS registry; kept here so navigation has no JSX). */
export const AVAILABLE_VIEWS: ReadonlySet<ViewId> = new Set<ViewId>([
  "overview",
  "explore",
  "build",
  "chat",
  "rankings",
  "news",
  "market",
  "military",
  "war-room",
  "alliances",
  "spy-center",
  "account",
  "research",
  "manage",
  "advisor",
  "settings",
  "admin",
]);

/** Whether `value` names a view of the shell. */
export function isViewId(value: string): value is ViewId {
  return (VIEW_IDS as readonly string[]).includes(value);
}

export const VIEW_IDS = [
  "overview",
  "advisor",
  "manage",
  "build",
  "market",
  "explore",
  "research",
  "military",
  "alliances",
  "spy-center",
  "war-room",
  "chat",
  "news",
  "rankings",
  "settings",
  "account",
  "admin",
] as const satisfies readonly ViewId[];

export interface MenuEntry {
  label: string;
  view: ViewId;
  icon: string;
  /** set when the entry opens another entry's view (Bonus -> Advisor, ...) */
  intent?: string;
}

export interface MenuGroup {
  title: string;
  entries: MenuEntry[];
}

/** The side menu of the spec, in its order. */
export const MENU: readonly MenuGroup[] = [
  {
    title: "MAIN MENU",
    entries: [
      { label: "Overview", view: "overview", icon: "◈" },
      { label: "Advisor", view: "advisor", icon: "✦" },
      { label: "Manage", view: "manage", icon: "⚙" },
      { label: "Bonus", view: "advisor", icon: "★", intent: "bonus" },
    ],
  },
  {
    title: "PURCHASES",
    entries: [
      { label: "Build", view: "build", icon: "▦" },
      // the government store (buy and sell for cash): an intent of its own, so the menu marks
      // one entry, not Cash and Market both (issue 30 #12)
      { label: "Cash", view: "market", icon: "$", intent: "store" },
      { label: "Explore", view: "explore", icon: "◎" },
      { label: "Market", view: "market", icon: "⇄" },
      { label: "Research", view: "research", icon: "⚗" },
    ],
  },
  {
    title: "MILITARY",
    entries: [
      { label: "Military", view: "military", icon: "⚔" },
      { label: "Relations", view: "alliances", icon: "⚑", intent: "diplomacy" },
      { label: "Spy Center", view: "spy-center", icon: "◉" },
      { label: "War Room", view: "war-room", icon: "✠" },
    ],
  },
  {
    title: "MESSAGES",
    entries: [
      { label: "Chat", view: "chat", icon: "✉" },
      { label: "News", view: "news", icon: "☰" },
      { label: "Scores", view: "rankings", icon: "▲" },
      { label: "Alliances", view: "alliances", icon: "✪" },
      { label: "Search", view: "rankings", icon: "⚲", intent: "search" },
    ],
  },
  {
    title: "ACCOUNT",
    entries: [
      { label: "Settings", view: "settings", icon: "⚙" },
      { label: "Account", view: "account", icon: "✎" },
      { label: "Admin", view: "admin", icon: "⚒" },
    ],
  },
];

/** Views shown in the menu only to administrators (the server refuses everyone else anyway). */
export const ADMIN_VIEWS: ReadonlySet<ViewId> = new Set<ViewId>(["admin"]);

/** The menu with unavailable entries (and then empty groups) removed. */
export function availableMenu(available: ReadonlySet<ViewId> = AVAILABLE_VIEWS): MenuGroup[] {
  return MENU.map((g) => ({ ...g, entries: g.entries.filter((e) => available.has(e.view)) })).filter((g) => g.entries.length > 0);
}

export interface Route {
  view: ViewId;
  intent?: string;
}

function parseHash(hash: string): Route {
  const [path, query] = hash.replace(/^#\/?/, "").split("?");
  const view = (path || "overview") as ViewId;
  return AVAILABLE_VIEWS.has(view) ? { view, intent: query || undefined } : { view: "overview" };
}

/** The current view, kept in the location hash so reload and back/forward work. */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(() => parseHash(typeof location !== "undefined" ? location.hash : ""));
  useEffect(() => {
    const onHash = () => setRoute(parseHash(location.hash));
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const navigate = useCallback((next: Route) => {
    const hash = `#/${next.view}${next.intent ? `?${next.intent}` : ""}`;
    if (location.hash !== hash) location.hash = hash;
    setRoute(next);
  }, []);
  return [route, navigate];
}
