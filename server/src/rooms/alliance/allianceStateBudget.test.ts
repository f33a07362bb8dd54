import { describe, expect, it } from "vitest";
import { Encoder, StateView } from "@colyseus/schema";
import {
  ALLIANCE_CHAT_CHANNELS,
  ALLIANCE_CHAT_RECENT_MESSAGES,
  ALLIANCE_DESCRIPTION_MAX_LENGTH,
  ALLIANCE_MAX_MEMBERS,
  ALLIANCE_NAME_MAX_LENGTH,
  ALLIANCE_ROOM_CLOSED_OPERATIONS,
  ALLIANCE_ROOM_DEFENSE_REQUESTS,
  ALLIANCE_BONUSES,
  CHAT_MAX_LENGTH,
  OPERATION_LIMITS,
} from "@game/schema/rules";
import { COUNTRY_NAME_MAX, USERNAME_MAX } from "@game/schema/api";
import { AllianceBonusState, AllianceChannelState, AllianceMemberState, AllianceState, ChatMessageState, DefenseRequestState, DefenseResponseState, LEADERSHIP_VIEW_TAG, OperationParticipantState, OperationState } from "@game/schema/state";
import { ALLIANCE_ENCODER_BUFFER_BYTES } from "../AllianceRoom.js";

/**
 * The alliance state has caps (200 members, 10 open and 5 closed operations, 20 defense
 * requests, 30 messages per channel), so a leader cannot grow it without bound, and a joining
 * client's full state must stay under the encoder buffer (see WorldRoom.ts: a larger state is
 * corrupted by @colyseus/core 0.18.17). Every string here is at its longest in four-byte
 * characters: the worst case.
 */
const ALLIANCE_STATE_BYTE_BUDGET = 768 * 1024;

const wide = (length: number) => "\u{1F600}".repeat(length);
const BIG = 2 ** 52;

