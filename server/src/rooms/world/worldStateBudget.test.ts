import { describe, expect, it } from "vitest";
import { Encoder, StateView } from "@colyseus/schema";
import { CHAT_CHANNELS, CHAT_MAX_LENGTH, CHAT_RECENT_MESSAGES, NEWS_TICKER_SIZE, RANKINGS_DEFAULT_LIMIT } from "@game/schema/messages";
import { NEWS_TITLE_MAX } from "@game/schema/rules";
import { COUNTRY_NAME_MAX, USERNAME_MAX } from "@game/schema/api";
import { ChatChannelState, ChatMessageState, CountrySummaryState, NewsTickerItem, OnlineUserState, RankingRow, WorldState } from "@game/schema/state";
import { ONLINE_USERS_LIMIT } from "../../services/world.js";
import { WORLD_ENCODER_BUFFER_BYTES } from "../WorldRoom.js";

/**
 * The world state has caps (messages per open channel, listed online users, ranking rows), so
 * its size has a ceiling. A joining client receives all of it at once, and @colyseus/core
 * 0.18.17 corrupts a full state larger than the encoder buffer (WorldRoom.ts), so the ceiling
 * must stay under the buffer: a new field or a raised cap that breaks the budget fails here.
 */

/**
 * The largest full world state we allow (bytes). Measured at the caps with every string at its
 * longest in four-byte characters: about 624 KB (docs/performance.md, "World state size").
 */
const WORLD_STATE_BYTE_BUDGET = 768 * 1024;

/** Longest alliance name and tag the budget assumes (the alliance rules must stay within them). */
const ALLIANCE_NAME_MAX = 40;
const ALLIANCE_TAG_MAX = 6;

/** A string of `length` characters that each take four bytes in UTF-8 (the worst case). */
const wide = (length: number) => "\u{1F600}".repeat(length);
const BIG = 2 ** 52;

function worldStateAtCaps(): WorldState {
  const state = new WorldState();
  Object.assign(state.season, { name: wide(60), active: "INACTIVE", startsAt: BIG, endsAt: BIG, nextTickAt: BIG, turnIntervalMs: BIG, tickNumber: BIG });
  for (const def of CHAT_CHANNELS) {
    const channel = new ChatChannelState({ ...def, userCount: BIG });
    state.channels.set(def.id, channel);
    // Only open channels carry messages in the shared state.
    if (def.accessLevel !== "all") continue;
    for (let i = 0; i < CHAT_RECENT_MESSAGES; i++) {
      const message = new ChatMessageState({
        id: String(BIG - i),
        channel: def.id,
        type: "announcement",
        senderId: BIG,
        senderName: wide(USERNAME_MAX),
        senderRole: "moderator",
        allianceTag: wide(ALLIANCE_TAG_MAX),
        timestamp: BIG,
        content: wide(CHAT_MAX_LENGTH),
        isEdited: true,
      });
      // Mentions are words of the content: at most a handful fit beside a long message.
      message.mentions.push(...Array.from({ length: 5 }, () => wide(USERNAME_MAX)));
      channel.messages.push(message);
    }
  }
  for (let i = 0; i < ONLINE_USERS_LIMIT; i++) {
    state.onlineUsers.set(
      String(BIG - i),
      new OnlineUserState({
        id: String(BIG - i),
        name: wide(USERNAME_MAX),
        role: "moderator",
        allianceName: wide(ALLIANCE_NAME_MAX),
        allianceTag: wide(ALLIANCE_TAG_MAX),
        government: "dictatorship",
        networth: BIG,
        isOnline: true,
      }),
    );
  }
  for (let i = 0; i < RANKINGS_DEFAULT_LIMIT; i++) {
    state.rankings.push(
      new RankingRow({
        id: String(BIG - i),
        rank: i + 1,
        countryId: BIG,
        countryName: wide(COUNTRY_NAME_MAX),
        playerName: wide(USERNAME_MAX),
        governmentType: "dictatorship",
        allianceName: wide(ALLIANCE_NAME_MAX),
        allianceTag: wide(ALLIANCE_TAG_MAX),
        value: BIG,
        land: BIG,
        change: -BIG,
        trend: "down",
        lastActive: BIG,
        isOnline: true,
      }),
    );
  }
  for (let i = 0; i < NEWS_TICKER_SIZE; i++) {
    state.news.push(
      new NewsTickerItem({ id: String(BIG - i), kind: "season_ending_soon", type: "achievement", title: wide(NEWS_TITLE_MAX), priority: "critical", impact: "historic", timestamp: BIG }),
    );
  }
  return state;
}

describe("world state size", () => {
  it(`the full state at its caps stays under ${WORLD_STATE_BYTE_BUDGET} bytes, below the encoder buffer`, () => {
    expect(WORLD_STATE_BYTE_BUDGET).toBeLessThan(WORLD_ENCODER_BUFFER_BYTES);
    const previous = Encoder.BUFFER_SIZE;
    Encoder.BUFFER_SIZE = 4 * WORLD_ENCODER_BUFFER_BYTES;
    try {
      const state = worldStateAtCaps();
      const encoder = new Encoder(state);
      // A joining client's own summary, in its view, as the room adds it.
      const summary = new CountrySummaryState({ countryId: BIG, name: wide(COUNTRY_NAME_MAX), turns: BIG, cash: BIG, networth: BIG, unreadNews: BIG });
      summary.ignoredUserIds.push(...Array.from({ length: 100 }, () => BIG));
      state.countries.set("session", summary);
      const view = new StateView();
      view.add(summary);
      const it = { offset: 0 };
      encoder.encodeAll(it);
      const shared = it.offset;
      const bytes = encoder.encodeAllView(view, shared, it).length;
      // The figure for docs/performance.md ("World state size").
      console.info(`world state at caps: ${bytes} bytes (shared ${shared}), budget ${WORLD_STATE_BYTE_BUDGET}`);
      expect(bytes).toBeGreaterThan(300 * 1024); // the caps are really filled
      expect(bytes).toBeLessThan(WORLD_STATE_BYTE_BUDGET);
    } finally {
      Encoder.BUFFER_SIZE = previous;
    }
  });
});
