import { ALLIANCE_ROOM_DEFENSE_REQUESTS, computeTotalForce, isOperationOpen } from "@game/schema/rules";
import type { DefenseRequestJson, OperationJson } from "@game/schema/api";
import { DefenseRequestState, DefenseResponseState, OperationParticipantState, OperationState } from "@game/schema/state";
import type { AllianceEvent } from "../../events.js";
import { EXPIRED_REQUESTS_SHOWN_MS, RECENT_CLOSED_OPERATIONS, loadDefenseRequests, loadOperations } from "../../db/allianceWarfare.js";
import { assignChanged } from "../world/types.js";
import type { AllianceHost, AllianceProjection } from "./types.js";

const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);

/**
 * state.operations (open ones and the latest closed) and state.defenseRequests (open ones and
 * those expired within a day). Every change arrives whole on the alliance's topic
 * (operationChanged, defenseRequestChanged), so applying it needs no query.
 */
export class WarfareProjection implements AllianceProjection {
  constructor(private readonly host: AllianceHost) {}

  async load(): Promise<void> {
    const { ctx, allianceId } = this.host;
    const [operations, requests] = await Promise.all([loadOperations(ctx.db, { allianceId }), loadDefenseRequests(ctx.db, { allianceId, now: new Date() })]);
    for (const o of operations) this.applyOperation(o);
    for (const r of requests) this.applyRequest(r);
  }

  onEvent(event: AllianceEvent): void {
    if (event.type === "operationChanged") this.applyOperation(event.operation);
    if (event.type === "defenseRequestChanged") this.applyRequest(event.request);
  }

  private applyOperation(o: OperationJson): void {
    const key = String(o.id);
    let entry = this.host.state.operations.get(key);
    if (!entry) this.host.state.operations.set(key, (entry = new OperationState()));
    const confirmed = o.participants.filter((p) => p.status === "confirmed");
    assignChanged(entry, {
      id: o.id,
      name: o.name,
      description: o.description,
      operationType: o.operationType,
      targetId: o.targetId ?? 0,
      targetName: o.targetName,
      targetAlliance: o.targetAlliance,
      initiatorId: o.initiatorId ?? 0,
      initiatorName: o.initiatorName,
      status: o.status,
      scheduledFor: time(o.scheduledFor),
      createdAt: time(o.createdAt),
      minParticipants: o.requirements.minParticipants,
      maxParticipants: o.requirements.maxParticipants,
      minTotalForce: o.requirements.minTotalForce,
      rewardBonusPoints: o.rewards.bonusPoints,
      rewardMilitarySupport: o.rewards.militarySupport,
      rewardExperience: o.rewards.experienceGain,
      readiness: o.readiness,
      confirmedCount: confirmed.length,
      totalForce: confirmed.reduce((sum, p) => sum + computeTotalForce(p.contribution), 0),
      outcomeSummary: o.outcome?.summary ?? "",
    });
    replaceStrings(entry.outcomeLines, o.outcome?.lines ?? []);
    // Participants keep their place; changed ones are assigned field by field. A closed
    // operation keeps only its counts and outcome (the state stays bounded).
    const parts = isOperationOpen(o.status) ? o.participants : [];
    while (entry.participants.length > parts.length) entry.participants.pop();
    parts.forEach((p, i) => {
      const values = {
        countryId: p.countryId,
        status: p.status,
        joinedAt: time(p.joinedAt),
        troops: p.contribution.troops,
        jets: p.contribution.jets,
        tanks: p.contribution.tanks,
        turrets: p.contribution.turrets,
        totalForce: p.contribution.totalForce,
        isCommander: p.isCommander,
      };
      const existing = entry.participants[i];
      if (existing) assignChanged(existing, values);
      else entry.participants.push(new OperationParticipantState(values));
    });
    this.pruneClosed();
  }

  /** Keeps the latest RECENT_CLOSED_OPERATIONS closed operations. */
  private pruneClosed(): void {
    const closed = [...this.host.state.operations.values()].filter((o) => o.status === "completed" || o.status === "cancelled").sort((a, b) => b.id - a.id);
    for (const old of closed.slice(RECENT_CLOSED_OPERATIONS)) this.host.state.operations.delete(String(old.id));
  }

  private applyRequest(r: DefenseRequestJson): void {
    const key = String(r.id);
    let entry = this.host.state.defenseRequests.get(key);
    if (!entry) this.host.state.defenseRequests.set(key, (entry = new DefenseRequestState()));
    assignChanged(entry, {
      id: r.id,
      requesterId: r.requesterId,
      requesterName: r.requesterName,
      attackerId: r.attackerId ?? 0,
      attackerName: r.attackerName,
      attackType: r.attackType,
      requestedAt: time(r.requestedAt),
      expiresAt: time(r.expiresAt),
      urgency: r.urgency,
      needMilitary: r.supportNeeded.military,
      needIntelligence: r.supportNeeded.intelligence,
      needResources: r.supportNeeded.resources,
      message: r.message,
    });
    // The newest requests only: the state stays bounded.
    const ids = [...this.host.state.defenseRequests.values()].map((x) => x.id).sort((a, b) => b - a);
    for (const old of ids.slice(ALLIANCE_ROOM_DEFENSE_REQUESTS)) this.host.state.defenseRequests.delete(String(old));
    if (!this.host.state.defenseRequests.has(key)) return;
    // Responses are only ever added.
    for (const response of r.responses.slice(entry.responses.length)) {
      entry.responses.push(
        new DefenseResponseState({
          responderId: response.responderId,
          responseType: response.responseType,
          responseAt: time(response.responseAt),
          troops: response.commitment.troops,
          jets: response.commitment.jets,
          tanks: response.commitment.tanks,
          commitmentExpiresAt: time(response.commitmentExpiresAt),
        }),
      );
    }
  }

  /** Requests expired longer than a day ago leave the list. */
  async heartbeat(): Promise<void> {
    const cutoff = Date.now() - EXPIRED_REQUESTS_SHOWN_MS;
    for (const [key, r] of [...this.host.state.defenseRequests.entries()]) if (r.expiresAt < cutoff) this.host.state.defenseRequests.delete(key);
  }
}

function replaceStrings(target: { join(sep?: string): string; clear(): void; push(...items: string[]): number }, values: string[]): void {
  if (target.join("\n") === values.join("\n")) return;
  target.clear();
  target.push(...values);
}
