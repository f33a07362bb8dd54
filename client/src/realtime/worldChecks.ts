/**
 * Light shape checks of what the world room sends, by message name (issue 30, the overview's
 * first load). The server parses every message a client sends with the catalogue's zod schemas
 * (WORLD_MESSAGES, schema/src/messages/world.ts) and its tests check every message it sends
 * against them; the browser does not load zod for that at start (building the catalogue's
 * schemas was the largest share of the game's start-up script). It still does not trust what
 * arrives: a message whose shape these checks refuse is dropped before any listener sees it
 * (RoomDefinition.accept), so a bad payload cannot put a wrong type into what the screens show.
 * The checks look at the fields the client reads (types, not ranges or wording); a unit test
 * checks they agree with the catalogue's schemas on valid and broken examples.
 * docs/architecture.md, "Room messages in the browser", says why.
 */
import type { WorldServerMessages } from "@game/schema/messages";
import { NOTICE_SEVERITIES } from "@game/schema/messages/constants";

type Check = (value: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === "string";
const num: Check = (v) => typeof v === "number" && !Number.isNaN(v);
const bool: Check = (v) => typeof v === "boolean";
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
/** An object with at least these fields of these types (unknown fields pass, as zod strips them). */
const shape =
  (fields: Record<string, Check>): Check =>
  (v) =>
    isObject(v) && Object.entries(fields).every(([key, check]) => check(v[key]));

const chatLine = shape({
  id: str,
  channel: str,
  type: str,
  senderId: num,
  senderName: str,
  senderRole: str,
  allianceTag: str,
  isOnline: bool,
  timestamp: num,
  isEdited: bool,
  content: str,
  mentions: arrayOf(str),
});

const onlineUser = shape({ id: str, name: str, role: str, allianceName: str, allianceTag: str, government: str, networth: num, isOnline: bool });

const rankingRow = shape({
  id: str,
  rank: num,
  countryId: num,
  countryName: str,
  playerName: str,
  governmentType: str,
  allianceName: str,
  allianceTag: str,
  value: num,
  land: num,
  change: num,
  trend: str,
  lastActive: num,
  isOnline: bool,
});

/** "own": every field optional (a patch), each of its own type. */
const ownPatch = shape({
  countryId: optional(num),
  name: optional(str),
  turns: optional(num),
  storedTurns: optional(num),
  cash: optional(num),
  food: optional(num),
  oil: optional(num),
  networth: optional(num),
  population: optional(num),
  land: optional(num),
  ignoredUserIds: optional(arrayOf(num)),
  unreadNews: optional(num),
  unreadNewsSeq: optional(num),
});

/** The check of each message the world room sends to a client. */
export const WORLD_MESSAGE_CHECKS: { [K in keyof WorldServerMessages]: Check } = {
  own: ownPatch,
  chatCommand: shape({ command: str, lines: arrayOf(str) }),
  chatMessage: chatLine,
  chatChannels: shape({ channels: arrayOf(shape({ id: str, userCount: num, messages: arrayOf(chatLine) })) }),
  chatCounts: shape({ counts: (v) => isObject(v) && Object.values(v).every(num) }),
  onlineUsers: shape({ full: bool, users: arrayOf(onlineUser), removed: arrayOf(str), total: num }),
  rankings: shape({ length: num, rows: arrayOf(shape({ at: num, row: rankingRow })) }),
  // the market screen's own module reads these (realtime/market.ts); an object is all the start needs
  marketChanged: shape({ itemType: str, listings: Array.isArray, removedListingIds: arrayOf(num), orders: Array.isArray, removedOrderIds: arrayOf(num), trades: Array.isArray }),
  notice: shape({ id: str, kind: str, severity: (v) => (NOTICE_SEVERITIES as readonly unknown[]).includes(v), title: str, body: str, at: num, view: optional(str), refId: optional(num) }),
  error: shape({ code: str, message: str }),
};
