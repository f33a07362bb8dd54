import { DEFENSE_REQUEST_LIFETIME_MS, computeDefenseUrgency } from "@game/schema/rules";
import type { ActionTransaction } from "./actions.js";
import { allianceTopic } from "../events.js";
import type { CountryRow } from "../db/countries.js";
import { allianceLabels, allianceMemberIds } from "../db/alliances.js";
import { insertDefenseRequest, loadDefenseRequests } from "../db/allianceWarfare.js";
import { notice, noticeTo } from "./alliances.js";
import { postAllianceSystemMessage } from "./allianceChat.js";

/**
 * Defense requests as the battle raises them and as every change shows them to the alliance.
 * Apart from allianceWarfare.ts (the members' actions, which launch attacks through combat.ts),
 * so that combat.ts can raise a request after a battle without importing the warfare actions
 * back.
 */

/** Sends the alliance room the request as it is now (after any change to it or its responses). */
export async function emitDefenseRequest(tx: Pick<ActionTransaction, "client" | "emit">, allianceId: number, requestId: number): Promise<void> {
  const [request] = await loadDefenseRequests(tx.client, { ids: [requestId] });
  if (request) tx.emit(allianceTopic(allianceId), { type: "defenseRequestChanged", allianceId, request });
}

/**
 * Raises a defense request for a member who was just attacked, inside the attack's own
 * transaction (military calls this with its transaction and the defender's locked row):
 * every online member is alerted at once, and the request asks for military support.
 * A battle raises at most one request (battleRef), so a retried attack adds none.
 * @returns the request id, or null when the defender is in no alliance or it exists already
 */
export async function raiseDefenseRequestForAttack(
  tx: Pick<ActionTransaction, "client" | "emit" | "now">,
  attack: {
    defender: Pick<CountryRow, "id" | "name" | "alliance_id">;
    attacker: Pick<CountryRow, "id" | "name">;
    attackType: string;
    battleId: number;
    attackerWon: boolean;
    /** land the defender lost, percent of what it had */
    landLostPct: number;
    /** attack power over defence power, percent */
    powerRatioPct: number;
  },
): Promise<number | null> {
  const allianceId = attack.defender.alliance_id;
  if (allianceId === null) return null;
  const urgency = computeDefenseUrgency({ attackerWon: attack.attackerWon, landLostPct: attack.landLostPct, powerRatioPct: attack.powerRatioPct });
  const requestId = await insertDefenseRequest(tx.client, {
    allianceId,
    requesterId: attack.defender.id,
    requesterName: attack.defender.name,
    attackerId: attack.attacker.id,
    attackerName: attack.attacker.name,
    attackType: attack.attackType,
    urgency,
    need: { military: true, intelligence: true, resources: false },
    message: attack.attackerWon ? `${attack.attacker.name} broke through` : `${attack.attacker.name} was repelled`,
    requestedAt: tx.now,
    expiresAt: new Date(tx.now.getTime() + DEFENSE_REQUEST_LIFETIME_MS),
    battleRef: `battle-${attack.battleId}`,
  });
  if (requestId === null) return null;
  await emitDefenseRequest(tx, allianceId, requestId);
  const labels = await allianceLabels(tx.client, [allianceId]);
  await postAllianceSystemMessage(tx, {
    allianceId,
    channel: "military",
    type: "war_alert",
    content: `${attack.defender.name} was attacked by ${attack.attacker.name} (${attack.attackType}, ${urgency})`,
    allianceTag: labels.get(allianceId)?.tag ?? "",
  });
  const alert = {
    requestId,
    countryId: attack.defender.id,
    countryName: attack.defender.name,
    attackerName: attack.attacker.name,
    attackType: attack.attackType,
    urgency,
    at: tx.now.getTime(),
  };
  tx.emit(allianceTopic(allianceId), { type: "allyAttacked", allianceId, alert });
  for (const memberId of await allianceMemberIds(tx.client, allianceId)) {
    if (memberId === attack.defender.id) continue;
    noticeTo(
      tx,
      memberId,
      notice(`ally-attacked-${requestId}`, "ally_attacked", urgency === "critical" || urgency === "high" ? "danger" : "warning", "Ally under attack", `${attack.defender.name} was attacked by ${attack.attacker.name}`, tx.now, requestId),
    );
  }
  return requestId;
}
