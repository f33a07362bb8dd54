import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { NewsItemJson, NewsListResponse } from "@game/schema/api";
import { NEWS_CATEGORIES, NEWS_TYPES, NEWS_TYPE_LABELS, type NewsCategory, type NewsType } from "@game/schema/rules";
import { newsApi, newsKeys, useNewsList, type NewsFilter } from "../../api/news";
import { useNotices, useUnreadNews } from "../../realtime/hooks";
import { ActionButton, Loading, Panel, Tabs } from "../../components/ui";
import { capitalize, dateTimeText } from "../../components/format";
import { ago } from "./ago";
import { IntelligenceBriefs } from "./IntelligenceBriefs";
import { AVAILABLE_VIEWS, isViewId, type Route } from "../shell/navigation";
import { ReplayToggle } from "../military/BattleReportView";
import { useGame } from "../../game/GameContext";

export { ago };

const PAGE_SIZE = 20;

const PRIORITY_CLASS: Record<string, string> = { critical: "bad", high: "warn", medium: "", low: "" };

export function NewsScreen({ onNavigate }: { onNavigate(route: Route): void }) {
  const [tab, setTab] = useState<"feed" | "briefs" | "notifications">("feed");
  const unread = useUnreadNews();
  return (
    <div className="stack" data-testid="news">
      <div className="page-header">
        <h1>News and Intelligence</h1>
        <span className="badge" data-testid="news-unread" aria-label="Unread news">
          {unread ?? "…"} unread
        </span>
      </div>
      <Tabs
        label="News tabs"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "feed", label: "News Feed" },
          { id: "briefs", label: "Intelligence Briefs" },
          { id: "notifications", label: "Notifications" },
        ]}
      />
      {tab === "feed" ? <NewsFeed /> : tab === "briefs" ? <IntelligenceBriefs onNavigate={onNavigate} /> : <Notifications onNavigate={onNavigate} />}
    </div>
  );
}

