import "@colyseus/testing";
import { describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { WORLD_ROOM } from "@game/schema/messages";
import net from "node:net";
import { registerPlayer, TEST_REDIS_URL } from "../test/harness.js";
import { joinWorldById } from "../test/worldClients.js";
import { createRoomOnAnotherProcess, useTwoProcesses } from "../test/twoProcesses.js";
import { roomSessionsOf } from "./sessions.js";

/**
 * The per-user room-session cap under concurrency (issue 28, the join path): a seat is counted
 * and taken in one step on Redis, so seats asked for at the same moment, in one process or in
 * two, are granted up to the cap and no further. Before, each reserve wrote its seat, then
 * read the hash: requests arriving together each saw the others' seats and all were refused.
 */
const REDIS_DB = 6;
const JWT_SECRET = "seat-count-secret-seat-count-secret-01234567";
const CAP = 2;

const two = useTwoProcesses({ redisDb: REDIS_DB, jwtSecret: JWT_SECRET, roomSessionsPerUser: CAP });
const { clients } = two;

describe("issue 28: the seat count under concurrency", () => {
  it("taking a seat is one command to Redis (one round trip on the join's path)", async () => {
    const player = await registerPlayer(two.a, "sc0");
    const hash = `room_sessions:${player.user.id}`;
    // MONITOR lists every command Redis runs; those a script runs are marked "lua"
    const monitor = await monitorRedis();
    await roomSessionsOf(two.a.server.ctx)!.reserve(player.user.id);
    await new Promise((r) => setTimeout(r, 200));
    monitor.stop();
    const sent = monitor.lines.filter((line) => line.includes(`"${hash}"`) && !line.includes(" lua]")).map((line) => /\] "([^"]+)"/.exec(line)![1]!.toLowerCase());
    expect(sent).toEqual([expect.stringMatching(/^eval/)]);
  });

  it("six seats asked for at once in one process: exactly the cap (2) granted, the others 429", async () => {
    const player = await registerPlayer(two.a, "sc1");
    const sessions = roomSessionsOf(two.a.server.ctx)!;
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => sessions.reserve(player.user.id)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(CAP);
    for (const refused of outcomes.filter((o) => o.status === "rejected")) expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 429 });
  });

  it("six joins at once, three on each of two processes: exactly the cap (2) join, the others are answered 429", async () => {
    const player = await registerPlayer(two.a, "sc2");
    // a shard on each process (the matchmaker places the second on the one with fewer rooms)
    const local = await matchMaker.handleCreateRoom(WORLD_ROOM, {});
    const remote = await createRoomOnAnotherProcess(WORLD_ROOM);
    expect(matchMaker.getLocalRoomById(remote.roomId)).toBeUndefined();
    const joins = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? joinWorldById(two.a.baseUrl, player.token, local.roomId) : joinWorldById(two.child.baseUrl, player.token, remote.roomId)));
    const outcomes = await Promise.allSettled(joins);
    for (const o of outcomes) if (o.status === "fulfilled") clients.push(o.value);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(CAP);
    for (const refused of outcomes.filter((o) => o.status === "rejected")) expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 429 });
  });
});

/**
 * Redis's MONITOR on a plain socket, its lines as Redis writes them
 * (`+<time> [<db> <client>] "<command>" "<arg>" ...`). ioredis's `monitor()` can fail its own
 * reply queue ("Command queue state error") when another client's command is monitored while
 * it starts, which it did in CI: this reads the lines and nothing else.
 */
async function monitorRedis(): Promise<{ lines: string[]; stop(): void }> {
  const url = new URL(TEST_REDIS_URL);
  const socket = net.connect(Number(url.port || 6379), url.hostname);
  const lines: string[] = [];
  let buffer = "";
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (line === "+OK") resolve();
        else lines.push(line);
      }
    });
    socket.write("MONITOR\r\n");
  });
  return { lines, stop: () => socket.destroy() };
}
