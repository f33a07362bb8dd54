/**
 * Plain snapshots of the world room's state (WorldState in schema/src/state). The client
 * decodes the state through the SDK's reflection and copies it into these shapes, so
 * components never hold live schema instances.
 */

export type SeasonActive = "ACTIVE" | "INACTIVE";

export interface SeasonView {
  name: string;
  active: SeasonActive;
  /** epoch milliseconds (0 when unknown) */
  startsAt: number;
  endsAt: number;
  nextTickAt: number;
  turnIntervalMs: number;
  tickNumber: number;
}

export interface RankingRow {
  id: string;
  rank: number;
  countryId: number;
  countryName: string;
  playerName: string;
  governmentType: string;
  allianceName: string;
  allianceTag: string;
  /** networth */
  value: number;
  land: number;
  change: number;
  trend: string;
  lastActive: number;
  isOnline: boolean;
}

export type ChatMessageType = "message" | "announcement" | "system" | "war_alert" | "achievement" | "trade_alert";
export type ChatRole = "admin" | "moderator" | "owner" | "manager" | "member";

export interface ChatMessage {
  id: string;
  channel: string;
  type: ChatMessageType | string;
  senderId: string;
  senderName: string;
  senderRole: ChatRole | string;
  allianceTag: string;
  /** epoch milliseconds */
  timestamp: number;
  content: string;
  mentions: string[];
  isEdited: boolean;
}

export interface ChatChannel {
  id: string;
  name: string;
  description: string;
  icon: string;
  color: string;
  accessLevel: "all" | "alliance" | "leadership" | string;
  isActive: boolean;
  userCount: number;
  messages: ChatMessage[];
}

export interface OnlineUser {
  id: string;
  name: string;
  role: string;
  allianceName: string;
  allianceTag: string;
  government: string;
  networth: number;
  isOnline: boolean;
}

/** The own country's live numbers (visible to this client only). */
export interface CountrySummary {
  countryId: number;
  name: string;
  turns: number;
  storedTurns: number;
  cash: number;
  food: number;
  oil: number;
  networth: number;
  population: number;
  land: number;
  /** user ids this player ignores in chat (/ignore) */
  ignoredUserIds: number[];
}

export type ConnectionStatus = "idle" | "connecting" | "connected" | "reconnecting" | "error";

/** A chat command's answer from the room ('chatCommand' {command, lines}). */
export interface CommandOutput {
  id: number;
  command: string;
  lines: string[];
  at: number;
}

export interface RoomErrorNotice {
  id: number;
  code: string;
  message: string;
  at: number;
}

export interface WorldSnapshot {
  status: ConnectionStatus;
  /** last connection problem, shown next to the status */
  statusMessage: string;
  sessionId: string;
  season: SeasonView | null;
  rankings: RankingRow[];
  channels: ChatChannel[];
  onlineUsers: OnlineUser[];
  ownCountry: CountrySummary | null;
  /** Date.now() when ownCountry last changed (to compare with REST data freshness) */
  ownCountryAt: number;
  commandOutputs: CommandOutput[];
  errors: RoomErrorNotice[];
}

export const EMPTY_SNAPSHOT: WorldSnapshot = {
  status: "idle",
  statusMessage: "",
  sessionId: "",
  season: null,
  rankings: [],
  channels: [],
  onlineUsers: [],
  ownCountry: null,
  ownCountryAt: 0,
  commandOutputs: [],
  errors: [],
};
