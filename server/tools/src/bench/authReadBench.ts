import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * Server CPU per authenticated read: the real entry point (server/src/main.ts) in a child
 * process on the scratch database, one player registered over REST, then `requests` GETs of
 * `GET /api/country/{id}` with the owner's token from `concurrency` loops. The server's own
 * process_cpu_seconds_total (GET /metrics, METRICS_PUBLIC) before and after gives its CPU;
 * the client runs in this process and is not counted. The same number of `GET /api/health`
 * (no token, one `SELECT 1`) is the reference: what any request through the stack costs.
 */
export interface AuthReadBenchOptions {
  databaseUrl: string;
  requests: number;
  concurrency: number;
  log(line: string): void;
}

export interface CpuPerRequest {
  requests: number;
  ok: number;
  /** server CPU (user + system) per request, microseconds */
  cpuMicros: number;
  requestsPerSecond: number;
}

export interface AuthReadBenchResult {
  authenticatedRead: CpuPerRequest;
  health: CpuPerRequest;
}

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../..");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function runAuthReadBench(options: AuthReadBenchOptions): Promise<AuthReadBenchResult> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "game-bench-auth-"));
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "development", "server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: "",
      JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, "no-client"),
      TICK_ENABLED: "false",
      METRICS_PUBLIC: "true",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let waited = 0; ; waited += 200) {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`);
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (waited > 60_000) throw new Error(`server did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const tag = Date.now().toString(36);
    const registered = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `a${tag}@bench.example`, username: `a${tag}`, password: "secret123", countryName: `Bench ${tag}` }),
    });
    const { token, user } = (await registered.json()) as { token: string; user: { countryId: number } };
    if (!token) throw new Error(`registration failed: ${registered.status}`);

    const cpuSeconds = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split("\n").find((l) => l.startsWith("process_cpu_seconds_total "));
      return Number(line!.split(" ")[1]);
    };
    const fire = async (url: string, headers: Record<string, string>, count: number): Promise<number> => {
      let next = 0;
      let ok = 0;
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < count) {
            next++;
            const res = await fetch(url, { headers });
            await res.arrayBuffer();
            if (res.ok) ok++;
          }
        }),
      );
      return ok;
    };
    const measure = async (url: string, headers: Record<string, string>): Promise<CpuPerRequest> => {
      await fire(url, headers, Math.min(2_000, options.requests)); // warm-up: JIT, pools, caches
      const before = await cpuSeconds();
      const startedAt = performance.now();
      const ok = await fire(url, headers, options.requests);
      const seconds = (performance.now() - startedAt) / 1000;
      const after = await cpuSeconds();
      return { requests: options.requests, ok, cpuMicros: ((after - before) * 1e6) / options.requests, requestsPerSecond: options.requests / seconds };
    };
    const health = await measure(`${base}/api/health`, {});
    const authenticatedRead = await measure(`${base}/api/country/${user.countryId}`, { authorization: `Bearer ${token}` });
    return { authenticatedRead, health };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
