import { expect } from "vitest";
import { apiRequest, newPlayer } from "./harness.js";
import { eventually, joinWorld } from "./worldClients.js";

/**
 * Plays one request of every kind a player sends (register, sign in, user and country reads,
 * a turn-spending action, a store purchase, an attack, a world room join), calling `between`
 * before each one, and expects each to succeed. Tests of connection loss pass a `between`
 * that lets the pool's connections idle out or terminates them, so every kind of request
 * meets a connection the pool had to open again (issue 25). The attack needs
 * NEW_PLAYER_PROTECTION_HOURS 0 on the server.
 */
export async function playEveryKindOfRequest(baseUrl: string, between: (step: string) => Promise<void>): Promise<void> {
  const call = async (step: string, method: string, apiPath: string, body?: unknown, token?: string) => {
    await between(step);
    const answer = await apiRequest(baseUrl, method, apiPath, body, token);
    expect({ step, status: answer.status, body: answer.body }).toMatchObject({ step, status: method === "POST" && apiPath === "/auth/register" ? 201 : 200, body: { success: true } });
    return answer.body;
  };

  const attackerBody = newPlayer("idleA");
  const defenderBody = newPlayer("idleD");
  const attacker = await call("register", "POST", "/auth/register", attackerBody);
  const defender = await call("register a second player", "POST", "/auth/register", defenderBody);
  const login = await call("sign in", "POST", "/auth/login", { email: attackerBody.email, password: attackerBody.password });
  const token: string = login.token;
  const countryId: number = attacker.user.countryId;
  await call("user read", "GET", "/user/me", undefined, token);
  const country = await call("country read", "GET", `/country/${countryId}`, undefined, token);
  expect(country.country.id).toBe(countryId);
  await call("an action", "POST", "/exploration/explore", { countryId, turnsToSpend: 1 }, token);
  await call("a purchase", "POST", "/market/store/buy", { countryId, itemId: "troops", quantity: 10 }, token);
  const attack = await call(
    "an attack",
    "POST",
    "/attack/launch",
    {
      countryId,
      targetCountryId: defender.user.countryId,
      attackType: "standard_strike",
      units: { troops: 50, tanks: 5 },
    },
    token,
  );
  expect(attack.report.defenderCountryId).toBe(defender.user.countryId);
  await between("a room join");
  const world = await joinWorld(baseUrl, token);
  try {
    await eventually(() => world.own()?.countryId === countryId, "the own country in the world room");
  } finally {
    await world.leave();
  }
}
