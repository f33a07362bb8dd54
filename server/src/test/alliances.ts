import type { TestServer } from "./harness.js";

/** A registered player as the tests hold it. */
export interface TestPlayer {
  token: string;
  countryId: number;
  user: { id: number; username: string };
  body: { countryName: string };
}

let tags = 0;

/** A unique alliance tag for a test (2-5 capital letters or digits). */
export function uniqueTag(): string {
  tags += 1;
  return `T${(process.pid % 100).toString(36).toUpperCase()}${tags.toString(36).toUpperCase()}`.slice(0, 5);
}

/** Founds an alliance over REST; the player becomes its owner. */
export async function foundAlliance(t: TestServer, owner: TestPlayer, options: { name?: string; tag?: string } = {}): Promise<{ id: number; tag: string; name: string }> {
  const tag = options.tag ?? uniqueTag();
  const name = options.name ?? `Alliance ${tag} ${owner.countryId}`;
  const res = await t.api("POST", "/alliance/create", { name, tag, description: "", flag: { backgroundColor: "#1e3a8a", symbol: "⚔", symbolColor: "#facc15" } }, owner.token);
  if (res.status !== 201) throw new Error(`alliance creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.allianceId, tag, name };
}

/** Invites `player` (by the inviter, a leader) and has them accept. */
export async function addMember(t: TestServer, inviter: TestPlayer, player: TestPlayer): Promise<void> {
  const invite = await t.api("POST", "/alliance/invitations", { targetCountryName: player.body.countryName, message: "" }, inviter.token);
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`);
  const accept = await t.api("POST", `/alliance/invitations/${invite.body.invitationId}/accept`, {}, player.token);
  if (accept.status !== 200) throw new Error(`accept failed: ${accept.status} ${JSON.stringify(accept.body)}`);
}

/** Owner promotes a member to manager. */
export async function promote(t: TestServer, owner: TestPlayer, player: TestPlayer): Promise<void> {
  const res = await t.api("POST", "/alliance/promote", { countryId: player.countryId }, owner.token);
  if (res.status !== 200) throw new Error(`promote failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** An alliance with an owner, `managers` managers and the rest members. */
export async function buildAlliance(t: TestServer, owner: TestPlayer, managers: TestPlayer[], members: TestPlayer[]): Promise<{ id: number; tag: string; name: string }> {
  const alliance = await foundAlliance(t, owner);
  for (const p of [...managers, ...members]) await addMember(t, owner, p);
  for (const p of managers) await promote(t, owner, p);
  return alliance;
}
