/**
 * The WebSocket keep-alive's cost to the event loop, all at once (Colyseus 0.18's transport)
 * against spread over the interval (server/src/rooms/spreadPings.ts), with real sockets
 * (issue 29).
 *
 *   npx tsx server/tools/src/bench/pingStall.ts --clients 10000 --mode colyseus|spread [--seconds 35] [--interval 10000]
 *
 * Starts a ws WebSocketServer in a child process (the server: only the keep-alive runs in it),
 * opens --clients sockets to it from this process (ws answers pings by itself), then reads the
 * server's event-loop delay (monitorEventLoopDelay, 10 ms resolution) over --seconds: max and
 * p99. `colyseus` pings the way @colyseus/ws-transport 0.18 does (every socket in one loop, every
 * interval); `spread` runs the game's SpreadPinger (one slice every 100 ms).
 */
import { fork } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { WebSocket, WebSocketServer } from "ws";
import { SpreadPinger, type PingedSocket } from "@game/server/rooms/spreadPings";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const CLIENTS = Number(args.get("clients") ?? 10_000);
const MODE = args.get("mode") ?? "spread";
const SECONDS = Number(args.get("seconds") ?? 35);
const INTERVAL_MS = Number(args.get("interval") ?? 10_000);

function noop(): void {}

function serve(): void {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  wss.on("connection", (socket: WebSocket & { pingCount?: number }) => {
    socket.pingCount = 0;
    socket.on("pong", () => (socket.pingCount = 0));
  });
  wss.on("listening", () => process.send!({ port: (wss.address() as { port: number }).port }));
  process.on("message", (message: { measure?: number }) => {
    if (!message.measure) return;
    if (MODE === "colyseus") {
      setInterval(() => {
        wss.clients.forEach((client) => {
          const socket = client as WebSocket & { pingCount: number };
          if (socket.pingCount >= 3) return socket.terminate();
          socket.pingCount++;
          socket.ping(noop);
        });
      }, INTERVAL_MS);
    } else {
      const pinger = new SpreadPinger(() => wss.clients as unknown as Iterable<PingedSocket>, INTERVAL_MS, 3);
      setInterval(() => pinger.tick(), 100);
    }
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    setTimeout(() => {
      process.send!({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, p999Ms: histogram.percentile(99.9) / 1e6, clients: wss.clients.size });
      process.exit(0);
    }, message.measure * 1000);
  });
}

async function main(): Promise<void> {
  if (process.argv.includes("--serve")) return serve();
  const child = fork(new URL(import.meta.url).pathname, [...process.argv.slice(2), "--serve", "1"], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)));
  const sockets: WebSocket[] = [];
  for (let i = 0; i < CLIENTS; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, CLIENTS - i) }, async () => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
        sockets.push(ws);
        await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
      }),
    );
  }
  child.send({ measure: SECONDS });
  const result = await new Promise<Record<string, number>>((resolve) => child.on("message", (m: Record<string, number>) => "maxMs" in m && resolve(m)));
  console.log(
    JSON.stringify({
      mode: MODE,
      clients: CLIENTS,
      seconds: SECONDS,
      ...result,
      loadavg: (await import("node:os"))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" "),
    }),
  );
  for (const ws of sockets) ws.terminate();
  process.exit(0);
}

void main();
