import { describe, expect, it } from "vitest";
import { storeDrill, tickDrill } from "./drills.js";
import { backupDrill } from "./backupDrill.js";
import { rollingDrill } from "./rollingDrill.js";

/**
 * The quick versions of the failure drills (issue 15): the same code as `npm run drill`, with
 * short outages and light load. Each store drill runs two server processes with its store
 * behind a TCP proxy it cuts, so the shared Postgres and Redis are never disturbed.
 */
const quiet = () => undefined;

describe("drills (quick)", () => {
  it("drill: Postgres cut under load on two processes: 503s in the envelope, never 500, recovery within 10 s, no action lost or doubled", async () => {
    const summary = await storeDrill("postgres", { outageSeconds: 3, rate: 8, players: 4, log: quiet });
    expect(summary.checks).toEqual({
      "no 5xx other than 503": true,
      "every failure in the envelope": true,
      "both processes recover within 10 s": true,
      "no action lost": true,
      "no action applied twice": true,
    });
    // The outage was felt: some actions were refused with 503 while Postgres was away.
    expect((summary.answers as Record<string, number>)["action 503"]).toBeGreaterThan(0);
  }, 180_000);

  it("drill: Redis cut under load on two processes: never 500, no action lost or doubled", async () => {
    const summary = await storeDrill("redis", { outageSeconds: 3, rate: 8, players: 4, log: quiet });
    expect(summary.passed, JSON.stringify(summary)).toBe(true);
  }, 180_000);

  it("drill: the tick worker killed inside the transaction, after COMMIT and at a random moment: no tick lost or doubled", async () => {
    const summary = await tickDrill({ points: 3, log: quiet });
    expect(summary.problems).toEqual([]);
    expect(summary.passed).toBe(true);
  }, 180_000);

  it("drill: a backup under load restores into a fresh database with the audit totals and every country as at the backup's snapshot", async () => {
    const summary = await backupDrill({ players: 4, rate: 8, log: quiet });
    expect(summary.checks).toEqual({
      "the restored server answers health 200": true,
      "audit totals equal to the moment of the backup": true,
      "every country equal to the moment of the backup": true,
      "the restored server shows each player its country as at the backup": true,
      "the world moved on during and after the backup (the snapshot is a moment, not the end)": true,
    });
  }, 180_000);

  it("drill: rolling restart of two processes under load: every room client back within 5 s, no action lost or doubled, no 5xx but 503 with Retry-After, the alliance room intact", async () => {
    const summary = await rollingDrill({ players: 5, rate: 6, log: quiet });
    expect(summary.checks).toEqual({
      "both processes exit 0 on SIGTERM": true,
      "every room client's socket closed and came back": true,
      "every client back in a room within 5 s of its socket closing": true,
      "no action lost": true,
      "no action applied twice": true,
      "no 5xx other than 503": true,
      "every 503 with Retry-After": true,
      "the alliance room's open operation and chat intact": true,
    });
  }, 240_000);
});
