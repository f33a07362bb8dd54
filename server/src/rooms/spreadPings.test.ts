import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { SpreadPinger, SpreadPingTransport, type PingedSocket } from "./spreadPings.js";

/** A socket that answers pings (as a browser does) unless told not to; counts what it got. */
class Socket implements PingedSocket {
  pingCount = 0;
  pings = 0;
  terminated = false;
  constructor(private readonly answers = true) {}
  ping(): void {
    this.pings++;
    // Colyseus's pong handler resets the count
    if (this.answers) this.pingCount = 0;
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe("SpreadPinger (the keep-alive spread over its interval)", () => {
  it("pings each of 10,000 sockets once per interval, never more than its share in one turn of the loop", () => {
    const sockets = Array.from({ length: 10_000 }, () => new Socket());
    const pinger = new SpreadPinger(() => sockets, 10_000, 3, 100);
    const perTick: number[] = [];
    for (let i = 0; i < 100; i++) perTick.push(pinger.tick());
    expect(sockets.every((s) => s.pings === 1)).toBe(true);
    // Colyseus's loop wrote all 10,000 in one turn; here at most 1/100 of them
    expect(Math.max(...perTick)).toBeLessThanOrEqual(100);
    expect(perTick.reduce((a, b) => a + b, 0)).toBe(10_000);
    for (let i = 0; i < 100; i++) pinger.tick();
    expect(sockets.every((s) => s.pings === 2)).toBe(true);
  });

  it("terminates a socket that missed maxRetries pings in a row, and only that one", () => {
    const alive = Array.from({ length: 50 }, () => new Socket());
    const dead = new Socket(false);
    const sockets: Socket[] = [...alive, dead];
    const pinger = new SpreadPinger(() => sockets.filter((s) => !s.terminated), 1_000, 3, 100);
    // three rounds: three pings unanswered
    for (let i = 0; i < 30; i++) pinger.tick();
    expect(dead.pings).toBe(3);
    expect(dead.terminated).toBe(false);
    for (let i = 0; i < 10; i++) pinger.tick();
    expect(dead.terminated).toBe(true);
    expect(alive.some((s) => s.terminated)).toBe(false);
  });

  it("with fewer sockets than slices, still pings each once per interval: a socket whose pongs are late by less than the retries' time is kept", () => {
    // issue 29: a round used to start again as soon as the last one was done, so 2 sockets were
    // pinged every 2 slices (200 ms) instead of every 10 s, and one whose pongs were 300-600 ms
    // late (a starved client) was terminated: a WorldCluster client dropped under load
    const sockets = [new Socket(), new Socket()];
    const pinger = new SpreadPinger(() => sockets, 10_000, 3, 100);
    for (let i = 0; i < 100; i++) pinger.tick();
    expect(sockets.map((s) => s.pings)).toEqual([1, 1]);
    const slow = new Socket(false);
    const pinger2 = new SpreadPinger(() => [slow], 10_000, 3, 100);
    // 2 s without a pong: one ping unanswered, far from three
    for (let i = 0; i < 20; i++) pinger2.tick();
    expect(slow.terminated).toBe(false);
    expect(slow.pings).toBe(1);
    // three intervals without a pong, then the fourth ping is due: terminated
    for (let i = 0; i < 300; i++) pinger2.tick();
    expect(slow.terminated).toBe(true);
  });

  it("takes sockets that joined mid-round at the next round", () => {
    const sockets = Array.from({ length: 20 }, () => new Socket());
    const pinger = new SpreadPinger(() => sockets, 1_000, 3, 100);
    for (let i = 0; i < 5; i++) pinger.tick();
    const late = new Socket();
    sockets.push(late);
    for (let i = 0; i < 5; i++) pinger.tick();
    expect(late.pings).toBe(0);
    for (let i = 0; i < 10; i++) pinger.tick();
    expect(late.pings).toBe(1);
  });
});

describe("SpreadPingTransport", () => {
  it("turns Colyseus's all-at-once ping loop off and exposes the open sockets", async () => {
    const server = http.createServer();
    const transport = new SpreadPingTransport({ server, pingInterval: 10_000, pingMaxRetries: 3 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      // Colyseus starts its own loop on "listening" when its interval is above 0
      expect((transport as unknown as { pingInterval?: unknown }).pingInterval).toBeUndefined();
      const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
      await expect.poll(() => transport.sockets.size).toBe(1);
      ws.close();
    } finally {
      transport.shutdown();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
