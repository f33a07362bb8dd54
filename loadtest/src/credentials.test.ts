import { describe, expect, it } from "vitest";
import { foldName } from "@game/schema/rules";
import { newCredentials } from "./bots.js";

describe("bot credentials", () => {
  it("10,000 bots of one run have distinct usernames and country names on the server's lookalike fold", () => {
    const runId = "a1b0c9";
    const users = new Set<string>();
    const countries = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const c = newCredentials(runId, i);
      expect(c.username.length).toBeLessThanOrEqual(20);
      users.add(foldName(c.username));
      countries.add(foldName(c.countryName));
    }
    expect(users.size).toBe(10_000);
    expect(countries.size).toBe(10_000);
  });
});
