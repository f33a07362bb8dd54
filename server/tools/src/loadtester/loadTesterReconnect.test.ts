/**
 * The load tester's bots come back after their room's socket closes (issue 28: in the soak one
 * socket of 500 dropped, its bot stayed out, and the report could not say why). A real server;
 * mid-run every world room is closed as a process shutting down closes them (4001).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { runLoadTest, type LoadTestResult } from "@game/loadtest/runner";
import { startTestServer, type TestServer } from "@game/server/test/harness";

const COUNTRIES = 6;
const SERVER_SHUTDOWN = 4001;

describe("load tester: bots re-join after a drop", () => {
  let server: TestServer;
  let result: LoadTestResult;
  let closedRooms = 0;

  beforeAll(async () => {
    server = await startTestServer({ metricsPublic: true });
    let closing: Promise<void> | undefined;
    result = await runLoadTest({
      url: server.baseUrl,
      countries: COUNTRIES,
      durationSec: 6,
      rate: 6,
      mix: { explore: 1, country: 1 },
      seed: 28,
      setupConcurrency: 3,
      onProgress: (progress) => {
        if (progress.phase !== "actions" || closing) return;
        closing = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          for (const listing of await matchMaker.query({ name: "world" })) {
            const room = matchMaker.getLocalRoomById(listing.roomId);
            if (!room) continue;
            closedRooms += 1;
            await room.disconnect(SERVER_SHUTDOWN);
          }
        })();
      },
    });
    await closing;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("every bot whose socket closed is back in a world room, and the report names the cause and the time away", () => {
    expect(closedRooms).toBeGreaterThan(0);
    const { websocket } = result.report;
    expect(websocket.joined).toBe(COUNTRIES);
    expect(websocket.connectedAtEnd).toBe(COUNTRIES);
    expect(websocket.drops.total).toBe(COUNTRIES);
    expect(websocket.drops.byCause).toEqual({ "4001 server shutting down": COUNTRIES });
    expect(websocket.drops.back).toBe(COUNTRIES);
    expect(websocket.drops.notBack).toBe(0);
    expect(websocket.drops.backWithinMs.max).toBeLessThan(5_000);
    expect(result.report.totals.serverErrors5xx).toBe(0);
  });
});
