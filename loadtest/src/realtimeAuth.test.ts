import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientTraffic, joinRoom } from "./realtime.js";

/**
 * A stand-in matchmaker: answers the matchmaking request with a seat reservation and records
 * the request's Authorization header and the URL the WebSocket then asks for (refused).
 */
let server: http.Server;
let baseUrl: string;
const seen = { auth: [] as (string | undefined)[], upgrades: [] as string[] };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.auth.push(req.headers.authorization);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ name: "world", sessionId: "s1", roomId: "room1", processId: "proc1" }));
  });
  server.on("upgrade", (req, socket) => {
    seen.upgrades.push(req.url ?? "");
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("finding 10: the JWT never appears in the WebSocket URL", () => {
  it("the load tester's join sends the token in the matchmaking request's header only; the socket URL carries none", async () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNlY3JldA";
    await expect(joinRoom(baseUrl, token, new ClientTraffic(false), "world")).rejects.toBeDefined();
    expect(seen.auth).toEqual([`Bearer ${token}`]);
    expect(seen.upgrades).toHaveLength(1);
    const url = new URL(seen.upgrades[0]!, baseUrl);
    expect(url.pathname).toBe("/proc1/room1");
    expect([...url.searchParams.keys()].filter((k) => k !== "sessionId")).toEqual([]);
    expect(seen.upgrades[0]).not.toContain(token.split(".")[2]!);
  });
});
