import { z } from "zod";
import type { ToJSON } from "@colyseus/schema";
import { idSchema } from "../api/common.js";
import { lineText, plainText } from "../api/text.js";
import { CHAT_MAX_LENGTH, CHAT_MESSAGES } from "../rules/chat.js";
import { ALLIANCE_CHANNEL_IDS, DEFENSE_RESPONSE_TYPES, DEFENSE_URGENCIES, OPERATION_LIMITS, OPERATION_TYPES } from "../rules/alliance.js";
import { clientMessage, ROOM_ERROR_MESSAGE, roomErrorSchema, serverMessage, type PayloadsOf } from "./room.js";
import type { ChatMessagePayload } from "./world.js";
import type { AllianceBonusState, AllianceChannelState, AllianceHeaderState, AllianceMemberState, AllianceState, DefenseRequestState, OperationState } from "../state/index.js";

/** Name the alliance room is registered under: `joinOrCreate(ALLIANCE_ROOM, { allianceId })`. */
export const ALLIANCE_ROOM = "alliance";

/** Close code of an alliance room connection whose player is no longer a member (kicked, left, disbanded). */
export const ALLIANCE_ROOM_CLOSE_NOT_MEMBER = 4403;

/** The join options of the alliance room. */
export const allianceJoinOptionsSchema = z.object({
  // A number, not a numeric string: filterBy matches the raw option, so "5" would open a second room.
  allianceId: z.number({ error: "allianceId must be an alliance id" }).int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type AllianceJoinOptions = z.infer<typeof allianceJoinOptionsSchema>;

const unitCount = z.number({ error: "Unit counts must be numbers" }).int("Unit counts must be whole numbers").min(0, "Unit counts cannot be negative").max(1e12);

/** Units committed to an operation. */
export const contributionSchema = z.object({
  troops: unitCount.default(0),
  jets: unitCount.default(0),
  tanks: unitCount.default(0),
  turrets: unitCount.default(0),
});

/** "planOperation": the spec's operation fields a leader chooses. */
export const planOperationSchema = z.object({
  name: lineText(z.string({ error: "Operation name is required" }), "Operation name")
    .trim()
    .min(1, "Operation name is required")
    .max(OPERATION_LIMITS.nameMaxLength, `Operation name must be at most ${OPERATION_LIMITS.nameMaxLength} characters`),
  description: plainText(z.string(), "Description").trim().max(OPERATION_LIMITS.descriptionMaxLength, `Description must be at most ${OPERATION_LIMITS.descriptionMaxLength} characters`).default(""),
  operationType: z.enum(OPERATION_TYPES, { error: "Unknown operation type" }),
  targetCountryId: idSchema,
  /** epoch ms */
  scheduledFor: z.number({ error: "Choose when the operation starts" }).int().positive(),
  requirements: z.object({
    minParticipants: z.number().int().min(1, "At least one participant").max(OPERATION_LIMITS.maxParticipants, `At most ${OPERATION_LIMITS.maxParticipants} participants`),
    maxParticipants: z.number().int().min(1, "At least one participant").max(OPERATION_LIMITS.maxParticipants, `At most ${OPERATION_LIMITS.maxParticipants} participants`),
    minTotalForce: z.number().int().min(0).max(OPERATION_LIMITS.minTotalForceMax),
  }),
  /** members invited; empty or absent: every member */
  invitedCountryIds: z.array(idSchema).max(200).default([]),
});
export type PlanOperationMessage = z.input<typeof planOperationSchema>;
/** PlanOperationMessage as the server receives it, parsed (defaults filled in). */
export type ParsedPlanOperationMessage = z.output<typeof planOperationSchema>;

/** "respondOperation": join with a contribution, or decline. */
export const respondOperationSchema = z.object({
  operationId: idSchema,
  response: z.enum(["join", "decline"], { error: "Respond with join or decline" }),
  contribution: contributionSchema.default({ troops: 0, jets: 0, tanks: 0, turrets: 0 }),
});
export type RespondOperationMessage = z.input<typeof respondOperationSchema>;
/** RespondOperationMessage as the server receives it, parsed (defaults filled in). */
export type ParsedRespondOperationMessage = z.output<typeof respondOperationSchema>;

/** "launchOperation", "cancelOperation" */
export const operationIdSchema = z.object({ operationId: idSchema });
export type OperationIdMessage = z.input<typeof operationIdSchema>;
/** OperationIdMessage as the server receives it, parsed (defaults filled in). */
export type ParsedOperationIdMessage = z.output<typeof operationIdSchema>;

/** "requestDefense": a member asks for help (also raised by the server when a member is attacked). */
export const requestDefenseSchema = z.object({
  urgency: z.enum(DEFENSE_URGENCIES, { error: "Unknown urgency" }).default("medium"),
  supportNeeded: z.object({ military: z.boolean().default(false), intelligence: z.boolean().default(false), resources: z.boolean().default(false) }),
  /** who threatens, when known */
  attackerCountryId: idSchema.optional(),
  message: plainText(z.string(), "Message").trim().max(200, "Message must be at most 200 characters").default(""),
});
export type RequestDefenseMessage = z.input<typeof requestDefenseSchema>;
/** RequestDefenseMessage as the server receives it, parsed (defaults filled in). */
export type ParsedRequestDefenseMessage = z.output<typeof requestDefenseSchema>;

/** "respondDefense": military support with units, intelligence, or cannot assist. */
export const respondDefenseSchema = z.object({
  requestId: idSchema,
  responseType: z.enum(DEFENSE_RESPONSE_TYPES, { error: "Unknown response" }),
  commitment: z.object({ troops: unitCount.default(0), jets: unitCount.default(0), tanks: unitCount.default(0) }).default({ troops: 0, jets: 0, tanks: 0 }),
  /** intelligence: the report shared, when there is one */
  reportId: idSchema.optional(),
});
export type RespondDefenseMessage = z.input<typeof respondDefenseSchema>;
/** RespondDefenseMessage as the server receives it, parsed (defaults filled in). */
export type ParsedRespondDefenseMessage = z.output<typeof respondDefenseSchema>;

/** "sendChat" in the alliance room: an alliance channel and 1-500 characters; leaders may announce. */
export const allianceSendChatSchema = z.object({
  channel: z.string({ error: CHAT_MESSAGES.unknownChannel }).refine((id) => ALLIANCE_CHANNEL_IDS.includes(id), CHAT_MESSAGES.unknownChannel),
  content: plainText(z.string({ error: CHAT_MESSAGES.empty }), "Message")
    .trim()
    .min(1, CHAT_MESSAGES.empty)
    .max(CHAT_MAX_LENGTH, CHAT_MESSAGES.tooLong),
  announcement: z.boolean().default(false),
});
export type AllianceSendChatMessage = z.input<typeof allianceSendChatSchema>;
/** AllianceSendChatMessage as the server receives it, parsed (defaults filled in). */
export type ParsedAllianceSendChatMessage = z.output<typeof allianceSendChatSchema>;

/** "typing" */
export const typingSchema = z.object({ channel: z.string().refine((id) => ALLIANCE_CHANNEL_IDS.includes(id), CHAT_MESSAGES.unknownChannel) });
export type TypingMessage = z.infer<typeof typingSchema>;

/** "typingNotice": who is typing where (shown for ALLIANCE_TYPING_INDICATOR_MS). */
export const typingNoticeSchema = z.object({ channel: z.string(), countryId: z.number(), name: z.string() });
export type TypingNotice = z.infer<typeof typingNoticeSchema>;

/** "allyAttacked": the live alert every online member gets. */
export const allyAttackedSchema = z.object({
  requestId: z.number(),
  countryId: z.number(),
  countryName: z.string(),
  attackerName: z.string(),
  attackType: z.string(),
  urgency: z.string(),
  /** epoch ms */
  at: z.number(),
});
export type AllyAttackedAlert = z.infer<typeof allyAttackedSchema>;

/** "done": the sender's request succeeded (the state shows the change). */
export const actionDoneSchema = z.object({
  action: z.string(),
  /** the record it made or changed (an operation id...) */
  id: z.number().optional(),
  message: z.string(),
});
export type ActionDoneMessage = z.infer<typeof actionDoneSchema>;

/** The alliance room's catalogue: every message both ways, by direction (see WORLD_MESSAGES). */
export const ALLIANCE_MESSAGES = {
  client: {
    /** leaders: plan an operation */
    planOperation: clientMessage("planOperation", planOperationSchema, { fallback: "Failed to plan operation" }),
    /** invited members: join with a contribution, or decline */
    respondOperation: clientMessage("respondOperation", respondOperationSchema, { fallback: "Failed to respond to operation" }),
    /** leaders: launch a ready operation */
    launchOperation: clientMessage("launchOperation", operationIdSchema, { fallback: "Failed to launch operation" }),
    /** leaders: cancel an open operation */
    cancelOperation: clientMessage("cancelOperation", operationIdSchema, { fallback: "Failed to cancel operation" }),
    /** members: ask the alliance for help */
    requestDefense: clientMessage("requestDefense", requestDefenseSchema, { fallback: "Failed to request defense" }),
    /** members: answer a defense request */
    respondDefense: clientMessage("respondDefense", respondDefenseSchema, { fallback: "Failed to respond to defense request" }),
    /** post to an alliance channel */
    sendChat: clientMessage("sendChat", allianceSendChatSchema, { fallback: "Failed to send chat message", invalidCode: "chat/invalid" }),
    /** the player is typing in a channel */
    typing: clientMessage("typing", typingSchema, { fallback: "Failed to send typing" }),
  },
  server: {
    /** clients that may read the channel: someone is typing */
    typingNotice: serverMessage("typingNotice", typingNoticeSchema),
    /** every member online: an ally was attacked */
    allyAttacked: serverMessage("allyAttacked", allyAttackedSchema),
    /** the sender: what its request did */
    done: serverMessage("done", actionDoneSchema),
    /** that client: a refused message */
    error: serverMessage(ROOM_ERROR_MESSAGE, roomErrorSchema),
  },
} as const;

/** Message names of the alliance room, for both sender and receiver (from ALLIANCE_MESSAGES). */
export const AllianceMessage = {
  planOperation: ALLIANCE_MESSAGES.client.planOperation.type,
  respondOperation: ALLIANCE_MESSAGES.client.respondOperation.type,
  launchOperation: ALLIANCE_MESSAGES.client.launchOperation.type,
  cancelOperation: ALLIANCE_MESSAGES.client.cancelOperation.type,
  requestDefense: ALLIANCE_MESSAGES.client.requestDefense.type,
  respondDefense: ALLIANCE_MESSAGES.client.respondDefense.type,
  sendChat: ALLIANCE_MESSAGES.client.sendChat.type,
  typing: ALLIANCE_MESSAGES.client.typing.type,
  typingNotice: ALLIANCE_MESSAGES.server.typingNotice.type,
  allyAttacked: ALLIANCE_MESSAGES.server.allyAttacked.type,
  done: ALLIANCE_MESSAGES.server.done.type,
  error: ALLIANCE_MESSAGES.server.error.type,
} as const;

/** What a client sends to the alliance room, by message name. */
export type AllianceClientMessages = PayloadsOf<typeof ALLIANCE_MESSAGES.client>;
/** What the alliance room sends to one client, by message name. */
export type AllianceServerMessages = PayloadsOf<typeof ALLIANCE_MESSAGES.server>;

/** Alliance chat messages have the world chat's shape. */
export type AllianceChatPayload = ChatMessagePayload;

/* The alliance room's state as plain data (what `room.state.toJSON()` gives a client). */
export type AllianceHeaderSnapshot = ToJSON<AllianceHeaderState>;
export type AllianceMemberSnapshot = ToJSON<AllianceMemberState>;
export type OperationSnapshot = ToJSON<OperationState>;
export type DefenseRequestSnapshot = ToJSON<DefenseRequestState>;
export type AllianceBonusSnapshot = ToJSON<AllianceBonusState>;
export type AllianceChannelSnapshot = ToJSON<AllianceChannelState>;
export type AllianceStateSnapshot = ToJSON<AllianceState>;
