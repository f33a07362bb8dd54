import { describe, expect, it } from "vitest";
import { CHAT_CHANNELS, CHAT_RECENT_MESSAGES } from "../rules/chat.js";
import { addLineToChannels, applyChatCounts, applyOnlineUsers, applyOwnPatch, applyRankings, chatChannelsFrom } from "./worldFeeds.js";
import type { ChatMessagePayload, OnlineUserSnapshot, RankingRowSnapshot } from "./world.js";

const row = (rank: number, value: number): RankingRowSnapshot => ({
  id: String(rank),
  rank,
  countryId: rank,
  countryName: `C${rank}`,
  playerName: "",
  governmentType: "monarchy",
  allianceName: "",
  allianceTag: "",
  value,
  land: 100,
  change: 0,
  trend: "same",
  lastActive: 0,
  isOnline: false,
});
const user = (id: number, networth: number): OnlineUserSnapshot => ({ id: String(id), name: `u${id}`, role: "member", allianceName: "", allianceTag: "", government: "monarchy", networth, isOnline: true });
const line = (id: number, channel = "general", timestamp = id): ChatMessagePayload => ({
  id: String(id),
  channel,
  type: "message",
  senderId: 1,
  senderName: "a",
  senderRole: "member",
  allianceTag: "",
  isOnline: true,
  timestamp,
  isEdited: false,
  content: `line ${id}`,
  mentions: [],
});

describe("world feed messages, as a receiver keeps them", () => {
  it("rankings: rows replaced by position, the list cut to its length", () => {
    const start = applyRankings([], { length: 3, rows: [0, 1, 2].map((at) => ({ at, row: row(at + 1, 300 - at) })) });
    expect(start.map((r) => r.value)).toEqual([300, 299, 298]);
    const moved = applyRankings(start, { length: 2, rows: [{ at: 1, row: row(2, 500) }] });
    expect(moved.map((r) => r.value)).toEqual([300, 500]);
    expect(moved[0]).toBe(start[0]);
  });

  it("online users: a full list replaces, a change merges and removes", () => {
    const full = applyOnlineUsers({ "9": user(9, 1) }, { full: true, users: [user(1, 10), user(2, 20)], removed: [], total: 2 });
    expect(Object.keys(full).sort()).toEqual(["1", "2"]);
    const next = applyOnlineUsers(full, { full: false, users: [user(3, 30), user(1, 11)], removed: ["2"], total: 2 });
    expect(next).toEqual({ "1": user(1, 11), "3": user(3, 30) });
  });

  it("chat: the snapshot fills every channel of CHAT_CHANNELS; lines are added once, in order, capped", () => {
    let channels = chatChannelsFrom({ channels: [{ id: "general", userCount: 4, messages: [line(2), line(1)] }] });
    expect(channels.map((c) => c.id)).toEqual(CHAT_CHANNELS.map((c) => c.id));
    expect(channels[0]).toMatchObject({ id: "general", name: "General", userCount: 4 });
    channels = addLineToChannels(channels, line(3));
    const same = addLineToChannels(channels, line(3));
    expect(same).toBe(channels);
    expect(channels[0]!.messages.map((m) => m.id)).toEqual(["1", "2", "3"]);
    expect("isOnline" in channels[0]!.messages[0]!).toBe(false);
    for (let i = 4; i < 4 + CHAT_RECENT_MESSAGES; i++) channels = addLineToChannels(channels, line(i));
    expect(channels[0]!.messages).toHaveLength(CHAT_RECENT_MESSAGES);
    expect(channels[0]!.messages[0]!.id).toBe("4");
    const counted = applyChatCounts(channels, { counts: { general: 7 } });
    expect(counted[0]!.userCount).toBe(7);
    expect(counted[1]).toBe(channels[1]);
  });

  it("own numbers: the first full message starts them, patches change the fields they carry", () => {
    expect(applyOwnPatch(null, { unreadNews: 3 })).toBeNull();
    const own = applyOwnPatch(null, { countryId: 5, name: "A", turns: 10, storedTurns: 0, cash: 1, food: 2, oil: 3, networth: 4, population: 5, land: 6, ignoredUserIds: [], unreadNews: 0 });
    expect(applyOwnPatch(own, { cash: 99, unreadNews: 2 })).toMatchObject({ countryId: 5, cash: 99, turns: 10, unreadNews: 2 });
  });
});
