import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { AllianceMessage } from "@game/schema/messages";
import { CHAT_MAX_LENGTH, CHAT_MESSAGES, isLeaderRole, type AllianceRole } from "@game/schema/rules";
import { useOwnCountrySummary } from "../../realtime/hooks";
import { useAuth } from "../../auth/AuthContext";
import { ActionButton, Panel } from "../../components/ui";
import { renderWithMentions } from "../chat/ChatScreen";
import type { AllianceRoomHandle } from "../../realtime/allianceRoom";
import { ROLE_ICON } from "./shared";
import { timeOfDay } from "../../components/format";

/** How often the typing notice is sent while typing (ms): the indicator lasts 3 s. */
const TYPING_EVERY_MS = 2_000;
const ACCESS_LABEL: Record<string, string> = { all: "all members", manager: "managers and owner", owner: "owner" };

/** Alliance chat (spec): channels by access level, messages, an input with counter, a typing indicator. */
export function AllianceChat({ room, role, countryId }: { room: AllianceRoomHandle; role: AllianceRole; countryId: number }) {
  const { snapshot, connection } = room;
  const ownSummary = useOwnCountrySummary();
  const { user } = useAuth();
  const ignored = new Set(ownSummary?.ignoredUserIds ?? []);
  const [channelId, setChannelId] = useState("general");
  const [draft, setDraft] = useState("");
  const [announce, setAnnounce] = useState(false);
  const [sentAt, setSentAt] = useState(0);
  const lastTyping = useRef(0);
  const listRef = useRef<HTMLDivElement>(null);
  const channel = snapshot.channels.find((c) => c.id === channelId) ?? snapshot.channels[0];
  const messages = (channel?.messages ?? []).filter((m) => !ignored.has(m.senderId));
  const typing = snapshot.typing.filter((t) => t.channel === channel?.id && t.countryId !== countryId && t.until > Date.now());
  const refusal = snapshot.notices.filter((n) => n.kind === "error" && n.at >= sentAt && sentAt > 0).slice(-1)[0];

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, channel?.id]);

  const trimmed = draft.trim();
  const reason = snapshot.status !== "connected" ? "Not connected to the alliance room" : !trimmed ? CHAT_MESSAGES.empty : trimmed.length > CHAT_MAX_LENGTH ? CHAT_MESSAGES.tooLong : null;
  const send = () => {
    if (reason || !channel || !connection) return;
    setSentAt(Date.now());
    if (connection.send(AllianceMessage.sendChat, { channel: channel.id, content: trimmed, announcement: announce && isLeaderRole(role) })) setDraft("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const onType = (value: string) => {
    setDraft(value);
    if (channel && connection && Date.now() - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = Date.now();
      connection.send(AllianceMessage.typing, { channel: channel.id });
    }
  };

  return (
    <Panel title="Alliance Chat" testId="alliance-chat">
      <div className="tabs" role="tablist" aria-label="Alliance channels">
        {snapshot.channels.map((c) => (
          <button key={c.id} type="button" role="tab" className="tab" aria-selected={c.id === channel?.id} onClick={() => setChannelId(c.id)} title={`${c.description} (${ACCESS_LABEL[c.accessLevel]})`}>
            {c.name}
            {c.isPrivate && <span className="faint small"> (leaders)</span>}
          </button>
        ))}
      </div>
      {channel && (
        <p className="small muted">
          {channel.description} · readable by {ACCESS_LABEL[channel.accessLevel]}
        </p>
      )}
      <div className="chat-main alliance-chat">
        <div className="chat-messages" ref={listRef} data-testid="alliance-messages" aria-live="polite">
          {snapshot.status !== "connected" && messages.length === 0 && <p className="muted">Connecting to the alliance room...</p>}
          {snapshot.status === "connected" && messages.length === 0 && <p className="muted">No messages yet</p>}
          {messages.map((m) => (
            <div key={m.id} className={`msg ${m.type} ${m.senderId === user?.id ? "mine" : ""}`}>
              <div className="meta">
                <span className="who">
                  {m.senderId ? `${ROLE_ICON[m.senderRole as AllianceRole] ?? ""} ` : ""}
                  {m.senderName}
                </span>
                <span className="faint small">{timeOfDay(m.timestamp)}</span>
                {m.type !== "message" && <span className="badge">{m.type.replace("_", " ")}</span>}
              </div>
              <div className="body">{renderWithMentions(m.content, m.mentions)}</div>
            </div>
          ))}
        </div>
        <div className="small muted typing" aria-live="polite" data-testid="typing-indicator">
          {typing.length > 0 ? `${typing.map((t) => t.name).join(", ")} ${typing.length === 1 ? "is" : "are"} typing...` : " "}
        </div>
        {refusal && (
          <div className="alert error" role="alert">
            {refusal.message}
          </div>
        )}
        <div className="chat-input">
          <textarea className="input" aria-label={`Message ${channel?.name ?? ""}`} rows={2} value={draft} onChange={(e) => onType(e.target.value)} onKeyDown={onKeyDown} placeholder={`Message #${channel?.name ?? ""}`} />
          <div className="row between">
            <span className={`small ${trimmed.length > CHAT_MAX_LENGTH ? "bad" : "muted"}`}>
              {trimmed.length}/{CHAT_MAX_LENGTH}
            </span>
            {isLeaderRole(role) && (
              <label className="row small">
                <input type="checkbox" checked={announce} onChange={(e) => setAnnounce(e.target.checked)} /> Announcement
              </label>
            )}
            <ActionButton disabledReason={draft ? reason : null} disabled={!trimmed} onClick={send}>
              Send
            </ActionButton>
          </div>
        </div>
      </div>
    </Panel>
  );
}
