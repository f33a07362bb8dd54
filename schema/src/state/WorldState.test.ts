import { describe, expect, it } from "vitest";
import { Decoder, Encoder, Reflection, StateView } from "@colyseus/schema";
import { CountrySummaryState, RankingRow, WorldState } from "./index.js";

/** Encodes the full state for one view, as the room does for a joining client. */
function decodeFor(encoder: Encoder, view: StateView): any {
  const it = { offset: 0 };
  encoder.encodeAll(it);
  const shared = it.offset;
  const bytes = encoder.encodeAllView(view, shared, it);
  const decoder = Reflection.decode(Reflection.encode(encoder));
  decoder.decode(bytes);
  return (decoder as Decoder).state.toJSON();
}

describe("WorldState privacy", () => {
  it("a client's view holds its own country summary and no other", () => {
    const state = new WorldState();
    // As in a room: the encoder owns the state before anything is added to a view.
    const encoder = new Encoder(state);
    const mine = new CountrySummaryState({ countryId: 1, name: "Mine", cash: 111_111 });
    const theirs = new CountrySummaryState({ countryId: 2, name: "Theirs", cash: 987_654 });
    state.countries.set("session-a", mine);
    state.countries.set("session-b", theirs);
    state.rankings.push(new RankingRow({ id: "2", rank: 1, countryId: 2, countryName: "Theirs", value: 500 }));

    const viewA = new StateView();
    viewA.add(mine);
    const seenByA = decodeFor(encoder, viewA);
    expect(Object.keys(seenByA.countries)).toEqual(["session-a"]);
    expect(seenByA.countries["session-a"].cash).toBe(111_111);
    expect(JSON.stringify(seenByA)).not.toContain("987654");
    // Shared parts still arrive.
    expect(seenByA.rankings[0].countryName).toBe("Theirs");
  });
});
