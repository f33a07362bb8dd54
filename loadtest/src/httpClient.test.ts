import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { JsonHttpClient, type RequestRecord } from "./httpClient.js";

const servers: net.Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/**
 * A raw HTTP server answering the first request on each connection with keep-alive and
 * resetting the connection when a second request arrives on it: the race of a server's idle
 * time-out with a client reusing the socket, made deterministic.
 */
async function resettingServer(): Promise<{ url: URL; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let requests = 0;
    socket.on("data", (chunk) => {
      if (!chunk.toString("latin1").includes("\r\n\r\n")) return;
      requests++;
      if (requests > 1) {
        socket.resetAndDestroy();
        return;
      }
      const body = JSON.stringify({ success: true, n: connections });
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), connections: () => connections };
}

describe("JsonHttpClient", () => {
  it("re-sends once on a fresh socket when a reused keep-alive socket is reset", async () => {
    const { url, connections } = await resettingServer();
    const records: RequestRecord[] = [];
    const client = new JsonHttpClient(url, { timeoutMs: 2000, maxSockets: 1, onResponse: (r) => records.push(r) });
    const first = await client.request("GET", "/api/x", { route: "/api/x" });
    const second = await client.request("GET", "/api/x", { route: "/api/x" });
    expect(first).toMatchObject({ status: 200, body: { success: true, n: 1 } });
    expect(second).toMatchObject({ status: 200, body: { success: true, n: 2 } });
    expect(client.staleSocketRetries).toBe(1);
    expect(connections()).toBe(2);
    // counted once each, like the server counts them
    expect(records).toEqual([
      { method: "GET", route: "/api/x", status: 200 },
      { method: "GET", route: "/api/x", status: 200 },
    ]);
    client.close();
  });

  it("reports refused connections and time-outs as failures, not statuses", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new JsonHttpClient(new URL(`http://127.0.0.1:${port}`), { timeoutMs: 2000, maxSockets: 1 });
    await expect(refused.request("GET", "/")).resolves.toMatchObject({ status: 0, failure: "network: ECONNREFUSED" });
    refused.close();

    const silent = net.createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const slow = new JsonHttpClient(new URL(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`), { timeoutMs: 100, maxSockets: 1 });
    await expect(slow.request("GET", "/")).resolves.toMatchObject({ status: 0, failure: "timeout" });
    slow.close();
  });
});
