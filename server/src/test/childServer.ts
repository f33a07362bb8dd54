import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

/** A server process started from the real entry point (server/src/main.ts). */
export interface ChildServer {
  process: ChildProcess;
  port: number;
  baseUrl: string;
  /** everything it wrote to stdout and stderr so far */
  log(): string;
  /** resolves with the exit code (null when killed by a signal) */
  exited: Promise<number | null>;
  /** SIGKILLs it if still running and removes its data folder */
  kill(): Promise<void>;
}

/** A port nothing listens on right now. */
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
 * environment: the given port, its own data folder, no client, tick off, info logs.
 */
export function spawnServer(env: Record<string, string>, port: number, options: { built?: boolean } = {}): ChildServer {
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
  return {
    process: child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
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

/**
 * How long a child server may take to start: tsx loading server/src on a starved machine (the
 * helpers' idle CPU group at load 25 on 2 cores) took more than 60 s with nothing logged yet
 * (issue 29, the cluster loop). A hook that starts one gives it this plus its own work.
 */
export const CHILD_START_TIMEOUT_MS = 150_000;
/** beforeAll timeout of a file that starts a child server besides a test server */
export const CHILD_HOOK_TIMEOUT_MS = CHILD_START_TIMEOUT_MS + 90_000;

/** Resolves once the child logged that it listens; rejects if it exits first or after `timeoutMs`. */
export async function waitUntilListening(child: ChildServer, timeoutMs = CHILD_START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!child.log().includes("game server listening")) {
    if (child.process.exitCode !== null) throw new Error(`the server exited with ${child.process.exitCode}:\n${child.log()}`);
    if (Date.now() > deadline) throw new Error(`the server did not listen within ${timeoutMs} ms:\n${child.log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
