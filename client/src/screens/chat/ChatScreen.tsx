import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { CHAT_MAX_LENGTH, CHAT_MESSAGES, findChannel, splitMentions, visibleChannels, type ChatChannelSnapshot, type ChatMessageSnapshot, type ChatMessageType, type OnlineUserSnapshot } from "@game/schema/messages";
import { useAuth } from "../../auth/AuthContext";
import { useGame } from "../../game/GameContext";
import { sendChat, useChannels, useCommandOutputs, useConnectionStatus, useOnlineUsers, useOwnCountrySummary, useRoomErrors } from "../../realtime/hooks";
import type { CommandOutput } from "../../realtime/worldRoom";
import { fmt, timeOfDay, titleCase } from "../../components/format";

/** Message filters of the spec and the message types each shows. */
export const CHAT_FILTERS = [
  { id: "all", label: "All Messages", types: null },
  { id: "announcements", label: "Announcements", types: ["announcement"] },
  { id: "alerts", label: "Alerts", types: ["war_alert", "trade_alert", "system"] },
  { id: "achievements", label: "Achievements", types: ["achievement"] },
] as const satisfies readonly { id: string; label: string; types: readonly ChatMessageType[] | null }[];
export type ChatFilterId = (typeof CHAT_FILTERS)[number]["id"];

const ROLE_ICON: Record<string, string> = { admin: "★", moderator: "⚑", owner: "♛", manager: "◆", member: "" };

/** Content with the message's mentions highlighted (the shared splitMentions decides what is one). */
export function renderWithMentions(content: string, mentions: string[], me?: string): ReactNode[] {
  if (mentions.length === 0) return [content];
  return splitMentions(content, mentions).map((segment) => {
    if (segment.kind === "text") return segment.text;
    const isMe = me !== undefined && segment.name.toLowerCase() === me.toLowerCase();
    return (
      <mark key={segment.start} className="mention" data-me={isMe || undefined} style={isMe ? { outline: "1px solid var(--amber)" } : undefined}>
        @{segment.name}
      </mark>
    );
  });
}

function time(ms: number): string {
  return ms ? timeOfDay(ms) : "";
}

type Line = { kind: "message"; at: number; message: ChatMessageSnapshot } | { kind: "command"; at: number; output: CommandOutput };

