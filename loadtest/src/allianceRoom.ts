import {
  ALLIANCE_ROOM,
  AllianceMessage,
  allianceSendChatSchema,
  planOperationSchema,
  respondOperationSchema,
  type ActionDoneMessage,
  type AllianceSendChatMessage,
  type PlanOperationMessage,
  type RespondOperationMessage,
  type RoomErrorPayload,
} from "@game/schema/messages";
import {
  AI_MIN_HOME_TROOPS,
  checkPlanOperation,
  checkRespondOperation,
  chatSendsLeft,
  isOperationOpen,
  type AiTarget,
  type AllianceRole,
  type OperationContribution,
  type OperationStatus,
  type OperationType,
  type ParticipantStatus,
  type Rng,
} from "@game/schema/rules";
import { AllianceState } from "@game/schema/state";
import { ClientTraffic, joinRoom, type MeteredRoom } from "./realtime.js";

/**
 * A bot in an alliance also uses its alliance room, as a member with the Alliance screen open
 * does: it joins `alliance` with `{ allianceId }` (members only, checked by the server) and, on
 * a share of its plays (ALLIANCE_ROOM_APPETITE), sends one room message with a service behind
 * it: a leader plans an operation when the alliance has none open, a member invited to an open
 * operation joins it with some of its units (or declines when it has none to spare), and
 * otherwise it posts a line to the alliance's general channel. The AI strategy
 * (schema/src/rules/ai.ts) has no room messages; this is the driver's, decided from the room's
 * state like the browser's warfare and chat panels (client/src/screens/alliances/).
 *
 * Launching is left out on purpose: a launched coordinated attack runs each participant's
 * strike through the combat service, which the server counts as `attack` actions no bot sent,
 * and the load test checks the bots' attacks against that counter.
 */

/** Chance, per play of a bot in an alliance with its room open, of a room message instead of a strategy step. */
export const ALLIANCE_ROOM_APPETITE = 0.2;
/** Share of its troops and tanks beyond AI_MIN_HOME_TROOPS a member commits to an operation. */
export const OPERATION_COMMITMENT = 0.2;
/** How far ahead a bot schedules an operation (a person plans for later in the day), ms. */
export const OPERATION_LEAD_MS = 3_600_000;
/** Requirements of a bot's operation: a small strike group. */
export const OPERATION_REQUIREMENTS = { minParticipants: 2, maxParticipants: 4, minTotalForce: 1_000 } as const;
/** Wait for the room's answer (done, error, or the line in the channel) before calling it an error, ms. */
export const ROOM_ANSWER_TIMEOUT_MS = 10_000;

/** Room messages a bot sends, each with the server counter its success increments. */
export const ROOM_INTENTS = {
  alliance_chat: { type: AllianceMessage.sendChat, metric: "chat_messages_total", labels: { channel: "alliance" } },
  operation_plan: { type: AllianceMessage.planOperation, metric: "game_actions_total", labels: { action: "alliance.operation.plan" } },
  operation_respond: { type: AllianceMessage.respondOperation, metric: "game_actions_total", labels: { action: "alliance.operation.respond" } },
} as const satisfies Record<string, { type: string; metric: string; labels: Record<string, string> }>;
export type RoomIntentKind = keyof typeof ROOM_INTENTS;

export type RoomIntent = { kind: "alliance_chat"; message: AllianceSendChatMessage } | { kind: "operation_plan"; message: PlanOperationMessage } | { kind: "operation_respond"; message: RespondOperationMessage };

/** An operation as the bot reads it from the room's state. */
export interface RoomOperation {
  id: number;
  status: OperationStatus;
  operationType: OperationType;
  maxParticipants: number;
  participants: ReadonlyArray<{ countryId: number; status: ParticipantStatus }>;
}

/** What a room decision looks at. */
export interface RoomLook {
  countryId: number;
  allianceId: number;
  /** its role now, from the room's members */
  role: AllianceRole;
  units: OperationContribution;
  operations: readonly RoomOperation[];
  /** the strategy's target list (public facts) */
  targets: readonly AiTarget[];
  now: number;
  /** the chat line's text (carries the marker the sender waits for) */
  chatContent: string;
  /** when the answers to its recent chat lines arrived (performance.now() ms), for chatSendsLeft */
  chatAnsweredAt: readonly number[];
  /** performance.now() ms, the clock of chatAnsweredAt */
  clockMs: number;
}

