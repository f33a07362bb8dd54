/**
 * The rolling-restart drill (issue 28), `npm run drill -- rolling [--players N] [--rate R]`:
 * two server processes (the real entry point) on one Postgres database and one Redis, behind
 * a front, under load: explorations over REST through the front, every player's world room,
 * an alliance's room with an open operation and chat lines. Process one is sent SIGTERM and
 * started again on its port, then process two. Checks: every room client back in a room within
 * 5 s of its socket closing (the load tester's reconnecting rooms, loadtest/src/reconnect.ts);
 * the turns audit (none acknowledged and lost, none applied twice); no 5xx but 503 with
 * Retry-After; the alliance room shows the same open operation and chat lines afterwards.
 *
 * The front (FailoverFront below) is a TCP front on one port that hands each new connection to
 * the next process and, when that one refuses (stopped, or draining: a draining process has
 * closed its listener), to the other: what haproxy or any load balancer with health checks
 * does, in 40 lines the drill owns, so the drill and its quick test need nothing installed.
 * Each process sets PUBLIC_ADDRESS to its own address, as README's multi-process setup does:
 * matchmaking goes through the front, and the room's WebSocket to the process hosting the room.
 */
import net from "node:net";
import pg from "pg";
import { ALLIANCE_ROOM, WORLD_ROOM, AllianceMessage } from "@game/schema/messages";
import { AllianceState, WorldState } from "@game/schema/state";
import { ClientTraffic, joinRoom, type MeteredRoom } from "@game/loadtest/realtime";
import { DropLog, ReconnectingRoom } from "@game/loadtest/reconnect";
import { createTestDatabase, TEST_REDIS_URL } from "@game/server/test/harness";
import { freePort, spawnServer, waitUntilListening, type ChildServer } from "@game/server/test/childServer";
import { runMigrations } from "@game/server/db/migrate";
import { DRILL_REDIS_DB, flushRedis, JWT_SECRET, Load, registerPlayers, request, sleep, turnsOf, type Player } from "./drillKit.js";

/** A client must be back in a room within this long after its socket closed. */
const BACK_BUDGET_MS = 5_000;

/** A TCP front: each connection goes to the next backend that accepts it. */
export class FailoverFront {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private next = 0;
  port = 0;

  constructor(private readonly backendPorts: number[]) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      client.pause();
      this.sockets.add(client);
      client.on("close", () => this.sockets.delete(client));
      client.on("error", () => undefined);
      const first = this.next++ % this.backendPorts.length;
      const tryBackend = (tries: number) => {
        if (tries >= this.backendPorts.length) return client.destroy();
        const port = this.backendPorts[(first + tries) % this.backendPorts.length]!;
        const upstream = net.connect(port, "127.0.0.1");
        let connected = false;
        // refused (stopped, or draining: its listener is closed): the next backend
        upstream.once("error", () => {
          if (!connected) tryBackend(tries + 1);
        });
        upstream.once("connect", () => {
          connected = true;
          upstream.on("error", () => undefined);
          this.sockets.add(upstream);
          upstream.on("close", () => this.sockets.delete(upstream));
          client.pipe(upstream);
          upstream.pipe(client);
          client.on("close", () => upstream.destroy());
          upstream.on("close", () => client.destroy());
          client.resume();
        });
      };
      tryBackend(0);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** An alliance room's open operations and chat lines, as its state shows them. */
function allianceView(room: MeteredRoom | undefined): { operations: string[]; chat: string[] } | undefined {
  const state = room?.state as { toJSON?: () => any } | undefined;
  if (!state?.toJSON) return undefined;
  const json = state.toJSON();
  const operations = Object.values(json.operations ?? {})
    .map((op: any) => `${op.id}:${op.status}`)
    .sort();
  const lines = json.channels?.general?.messages ?? [];
  return { operations, chat: (Array.isArray(lines) ? lines : Object.values(lines)).map((m: any) => String(m.content)) };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(50);
  }
  return condition();
}

