import { describe, expect, it } from "vitest";
import { Decoder, Encoder, Reflection, StateView } from "@colyseus/schema";
import { AllianceChannelState, AllianceMemberState, AllianceState, ChatMessageState, LEADERSHIP_VIEW_TAG } from "./index.js";

/** A client of a room: its decoder fed with the full state first, then the patches. */
function connect(encoder: Encoder, view: StateView) {
  const decoder = Reflection.decode(Reflection.encode(encoder)) as Decoder;
  const it = { offset: 0 };
  encoder.encodeAll(it);
  const shared = it.offset;
  decoder.decode(encoder.encodeAllView(view, shared, it));
  return decoder;
}

/** One patch round as the room sends it: shared changes, then each view's. */
function patch(encoder: Encoder, clients: Array<{ view: StateView; decoder: Decoder }>): void {
  const it = { offset: 0 };
  encoder.encode(it);
  const shared = it.offset;
  for (const c of clients) {
    const viewIt = { offset: shared };
    c.decoder.decode(encoder.encodeView(c.view, shared, viewIt));
  }
  encoder.discardChanges();
}

describe("AllianceState leadership view", () => {
  it("only views with the leadership tag see the private channels, and removing the tag hides them", () => {
    const state = new AllianceState();
    const encoder = new Encoder(state);
    state.members.set("1", new AllianceMemberState({ countryId: 1, countryName: "Owner land", role: "owner" }));
    const secret = new AllianceChannelState({ id: "leadership", name: "Leadership", accessLevel: "manager", isPrivate: true });
    secret.messages.push(new ChatMessageState({ id: "9", content: "promote nobody", channel: "leadership" }));
    state.leadership.channels.set("leadership", secret);
    state.leadership.pendingApplications = 3;

    const leaderView = new StateView();
    leaderView.add(state, LEADERSHIP_VIEW_TAG);
    const memberView = new StateView();
    const leader = { view: leaderView, decoder: connect(encoder, leaderView) };
    const member = { view: memberView, decoder: connect(encoder, memberView) };

    expect(leader.decoder.state.toJSON().leadership.channels.leadership.messages[0].content).toBe("promote nobody");
    expect(leader.decoder.state.toJSON().leadership.pendingApplications).toBe(3);
    expect(JSON.stringify(member.decoder.state.toJSON())).not.toContain("promote nobody");
    expect(member.decoder.state.toJSON().members["1"].countryName).toBe("Owner land");

    // A later message reaches the leader only.
    secret.messages.push(new ChatMessageState({ id: "10", content: "second secret", channel: "leadership" }));
    patch(encoder, [leader, member]);
    expect(leader.decoder.state.toJSON().leadership.channels.leadership.messages.map((m: any) => m.content)).toEqual(["promote nobody", "second secret"]);
    expect(JSON.stringify(member.decoder.state.toJSON())).not.toContain("second secret");

    // Demoted: the tag goes; what was seen is taken back and nothing new arrives.
    leaderView.remove(state, LEADERSHIP_VIEW_TAG);
    secret.messages.push(new ChatMessageState({ id: "11", content: "third secret", channel: "leadership" }));
    patch(encoder, [leader, member]);
    const after = JSON.stringify(leader.decoder.state.toJSON());
    expect(after).not.toContain("third secret");
    expect(after).not.toContain("promote nobody");

    // Promoted: the tag comes (back) and brings the current leadership part.
    memberView.add(state, LEADERSHIP_VIEW_TAG);
    patch(encoder, [leader, member]);
    expect(member.decoder.state.toJSON().leadership.channels.leadership.messages.map((m: any) => m.content)).toEqual(["promote nobody", "second secret", "third secret"]);
  });
});
