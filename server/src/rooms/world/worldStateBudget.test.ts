import { describe, expect, it } from "vitest";
import { Encoder } from "@colyseus/schema";
import { NEWS_TICKER_SIZE } from "@game/schema/messages";
import { NEWS_TITLE_MAX } from "@game/schema/rules";
import { NewsTickerItem, WorldState } from "@game/schema/state";

/**
 * The world state holds only what every client shows (the season, the news ticker: issue 29),
 * so its full encoding at the caps stays inside the schema encoder's default buffer and world
 * rooms need no larger one (AllianceRoom.ts raises its own). A field added to the state that
 * breaks this belongs in a watched feed instead.
 */

/** A string of `length` characters that each take four bytes in UTF-8 (the worst case). */
const wide = (length: number) => "\u{1F600}".repeat(length);
const BIG = 2 ** 52;

describe("world state size", () => {
  it("the full state at its caps fits the encoder's default buffer", () => {
    const state = new WorldState();
    Object.assign(state.season, { name: wide(60), active: "INACTIVE", startsAt: BIG, endsAt: BIG, nextTickAt: BIG, turnIntervalMs: BIG, tickNumber: BIG });
    for (let i = 0; i < NEWS_TICKER_SIZE; i++) {
      state.news.push(new NewsTickerItem({ id: String(BIG - i), kind: "season_ending_soon", type: "achievement", title: wide(NEWS_TITLE_MAX), priority: "critical", impact: "historic", timestamp: BIG }));
    }
    const bytes = new Encoder(state).encodeAll().length;
    // The figure for docs/performance.md ("World state size").
    console.info(`world state at caps: ${bytes} bytes, default buffer ${Encoder.BUFFER_SIZE}`);
    expect(bytes).toBeGreaterThan(NEWS_TICKER_SIZE * NEWS_TITLE_MAX * 4); // the caps are really filled
    expect(bytes).toBeLessThan(Encoder.BUFFER_SIZE);
  });
});
