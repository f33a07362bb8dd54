import { describe, expect, it } from "vitest";
import { AI_MIN_HOME_TROOPS, Rng, type AiTarget } from "@game/schema/rules";
import { nextRoomIntent, OPERATION_COMMITMENT, OPERATION_LEAD_MS, type RoomLook, type RoomOperation } from "./allianceRoom.js";

const NOW = Date.parse("2030-01-01T12:00:00Z");
const target = (id: number, allianceId: number | null): AiTarget => ({ id, networth: 1, land: 1, protectedUntil: 0, gdiMember: false, isEliminated: false, allianceId });

function look(extra: Partial<RoomLook> = {}): RoomLook {
  return {
    countryId: 1,
    allianceId: 5,
    role: "member",
    units: { troops: 8_000, jets: 200, tanks: 300, turrets: 1_000 },
    operations: [],
    targets: [target(2, 5), target(3, null)],
    now: NOW,
    chatContent: "alliance chat lt:run:a1",
    chatAnsweredAt: [],
    clockMs: 50_000,
    ...extra,
  };
}

function operation(extra: Partial<RoomOperation> = {}): RoomOperation {
  return { id: 40, status: "planning", operationType: "coordinated_attack", maxParticipants: 4, participants: [{ countryId: 1, status: "invited" }], ...extra };
}

describe("nextRoomIntent: one alliance-room message", () => {
  it("joins an open operation it is invited to with a share of its spare troops and tanks, no turrets", () => {
    const intent = nextRoomIntent(look({ operations: [operation()] }), Rng.fromSeed(1));
    expect(intent).toEqual({
      kind: "operation_respond",
      message: {
        operationId: 40,
        response: "join",
        contribution: { troops: Math.floor((8_000 - AI_MIN_HOME_TROOPS) * OPERATION_COMMITMENT), jets: 0, tanks: Math.floor(300 * OPERATION_COMMITMENT), turrets: 0 },
      },
    });
  });

  it("declines when it has nothing to spare or the operation is full", () => {
    const poor = nextRoomIntent(look({ units: { troops: AI_MIN_HOME_TROOPS, jets: 0, tanks: 0, turrets: 50 }, operations: [operation()] }), Rng.fromSeed(1));
    expect(poor).toMatchObject({ kind: "operation_respond", message: { operationId: 40, response: "decline" } });
    const others = [2, 3].map((countryId) => ({ countryId, status: "confirmed" as const }));
    const full = nextRoomIntent(look({ operations: [operation({ maxParticipants: 2, participants: [{ countryId: 1, status: "invited" }, ...others] })] }), Rng.fromSeed(1));
    expect(full).toMatchObject({ kind: "operation_respond", message: { response: "decline" } });
  });

  it("a leader of an alliance with no open operation plans a coordinated attack on its first target outside the alliance", () => {
    const intent = nextRoomIntent(look({ role: "owner" }), Rng.fromSeed(1));
    expect(intent).toMatchObject({ kind: "operation_plan", message: { operationType: "coordinated_attack", targetCountryId: 3, scheduledFor: NOW + OPERATION_LEAD_MS, invitedCountryIds: [] } });
  });

  it("otherwise chats in the general channel: a plain member, a leader with an operation open, an answered invitation", () => {
    const chat = { kind: "alliance_chat", message: { channel: "general", content: "alliance chat lt:run:a1", announcement: false } };
    expect(nextRoomIntent(look(), Rng.fromSeed(1))).toEqual(chat);
    expect(nextRoomIntent(look({ role: "owner", operations: [operation({ participants: [{ countryId: 1, status: "confirmed" }] })] }), Rng.fromSeed(1))).toEqual(chat);
    expect(nextRoomIntent(look({ operations: [operation({ status: "completed" })] }), Rng.fromSeed(1))).toEqual(chat);
    expect(nextRoomIntent(look({ role: "owner", targets: [target(2, 5)] }), Rng.fromSeed(1))).toEqual(chat);
  });

  it("sends no chat line while five answers arrived in the last 10 s (the server's chat budget), but still answers an invitation", () => {
    const fiveAnswers = [40_001, 42_000, 44_000, 46_000, 48_000];
    expect(nextRoomIntent(look({ chatAnsweredAt: fiveAnswers }), Rng.fromSeed(1))).toBeNull();
    expect(nextRoomIntent(look({ chatAnsweredAt: fiveAnswers, operations: [operation()] }), Rng.fromSeed(1))).toMatchObject({ kind: "operation_respond" });
    // the oldest answer is 10 s old: one line may go
    expect(nextRoomIntent(look({ chatAnsweredAt: fiveAnswers, clockMs: 50_001 }), Rng.fromSeed(1))).toMatchObject({ kind: "alliance_chat" });
    expect(nextRoomIntent(look({ chatAnsweredAt: fiveAnswers.slice(1) }), Rng.fromSeed(1))).toMatchObject({ kind: "alliance_chat" });
  });
});