/**
 * The room message for `look`: answer an open operation it is invited to (join with
 * OPERATION_COMMITMENT of its spare troops and tanks, or decline when that is nothing or the
 * rules refuse it), else, as a leader of an alliance with no open operation, plan a coordinated
 * attack on the first target of its list outside the alliance, else a chat line while its chat
 * budget (shared with every chat path, chatSendsLeft) has one left, else nothing: a person
 * who saw "sending too fast" waits. Every message has passed the rule the service checks, and
 * the shared validator.
 */
export function nextRoomIntent(look: RoomLook, rng: Rng): RoomIntent | null {
  for (const op of look.operations) {
    if (!isOperationOpen(op.status)) continue;
    const mine = op.participants.find((p) => p.countryId === look.countryId);
    if (mine?.status !== "invited") continue;
    const spare = Math.max(0, look.units.troops - AI_MIN_HOME_TROOPS);
    const contribution = { troops: Math.floor(spare * OPERATION_COMMITMENT), jets: 0, tanks: Math.floor(look.units.tanks * OPERATION_COMMITMENT), turrets: 0 };
    const confirmedOthers = op.participants.filter((p) => p.status === "confirmed" && p.countryId !== look.countryId).length;
    const refusal = checkRespondOperation({ status: op.status, operationType: op.operationType, participantStatus: mine.status, response: "join", confirmedOthers, maxParticipants: op.maxParticipants, contribution, available: look.units });
    const message = refusal ? { operationId: op.id, response: "decline" as const } : { operationId: op.id, response: "join" as const, contribution };
    return { kind: "operation_respond", message: respondOperationSchema.parse(message) };
  }
  const open = look.operations.filter((o) => isOperationOpen(o.status)).length;
  const target = look.targets.find((t) => !t.isEliminated && t.id !== look.countryId && t.allianceId !== look.allianceId);
  if (open === 0 && target) {
    const scheduledFor = look.now + OPERATION_LEAD_MS;
    const plan = { role: look.role, operationType: "coordinated_attack" as const, requirements: { ...OPERATION_REQUIREMENTS }, scheduledFor, now: look.now, targetIsMember: false, openOperations: open };
    if (!checkPlanOperation(plan)) {
      const message: PlanOperationMessage = {
        name: `Strike ${rng.int(100, 999)}`,
        description: "",
        operationType: plan.operationType,
        targetCountryId: target.id,
        scheduledFor,
        requirements: plan.requirements,
        invitedCountryIds: [],
      };
      return { kind: "operation_plan", message: planOperationSchema.parse(message) };
    }
  }
  if (chatSendsLeft(look.chatAnsweredAt, look.clockMs) === 0) return null;
  return { kind: "alliance_chat", message: allianceSendChatSchema.parse({ channel: "general", content: look.chatContent }) };
}

/** How a room message ended: ok, refused by a rule (the room's "error" with a rule's code), or an error. */
export interface RoomOutcome {
  verdict: "ok" | "refused" | "error";
  /** the error's code, or "timeout" */
  code?: string;
  message?: string;
}

/** Codes of the room's "error" that are no game rule's: malformed, unknown, server faults, rate limits. */
function isRuleCode(code: string): boolean {
  const namespace = code.split("/")[0]!;
  return code.includes("/") && !["message", "server", "request", "auth"].includes(namespace) && code !== "chat/rate_limited";
}

/** The state fields a bot reads (decoded by the SDK from AllianceState). */
interface DecodedState {
  members?: { get(key: string): { role?: string } | undefined };
  operations?: { forEach(cb: (op: DecodedOperation) => void): void };
  channels?: { get(key: string): { messages?: ArrayLike<{ content?: unknown }> } | undefined };
}
interface DecodedOperation {
  id: number;
  status: string;
  operationType: string;
  maxParticipants: number;
  participants: ArrayLike<{ countryId: number; status: string }>;
}

