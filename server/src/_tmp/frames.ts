import { WebSocket } from "ws";
(globalThis as any).WebSocket ??= WebSocket;
import { Writable } from "node:stream";
import pino from "pino";
import { registerPlayer, startTestServer } from "../test/harness.js";
import { loadConfig } from "../config.js";
import { startGameServer } from "../server.js";
import { joinWorld } from "../test/worldClients.js";
const lines: string[] = [];
const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
const t = await startTestServer({});
await t.server.close();
const server = await startGameServer(loadConfig({ port: 0, databaseUrl: t.databaseUrl, jwtSecret: "test-secret-test-secret-test-secret-0123456789", tickEnabled: false, rateLimitRegisterPerHour: 0, clientDir: "/nonexistent" }), { logger: pino({ level: "info" }, sink) });
const base = `http://127.0.0.1:${server.port}`;
const p = await registerPlayer({ api: (m: string, pth: string, b?: unknown, tok?: string) => fetch(`${base}/api${pth}`, { method: m, headers: { "content-type": "application/json", ...(tok ? { authorization: `Bearer ${tok}` } : {}) }, body: b === undefined ? undefined : JSON.stringify(b) }).then(async (r) => ({ status: r.status, body: await r.json() })) } as any, "fr");
const kinds: Record<string, (ws: any) => void> = {
  garbage: (ws) => ws.send(Buffer.from([0xff, 0xfe, 0x01, 0x02])),
  badMsgpack: (ws) => ws.send(Buffer.from([13, 0xa4, 0x63, 0x68, 0x61, 0x74, 0xc1, 0xc1])),
  truncated: (ws) => ws.send(Buffer.from([13, 0xd9])),
  text: (ws) => ws.send("hello"),
  oversized: (ws) => ws.send(Buffer.alloc(10_000, 1)),
  empty: (ws) => ws.send(Buffer.alloc(0)),
};
for (const [name, send] of Object.entries(kinds)) {
  const c = await joinWorld(base, p.token);
  const before = lines.length;
  const ws = (c.room as any).connection.transport.ws;
  send(ws);
  await new Promise((r) => setTimeout(r, 500));
  console.log(`=== ${name}: ${lines.length - before} lines`);
  for (const l of lines.slice(before)) { const j = JSON.parse(l); console.log(j.level, (j.msg ?? "").slice(0, 200).replace(/\n/g, " | "), j.err ? "ERR:" + String(j.err.message).slice(0, 100) : ""); }
  await c.leave();
}
const before = lines.length;
for (const [path, body] of [["/matchmake/joinOrCreate/world", "{bad"], ["/api/auth/login", "{bad"], ["/matchmake/joinOrCreate/nope", "{}"], ["/matchmake/create/world", "{}"]]) {
  const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body });
  console.log(path, r.status, (await r.text()).slice(0, 120));
}
await new Promise((r) => setTimeout(r, 300));
for (const l of lines.slice(before)) { const j = JSON.parse(l); console.log(j.level, (j.msg ?? "").slice(0, 200).replace(/\n/g, " | ")); }
await server.close();
await t.close().catch(() => {});
process.exit(0);
