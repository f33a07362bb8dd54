import { lazy, Suspense, useDeferredValue, useState } from "react";
import { GOVERNMENTS, computeCashFlowPerTurn, computeMsToNextTick, plural } from "@game/schema/rules";
import { useGame } from "../../game/GameContext";
import { useNewsTicker, useSeason } from "../../realtime/hooks";
import { useNewsList } from "../../api/news";
import { useNewsRefreshOnUnread } from "../news/liveUpdates";
import { ago } from "../news/ago";
import { useNow } from "../../components/Clock";
import { Loading, Panel, Stat, Tabs } from "../../components/ui";
import { clockText, dayAndDateText, daysText, durationText, fmt, money } from "../../components/format";
import { AVAILABLE_VIEWS, type Route, type ViewId } from "../shell/navigation";
import { useBrigades } from "../../api/military";
import { useWarCostPerTurn } from "../military/warCost";

/** Overview shortcut buttons of the spec and the views they open (only existing views are shown). */
const SHORTCUTS: { label: string; view: ViewId; intent?: string }[] = [
  { label: "Defending", view: "military", intent: "defense" },
  { label: "Alliance", view: "alliances" },
  { label: "Spy", view: "spy-center" },
  { label: "Market", view: "market" },
  { label: "Aid", view: "alliances" },
  { label: "News", view: "news" },
];

/** The second tab: its own chunk, loaded when opened (issue 30: the overview's start runs only what it shows). */
const CountryDashboard = lazy(() => import("./CountryDashboard").then((m) => ({ default: m.CountryDashboard })));

export function OverviewScreen({ onNavigate }: { onNavigate(route: Route): void }) {
  const [tab, setTab] = useState<"overview" | "dashboard">("overview");
  return (
    <>
      <Tabs
        label="Overview sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "overview", label: "Overview" },
          { id: "dashboard", label: "Country Dashboard" },
        ]}
      />
      {tab === "overview" ? (
        <Overview onNavigate={onNavigate} />
      ) : (
        <Suspense fallback={<Loading text="Loading dashboard..." />}>
          <CountryDashboard />
        </Suspense>
      )}
    </>
  );
}

/** 'Next turn: …' from the room's season.nextTickAt, by the shared countdown rule. */
export function NextTurnCountdown() {
  const season = useSeason();
  const now = useNow();
  if (!season || !season.nextTickAt) return <span data-testid="next-turn">Next turn: waiting for the server clock...</span>;
  const left = computeMsToNextTick(season.nextTickAt, now);
  return <span data-testid="next-turn">Next turn: {left > 0 ? durationText(left) : "any moment now"}</span>;
}

/** 'The round ends in N days' from the room's season.endsAt. */
export function RoundEnds() {
  const season = useSeason();
  const now = useNow(60_000);
  if (!season || !season.endsAt) return <span data-testid="round-ends">Round end: waiting for season data...</span>;
  if (season.endsAt <= now) return <span data-testid="round-ends">The round has ended.</span>;
  return <span data-testid="round-ends">The round ends in {daysText(season.endsAt - now)} days</span>;
}

/**
 * Cash per turn and why: taxes less building maintenance, military upkeep and declared wars, by
 * the same rule the advisor and the turn's economy use. A new country loses cash every turn
 * (its starting army costs more than its taxes) and the overview said nothing of it (issue 30 #13).
 */
export function CashPerTurn() {
  const { countryState } = useGame();
  const wars = useWarCostPerTurn();
  if (!countryState) return null;
  const flow = computeCashFlowPerTurn(countryState, wars);
  const sign = (n: number) => `${n < 0 ? "-" : "+"}${money(Math.abs(n))}`;
  return (
    <>
      <Stat label="Cash per turn" value={<span className={flow.net < 0 ? "bad" : undefined}>{sign(flow.net)}</span>} testId="overview-cash-per-turn" />
      {flow.net < 0 && (
        <p className="small muted" data-testid="overview-cash-why">
          Taxes {money(flow.taxes)} − buildings {money(flow.buildingMaintenance)} − military upkeep {money(flow.militaryUpkeep)}
          {flow.wars > 0 ? ` − wars ${money(flow.wars)}` : ""}. Build enterprise zones or residences for more taxes, or keep a smaller army.
        </p>
      )}
    </>
  );
}

