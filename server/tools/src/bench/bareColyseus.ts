/**
 * The reference the world room is measured against (issue 29): a bare Colyseus 0.18 server of
 * the same versions as the game (@colyseus/core, ws-transport, schema; local presence), with
 * one room holding what such a room typically holds: a small map of the players in it and an
 * array of the last chat lines, sent as state patches at Colyseus' default rate (50 ms). No
 * authentication, no database, no events: whatever the world room costs beyond this is the
 * game's own. `idleClients.ts` runs it beside the game with the same clients.
 *
 *   BARE_PORT        the port to listen on
 *   BARE_SHARD_SIZE  clients per room (joinOrCreate opens another when one is full)
 */
import { WebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

import http from "node:http";
import { LocalDriver, LocalPresence, Room, Server, type Client } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { schema, t } from "@colyseus/schema";

/** The room's name, for the bench's clients. */
export const BARE_ROOM = "bare";
/** Chat lines the state keeps (as the world's channels kept, CHAT_RECENT_MESSAGES). */
const BARE_CHAT_LINES = 50;

const BarePlayer = schema({ name: t.string().default("") }, "BarePlayer");
const BareLine = schema({ sender: t.string().default(""), content: t.string().default(""), at: t.number().default(0) }, "BareLine");
export const BareState = schema({ players: t.map(BarePlayer), chat: t.array(BareLine) }, "BareState");

class BareRoom extends Room<{ state: InstanceType<typeof BareState> }> {
  state = new BareState();
  maxMessagesPerSecond = 20;

  onCreate(options: { shardSize: number }): void {
    this.maxClients = options.shardSize;
    this.onMessage("sendChat", (client: Client, payload: { content?: unknown }) => {
      this.state.chat.push(new BareLine({ sender: client.sessionId, content: String(payload?.content ?? "").slice(0, 500), at: Date.now() }));
      while (this.state.chat.length > BARE_CHAT_LINES) this.state.chat.shift();
    });
  }

  onJoin(client: Client): void {
    this.state.players.set(client.sessionId, new BarePlayer({ name: `player ${client.sessionId}` }));
  }

  onLeave(client: Client): void {
    this.state.players.delete(client.sessionId);
  }
}

async function main(): Promise<void> {
  const port = Number(process.env.BARE_PORT ?? 2599);
  const shardSize = Number(process.env.BARE_SHARD_SIZE ?? 500);
  const httpServer = http.createServer();
  // The same transport settings as the game's (server.ts).
  const transport = new WebSocketTransport({ server: httpServer, pingInterval: 10_000, pingMaxRetries: 3 });
  const gameServer = new Server({ transport, presence: new LocalPresence(), driver: new LocalDriver(), greet: false });
  gameServer.define(BARE_ROOM, BareRoom, { shardSize });
  await gameServer.listen(port);
  process.stdout.write(`bare colyseus listening on ${port}\n`);
  process.once("SIGTERM", () => void gameServer.gracefullyShutdown(true));
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