export function ChatScreen() {
  const { user } = useAuth();
  const { country } = useGame();
  const allChannels = useChannels();
  const onlineUsers = useOnlineUsers();
  const ownCountry = useOwnCountrySummary();
  const commandOutputs = useCommandOutputs();
  const roomErrors = useRoomErrors();
  const status = useConnectionStatus();
  const allianceId = country?.allianceId ?? null;
  // the player's alliance role is not known here: leadership channels stay hidden (spec)
  const allowed = useMemo(() => new Set(visibleChannels({ allianceId, allianceRole: null }).map((c) => c.id)), [allianceId]);
  const channels = allChannels.filter((c) => allowed.has(c.id) || (!findChannel(c.id) && c.accessLevel === "all"));
  const [channelId, setChannelId] = useState<string>("");
  const [filter, setFilter] = useState<ChatFilterId>("all");
  const [showUsers, setShowUsers] = useState(true);
  const [draft, setDraft] = useState("");
  const [sendError, setSendError] = useState<string | null>(null);
  const [sentAt, setSentAt] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const active: ChatChannelSnapshot | undefined = channels.find((c) => c.id === channelId) ?? channels.find((c) => c.isActive) ?? channels[0];
  useEffect(() => {
    if (active && active.id !== channelId) setChannelId(active.id);
  }, [active, channelId]);

  const ignored = new Set(ownCountry?.ignoredUserIds ?? []);
  const filterTypes = CHAT_FILTERS.find((f) => f.id === filter)!.types as readonly string[] | null;
  const messages = (active?.messages ?? []).filter((m) => !ignored.has(m.senderId) && (!filterTypes || filterTypes.includes(m.type)));
  const lines: Line[] = [...messages.map((m) => ({ kind: "message" as const, at: m.timestamp, message: m })), ...(filter === "all" ? commandOutputs.map((o) => ({ kind: "command" as const, at: o.at, output: o })) : [])].sort(
    (a, b) => a.at - b.at,
  );

  // keep the newest line in view
  const lastKey = lines.length ? `${lines[lines.length - 1]!.at}-${lines.length}` : "";
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastKey, active?.id]);

  // a refusal from the room for what we just sent
  const roomError = roomErrors.filter((e) => e.at >= sentAt && sentAt > 0).slice(-1)[0];

  const trimmed = draft.trim();
  const connected = status === "connected";
  const sendReason = !connected ? "Not connected to the world server" : !active ? "No channel selected" : !active.isActive ? CHAT_MESSAGES.inactive : trimmed.length > CHAT_MAX_LENGTH ? CHAT_MESSAGES.tooLong : null;

  const send = () => {
    if (!trimmed) return;
    if (sendReason || !active) {
      setSendError(sendReason);
      return;
    }
    setSendError(null);
    setSentAt(Date.now());
    if (!sendChat(active.id, trimmed)) {
      setSendError("Failed to send chat message");
      return;
    }
    setDraft("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter makes a new line
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const mention = (name: string) => {
    setDraft((d) => `${d}${d && !d.endsWith(" ") ? " " : ""}@${name} `);
    inputRef.current?.focus();
  };

  return (
    <div className="stack" data-testid="chat">
      <div className="page-header">
        <h1>Chat Channels</h1>
        <div className="row">
          <span className={`conn ${status}`} aria-hidden="true" />
          <span className="muted small">{connected ? `${fmt(onlineUsers.length)} online` : status === "idle" ? "Offline" : "Connecting..."}</span>
          <button type="button" className="btn small" aria-pressed={showUsers} onClick={() => setShowUsers((s) => !s)}>
            {showUsers ? "Hide" : "Show"} Online Users
          </button>
        </div>
      </div>

      <div className="tabs" role="tablist" aria-label="Chat channels">
        {channels.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={active?.id === c.id}
            disabled={!c.isActive}
            title={c.isActive ? c.description : CHAT_MESSAGES.inactive}
            onClick={() => setChannelId(c.id)}
            style={{ borderBottomColor: active?.id === c.id ? c.color || undefined : undefined }}
          >
            {c.name} <span className="faint">({fmt(c.userCount)})</span>
          </button>
        ))}
        {channels.length === 0 && (
          <span className="muted small" style={{ padding: "0.5rem" }}>
            {connected ? "No channels available" : "Connecting to chat..."}
          </span>
        )}
      </div>

      <div className={`chat ${showUsers ? "" : "no-users"}`}>
        <div className="chat-main">
          <div className="row between" style={{ marginBottom: "0.5rem" }}>
            <span className="muted small">{active?.description}</span>
            <label className="row small">
              <span className="sr-only">Filter messages</span>
              <select value={filter} onChange={(e) => setFilter(e.target.value as ChatFilterId)} style={{ width: "auto", minHeight: 34 }} aria-label="Filter messages">
                {CHAT_FILTERS.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="chat-messages" ref={listRef} role="log" aria-live="polite" data-testid="chat-messages">
            {lines.length === 0 && (
              <p className="muted center" style={{ marginTop: "2rem" }}>
                No messages yet. Say hello!
              </p>
            )}
            {lines.map((line) =>
              line.kind === "message" ? (
                <MessageRow key={`m${line.message.id}`} message={line.message} me={user?.username} />
              ) : (
                <div key={`c${line.output.id}`} className="msg local" data-testid="command-output">
                  <div className="meta">
                    <span className="who">/{line.output.command}</span>
                    <span className="faint">{time(line.output.at)} · only you can see this</span>
                  </div>
                  <div className="body">{line.output.lines.join("\n")}</div>
                </div>
              ),
            )}
          </div>
          <div className="chat-input">
            {(sendError || roomError) && (
              <div className="alert error small" role="alert">
                {sendError ?? roomError?.message}
              </div>
            )}
            <label htmlFor="chat-input" className="sr-only">
              Message
            </label>
            <textarea
              id="chat-input"
              ref={inputRef}
              rows={2}
              maxLength={CHAT_MAX_LENGTH}
              value={draft}
              placeholder={active ? `Message #${active.name} (Enter sends, Shift+Enter for a new line)` : "Connecting..."}
              onChange={(e) => {
                setDraft(e.target.value);
                setSendError(null);
              }}
              onKeyDown={onKeyDown}
            />
            <div className="row between" style={{ marginTop: "0.4rem" }}>
              <span className={`small num ${draft.length >= CHAT_MAX_LENGTH ? "warn" : "faint"}`} data-testid="chat-counter">
                {draft.length}/{CHAT_MAX_LENGTH}
              </span>
              <div className="row">
                {sendReason && trimmed && <span className="reason">{sendReason}</span>}
                <button type="button" className="btn primary" disabled={!trimmed || Boolean(sendReason)} title={!trimmed ? CHAT_MESSAGES.empty : (sendReason ?? undefined)} onClick={send}>
                  Send
                </button>
              </div>
            </div>
          </div>
        </div>
        {showUsers && <OnlineUsersPanel users={onlineUsers} onMention={mention} />}
      </div>

      <section className="panel">
        <h2>Chat Guidelines</h2>
        <div className="grid">
          <div>
            <h3>Features</h3>
            <ul className="small" style={{ margin: 0, paddingLeft: "1.1rem" }}>
              <li>Messages appear live for everyone in the channel.</li>
              <li>Mention a player with @username to highlight your message for them.</li>
              <li>Filter announcements, alerts and achievements.</li>
            </ul>
          </div>
          <div>
            <h3>Rules</h3>
            <ul className="small" style={{ margin: 0, paddingLeft: "1.1rem" }}>
              <li>Be respectful; no spam, no harassment.</li>
              <li>At most {CHAT_MAX_LENGTH} characters per message.</li>
              <li>Keep war talk in the War Room and trades in Trade.</li>
            </ul>
          </div>
          <div>
            <h3>Commands</h3>
            <ul className="small num" style={{ margin: 0, paddingLeft: "1.1rem" }}>
              <li>@username — mention a player</li>
              <li>/who — who is online</li>
              <li>/time — server time and next turn</li>
              <li>/help — list of commands</li>
              <li>/ignore user — hide a player's messages</li>
            </ul>
          </div>
        </div>
      </section>
    </div>
  );
}

