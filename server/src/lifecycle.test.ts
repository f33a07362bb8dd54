import "@colyseus/testing";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Client } from "@colyseus/sdk";
import { WORLD_ROOM } from "@game/schema/messages";
import { WorldState } from "@game/schema/state";
import { apiRequest, createTestDatabase, newPlayer, type TestDatabase } from "./test/harness.js";
import { CHILD_HOOK_TIMEOUT_MS, listeningPort, spawnServer, waitUntilListening, type ChildServer } from "./test/childServer.js";
import { eventually } from "./test/worldClients.js";

/**
 * The real entry point (server/src/main.ts) in a child process: how it starts, fails to start
 * and stops. Issue 15, finding 12.
 */

const JWT_SECRET = "lifecycle-secret-lifecycle-secret-0123456789";

let database: TestDatabase;
let child: ChildServer | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await child?.kill();
  child = undefined;
});
afterAll(async () => {
  await database?.drop();
});

/** Waits for the child's exit; the code and the ms it took from `since`, or a failure after `limitMs`. */
async function exitWithin(server: ChildServer, since: number, limitMs: number): Promise<{ code: number | null; ms: number }> {
  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), limitMs));
  const code = await Promise.race([server.exited, timeout]);
  if (code === "timeout") throw new Error(`still running after ${limitMs} ms; log:\n${server.log()}`);
  return { code, ms: performance.now() - since };
}

describe("finding 12: a failed start exits non-zero at once; SIGTERM drains and exits 0", () => {
  it("a server started on a port already in use exits 1 within seconds, saying why", async () => {
    // a port held on purpose: the blocker binds port 0 and the child is given the port it got
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const started = performance.now();
      child = spawnServer({ DATABASE_URL: database.url, JWT_SECRET }, port);
      // the budget covers tsx compiling the server and the migrations; the old server never exited
      const { code } = await exitWithin(child, started, 30_000);
      expect(code).toBe(1);
      expect(child.log()).toMatch(/EADDRINUSE/);
      expect(child.log()).toMatch(/server failed to start/);
      expect(child.log()).not.toMatch(/game server listening/);
    } finally {
      blocker.close();
    }
  });

  it(
    "PORT=0: the server binds a port the system picks, logs it, and a PUBLIC_ADDRESS of host:0 names that port in seat reservations",
    async () => {
      child = spawnServer({ DATABASE_URL: database.url, JWT_SECRET, RATE_LIMIT_REGISTER_PER_HOUR: "0", PORT: "0", PUBLIC_ADDRESS: "127.0.0.1:0" });
      await waitUntilListening(child);
      const port = listeningPort(child.log())!;
      expect(port).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      const player = await apiRequest(child.baseUrl, "POST", "/auth/register", newPlayer("zero"));
      expect(player.status).toBe(201);
      const reserved = await fetch(`${child.baseUrl}/matchmake/joinOrCreate/${WORLD_ROOM}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${player.body.token}` },
        body: "{}",
      });
      expect(reserved.status).toBe(200);
      expect(((await reserved.json()) as { publicAddress?: string }).publicAddress).toBe(`127.0.0.1:${port}`);
    },
    CHILD_HOOK_TIMEOUT_MS,
  );

  it("one SIGTERM stops accepting, finishes in-flight requests, closes room sessions and the pool, and exits 0 within 10 s", async () => {
    child = spawnServer({ DATABASE_URL: database.url, JWT_SECRET, RATE_LIMIT_REGISTER_PER_HOUR: "0" });
    await waitUntilListening(child);
    const { port, baseUrl: base } = child;

    // a player in the world room
    const player = await apiRequest(base, "POST", "/auth/register", newPlayer("stay"));
    expect(player.status).toBe(201);
    const sdk = new Client(base);
    sdk.auth.token = player.body.token;
    const room = await sdk.joinOrCreate(WORLD_ROOM, {}, WorldState);
    let leftWith: number | undefined;
    room.onLeave((code: number) => (leftWith = code));
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    // the file's tests share one database: the earlier ones registered players of their own
    const countriesOfPlayers = async () => (await pool.query("SELECT count(*)::int AS n FROM users u JOIN countries c ON c.user_id = u.id")).rows[0].n as number;
    try {
      await eventually(async () => (await pool.query("SELECT count(*)::int AS n FROM online_sessions")).rows[0].n === 1, "the session recorded");
      const before = await countriesOfPlayers();

      // requests in flight: registrations wait for argon2 on a pool of 4 threads
      const inFlight = Array.from({ length: 8 }, (_, i) => apiRequest(base, "POST", "/auth/register", newPlayer(`inflight${i}x`)));
      await Promise.race(inFlight); // the first answered: the other seven are still being hashed
      const signalledAt = performance.now();
      child.process.kill("SIGTERM");

      const answers = await Promise.all(inFlight);
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
      await eventually(() => child!.log().includes("shutting down"), "the shutdown to start");
      // no longer accepting new connections (open keep-alive ones are closed once idle)
      const refused = await new Promise<string>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.once("connect", () => (socket.destroy(), resolve("connected")));
        socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
      });
      expect(refused).toBe("ECONNREFUSED");

      const { code, ms } = await exitWithin(child, signalledAt, 10_000);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      // "shut down" is logged once close() resolved: connections drained, Redis and the pool closed
      expect(child.log().indexOf('"msg":"shut down"')).toBeGreaterThan(child.log().indexOf('"msg":"shutting down"'));
      // the room told its client and ran onLeave while the database was still open
      expect(leftWith).toBeDefined();
      expect((await pool.query("SELECT count(*)::int AS n FROM online_sessions")).rows[0].n).toBe(0);
      // every registration that answered 201 is there, with its country
      expect(await countriesOfPlayers()).toBe(before + 8);
    } finally {
      await pool.end();
    }
  });
});