function allianceStateAtCaps(): AllianceState {
  const state = new AllianceState();
  state.header.assign({
    id: BIG,
    name: wide(ALLIANCE_NAME_MAX_LENGTH),
    tag: wide(5),
    description: wide(ALLIANCE_DESCRIPTION_MAX_LENGTH),
    flagBackground: "#000000",
    flagSymbol: "🛡",
    flagSymbolColor: "#ffffff",
    rank: BIG,
    memberCount: BIG,
    totalNetworth: BIG,
  });
  for (let i = 0; i < ALLIANCE_MAX_MEMBERS; i++) {
    state.members.set(
      String(BIG - i),
      new AllianceMemberState({
        countryId: BIG - i,
        countryName: wide(COUNTRY_NAME_MAX),
        playerName: wide(USERNAME_MAX),
        governmentType: "dictatorship",
        role: "manager",
        networth: BIG,
        landAcres: BIG,
        joinedAt: BIG,
        lastActive: BIG,
        isOnline: true,
        contributionPoints: BIG,
        militarySupport: BIG,
        resourcesShared: BIG,
      }),
    );
  }
  const operations = OPERATION_LIMITS.maxOpen + ALLIANCE_ROOM_CLOSED_OPERATIONS;
  for (let o = 0; o < operations; o++) {
    const op = new OperationState({
      id: BIG - o,
      name: wide(OPERATION_LIMITS.nameMaxLength),
      description: wide(OPERATION_LIMITS.descriptionMaxLength),
      operationType: "coordinated_attack",
      targetId: BIG,
      targetName: wide(COUNTRY_NAME_MAX),
      targetAlliance: wide(ALLIANCE_NAME_MAX_LENGTH),
      initiatorId: BIG,
      initiatorName: wide(COUNTRY_NAME_MAX),
      status: "completed",
      scheduledFor: BIG,
      createdAt: BIG,
      minParticipants: 20,
      maxParticipants: 20,
      minTotalForce: BIG,
      rewardBonusPoints: 200,
      rewardMilitarySupport: BIG,
      rewardExperience: BIG,
      readiness: "Awaiting Requirements",
      confirmedCount: 20,
      totalForce: BIG,
      outcomeSummary: wide(100),
    });
    // A launched (closed) operation's outcome: a line per participant; open ones have none.
    if (o >= OPERATION_LIMITS.maxOpen) op.outcomeLines.push(...Array.from({ length: OPERATION_LIMITS.maxParticipants }, () => wide(160)));
    // Open operations list every invited member; closed ones keep only counts and outcome.
    if (o < OPERATION_LIMITS.maxOpen) {
      for (let i = 0; i < ALLIANCE_MAX_MEMBERS; i++) {
        op.participants.push(new OperationParticipantState({ countryId: BIG - i, status: "confirmed", joinedAt: BIG, troops: BIG, jets: BIG, tanks: BIG, turrets: BIG, totalForce: BIG, isCommander: i === 0 }));
      }
    }
    state.operations.set(String(BIG - o), op);
  }
  for (let r = 0; r < ALLIANCE_ROOM_DEFENSE_REQUESTS; r++) {
    const request = new DefenseRequestState({
      id: BIG - r,
      requesterId: BIG,
      requesterName: wide(COUNTRY_NAME_MAX),
      attackerId: BIG,
      attackerName: wide(COUNTRY_NAME_MAX),
      attackType: "chemical_warfare",
      requestedAt: BIG,
      expiresAt: BIG,
      urgency: "critical",
      needMilitary: true,
      needIntelligence: true,
      needResources: true,
      message: wide(200),
    });
    for (let i = 1; i < ALLIANCE_MAX_MEMBERS; i++) {
      request.responses.push(new DefenseResponseState({ responderId: BIG - i, responseType: "military_support", responseAt: BIG, troops: BIG, jets: BIG, tanks: BIG, commitmentExpiresAt: BIG }));
    }
    state.defenseRequests.set(String(BIG - r), request);
  }
  for (const b of ALLIANCE_BONUSES) state.bonuses.set(b.id, new AllianceBonusState({ bonusId: b.id, level: b.maxLevel, expiresAt: BIG, cooldownUntil: BIG }));
  for (const def of ALLIANCE_CHAT_CHANNELS) {
    const channel = new AllianceChannelState({ id: def.id, name: def.name, description: def.description, accessLevel: def.accessLevel, isPrivate: def.isPrivate });
    for (let i = 0; i < ALLIANCE_CHAT_RECENT_MESSAGES; i++) {
      const m = new ChatMessageState({
        id: String(BIG - i),
        channel: def.id,
        type: "announcement",
        senderId: BIG,
        senderName: wide(USERNAME_MAX),
        senderRole: "manager",
        allianceTag: wide(5),
        timestamp: BIG,
        content: wide(CHAT_MAX_LENGTH),
        isEdited: true,
      });
      m.mentions.push(...Array.from({ length: 5 }, () => wide(USERNAME_MAX)));
      channel.messages.push(m);
    }
    (def.accessLevel === "all" ? state.channels : state.leadership.channels).set(def.id, channel);
  }
  state.leadership.pendingApplications = BIG;
  return state;
}

describe("alliance state size", () => {
  it(`the full state a leader receives at its caps stays under ${ALLIANCE_STATE_BYTE_BUDGET} bytes, below the encoder buffer`, () => {
    expect(ALLIANCE_STATE_BYTE_BUDGET).toBeLessThan(ALLIANCE_ENCODER_BUFFER_BYTES);
    const previous = Encoder.BUFFER_SIZE;
    Encoder.BUFFER_SIZE = 8 * ALLIANCE_ENCODER_BUFFER_BYTES;
    try {
      const state = allianceStateAtCaps();
      const encoder = new Encoder(state);
      const view = new StateView();
      view.add(state, LEADERSHIP_VIEW_TAG);
      const it = { offset: 0 };
      encoder.encodeAll(it);
      const shared = it.offset;
      const bytes = encoder.encodeAllView(view, shared, it).length;
      console.info(`alliance state at caps: ${bytes} bytes (shared ${shared}), budget ${ALLIANCE_STATE_BYTE_BUDGET}`);
      expect(bytes).toBeGreaterThan(300 * 1024);
      expect(bytes).toBeLessThan(ALLIANCE_STATE_BYTE_BUDGET);
    } finally {
      Encoder.BUFFER_SIZE = previous;
    }
  });
});