/**
 * One bot's connection to its alliance's room. Its requests are answered in the order sent
 * (the room queues a client's messages), and a bot sends one at a time, so the next "done" or
 * "error" is the answer to the request in flight; a chat line is answered by the line showing
 * up in the channel (the room sends no "done" for chat).
 */
export class AllianceRoomLink {
  private pending: { kind: RoomIntentKind; chatContent?: string; settle(outcome: RoomOutcome): void; timer: NodeJS.Timeout } | undefined;
  /** false once the server closed it (left the alliance, disbanded) or the socket dropped */
  open = true;

  private constructor(
    readonly allianceId: number,
    readonly room: MeteredRoom,
  ) {
    room.onMessage(AllianceMessage.done, (done: ActionDoneMessage) => {
      if (this.pending && this.pending.kind !== "alliance_chat") this.settle({ verdict: "ok", message: done.message });
    });
    room.onMessage(AllianceMessage.error, (e: RoomErrorPayload) => {
      const code = String(e?.code ?? "error");
      this.settle({ verdict: isRuleCode(code) ? "refused" : "error", code, message: String(e?.message ?? "room error") });
    });
    // messages the bot does not wait for (typing, ally attacked alerts)
    room.onMessage("*", () => undefined);
    room.onStateChange((state: DecodedState) => {
      const content = this.pending?.chatContent;
      if (!content) return;
      const lines = state.channels?.get("general")?.messages;
      for (let i = (lines?.length ?? 0) - 1; i >= 0; i--) {
        if (lines![i]?.content === content) return this.settle({ verdict: "ok" });
      }
    });
    room.onLeave(() => {
      this.open = false;
      this.settle({ verdict: "error", code: "left", message: "the alliance room closed" });
    });
  }

  /** Joins the room of `allianceId` with the bot's REST token, decoding its state (operations and chat are read from it). */
  static async join(origin: string, token: string, allianceId: number): Promise<AllianceRoomLink> {
    const room = await joinRoom(origin, token, new ClientTraffic(true), ALLIANCE_ROOM, AllianceState, { allianceId });
    return new AllianceRoomLink(allianceId, room);
  }

  /** Its role and the alliance's operations, as the room's state shows them now. */
  look(countryId: number): { role: AllianceRole | null; operations: RoomOperation[] } {
    const state = this.room.state as DecodedState | undefined;
    const role = (state?.members?.get(String(countryId))?.role ?? null) as AllianceRole | null;
    const operations: RoomOperation[] = [];
    state?.operations?.forEach((op) => {
      operations.push({
        id: op.id,
        status: op.status as OperationStatus,
        operationType: op.operationType as OperationType,
        maxParticipants: op.maxParticipants,
        participants: Array.from(op.participants ?? [], (p) => ({ countryId: p.countryId, status: p.status as ParticipantStatus })),
      });
    });
    return { role, operations: operations.sort((a, b) => a.id - b.id) };
  }

  /** Sends `intent` and waits for the room's answer (at most ROOM_ANSWER_TIMEOUT_MS). */
  send(intent: RoomIntent): Promise<RoomOutcome> {
    if (!this.open || !this.room.connection?.isOpen) return Promise.resolve({ verdict: "error", code: "closed", message: "the alliance room is not open" });
    this.settle({ verdict: "error", code: "superseded", message: "another request was sent" });
    return new Promise<RoomOutcome>((resolve) => {
      const timer = setTimeout(() => this.settle({ verdict: "error", code: "timeout", message: `no answer within ${ROOM_ANSWER_TIMEOUT_MS} ms` }), ROOM_ANSWER_TIMEOUT_MS);
      this.pending = { kind: intent.kind, settle: resolve, timer, ...(intent.kind === "alliance_chat" ? { chatContent: intent.message.content } : {}) };
      try {
        this.room.send(ROOM_INTENTS[intent.kind].type, intent.message);
      } catch (err) {
        this.settle({ verdict: "error", code: "ws", message: (err as Error).message });
      }
    });
  }

  async leave(): Promise<void> {
    this.open = false;
    this.settle({ verdict: "error", code: "left", message: "the run ended" });
    await Promise.race([this.room.leave(true).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 3000))]);
  }

  private settle(outcome: RoomOutcome): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.settle(outcome);
  }
}
