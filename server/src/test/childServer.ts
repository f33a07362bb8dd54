import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

/** A server process started from the real entry point (server/src/main.ts). */
export interface ChildServer {
  process: ChildProcess;
  /** the port it listens on: known once waitUntilListening resolved (it may have bound port 0) */
  readonly port: number;
  /** http://127.0.0.1:<port>, known once waitUntilListening resolved */
  readonly baseUrl: string;
  /** everything it wrote to stdout and stderr so far */
  log(): string;
  /** resolves with the exit code (null when killed by a signal) */
  exited: Promise<number | null>;
  /** SIGKILLs it if still running and removes its data folder */
  kill(): Promise<void>;
}

/**
 * A port nothing listens on right now. Not for a server that a test starts: another process can
 * take the port before the server binds it (a child died with EADDRINUSE so in the cluster loop,
 * issue 29); a server listens on port 0 and says its port instead (spawnServer). Kept for
 * programs that cannot (redis-server, a port held on purpose).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `server/src/main.ts` (tsx, development conditions; `built`: server/dist/main.js) with `env` on top of a test
 * environment: port 0 (the system picks one at the bind; waitUntilListening reads it from the
 * "game server listening" line) unless a port is given, its own data folder, no client, tick
 * off, info logs. A process that other processes send clients to gets PUBLIC_ADDRESS
 * `127.0.0.1:0` in `env`: the address of the port it bound.
 */
export function spawnServer(env: Record<string, string>, port = 0, options: { built?: boolean } = {}): ChildServer {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-child-"));
  let output = "";
  // built: the compiled entry point (`npm run build` first), as production runs it, without tsx's start-up compile
  const entry = options.built ? ["--enable-source-maps", "server/dist/main.js"] : ["--import", "tsx", "--conditions", "development", "server/src/main.ts"];
  // e.g. CHILD_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the drills'
  // server processes (Node refuses --cpu-prof in NODE_OPTIONS)
  const nodeArgs = (process.env.CHILD_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, "no-client"),
      TICK_ENABLED: "false",
      LOG_LEVEL: "info",
      REDIS_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const boundPort = () => {
    const bound = listeningPort(output) ?? (port || undefined);
    if (bound === undefined) throw new Error("the child server's port is known once it listens (waitUntilListening)");
    return bound;
  };
  return {
    process: child,
    get port() {
      return boundPort();
    },
    get baseUrl() {
      return `http://127.0.0.1:${boundPort()}`;
    },
    log: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      process.removeListener("exit", killOnExit);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM, as an orchestrator stops a process, then SIGKILL after `graceMs` if it is still running; removes its data folder. */
export async function stopGracefully(child: ChildServer, graceMs = 10_000): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill("SIGTERM");
    await Promise.race([child.exited, new Promise((r) => setTimeout(r, graceMs))]);
  }
  await child.kill();
}

/**
 * How long a child server may take to start: tsx loading server/src on a starved machine (the
 * helpers' idle CPU group at load 25 on 2 cores) took more than 60 s with nothing logged yet
 * (issue 29, the cluster loop), and more than 150 s in the loop's second pass (runs of 33-36
 * minutes, vitest's import alone 1,240-1,310 s; the last file's child logged nothing in 150 s in
 * all three lanes at once). A hook that starts one gives it this plus its own work.
 */
export const CHILD_START_TIMEOUT_MS = 300_000;
/** beforeAll timeout of a file that starts a child server besides a test server */
export const CHILD_HOOK_TIMEOUT_MS = CHILD_START_TIMEOUT_MS + 90_000;

/** The port on a server log's "game server listening" line (pino JSON, server.ts), if it has one yet. */
export function listeningPort(log: string): number | undefined {
  for (const line of log.split("\n")) {
    if (!line.includes('"game server listening"')) continue;
    let port: unknown;
    try {
      ({ port } = JSON.parse(line) as { port?: unknown });
    } catch {
      continue; // the line is still being written
    }
    if (typeof port === "number" && port > 0) return port;
  }
  return undefined;
}

/**
 * Resolves once the child logged that it listens (with the port it bound); rejects if it exits
 * first or after `timeoutMs`, with the log as it is then.
 */
export async function waitUntilListening(child: ChildServer, timeoutMs = CHILD_START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (listeningPort(child.log()) === undefined) {
    if (child.process.exitCode !== null) throw new Error(`the server exited with ${child.process.exitCode}:\n${child.log()}`);
    if (Date.now() > deadline) throw new Error(`the server did not listen within ${timeoutMs} ms:\n${child.log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