/** The player's latest personal news (attacked, overtaken, starving, bankrupt, research...). */
function Happenings({ onNavigate }: { onNavigate(route: Route): void }) {
  const personal = useNewsList({ category: "personal", type: "all", page: 1, limit: 5 });
  useNewsRefreshOnUnread();
  if (personal.isPending) return <p className="muted">Loading happenings...</p>;
  const items = personal.data?.data ?? [];
  if (items.length === 0) return <p className="muted">No new happenings</p>;
  return (
    <div className="stack" style={{ gap: "0.4rem", marginBottom: "0.6rem" }}>
      <ul className="ticker" data-testid="happenings">
        {items.map((n) => (
          <li key={n.id} className={n.isRead ? "faint" : undefined}>
            {!n.isRead && <span className="unread-dot" aria-label="Unread" />}
            <span>{n.title}</span>
            <span className="faint small">{ago(n.timestamp)}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="link-btn small" style={{ alignSelf: "flex-start" }} onClick={() => onNavigate({ view: "news" })}>
        All news
      </button>
    </div>
  );
}

/** The world's latest global headlines, live from the world room. */
function WorldNews() {
  const ticker = useNewsTicker();
  if (ticker.length === 0) return <p className="muted">No world news yet.</p>;
  return (
    <ul className="ticker" data-testid="news-ticker">
      {ticker.slice(0, 5).map((n) => (
        <li key={n.id}>
          <span className={`badge ${n.priority === "critical" ? "bad" : n.priority === "high" ? "warn" : ""}`}>{n.type}</span>
          <span>{n.title}</span>
          <span className="faint small">{ago(new Date(n.timestamp).toISOString())}</span>
        </li>
      ))}
    </ul>
  );
}

/*
 * The date and the clock tick on their own: the overview re-rendered whole every second when
 * it read the time itself (issue 30, main-thread work on the overview).
 */
function TodayDate() {
  const now = useNow(60_000);
  return <span className="muted">{dayAndDateText(now)}</span>;
}

function CurrentTime() {
  const now = useNow();
  return (
    <div className="big-number" aria-label="Current time">
      {clockText(now)}
    </div>
  );
}

function Overview({ onNavigate }: { onNavigate(route: Route): void }) {
  const { country: liveCountry, countryError } = useGame();
  // The cards render from a deferred copy: React renders them in slices it can interrupt, so the
  // first answer's render is no longer one long task that blocks the page (issue 30: the
  // overview's total blocking time); each later change shows one render later, within a frame.
  const country = useDeferredValue(liveCountry);
  const brigades = useBrigades(country?.id);
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading country data..." />;
  const shortcuts = SHORTCUTS;
  return (
    <div className="stack" data-testid="overview">
      <div className="page-header">
        <h1>
          The Country of {country.name} (#{country.id})
        </h1>
        <TodayDate />
      </div>
      <div className="grid">
        <Panel title="Empire Status">
          <Stat label="Turns available" value={fmt(country.turnsAvailable)} testId="overview-turns" />
          <Stat label="Stored turns" value={fmt(country.storedTurns)} />
          <Stat label="Government" value={GOVERNMENTS[country.governmentType]?.name ?? "Republic"} testId="overview-government" />
          <Stat label="Land" value={`${fmt(country.landAcres)} acres`} testId="overview-land" />
          <Stat label="Population" value={fmt(country.population)} testId="overview-population" />
          <Stat
            label="Research points"
            value={
              <button type="button" className="link-btn" onClick={() => onNavigate({ view: "research" })} title="Spend them in Research">
                {fmt(country.researchPoints)} unspent
              </button>
            }
            testId="overview-research-points"
          />
        </Panel>
        <Panel title="Resources">
          <Stat label="Money" value={money(country.cash)} testId="overview-cash" />
          <Stat label="Networth" value={fmt(country.networth)} testId="overview-networth" />
          <Stat label="Food" value={`${fmt(country.food)} bushels`} testId="overview-food" />
          <Stat label="Oil" value={plural(country.oil, "barrel")} testId="overview-oil" />
          <CashPerTurn />
        </Panel>
        <Panel title="Military Forces">
          <Stat label="Troops" value={fmt(country.troops)} testId="overview-troops" />
          <Stat label="Jets" value={fmt(country.jets)} />
          <Stat label="Tanks" value={fmt(country.tanks)} testId="overview-tanks" />
          <Stat label="Turrets" value={fmt(country.turrets)} />
          <Stat label="Spies" value={fmt(country.spies)} />
          <Stat label="Missiles" value={fmt(country.missiles)} />
          <Stat label="Brigades" value={brigades.data ? `${fmt(brigades.data.ready)} Available` : "..."} testId="overview-brigades" />
        </Panel>
      </div>
      <div className="grid">
        <Panel title="Command Clock">
          <CurrentTime />
          <p style={{ marginTop: "0.5rem" }}>
            <NextTurnCountdown />
          </p>
          <p>
            <RoundEnds />
          </p>
        </Panel>
        <Panel title="Happenings">
          <Happenings onNavigate={onNavigate} />
          {shortcuts.length > 0 && (
            <div className="row">
              {shortcuts.map((s) => (
                <button
                  key={s.label}
                  type="button"
                  className="btn small"
                  disabled={!AVAILABLE_VIEWS.has(s.view)}
                  title={AVAILABLE_VIEWS.has(s.view) ? undefined : "The Spy Center opens here once it is built"}
                  onClick={() => onNavigate({ view: s.view, intent: s.intent })}
                >
                  {s.label}
                </button>
              ))}
            </div>
          )}
        </Panel>
        <Panel title="World News">
          <WorldNews />
        </Panel>
      </div>
    </div>
  );
}
