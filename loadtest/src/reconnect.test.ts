import { describe, expect, it } from "vitest";
import { closeCause, DropLog, rejoinDelay, REJOIN_MAX_MS, REJOIN_MIN_MS } from "./reconnect.js";

describe("bots' room re-join (issue 28)", () => {
  it("waits 50-100% of a doubling delay, capped", () => {
    expect(rejoinDelay(0, () => 0)).toBe(REJOIN_MIN_MS / 2);
    expect(rejoinDelay(0, () => 1)).toBe(REJOIN_MIN_MS);
    expect(rejoinDelay(2, () => 1)).toBe(REJOIN_MIN_MS * 4);
    expect(rejoinDelay(30, () => 1)).toBe(REJOIN_MAX_MS);
  });

  it("names the causes of a drop and reports how long each bot was away", () => {
    let now = 0;
    const log = new DropLog(() => now);
    const shutdown = log.drop(4001);
    const broken = log.drop(1006);
    log.drop(4003);
    now = 800;
    log.back(shutdown);
    now = 2_000;
    log.back(broken);
    log.back(broken); // a second "back" keeps the first time
    expect(log.summary()).toEqual({
      total: 3,
      byCause: { "4001 server shutting down": 1, "1006 socket broke": 1, "4003 resuming the session failed": 1 },
      back: 2,
      notBack: 1,
      rejoinFailures: {},
      backWithinMs: { p50: 800, p99: 2_000, max: 2_000 },
    });
    expect(closeCause(4999)).toBe("4999 other");
  });
});
