import { describe, expect, it } from "vitest";
import { WORLD_MESSAGES } from "@game/schema/messages";
import { WORLD_MESSAGE_CHECKS } from "./worldChecks";

type ServerName = keyof typeof WORLD_MESSAGES.server;

const line = { id: "1", channel: "general", type: "message", senderId: 2, senderName: "bo", senderRole: "member", allianceTag: "", isOnline: true, timestamp: 10, isEdited: false, content: "hi", mentions: ["al"] };
const user = { id: "2", name: "bo", role: "member", allianceName: "", allianceTag: "", government: "monarchy", networth: 500, isOnline: true };
const row = { id: "1", rank: 1, countryId: 1, countryName: "Land", playerName: "", governmentType: "monarchy", allianceName: "", allianceTag: "", value: 900, land: 100, change: 0, trend: "same", lastActive: 0, isOnline: false };
const listing = { id: 1, sellerId: 2, sellerName: "bo", itemType: "food", quantity: 5, pricePerUnit: 2, totalPrice: 10, listedAt: 1, expiresAt: 2, status: "open" };

/** A valid example of every message the world room sends, and broken ones. */
const VALID: Record<ServerName, unknown[]> = {
  own: [{ cash: 5 }, { countryId: 1, name: "Land", turns: 1, storedTurns: 0, cash: 1, food: 1, oil: 1, networth: 1, population: 1, land: 1, ignoredUserIds: [3], unreadNews: 0, unreadNewsSeq: 0 }, {}],
  chatCommand: [{ command: "who", lines: ["a", "b"] }],
  chatMessage: [line],
  chatChannels: [{ channels: [{ id: "general", userCount: 2, messages: [line] }] }],
  chatCounts: [{ counts: { general: 2 } }],
  onlineUsers: [{ full: true, users: [user], removed: ["3"], total: 1 }],
  rankings: [{ length: 1, rows: [{ at: 0, row }] }],
  marketChanged: [{ itemType: "food", listings: [listing], removedListingIds: [3], orders: [], removedOrderIds: [], trades: [] }],
  notice: [
    { id: "battle-1", kind: "attacked", severity: "danger", title: "t", body: "b", at: 1 },
    { id: "n", kind: "k", severity: "info", title: "t", body: "b", at: 1, view: "military", refId: 4 },
  ],
  error: [{ code: "chat/rate_limited", message: "Slow down" }],
};
const BROKEN: Record<ServerName, unknown[]> = {
  own: [null, "x", { cash: "5" }, { ignoredUserIds: ["3"] }, { name: 4 }],
  chatCommand: [{ command: "who" }, { command: "who", lines: [1] }],
  chatMessage: [{ ...line, timestamp: "now" }, { ...line, mentions: undefined }, []],
  chatChannels: [{ channels: [{ id: "general", userCount: "2", messages: [] }] }, { channels: null }],
  chatCounts: [{ counts: { general: "2" } }, { counts: [] }],
  onlineUsers: [
    { full: true, users: [{ ...user, networth: null }], removed: [], total: 1 },
    { full: "yes", users: [], removed: [], total: 0 },
  ],
  rankings: [
    { length: 1, rows: [{ at: "0", row }] },
    { length: 1, rows: [{ at: 0, row: { ...row, rank: undefined } }] },
  ],
  marketChanged: [{ itemType: "food", listings: {}, removedListingIds: [], orders: [], removedOrderIds: [], trades: [] }, { itemType: 3 }],
  notice: [
    { id: 7, kind: "k", severity: "info", title: "t", body: "b", at: 1 },
    { id: "n", kind: "k", severity: "loud", title: "t", body: "b", at: 1 },
    { id: "n", kind: "k", severity: "info", title: "t", body: "b", at: 1, refId: "4" },
  ],
  error: ["boom", { code: 5, message: "x" }, { code: "x" }],
};

describe("the world room's hand-written message checks agree with the catalogue's zod schemas", () => {
  it("has a check for every message the world room sends", () => {
    expect(Object.keys(WORLD_MESSAGE_CHECKS).sort()).toEqual(Object.keys(WORLD_MESSAGES.server).sort());
  });

  for (const name of Object.keys(VALID) as ServerName[]) {
    it(`${name}: accepts what the schema accepts and refuses broken shapes the schema refuses`, () => {
      const schema = WORLD_MESSAGES.server[name].payload;
      for (const example of VALID[name]) {
        expect(schema.safeParse(example).success, JSON.stringify(example)).toBe(true);
        expect(WORLD_MESSAGE_CHECKS[name](example), JSON.stringify(example)).toBe(true);
      }
      for (const example of BROKEN[name]) {
        expect(schema.safeParse(example).success, JSON.stringify(example)).toBe(false);
        expect(WORLD_MESSAGE_CHECKS[name](example), JSON.stringify(example)).toBe(false);
      }
    });
  }
});
