/**
 * What the failure drills share (drills.ts, rollingDrill.ts, backupDrill.ts): the scratch
 * stores, the load of explorations with every answer recorded, the turns audit. Kept apart
 * from drills.ts so the drill files import it and drills.ts imports them without a cycle.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { Redis } from "ioredis";
import { TEST_REDIS_URL } from "@game/server/test/harness";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const JWT_SECRET = "drill-secret-drill-secret-drill-secret-0123456789";
/** The drills' Redis database index (flushed before and after). */
export const DRILL_REDIS_DB = Number(process.env.DRILL_REDIS_DB ?? 13);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// A TCP proxy that can be cut and restored: a store outage for the processes behind it only.

export class CuttableProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** The store goes away: every connection is reset and new ones are refused. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    await closed;
    this.server = undefined;
  }

  /** The store is back on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}

// ---------------------------------------------------------------------------------------
// The load: explorations on both processes, matchmaking probes, every answer recorded.

export interface Answer {
  at: number;
  process: number;
  kind: "action" | "matchmake";
  status: number;
  /** the Retry-After header of the answer, if any */
  retryAfter?: string;
  /** a failure that is not `{ success: false, error, code }` (or Colyseus' `{ error }` shape) */
  badEnvelope: boolean;
}

export interface Player {
  token: string;
  countryId: number;
  countryName: string;
}

export async function request(url: string, method: string, body: unknown, token?: string, timeoutMs = 15_000): Promise<{ status: number; body: any; retryAfter?: string }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, retryAfter: res.headers.get("retry-after") ?? undefined };
  } catch {
    return { status: 0, body: undefined };
  }
}

export function envelopeOk(status: number, body: any): boolean {
  if (status >= 200 && status < 300) return true;
  if (status === 0) return true; // no answer at all (a socket cut): counted apart
  return typeof body === "object" && body !== null && body.success === false && typeof body.error === "string" && typeof body.code === "string";
}

export class Load {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly urls: string[],
    private readonly players: Player[],
    private readonly rate: number,
    /** also a matchmaking reservation (never used) every 500 ms, as the store drills do */
    private readonly matchmakingProbes = true,
  ) {}

  start(): void {
    const perPlayerInterval = (1000 * this.players.length) / this.rate;
    this.players.forEach((player, i) => {
      this.loops.push(
        (async () => {
          await sleep((perPlayerInterval * i) / this.players.length);
          let n = i;
          while (this.running) {
            const started = Date.now();
            const processIndex = n++ % this.urls.length;
            const res = await request(`${this.urls[processIndex]}/api/turns/consume`, "POST", { countryId: player.countryId, quantity: 1, actionType: "exploration" }, player.token);
            this.answers.push({ at: Date.now(), process: processIndex, kind: "action", status: res.status, retryAfter: res.retryAfter, badEnvelope: !envelopeOk(res.status, res.body) });
            await sleep(Math.max(0, perPlayerInterval - (Date.now() - started)));
          }
        })(),
      );
    });
    // Matchmaking probes: a reservation (never used), every 500 ms, alternating processes.
    if (this.matchmakingProbes)
      this.loops.push(
        (async () => {
          let n = 0;
          while (this.running) {
            const processIndex = n++ % this.urls.length;
            const res = await request(`${this.urls[processIndex]}/matchmake/joinOrCreate/world`, "POST", {}, this.players[0]!.token, 12_000);
            this.answers.push({ at: Date.now(), process: processIndex, kind: "matchmake", status: res.status, retryAfter: res.retryAfter, badEnvelope: !envelopeOk(res.status, res.body) });
            await sleep(500);
          }
        })(),
      );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

export async function registerPlayers(urls: string[], count: number): Promise<Player[]> {
  const players: Player[] = [];
  const tag = Date.now().toString(36);
  for (let i = 0; i < count; i += 1) {
    const id = `dr${tag}${i}`;
    const res = await request(`${urls[i % urls.length]}/api/auth/register`, "POST", {
      email: `${id}@example.com`,
      username: id.slice(0, 20),
      password: "secret123",
      countryName: `Drill ${id}`,
      governmentType: "monarchy",
      startingResources: {},
    });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
    players.push({ token: res.body.token, countryId: res.body.user.countryId, countryName: `Drill ${id}` });
  }
  return players;
}

export async function turnsOf(databaseUrl: string, ids: number[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ turns: string }>("SELECT coalesce(sum(turns), 0)::text AS turns FROM countries WHERE id = ANY($1::bigint[])", [ids]);
    return Number(rows[0]!.turns);
  } finally {
    await client.end();
  }
}

export async function flushRedis(): Promise<void> {
  const redis = new Redis(`${TEST_REDIS_URL}/${DRILL_REDIS_DB}`);
  await redis.flushdb();
  redis.disconnect();
}

export async function waitForRecovery(load: Load, since: number, processes: number, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const firsts: number[] = [];
    for (let p = 0; p < processes; p += 1) {
      const first = load.answers.find((a) => a.kind === "action" && a.process === p && a.status === 200 && a.at >= since);
      if (first) firsts.push(first.at);
    }
    if (firsts.length === processes) return Math.max(...firsts);
    await sleep(100);
  }
  return undefined;
}

export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", cwd: REPO_ROOT });
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}