export async function rollingDrill(options: { players: number; rate: number; built?: boolean; log?: (line: string) => void }): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.players < 4) throw new Error("--players must be at least 4 (an alliance of three and a target outside it)");
  await flushRedis();
  const database = await createTestDatabase();
  const ports = [await freePort(), await freePort()];
  const front = new FailoverFront(ports);
  const servers: (ChildServer | undefined)[] = [undefined, undefined];
  const links: ReconnectingRoom[] = [];
  const drops = new DropLog(() => Date.now());
  const shutdowns: { process: number; exitCode: number | null; stoppedMs: number; restartedMs: number }[] = [];
  const start = (i: number) => {
    servers[i] = spawnServer(
      {
        DATABASE_URL: database.url,
        REDIS_URL: `${TEST_REDIS_URL}/${DRILL_REDIS_DB}`,
        JWT_SECRET,
        PUBLIC_ADDRESS: `127.0.0.1:${ports[i]}`,
        RATE_LIMIT_REGISTER_PER_HOUR: "0",
        LOG_LEVEL: "info",
      },
      ports[i]!,
      { built: options.built },
    );
    return waitUntilListening(servers[i]!);
  };
  try {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await runMigrations(pool);
    await pool.end();
    await Promise.all([start(0), start(1)]);
    const frontUrl = `http://127.0.0.1:${await front.start()}`;
    const players = await registerPlayers([frontUrl], options.players);
    const ids = players.map((p) => p.countryId);

    // The alliance: three members, an open operation against the fourth player, chat lines.
    const [owner, a, b, target] = players as [Player, Player, Player, Player];
    const created = await request(
      `${frontUrl}/api/alliance/create`,
      "POST",
      { name: `Rolling ${Date.now().toString(36)}`, tag: `R${(Date.now() % 10_000).toString(36).toUpperCase()}`.slice(0, 5), description: "", flag: { backgroundColor: "#1e3a8a", symbol: "⚔", symbolColor: "#facc15" } },
      owner.token,
    );
    if (created.status !== 201) throw new Error(`alliance: ${created.status} ${JSON.stringify(created.body)}`);
    const allianceId = created.body.allianceId as number;
    for (const member of [a, b]) {
      const invite = await request(`${frontUrl}/api/alliance/invitations`, "POST", { targetCountryName: member.countryName, message: "" }, owner.token);
      const accept = await request(`${frontUrl}/api/alliance/invitations/${invite.body?.invitationId}/accept`, "POST", {}, member.token);
      if (accept.status !== 200) throw new Error(`alliance member: ${invite.status} ${accept.status} ${JSON.stringify(accept.body)}`);
    }
    const planned = await request(
      `${frontUrl}/api/alliance/operations`,
      "POST",
      { name: "Rolling watch", operationType: "reconnaissance", targetCountryId: target.countryId, scheduledFor: Date.now() + 3_600_000, requirements: { minParticipants: 1, maxParticipants: 8, minTotalForce: 1 } },
      owner.token,
    );
    if (planned.status !== 201) throw new Error(`operation: ${planned.status} ${JSON.stringify(planned.body)}`);

    // Room clients: every player's world room, and the three members' alliance room.
    const join = async (player: Player, name: string, schema: unknown, joinOptions: Record<string, unknown>) => {
      const link = new ReconnectingRoom({
        join: () => joinRoom(frontUrl, player.token, new ClientTraffic(true), name, schema, joinOptions),
        // messages nobody here reads (own-country updates, notices) are accepted quietly
        attach: (room) => void room.onMessage("*", () => undefined),
        drops,
      });
      await link.start();
      links.push(link);
      return link;
    };
    for (const player of players) await join(player, WORLD_ROOM, WorldState, {});
    const allianceLinks: ReconnectingRoom[] = [];
    for (const member of [owner, a, b]) allianceLinks.push(await join(member, ALLIANCE_ROOM, AllianceState, { allianceId }));
    for (let i = 0; i < 3; i += 1) {
      allianceLinks[i]!.room!.send(AllianceMessage.sendChat, { channel: "general", content: `rolling line ${i}` });
      await sleep(1_200);
    }
    const allianceReady = await waitFor(() => (allianceView(allianceLinks[0]!.room)?.chat.length ?? 0) >= 3 && (allianceView(allianceLinks[0]!.room)?.operations.length ?? 0) >= 1, 5_000);
    const allianceBefore = allianceView(allianceLinks[0]!.room);
    const turnsBefore = await turnsOf(database.url, ids);
    log(`rolling drill: ${players.length} players (${links.length} room clients), ${options.rate} explorations/s through the front; alliance ready: ${allianceReady}`);

    // No matchmaking probes: their reservations are never used, and they would hold the first
    // player's seats (ROOM_SESSIONS_PER_USER); the room clients' re-joins are the matchmaking load.
    const load = new Load([frontUrl], players, options.rate, false);
    load.start();
    await sleep(3_000);
    for (const i of [0, 1]) {
      const stopping = Date.now();
      servers[i]!.process.kill("SIGTERM");
      const exitCode = await servers[i]!.exited;
      const stoppedMs = Date.now() - stopping;
      if (exitCode !== 0) log(`process ${i + 1} exited ${exitCode}; its last lines:\n${servers[i]!.log().split("\n").slice(-15).join("\n")}`);
      await servers[i]!.kill();
      await start(i);
      shutdowns.push({ process: i + 1, exitCode, stoppedMs, restartedMs: Date.now() - stopping });
      log(`process ${i + 1}: exited ${exitCode} ${stoppedMs} ms after SIGTERM, listening again after ${Date.now() - stopping} ms`);
      // The other process goes only once every client is back (as an operator would wait).
      await waitFor(() => links.every((l) => l.room !== undefined), 15_000);
      await sleep(1_000);
    }
    await sleep(2_000);
    await load.stop();
    const turnsAfter = await turnsOf(database.url, ids);
    const everyoneBack = await waitFor(() => links.every((l) => l.room !== undefined), 10_000);
    await waitFor(() => (allianceView(allianceLinks[0]!.room)?.chat.length ?? 0) >= (allianceBefore?.chat.length ?? 0), 5_000);
    const allianceAfter = allianceView(allianceLinks[0]!.room);

    const actions = load.answers.filter((x) => x.kind === "action");
    const ok = actions.filter((x) => x.status === 200).length;
    const withoutAnswer = actions.filter((x) => x.status === 0 || x.status >= 500).length;
    const spent = turnsBefore - turnsAfter;
    const byStatus: Record<string, number> = {};
    for (const x of load.answers) byStatus[`${x.kind} ${x.status}`] = (byStatus[`${x.kind} ${x.status}`] ?? 0) + 1;
    const fiveHundreds = load.answers.filter((x) => x.status >= 500 && x.status !== 503).length;
    const unavailableWithoutRetryAfter = load.answers.filter((x) => x.status === 503 && !x.retryAfter).length;
    const summary = drops.summary();
    const late = drops.records.filter((r) => r.backAt === undefined || r.backAt - r.closedAt > BACK_BUDGET_MS).length;
    const checks = {
      "both processes exit 0 on SIGTERM": shutdowns.every((s) => s.exitCode === 0),
      "every room client's socket closed and came back": summary.total >= links.length && everyoneBack,
      "every client back in a room within 5 s of its socket closing": late === 0,
      "no action lost": spent >= ok,
      "no action applied twice": spent <= ok + withoutAnswer,
      "no 5xx other than 503": fiveHundreds === 0,
      "every 503 with Retry-After": unavailableWithoutRetryAfter === 0,
      "the alliance room's open operation and chat intact": allianceReady && JSON.stringify(allianceAfter) === JSON.stringify(allianceBefore),
    };
    return {
      drill: "rolling",
      front: "TCP failover front (FailoverFront), PUBLIC_ADDRESS per process",
      entry: options.built ? "server/dist/main.js" : "server/src/main.ts (tsx)",
      players: players.length,
      roomClients: links.length,
      rate: options.rate,
      shutdowns,
      drops: summary,
      rejoinRequestMs: (() => {
        const joins = drops.records.map((r) => r.joinMs ?? 0).sort((x, y) => x - y);
        return { p50: joins[Math.floor(joins.length / 2)] ?? null, max: joins[joins.length - 1] ?? null };
      })(),
      answers: byStatus,
      actionsOk: ok,
      actionsWithoutAnswer: withoutAnswer,
      turnsSpent: spent,
      fiveHundreds,
      unavailableWithoutRetryAfter,
      allianceBefore,
      allianceAfter,
      checks,
      passed: Object.values(checks).every(Boolean),
    };
  } finally {
    for (const link of links) link.stop();
    await Promise.all(links.map((l) => (l.room ? Promise.race([l.room.leave(true).catch(() => undefined), sleep(2_000)]) : undefined)));
    await front.stop();
    await Promise.all(servers.map((s) => s?.kill()));
    await database.drop().catch(() => undefined);
    await flushRedis().catch(() => undefined);
  }
}