function MessageRow({ message, me }: { message: ChatMessageSnapshot; me?: string }) {
  const mine = me !== undefined && message.senderName.toLowerCase() === me.toLowerCase();
  return (
    <div className={`msg ${message.type} ${mine ? "mine" : ""}`} data-testid="chat-message">
      <div className="meta">
        <span className={`who role-${message.senderRole}`}>
          {ROLE_ICON[message.senderRole] ? `${ROLE_ICON[message.senderRole]} ` : ""}
          {message.senderName || "System"}
        </span>
        {message.allianceTag && <span className="badge">[{message.allianceTag}]</span>}
        {message.type !== "message" && <span className="badge warn">{titleCase(message.type)}</span>}
        <span className="faint">{time(message.timestamp)}</span>
        {message.isEdited && <span className="faint">(edited)</span>}
      </div>
      <div className="body">{renderWithMentions(message.content, message.mentions, me)}</div>
    </div>
  );
}

function OnlineUsersPanel({ users, onMention }: { users: OnlineUserSnapshot[]; onMention(name: string): void }) {
  const [search, setSearch] = useState("");
  const q = search.trim().toLowerCase();
  const shown = users.filter((u) => !q || u.name.toLowerCase().includes(q) || u.allianceName.toLowerCase().includes(q) || u.allianceTag.toLowerCase().includes(q)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <aside className="panel users-panel" aria-label="Online users" data-testid="online-users">
      <h3>Online Users ({fmt(users.length)})</h3>
      <input className="input" type="search" placeholder="Search players..." aria-label="Search online users" value={search} onChange={(e) => setSearch(e.target.value)} />
      <div className="users-list">
        {shown.length === 0 && <p className="muted small">{users.length ? "No player matches your search." : "Nobody online."}</p>}
        {shown.map((u) => (
          <div className="user-row" key={u.id}>
            <span className={`conn ${u.isOnline ? "connected" : ""}`} aria-hidden="true" />
            <div style={{ minWidth: 0, flex: 1 }}>
              <button type="button" className={`link-btn role-${u.role}`} title={`Mention @${u.name}`} onClick={() => onMention(u.name)}>
                {ROLE_ICON[u.role] ? `${ROLE_ICON[u.role]} ` : ""}
                {u.name}
              </button>
              {u.allianceTag && <span className="faint small"> [{u.allianceTag}]</span>}
              <div className="faint small">
                {u.government ? titleCase(u.government) : ""} · NW {fmt(u.networth)}
              </div>
            </div>
          </div>
        ))}
      </div>
    </aside>
  );
}
