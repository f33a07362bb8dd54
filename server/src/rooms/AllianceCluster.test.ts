import "@colyseus/testing";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { matchMaker } from "@colyseus/core";
import { ALLIANCE_ROOM, ALLIANCE_ROOM_CLOSE_NOT_MEMBER, AllianceMessage } from "@game/schema/messages";
import { apiRequest, registerPlayer, startTestServer, TEST_REDIS_URL, type TestServer } from "../test/harness.js";
import { CHILD_HOOK_TIMEOUT_MS, CHILD_START_TIMEOUT_MS } from "../test/childServer.js";
import { eventually } from "../test/worldClients.js";
import { joinAlliance, type AllianceTestClient } from "../test/allianceClients.js";
import { buildAlliance } from "../test/alliances.js";

/**
 * Two server processes on one Redis and one Postgres, as in WorldCluster.test.ts: the second
 * is the real entry point in a child process. joinOrCreate with filterBy finds an alliance's
 * one room from either process; and even two rooms of one alliance (a race the matchmaker
 * could lose) show the same state, because both are fed only by Postgres and the alliance's
 * events over Redis.
 */

const REDIS_DB = 12;
const JWT_SECRET = "alliance-cluster-secret-alliance-cluster-0123456789";
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

let a: TestServer;
let child: ChildProcess | undefined;
let childUrl: string;
let childLog = "";
const clients: AllianceTestClient[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
  const [portA, portB] = [await freePort(), await freePort()];
  a = await startTestServer({ redisDb: REDIS_DB, port: portA, publicAddress: `127.0.0.1:${portA}`, jwtSecret: JWT_SECRET });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-alliance-cluster-"));
  child = spawn(process.execPath, ["--import", "tsx", "--conditions", "development", "server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(portB),
      PUBLIC_ADDRESS: `127.0.0.1:${portB}`,
      DATABASE_URL: a.databaseUrl,
      REDIS_URL: `${TEST_REDIS_URL}/${REDIS_DB}`,
      JWT_SECRET,
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, "no-client"),
      TICK_ENABLED: "false",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  process.once("exit", () => child?.kill("SIGKILL"));
  child.stdout!.on("data", (d) => (childLog += d));
  child.stderr!.on("data", (d) => (childLog += d));
  // the log as it is when the wait ends, not when it starts
  await eventually(() => childLog.includes("game server listening"), "the second process to listen", CHILD_START_TIMEOUT_MS).catch((err: Error) => {
    throw new Error(`${err.message}; its log:\n${childLog}`);
  });
  childUrl = `http://127.0.0.1:${portB}`;
}, CHILD_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.leave()));
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  await a?.close();
  const redis = new Redis(`${TEST_REDIS_URL}/${REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
});

async function join(baseUrl: string, token: string, allianceId: number, roomId?: string) {
  const c = await joinAlliance(baseUrl, token, allianceId, roomId);
  clients.push(c);
  return c;
}

const operationNames = (c: AllianceTestClient) =>
  Object.values(c.json().operations ?? {})
    .map((o: any) => `${o.name}:${o.readiness}:${o.confirmedCount}`)
    .sort();

describe("alliance rooms on two processes, one Redis, one Postgres", () => {
  it("joinOrCreate from either process finds the alliance's one room; two rooms of one alliance still show the same state", async () => {
    const [owner, manager, member, target] = await Promise.all(["co", "cm", "ce", "ct"].map((p) => registerPlayer(a, p)));
    const alliance = await buildAlliance(a, owner!, [manager!], [member!]);

    const onA = await join(a.baseUrl, owner!.token, alliance.id);
    const viaB = await join(childUrl, member!.token, alliance.id);
    expect(viaB.room.roomId).toBe(onA.room.roomId);

    // A second room of the same alliance (what a lost creation race would leave): created by
    // the server (clients may not create alliance rooms) on the process with fewer rooms, so
    // the two rooms live on the two processes.
    // The matchmaker picks the process with the fewest rooms from the stats each process
    // persists: wait until both have reported (process one with its room), or it may pick one.
    for (let i = 0; ; i++) {
      const processes = await matchMaker.stats.fetchAll();
      if (processes.length >= 2 && processes.some((p) => p.roomCount >= 1) && processes.some((p) => p.roomCount === 0)) break;
      if (i > 100) throw new Error(`the matchmaker's stats never showed both processes: ${JSON.stringify(processes)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const created = await matchMaker.createRoom(ALLIANCE_ROOM, { allianceId: alliance.id });
    const second = await join(childUrl, manager!.token, alliance.id, created.roomId);
    expect(second.room.roomId).not.toBe(onA.room.roomId);
    expect(Boolean(matchMaker.getLocalRoomById(second.room.roomId))).not.toBe(Boolean(matchMaker.getLocalRoomById(onA.room.roomId)));

    // An operation planned over REST on process two, joined in the room on process one.
    await a.server.database.pool.query("UPDATE countries SET troops = 9000 WHERE id = $1", [member!.countryId]);
    const planned = await apiRequest(
      childUrl,
      "POST",
      "/alliance/operations",
      { name: "Twin Strike", operationType: "reconnaissance", targetCountryId: target!.countryId, scheduledFor: Date.now() + 60_000, requirements: { minParticipants: 1, maxParticipants: 3, minTotalForce: 9000 } },
      manager!.token,
    );
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    viaB.room.send(AllianceMessage.respondOperation, { operationId: planned.body.operationId, response: "join", contribution: { troops: 9000 } });
    for (const c of [onA, viaB, second]) await eventually(() => operationNames(c).includes("Twin Strike:Ready to Launch:1"), "every room to show the ready operation");

    // Chat in one room shows in the other, leadership only to leaders.
    onA.room.send(AllianceMessage.sendChat, { channel: "leadership", content: "only for leaders" });
    await eventually(() => second.json().leadership?.channels?.leadership?.messages?.some((m: any) => m.content === "only for leaders"), "the manager on process two");
    expect(JSON.stringify(viaB.json())).not.toContain("only for leaders");

    // Same members, header and operations everywhere.
    const view = (c: AllianceTestClient) => ({ header: c.json().header, members: Object.keys(c.json().members).sort(), operations: operationNames(c) });
    await eventually(() => JSON.stringify(view(onA)) === JSON.stringify(view(second)), "the two rooms to agree");

    // A kick over REST on process one closes the manager's connection to the second room wherever it runs.
    const kicked = await apiRequest(a.baseUrl, "POST", "/alliance/kick", { countryId: manager!.countryId }, owner!.token);
    expect(kicked.status).toBe(200);
    await eventually(() => second.leftWith() === ALLIANCE_ROOM_CLOSE_NOT_MEMBER, "the kicked manager's connection to the other room to close", 2_000);
  });
});
