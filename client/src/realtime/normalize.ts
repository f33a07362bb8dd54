import type { ChatChannel, ChatMessage, CountrySummary, OnlineUser, RankingRow, SeasonView } from "./types";

type Raw = Record<string, unknown>;

function str(v: unknown): string {
  return v === undefined || v === null ? "" : String(v);
}

function num(v: unknown): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : 0;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** Epoch milliseconds from a number (ms) or a date string; 0 when unknown. */
export function toMillis(v: unknown): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : 0;
  if (typeof v === "string" && v) {
    const asNumber = Number(v);
    if (Number.isFinite(asNumber)) return asNumber;
    const parsed = Date.parse(v);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

/** A schema Map or Array after toJSON: an object keyed by id, or an array. */
function values(v: unknown): Raw[] {
  if (!v) return [];
  if (Array.isArray(v)) return v as Raw[];
  if (typeof v === "object" && Symbol.iterator in v) return Array.from(v as Iterable<Raw>);
  if (typeof v === "object") return Object.values(v as Raw) as Raw[];
  return [];
}

export function normalizeSeason(raw: unknown): SeasonView | null {
  if (!raw || typeof raw !== "object") return null;
  const s = raw as Raw;
  const active = str(s.active).toUpperCase();
  return {
    name: str(s.name),
    active: active === "ACTIVE" || s.active === true ? "ACTIVE" : "INACTIVE",
    startsAt: toMillis(s.startsAt),
    endsAt: toMillis(s.endsAt),
    nextTickAt: toMillis(s.nextTickAt),
    turnIntervalMs: num(s.turnIntervalMs),
    tickNumber: num(s.tickNumber),
  };
}

export function normalizeRankings(raw: unknown): RankingRow[] {
  return values(raw).map((r, i) => ({
    id: str(r.id ?? r.countryId ?? i),
    rank: num(r.rank) || i + 1,
    countryId: num(r.countryId),
    countryName: str(r.countryName),
    playerName: str(r.playerName),
    governmentType: str(r.governmentType),
    allianceName: str(r.allianceName),
    allianceTag: str(r.allianceTag),
    value: num(r.value),
    land: num(r.land),
    change: num(r.change),
    trend: str(r.trend),
    lastActive: toMillis(r.lastActive),
    isOnline: Boolean(r.isOnline),
  }));
}

export function normalizeMessage(m: Raw): ChatMessage {
  return {
    id: str(m.id),
    channel: str(m.channel),
    type: str(m.type) || "message",
    senderId: str(m.senderId),
    senderName: str(m.senderName),
    senderRole: str(m.senderRole) || "member",
    allianceTag: str(m.allianceTag),
    timestamp: toMillis(m.timestamp),
    content: str(m.content),
    mentions: Array.isArray(m.mentions) ? m.mentions.map(str) : values(m.mentions).map(str),
    isEdited: Boolean(m.isEdited),
  };
}

export function normalizeChannels(raw: unknown): ChatChannel[] {
  return values(raw).map((c) => ({
    id: str(c.id),
    name: str(c.name),
    description: str(c.description),
    icon: str(c.icon),
    color: str(c.color),
    accessLevel: str(c.accessLevel) || "all",
    isActive: c.isActive === undefined ? true : Boolean(c.isActive),
    userCount: num(c.userCount),
    messages: values(c.messages)
      .map(normalizeMessage)
      .sort((a, b) => a.timestamp - b.timestamp),
  }));
}

export function normalizeOnlineUsers(raw: unknown): OnlineUser[] {
  return values(raw).map((u) => ({
    id: str(u.id),
    name: str(u.name),
    role: str(u.role) || "member",
    allianceName: str(u.allianceName),
    allianceTag: str(u.allianceTag),
    government: str(u.government),
    networth: num(u.networth),
    isOnline: u.isOnline === undefined ? true : Boolean(u.isOnline),
  }));
}

/** The own country's summary: the entry keyed by this session, else the only visible one. */
export function normalizeOwnCountry(raw: unknown, sessionId: string): CountrySummary | null {
  if (!raw || typeof raw !== "object") return null;
  const map = raw as Raw;
  const entry = (map[sessionId] as Raw | undefined) ?? (values(raw).length === 1 ? values(raw)[0] : undefined);
  if (!entry) return null;
  return {
    countryId: num(entry.countryId),
    name: str(entry.name),
    turns: num(entry.turns),
    storedTurns: num(entry.storedTurns),
    cash: num(entry.cash),
    food: num(entry.food),
    oil: num(entry.oil),
    networth: num(entry.networth),
    population: num(entry.population),
    land: num(entry.land),
    ignoredUserIds: values(entry.ignoredUserIds).map((v) => num(v)),
  };
}
