import { afterAll, beforeAll } from "vitest";
import { Redis } from "ioredis";
import { matchMaker } from "@colyseus/core";
import { startTestServer, TEST_REDIS_URL, type TestServer } from "./harness.js";
import { CHILD_HOOK_TIMEOUT_MS, spawnServer, waitUntilListening, type ChildServer } from "./childServer.js";
import { eventually, type WorldTestClient } from "./worldClients.js";

/**
 * Two server processes on one Redis database and one Postgres, for the tests of what crosses
 * processes (sessions, seats): `a` runs in this test process (its matchmaker is at hand), `child`
 * is the real entry point in a process of its own. Both share the JWT secret and the per-user
 * room-session cap; the Redis database is flushed before and after.
 */
export interface TwoProcesses {
  a: TestServer;
  child: ChildServer;
  /** stops both and flushes the Redis database (each test leaves its own room clients first) */
  close(): Promise<void>;
}

export interface TwoProcessOptions {
  /** the Redis database of this test file alone */
  redisDb: number;
  jwtSecret: string;
  /** ROOM_SESSIONS_PER_USER on both */
  roomSessionsPerUser: number;
}

async function flushRedisDb(db: number): Promise<void> {
  const redis = new Redis(`${TEST_REDIS_URL}/${db}`);
  await redis.flushdb();
  redis.disconnect();
}

export async function startTwoProcesses({ redisDb, jwtSecret, roomSessionsPerUser }: TwoProcessOptions): Promise<TwoProcesses> {
  await flushRedisDb(redisDb);
  // both listen on port 0 and advertise the port they bound (server/src/publicAddress.ts)
  const a = await startTestServer({ redisDb, publicAddress: "127.0.0.1:0", jwtSecret, roomSessionsPerUser });
  const child = spawnServer({
    DATABASE_URL: a.databaseUrl,
    REDIS_URL: `${TEST_REDIS_URL}/${redisDb}`,
    JWT_SECRET: jwtSecret,
    PUBLIC_ADDRESS: "127.0.0.1:0",
    ROOM_SESSIONS_PER_USER: String(roomSessionsPerUser),
    RATE_LIMIT_REGISTER_PER_HOUR: "0",
  });
  try {
    await waitUntilListening(child);
  } catch (err) {
    await child.kill();
    await a.close();
    throw err;
  }
  return {
    a,
    child,
    async close() {
      await child.kill();
      await a.close();
      await flushRedisDb(redisDb);
    },
  };
}

/** What useTwoProcesses hands a test file: `a` and `child` are set once its beforeAll has run. */
export interface TwoProcessHandles {
  a: TestServer;
  child: ChildServer;
  /** room clients the tests opened: left (failures ignored) before the processes stop */
  clients: WorldTestClient[];
}

/**
 * startTwoProcesses for a whole test file: registers the beforeAll that starts both processes
 * and the afterAll that leaves the file's clients and stops them.
 */
export function useTwoProcesses(options: TwoProcessOptions): TwoProcessHandles {
  let processes: TwoProcesses | undefined;
  const handles = { clients: [] } as unknown as TwoProcessHandles;
  beforeAll(async () => {
    processes = await startTwoProcesses(options);
    handles.a = processes.a;
    handles.child = processes.child;
  }, CHILD_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(handles.clients.map((c) => c.leave().catch(() => undefined)));
    await processes?.close();
  });
  return handles;
}

/**
 * Waits until the room counts the matchmaker places rooms by show another process with fewer
 * rooms than this one. Each process writes its count to Redis at most once a second (Colyseus's
 * stats.persist; this process's own count is exact): a room made here just before, or one the
 * other process disposed a moment ago, may not show yet.
 */
export async function untilAnotherProcessHasFewerRooms(): Promise<void> {
  await eventually(async () => {
    const processes = await matchMaker.stats.fetchAll();
    return processes.some((p) => p.processId !== matchMaker.processId && p.roomCount < matchMaker.stats.local.roomCount);
  }, "the matchmaker's room counts to show another process with fewer rooms than this one");
}

/**
 * Creates a room with the matchmaker's own placement (server/src/rooms/index.ts,
 * processForNewRoom: the process with the fewest rooms) once the counts say another process
 * has fewer, so the room lands there: asked at once, the placement fell on this process in 2 of
 * 18 runs of the cross-process loop (stop 35). Answers the listing.
 */
export async function createRoomOnAnotherProcess(roomName: string, options: Record<string, unknown> = {}) {
  await untilAnotherProcessHasFewerRooms();
  return matchMaker.createRoom(roomName, options);
}
