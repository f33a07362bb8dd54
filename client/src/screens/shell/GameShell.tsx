import { Suspense, useEffect, useState } from "react";
import { MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";
import { useAuth } from "../../auth/AuthContext";
import { useGame } from "../../game/GameContext";
import { useConnectionMessage, useConnectionStatus, useUnreadNews } from "../../realtime/hooks";
import { fmt, money } from "../../components/format";
import { TurnProgressPopup, TurnResultsReport } from "../../components/TurnResults";
import { PRODUCT_TITLE } from "../entry/EntryScreen";
import { ADMIN_VIEWS, AVAILABLE_VIEWS, availableMenu, useRoute, type Route } from "./navigation";
import { useIsAdmin, useSeasonResetRefetch } from "../../api/shell";
import { SCREENS } from "./screens";
import { NoticeToasts } from "../../components/NoticeToasts";
import { useDisplaySettings } from "../../components/displaySettings";
import { Loading } from "../../components/ui";
import { AwaySummary } from "../../components/AwaySummary";
import { LiveAnnouncer } from "../../components/LiveAnnouncer";
import { MilitaryLiveUpdates } from "../military/liveUpdates";

const STATUS_TEXT: Record<string, string> = {
  idle: "Offline",
  connecting: "Connecting to the world server...",
  connected: "Live",
  reconnecting: "Reconnecting...",
  error: "Connection error",
};

export function StatusBar() {
  const { country } = useGame();
  const status = useConnectionStatus();
  const statusMessage = useConnectionMessage();
  const dash = "—";
  return (
    <div className="statusbar" aria-label="Country status" data-testid="status-bar">
      <div className="status-item">
        <span className="k">Turns</span>
        <span className="v" data-testid="status-turns">
          {country ? fmt(country.turnsAvailable) : dash}
          {country && country.storedTurns > 0 ? <span className="faint"> ({fmt(country.storedTurns)})</span> : null}
        </span>
      </div>
      <div className="status-item">
        <span className="k">Money</span>
        <span className="v" data-testid="status-money">
          {country ? money(country.cash) : dash}
        </span>
      </div>
      <div className="status-item">
        <span className="k">Food</span>
        <span className="v" data-testid="status-food" title={country ? `${fmt(country.food)} bushels` : undefined}>
          {country ? `${fmt(country.food)} bu` : dash}
        </span>
      </div>
      <div className="status-item">
        <span className="k">
          Networth <span role="img" className={`conn ${status}`} title={statusMessage || STATUS_TEXT[status]} aria-label={STATUS_TEXT[status]} />
        </span>
        <span className="v" data-testid="status-networth">
          {country ? fmt(country.networth) : dash}
        </span>
      </div>
    </div>
  );
}

/** Counters shown beside menu entries (the News entry's unread count), by view. */
function useMenuBadges(): Partial<Record<Route["view"], { count: number; label: string }>> {
  const unread = useUnreadNews();
  return unread ? { news: { count: unread, label: `${unread} unread news` } } : {};
}

function SideMenu({ route, open, onNavigate, onLogout, onClose }: { route: Route; open: boolean; onNavigate(r: Route): void; onLogout(): void; onClose(): void }) {
  const isAdmin = useIsAdmin();
  const groups = availableMenu(isAdmin ? AVAILABLE_VIEWS : new Set([...AVAILABLE_VIEWS].filter((v) => !ADMIN_VIEWS.has(v))));
  const badges = useMenuBadges();
  return (
    <nav id="side-menu" className={`sidebar ${open ? "open" : ""}`} aria-label="Main menu">
      {/* the open drawer covers the top bar's toggle on a phone: it carries its own close button */}
      <button type="button" className="btn small drawer-close" aria-label="Close menu" onClick={onClose} data-testid="drawer-close">
        ×
      </button>
      {groups.map((group) => (
        <div className="menu-group" key={group.title}>
          <h4>{group.title}</h4>
          {group.entries.map((entry) => {
            const current = route.view === entry.view && (route.intent ?? "") === (entry.intent ?? "");
            return (
              <button key={entry.label} type="button" className="menu-item" aria-current={current ? "page" : undefined} onClick={() => onNavigate({ view: entry.view, intent: entry.intent })}>
                <span className="ico" aria-hidden="true">
                  {entry.icon}
                </span>
                {entry.label}
                {badges[entry.view] && !entry.intent && (
                  <span className="menu-badge" aria-label={badges[entry.view]!.label} data-testid={`menu-badge-${entry.view}`}>
                    {badges[entry.view]!.count > 99 ? "99+" : badges[entry.view]!.count}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      ))}
      <button type="button" className="menu-item logout" onClick={onLogout}>
        <span className="ico" aria-hidden="true">
          ⇥
        </span>
        Logout
      </button>
    </nav>
  );
}

/** How long a dropped connection may try to come back before the banner shows (ms). */
export const STALE_BANNER_DELAY_MS = 3_000;

/**
 * Banners above every screen: the live connection is down (the numbers may be stale), and the
 * turns are at the 150 cap (new turns go to storage).
 */
export function ShellBanners() {
  const { country } = useGame();
  const status = useConnectionStatus();
  const message = useConnectionMessage();
  const [everConnected, setEverConnected] = useState(false);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (status === "connected") {
      setEverConnected(true);
      setLate(false);
      return;
    }
    const timer = setTimeout(() => setLate(true), STALE_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const down = status !== "connected" && (everConnected || late);
  return (
    <>
      {down && (
        <div className="alert warn" role="alert" data-testid="stale-banner">
          {everConnected ? "The live connection was lost" : "No live connection to the world server"}
          {message ? ` (${message})` : ""}: the numbers shown may be stale. {status === "reconnecting" || status === "connecting" ? "Reconnecting..." : "Reload the page to reconnect."}
        </div>
      )}
      {country && country.turnsAvailable >= MAX_TURNS && (
        <div className="alert warn" role="status" data-testid="turn-cap-banner">
          Your turns are at the {MAX_TURNS} cap: new turns now go to storage ({fmt(country.storedTurns)} of {MAX_STORED_TURNS} stored). Spend some turns to keep them coming.
        </div>
      )}
    </>
  );
}

export function GameShell() {
  const { logout, user } = useAuth();
  const game = useGame();
  const [route, navigate] = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  useSeasonResetRefetch();
  useDisplaySettings();

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const go = (r: Route) => {
    navigate(r);
    setMenuOpen(false);
    window.scrollTo({ top: 0 });
  };

  const doLogout = async () => {
    setLoggingOut(true);
    await logout();
  };

  const render = SCREENS[route.view] ?? SCREENS.overview!;
  const screen = render({ route, navigate: go });

  return (
    <div className={`shell ${game.cards.length > 0 ? "has-popups" : ""}`}>
      <header className="topbar">
        <button type="button" className="btn small menu-toggle" aria-controls="side-menu" aria-expanded={menuOpen} aria-label={menuOpen ? "Close menu" : "Open menu"} onClick={() => setMenuOpen((o) => !o)}>
          ☰
        </button>
        <span className="title">{PRODUCT_TITLE}</span>
        <StatusBar />
      </header>
      <div className={`backdrop ${menuOpen ? "open" : ""}`} onClick={() => setMenuOpen(false)} aria-hidden="true" />
      <SideMenu route={route} open={menuOpen} onNavigate={go} onLogout={doLogout} onClose={() => setMenuOpen(false)} />
      <main className="main" aria-busy={loggingOut || undefined}>
        <div className="page">
          <ShellBanners />
          {user && <AwaySummary userId={user.id} />}
          <Suspense fallback={<Loading text="Loading..." />}>{screen}</Suspense>
        </div>
      </main>
      {/* a column of its own (desktop) or a strip above the page (phone): never over the controls */}
      {game.cards.length > 0 && (
        <aside className="popup-dock" aria-label="Turn results">
          <TurnProgressPopup cards={game.cards} onDismiss={game.dismissCard} onOpenReport={game.openReport} />
        </aside>
      )}
      <TurnResultsReport result={game.report} open={game.reportOpen} onClose={game.closeReport} />
      <NoticeToasts onOpen={go} />
      <MilitaryLiveUpdates />
      <LiveAnnouncer />
    </div>
  );
}
