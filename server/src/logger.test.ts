import "@colyseus/testing";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { unpack } from "msgpackr";
import { registerPlayer, startTestServer, type TestServer } from "./test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "./test/worldClients.js";
import { clientMistake } from "./logger.js";

/** Every line the server logs, parsed. */
const lines: Array<{ level: number; msg?: string; reason?: string; component?: string }> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestServer;
const clients: WorldTestClient[] = [];
beforeAll(async () => {
  t = await startTestServer({ logger: pino({ level: "info" }, sink) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.leave()));
  await t?.close();
});

const WARN = 40;
const ERROR = 50;
const hasStack = (text = "") => /\n\s+at /.test(text);

/** The raw WebSocket under an SDK room, to send bytes no well-behaved client would. */
const rawSocket = (client: WorldTestClient) => (client.room as unknown as { connection: { transport: { ws: { send(data: unknown): void } } } }).connection.transport.ws;

describe("finding 11: client mistakes are logged at warn without stacks; errors are for our faults", () => {
  it("recognises the WebSocket library's and the MessagePack decoder's refusals, and nothing else", () => {
    let decodeError: unknown;
    try {
      unpack(Buffer.from([0xa4, 0x63, 0x68, 0xc1]));
    } catch (err) {
      decodeError = err;
    }
    expect(clientMistake((decodeError as Error).stack!)).toBeDefined();
    const ws = new RangeError("Max payload size exceeded");
    expect(clientMistake(`${ws.message}\n${ws.stack}`)).toBe("Max payload size exceeded");
    expect(clientMistake("Invalid WebSocket frame: invalid opcode 7\nRangeError: ...")).toBe("Invalid WebSocket frame: invalid opcode 7");
    // our own faults stay errors
    expect(clientMistake(new Error("onLeave error").stack!)).toBeUndefined();
    expect(clientMistake("Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle")).toBeUndefined();
    expect(clientMistake("error during shutdown: boom")).toBeUndefined();
  });

  it("an undecodable room message and an oversized frame each log one warn line without a stack, no error", async () => {
    const p = await registerPlayer(t, "frames");
    const before = lines.length;
    for (const frame of [Buffer.from([13, 0xa4, 0x63, 0x68, 0x61, 0x74, 0xc1, 0xc1]), Buffer.alloc(64 * 1024, 1)]) {
      const client = await joinWorld(t.baseUrl, p.token);
      clients.push(client);
      rawSocket(client).send(frame);
      await eventually(() => lines.slice(before).filter((l) => l.level === WARN).length === clients.length, "the warning");
    }
    const logged = lines.slice(before);
    expect(logged.filter((l) => l.level >= ERROR)).toEqual([]);
    const warnings = logged.filter((l) => l.level === WARN);
    expect(warnings.map((l) => l.msg)).toEqual(["client sent a malformed WebSocket frame", "client sent a malformed WebSocket frame"]);
    expect(warnings[1]!.reason).toBe("Max payload size exceeded");
    for (const l of warnings) expect(hasStack(JSON.stringify(l))).toBe(false);
    expect(t.server.ctx.metrics.roomMessagesRejected.get({ reason: "frame/malformed" })).toBe(2);
  });

  it("bad JSON bodies, REST and matchmaking, answer 400 and log no error", async () => {
    const before = lines.length;
    const rest = await t.api("POST", "/auth/login", "{not json");
    expect(rest).toMatchObject({ status: 400, body: { success: false, error: "Malformed JSON body" } });
    const matchmake = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/world`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(matchmake.status).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.slice(before).filter((l) => l.level >= ERROR)).toEqual([]);
  });
});