function NewsFeed() {
  const queryClient = useQueryClient();
  const { countryId } = useGame();
  // A battle's replay is the two sides' own (the server answers 403 to anyone else).
  const isParty = (item: NewsItemJson) => item.category === "personal" || item.participants.some((p) => p.type === "country" && p.id === countryId);
  const [category, setCategory] = useState<NewsCategory | "all">("all");
  const [type, setType] = useState<NewsType | "all">("all");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<NewsItemJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [marking, setMarking] = useState(false);
  const liveUnread = useUnreadNews();
  const filter: NewsFilter = { category, type, page, limit: PAGE_SIZE };
  const list = useNewsList(filter);
  const detailRef = useRef<HTMLDivElement>(null);

  // A new item arrived (the live count rose): show it.
  const lastUnread = useRef(liveUnread);
  useEffect(() => {
    if (liveUnread !== null && lastUnread.current !== null && liveUnread > lastUnread.current) {
      void queryClient.invalidateQueries({ queryKey: newsKeys.all });
    }
    lastUnread.current = liveUnread;
  }, [liveUnread, queryClient]);

  const unread = liveUnread ?? list.data?.unreadCount ?? 0;

  /** Updates the cached pages: the item(s) read, and the count. */
  const markCached = (ids: Set<string> | "all", unreadCount: number) => {
    queryClient.setQueriesData<Omit<NewsListResponse, "success">>({ queryKey: newsKeys.all }, (data) => (data ? { ...data, unreadCount, data: data.data.map((n) => (ids === "all" || ids.has(n.id) ? { ...n, isRead: true } : n)) } : data));
  };

  const open = async (item: NewsItemJson) => {
    setSelected({ ...item, isRead: true });
    setError(null);
    // On a phone the detail panel is below the list: bring it into view.
    requestAnimationFrame(() => detailRef.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" }));
    if (item.isRead) return;
    try {
      markCached(new Set([item.id]), Math.max(0, unread - 1));
      markCached(new Set([item.id]), await newsApi.read(item.id));
    } catch (err) {
      setError((err as Error).message);
      void queryClient.invalidateQueries({ queryKey: newsKeys.all });
    }
  };

  const markAll = async () => {
    setMarking(true);
    setError(null);
    try {
      markCached("all", await newsApi.readAll());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setMarking(false);
    }
  };

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="stack">
      <div className="row between">
        <div className="row">
          <div className="field inline">
            <label htmlFor="news-category">Category</label>
            <select
              id="news-category"
              value={category}
              onChange={(e) => {
                setCategory(e.target.value as NewsCategory | "all");
                setPage(1);
              }}
            >
              <option value="all">All</option>
              {NEWS_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {capitalize(c)}
                </option>
              ))}
            </select>
          </div>
          <div className="field inline">
            <label htmlFor="news-type">Type</label>
            <select
              id="news-type"
              value={type}
              onChange={(e) => {
                setType(e.target.value as NewsType | "all");
                setPage(1);
              }}
            >
              <option value="all">All types</option>
              {NEWS_TYPES.map((t) => (
                <option key={t} value={t}>
                  {NEWS_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ActionButton variant="" onClick={markAll} busy={marking} busyLabel="Marking..." disabledReason={unread === 0 ? "No unread news" : null}>
          Mark All Read
        </ActionButton>
      </div>
      {error && <div className="alert error">{error}</div>}
      <div className="news-layout">
        <div className="stack" style={{ gap: "0.4rem" }}>
          {list.isPending ? (
            <Loading text="Loading news..." />
          ) : list.error ? (
            <div className="alert error">{list.error.message}</div>
          ) : list.data.data.length === 0 ? (
            <Panel>
              <p className="muted" style={{ margin: 0 }}>
                No news matches these filters.
              </p>
            </Panel>
          ) : (
            <ul className="news-list" aria-label="News items">
              {list.data.data.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className={`news-item ${item.isRead ? "read" : "unread"} ${selected?.id === item.id ? "selected" : ""}`}
                    aria-current={selected?.id === item.id || undefined}
                    data-testid="news-item"
                    data-read={item.isRead}
                    onClick={() => void open(item)}
                  >
                    <span className="news-head">
                      {!item.isRead && <span className="unread-dot" aria-label="Unread" />}
                      <strong>{item.title}</strong>
                    </span>
                    <span className="news-meta">
                      <span className={`badge ${PRIORITY_CLASS[item.priority]}`}>{item.priority}</span>
                      <span>{NEWS_TYPE_LABELS[item.type]}</span>
                      <span className="faint">{capitalize(item.category)}</span>
                      <span className="faint">{ago(item.timestamp)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {pages > 1 && (
            <div className="row">
              <button type="button" className="btn small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer
              </button>
              <span className="muted small">
                Page {page} of {pages}
              </span>
              <button type="button" className="btn small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Older
              </button>
            </div>
          )}
        </div>
        <div ref={detailRef}>
          <Panel title="Details" testId="news-detail">
            {selected ? (
              <div className="stack" style={{ gap: "0.5rem" }}>
                <h3 style={{ margin: 0 }}>{selected.title}</h3>
                <p style={{ margin: 0 }}>{selected.content}</p>
                <div className="row small">
                  <span className={`badge ${PRIORITY_CLASS[selected.priority]}`}>{selected.priority} priority</span>
                  <span className="badge">{selected.impact} impact</span>
                  <span className="badge">{NEWS_TYPE_LABELS[selected.type]}</span>
                  <span className="badge">{selected.category}</span>
                </div>
                {selected.participants.length > 0 && (
                  <p className="small" style={{ margin: 0 }}>
                    <span className="muted">Involved: </span>
                    {selected.participants.map((p) => `${p.allianceTag ? `[${p.allianceTag}] ` : ""}${p.name} (${p.role})`).join(", ")}
                  </p>
                )}
                {selected.location && <p className="small muted">Location: {selected.location}</p>}
                {selected.battleId !== null && isParty(selected) && <ReplayToggle key={selected.id} battleId={selected.battleId} />}
                {selected.tags.length > 0 && <p className="small faint">{selected.tags.map((t) => `#${t}`).join(" ")}</p>}
                <p className="small faint" style={{ margin: 0 }}>
                  {dateTimeText(selected.timestamp)}
                </p>
              </div>
            ) : (
              <p className="muted" style={{ margin: 0 }}>
                Select a news item to read it.
              </p>
            )}
          </Panel>
        </div>
      </div>
    </div>
  );
}

/** The live notices of this session (attacked, spy caught...), newest first. */
function Notifications({ onNavigate }: { onNavigate(route: Route): void }) {
  const notices = useNotices();
  const list = [...notices].reverse();
  return (
    <Panel title="Notifications">
      <p className="hint">Alerts sent to you while you were connected this session. Everything they report is also kept in the News Feed; choose which alerts you get under Settings, Notifications.</p>
      {list.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No notifications this session.
        </p>
      ) : (
        <ul className="news-list">
          {list.map((n) => (
            <li key={n.id} className={`notice-card ${n.severity}`} style={{ animation: "none" }}>
              <div className="notice-head">
                <strong>{n.title}</strong>
                <span className="faint small">{ago(new Date(n.at).toISOString())}</span>
              </div>
              <p>{n.body}</p>
              {n.view && isViewId(n.view) && AVAILABLE_VIEWS.has(n.view) && (
                <button type="button" className="btn small" onClick={() => onNavigate({ view: n.view as Route["view"] })}>
                  View
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
