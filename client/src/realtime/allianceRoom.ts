/**
 * The alliance room on the generic RoomConnection: one connection per alliance, joined with
 * `{ allianceId }`. Its slices (header, members, operations, defense requests, bonuses, the
 * channels this member may read, the leaders' counters) come from AllianceState; typing
 * notices, ally-attacked alerts, confirmations and refusals from its messages. Closed for
 * good (ALLIANCE_ROOM_CLOSE_NOT_MEMBER) when the player is kicked or leaves: the data goes at
 * once and the connection stays out.
 */
import { useEffect, useMemo } from "react";
import {
  ALLIANCE_ROOM,
  ALLIANCE_ROOM_CLOSE_NOT_MEMBER,
  SESSION_CLOSE_SIGNED_OUT,
  AllianceMessage,
  type ActionDoneMessage,
  type AllianceBonusSnapshot,
  type AllianceChannelSnapshot,
  type AllianceClientMessages,
  type AllianceHeaderSnapshot,
  type AllianceMemberSnapshot,
  type AllianceServerMessages,
  type AllianceStateSnapshot,
  type AllyAttackedAlert,
  type DefenseRequestSnapshot,
  type OperationSnapshot,
  type TypingNotice,
} from "@game/schema/messages";
import { ALLIANCE_TYPING_INDICATOR_MS } from "@game/schema/rules";
import { RoomConnection, type RoomConnectionOptions, type RoomSnapshot } from "./roomConnection";
import { useRoom } from "./hooks";

/** Refusals, confirmations and alerts kept for the screen. */
const KEEP = 20;

export interface AllianceTyping extends TypingNotice {
  /** epoch ms it stops showing */
  until: number;
}

export interface AllianceNotice {
  id: number;
  kind: "done" | "error";
  action: string;
  code: string;
  message: string;
  at: number;
}

export interface AllianceData {
  header: AllianceHeaderSnapshot | null;
  members: AllianceMemberSnapshot[];
  /** newest first */
  operations: OperationSnapshot[];
  /** newest first */
  defenseRequests: DefenseRequestSnapshot[];
  bonuses: AllianceBonusSnapshot[];
  /** the channels this member reads: general and military, and for leaders intelligence and leadership */
  channels: AllianceChannelSnapshot[];
  /** leaders only: pending applications and invitations (null for others) */
  leadership: { pendingApplications: number; pendingInvitations: number } | null;
  typing: AllianceTyping[];
  alerts: AllyAttackedAlert[];
  notices: AllianceNotice[];
}

export type AllianceSnapshot = RoomSnapshot<AllianceData>;

export const EMPTY_ALLIANCE: AllianceData = {
  header: null,
  members: [],
  operations: [],
  defenseRequests: [],
  bonuses: [],
  channels: [],
  leadership: null,
  typing: [],
  alerts: [],
  notices: [],
};

const CHANNEL_ORDER = ["general", "military", "intelligence", "leadership"];

/** The room's state as the screens read it. */
export function projectAllianceState(state: unknown): Partial<AllianceData> {
  const s = state as Partial<AllianceStateSnapshot>;
  const leadership = s.leadership as AllianceStateSnapshot["leadership"] | undefined;
  const channels = [...Object.values(s.channels ?? {}), ...Object.values(leadership?.channels ?? {})]
    .map((c) => ({ ...c, messages: [...c.messages].sort((a, b) => Number(a.id) - Number(b.id)) }))
    .sort((a, b) => CHANNEL_ORDER.indexOf(a.id) - CHANNEL_ORDER.indexOf(b.id));
  return {
    header: s.header && s.header.id ? s.header : null,
    members: Object.values(s.members ?? {}),
    operations: Object.values(s.operations ?? {}).sort((a, b) => b.id - a.id),
    defenseRequests: Object.values(s.defenseRequests ?? {}).sort((a, b) => b.id - a.id),
    bonuses: Object.values(s.bonuses ?? {}),
    channels,
    leadership: leadership ? { pendingApplications: leadership.pendingApplications, pendingInvitations: leadership.pendingInvitations } : null,
  };
}

export type AllianceConnection = RoomConnection<AllianceData, AllianceClientMessages, AllianceServerMessages>;

/** What the alliance screens get of the room: its connection (null before the first join) and its latest snapshot. */
export interface AllianceRoomHandle {
  connection: AllianceConnection | null;
  snapshot: AllianceSnapshot;
}

/** A connection to one alliance's room. */
export function createAllianceConnection(allianceId: number, options: RoomConnectionOptions = {}): AllianceConnection {
  let noticeId = 0;
  const connection: AllianceConnection = new RoomConnection<AllianceData, AllianceClientMessages, AllianceServerMessages>(
    {
      name: ALLIANCE_ROOM,
      options: { allianceId },
      unreachable: "Could not reach the alliance room",
      finalCloseCodes: [ALLIANCE_ROOM_CLOSE_NOT_MEMBER, SESSION_CLOSE_SIGNED_OUT],
      initial: EMPTY_ALLIANCE,
      project: (state) => projectAllianceState(state),
    },
    options,
  );
  const note = (n: Omit<AllianceNotice, "id" | "at">) => connection.update({ notices: [...connection.data.notices, { ...n, id: ++noticeId, at: Date.now() }].slice(-KEEP) });
  connection.on(AllianceMessage.done, (m: ActionDoneMessage) => note({ kind: "done", action: m.action, code: "", message: m.message }));
  connection.on(AllianceMessage.error, (e) => note({ kind: "error", action: "", code: String(e?.code ?? "error"), message: String(e?.message ?? "Error") }));
  connection.onError((code, message) => note({ kind: "error", action: "", code: String(code), message }));
  connection.on(AllianceMessage.allyAttacked, (alert) => {
    if (!alert || connection.data.alerts.some((a) => a.requestId === alert.requestId)) return;
    connection.update({ alerts: [...connection.data.alerts, alert].slice(-KEEP) });
  });
  connection.on(AllianceMessage.typingNotice, (notice) => {
    if (!notice) return;
    const until = Date.now() + ALLIANCE_TYPING_INDICATOR_MS;
    const others = connection.data.typing.filter((t) => !(t.countryId === notice.countryId && t.channel === notice.channel) && t.until > Date.now());
    connection.update({ typing: [...others, { ...notice, until }] });
    setTimeout(() => connection.update({ typing: connection.data.typing.filter((t) => t.until > Date.now()) }), ALLIANCE_TYPING_INDICATOR_MS + 50);
  });
  return connection;
}

/**
 * Joins the alliance's room while `allianceId` and `token` are set, leaves it otherwise; the
 * snapshot re-renders on every patch. `onClosed` hears a close for good (kicked, left).
 */
export function useAllianceRoom(allianceId: number | null, token: string | null, onClosed?: (reason: string) => void): { connection: AllianceConnection | null; snapshot: AllianceSnapshot } {
  const connection = useMemo(() => (allianceId ? createAllianceConnection(allianceId) : null), [allianceId]);
  useEffect(() => {
    if (!connection || !token) return;
    connection.connect(token);
    return () => connection.disconnect();
  }, [connection, token]);
  useEffect(() => (connection && onClosed ? connection.onClosedForGood((_code, reason) => onClosed(reason)) : undefined), [connection, onClosed]);
  const snapshot = useRoom(connection ?? IDLE_STORE);
  return { connection, snapshot };
}

const IDLE_SNAPSHOT: AllianceSnapshot = { status: "idle", statusMessage: "", sessionId: "", ...EMPTY_ALLIANCE };
const IDLE_STORE = { subscribe: () => () => undefined, getSnapshot: () => IDLE_SNAPSHOT };
